"""Where code lives: ``config/`` is configuration only (docs/architecture.md)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG_ENTRIES = {"__init__.py", "settings", "urls.py", "celery_app.py", "wsgi.py", "asgi.py"}


def test_config_holds_only_settings_urls_celery_wsgi_and_asgi():
    entries = {p.name for p in (ROOT / "config").iterdir() if p.name != "__pycache__"}
    assert entries - CONFIG_ENTRIES == set(), "config/ is for configuration; put code in its own package"
