"""/healthz answers for the real database, Redis and worker."""

import pytest


@pytest.mark.django_db(transaction=True)
def test_healthz_reports_every_component_healthy_with_a_worker(client, celery_worker):
    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["components"]["database"] == {"ok": True, "detail": "postgresql"}
    assert body["components"]["redis"] == {"ok": True, "detail": "pong"}
    assert body["components"]["worker"]["ok"] is True
    assert "test-" in body["components"]["worker"]["detail"]


@pytest.mark.django_db
def test_healthz_is_degraded_naming_redis_when_redis_is_unreachable(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1

    response = client.get("/healthz")

    assert response.status_code == 200  # reads still answer, from the database
    body = response.json()
    assert body["status"] == "degraded"
    assert body["components"]["redis"]["ok"] is False
    assert "ConnectionError" in body["components"]["redis"]["detail"]
    assert body["components"]["worker"] == {"ok": False, "detail": "no broker"}
    assert body["components"]["database"]["ok"] is True


def test_healthz_refuses_post(client):
    assert client.post("/healthz").status_code == 405
