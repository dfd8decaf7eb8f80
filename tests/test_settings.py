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


@pytest.mark.process
def test_e_mail_links_follow_the_port_make_run_serves():
    """Issue 30: with `PORT=8123 make run`, notification e-mails linked to localhost:8000."""
    show = ("shell", "-c", "from django.conf import settings; print(settings.WEB_APP_URL)")
    clean = {k: v for k, v in os.environ.items() if k not in {"WEB_APP_URL", "PORT"}}
    for extra, expected in (
        ({"PORT": "8123"}, "http://localhost:8123"),
        ({}, "http://localhost:8000"),
        ({"PORT": "8123", "WEB_APP_URL": "https://club.example.org"}, "https://club.example.org"),
    ):
        result = subprocess.run(
            [sys.executable, "manage.py", *show],
            cwd=ROOT,
            env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings.local", **extra},
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip().splitlines()[-1] == expected
