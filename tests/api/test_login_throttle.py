"""Login throttling (api/throttling.py): per address, per account and for the whole
service, counted before the password is hashed, answered 429 with Retry-After."""

from __future__ import annotations

import itertools
from typing import Any, ClassVar

import pytest
import redis
from django.contrib.auth.hashers import MD5PasswordHasher
from django.core.cache import cache
from django.urls import reverse
from rest_framework.test import APIClient

from api.throttling import KEY_PREFIX
from tests.campaign.factories import UserFactory

pytestmark = pytest.mark.django_db
PASSWORD = "the-right-password"
addresses = (f"203.0.113.{n}" for n in itertools.count(1))


class CountingHasher(MD5PasswordHasher):
    """The test settings' hasher, counting the passwords it hashes."""

    hashed: ClassVar[int] = 0

    def encode(self, password: str, salt: str) -> str:
        CountingHasher.hashed += 1
        return super().encode(password, salt)


@pytest.fixture(autouse=True)
def throttle_counters_cleared(redis_client: redis.Redis, settings: Any) -> None:
    """Deleted by key (the Celery queues share the database); small rates for these tests."""
    for key in redis_client.scan_iter(match=cache.make_key(f"{KEY_PREFIX}:*")):
        redis_client.delete(key)
    settings.LOGIN_THROTTLE_RATES = {"address": "3/hour", "account": "5/hour", "all": "50/hour"}
    settings.PASSWORD_HASHERS = [f"{__name__}.CountingHasher"]


def log_in(username: str, password: str, address: str) -> Any:
    return APIClient().post(
        reverse("api:session"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_one_address_guessing_is_throttled_with_retry_after_and_no_hash_is_computed():
    user = UserFactory(password=PASSWORD)
    address = next(addresses)
    guesses = [log_in(user.username, f"guess {n}", address).status_code for n in range(3)]
    hashed = CountingHasher.hashed

    throttled = log_in(user.username, PASSWORD, address)  # even the right password waits
    other_account = log_in("somebody-else", "guess", address)

    assert guesses == [400, 400, 400]
    assert throttled.status_code == other_account.status_code == 429
    assert 0 < int(throttled.headers["Retry-After"]) <= 3600
    assert throttled.json()["error"]["code"] == "login_throttled"
    assert CountingHasher.hashed == hashed
    assert log_in(user.username, PASSWORD, next(addresses)).status_code == 200


def test_one_account_guessed_from_many_addresses_is_throttled():
    user = UserFactory(password=PASSWORD)

    statuses = [log_in(user.username.upper(), f"guess {n}", next(addresses)).status_code for n in range(6)]

    assert statuses == [400] * 5 + [429]


def test_the_service_wide_limit_bounds_the_hashing_work(settings):
    settings.LOGIN_THROTTLE_RATES = {"address": "3/hour", "account": "5/hour", "all": "4/day"}
    before = CountingHasher.hashed

    statuses = [log_in(f"nobody-{n}", "guess", next(addresses)).status_code for n in range(6)]

    assert statuses == [400] * 4 + [429] * 2
    assert CountingHasher.hashed - before == 4  # an unknown user is hashed too (timing)


def test_the_admin_login_is_throttled_like_the_api():
    user = UserFactory(password=PASSWORD, is_staff=True)
    address = next(addresses)
    client = APIClient()

    def admin_login(password: str) -> Any:
        body = {"username": user.username, "password": password, "next": "/admin/"}
        return client.post(reverse("admin:login"), body, REMOTE_ADDR=address)

    tries = [admin_login(f"guess {n}").status_code for n in range(3)]
    throttled = admin_login(PASSWORD)

    assert tries == [200, 200, 200]  # the form again, with its error
    assert throttled.status_code == 429
    assert int(throttled.headers["Retry-After"]) > 0
