"""docker-compose.yml structure: no Docker engine runs here, so check the file."""

from pathlib import Path

import pytest
import yaml

from config.settings.queues import messages_queues, night_queues, queue_names

COMPOSE = yaml.safe_load((Path(__file__).resolve().parent.parent / "docker-compose.yml").read_text())
APP_SERVICES = ("web", "worker", "messages-worker", "beat", "migrate")
WORKERS = ("worker", "messages-worker")


def test_services_are_the_stack():
    assert set(COMPOSE["services"]) == {"postgres", "redis", "migrate", *APP_SERVICES}


def test_the_workers_consume_every_queue_between_them():
    consumed = []
    for name in WORKERS:
        command = COMPOSE["services"][name]["command"]
        consumed += command[command.index("-Q") + 1].split(",")
    assert sorted(consumed) == sorted(queue_names("celery").values())
    assert COMPOSE["services"]["worker"]["command"][-1] == night_queues("celery")  # in its order
    assert COMPOSE["services"]["messages-worker"]["command"][-1] == messages_queues("celery")  # in its order


@pytest.mark.parametrize("name", APP_SERVICES)
def test_app_services_share_one_definition(name):
    service = COMPOSE["services"][name]
    assert service["image"] == COMPOSE["x-app"]["image"]
    assert service["environment"] == COMPOSE["x-app"]["environment"]
    for variable in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DJANGO_SETTINGS_MODULE"):
        assert variable in service["environment"]
    assert service["environment"]["DJANGO_SETTINGS_MODULE"] == "config.settings.production"


@pytest.mark.parametrize(
    ("name", "program"),
    [
        ("web", "gunicorn"),
        ("worker", "celery"),
        ("messages-worker", "celery"),
        ("beat", "celery"),
        ("migrate", "python"),
    ],
)
def test_commands(name, program):
    command = COMPOSE["services"][name]["command"]
    if name == "worker":  # nights run below the web's CPU priority (docs/scaling.md)
        assert command[:3] == ["nice", "-n", "10"]
        assert COMPOSE["services"][name]["cpu_shares"] < 1024
        command = command[3:]
    assert command[0] == program
    if name in ("worker", "beat"):
        assert command[1:4] == ["-A", "config", name]
    if name in WORKERS:
        assert command[1:4] == ["-A", "config", "worker"]


@pytest.mark.parametrize("name", ("web", *WORKERS, "beat"))
def test_long_running_services_wait_for_healthy_backends_and_one_migration(name):
    depends = COMPOSE["services"][name]["depends_on"]
    assert depends["postgres"] == {"condition": "service_healthy"}
    assert depends["redis"] == {"condition": "service_healthy"}
    assert depends["migrate"] == {"condition": "service_completed_successfully"}


def test_migrations_run_once_and_only_in_the_migrate_job():
    migrating = [
        name for name, service in COMPOSE["services"].items() if "migrate" in service.get("command", [])
    ]
    assert migrating == ["migrate"]
    assert COMPOSE["services"]["migrate"]["restart"] == "no"


@pytest.mark.parametrize("name", ("postgres", "redis", "web"))
def test_health_checks(name):
    assert COMPOSE["services"][name]["healthcheck"]["test"]


def test_data_lives_in_named_volumes():
    assert set(COMPOSE["volumes"]) == {"postgres-data", "redis-data"}
    assert COMPOSE["services"]["postgres"]["volumes"] == ["postgres-data:/var/lib/postgresql/data"]
    assert COMPOSE["services"]["redis"]["volumes"] == ["redis-data:/data"]
