"""Production settings: environment only, refuse a missing key, pass the deploy checks."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DJANGO_SETTINGS_MODULE"}}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings.production", **env},
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.process
def test_production_refuses_to_start_without_a_secret_key():
    result = manage("check")
    assert result.returncode != 0
    assert "SECRET_KEY is required" in result.stderr


@pytest.mark.process
def test_production_refuses_a_short_secret_key():
    result = manage("check", SECRET_KEY="short")
    assert result.returncode != 0
    assert "at least 50" in result.stderr


@pytest.mark.process
def test_production_passes_the_deploy_security_checks():
    result = manage(
        "check",
        "--deploy",
        "--tag",
        "security",
        "--fail-level",
        "WARNING",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="campaign.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
