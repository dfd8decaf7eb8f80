"""Login throttling (api/throttling.py): per address, per account and for the whole
service, counted before the password is hashed, answered 429 with Retry-After."""

from __future__ import annotations

import itertools
from typing import Any, ClassVar

import pytest
import redis
from django.contrib.auth.hashers import MD5PasswordHasher
from django.urls import reverse
from rest_framework.test import APIClient

from api.throttling import KEY_PREFIX
from tests.campaign.factories import UserFactory
from tests.shared_rows import cache_keys_delete

pytestmark = pytest.mark.django_db
PASSWORD = "the-right-password"
addresses = (f"203.0.113.{n}" for n in itertools.count(1))


class CountingHasher(MD5PasswordHasher):
    """The test settings' hasher, counting the passwords it hashes."""

    hashed: ClassVar[int] = 0

    def encode(self, password: str, salt: str) -> str:
        CountingHasher.hashed += 1
        return super().encode(password, salt)


def throttle_counters_delete(redis_client: redis.Redis) -> None:
    cache_keys_delete(redis_client, f"{KEY_PREFIX}:*")


@pytest.fixture(autouse=True)
def throttle_counters_cleared(redis_client: redis.Redis, settings: Any) -> None:
    """No counters of earlier tests; small rates for these tests."""
    throttle_counters_delete(redis_client)
    settings.LOGIN_THROTTLE_RATES = {"address": "3/hour", "account": "6/hour", "all": "50/hour"}
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

    statuses = [log_in(user.username.upper(), f"guess {n}", next(addresses)).status_code for n in range(7)]

    assert statuses == [400] * 6 + [429]


def test_the_service_wide_limit_bounds_the_hashing_work(settings):
    settings.LOGIN_THROTTLE_RATES = {"address": "3/hour", "account": "6/hour", "all": "4/day"}
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


def test_attempts_refused_for_their_address_spend_no_account_or_service_budget(settings):
    settings.LOGIN_THROTTLE_RATES = {"address": "3/hour", "account": "6/hour", "all": "6/hour"}
    victim, bystander = UserFactory(password=PASSWORD), UserFactory(password=PASSWORD)
    flooder = next(addresses)

    flood = [log_in(name, "guess", flooder).status_code for name in [victim.username, "nobody"] * 50]

    assert flood == [400] * 3 + [429] * 97
    # The flood spent 3 of the victim's 6 and 3 of the service's 6: each of them gets in.
    assert log_in(victim.username, PASSWORD, next(addresses)).status_code == 200
    assert log_in(bystander.username, PASSWORD, next(addresses)).status_code == 200


def test_a_flood_from_one_address_leaves_another_addresss_sign_in_as_it_was(redis_client, settings):
    """The default rates (10, 20 and 60 a minute): a member signs in ten times from their
    address, while another address tries the member's account and others between each."""
    from config.settings import base

    user = UserFactory(password=PASSWORD)

    def sign_ins(flooder: str | None) -> list[int]:
        throttle_counters_delete(redis_client)
        member, statuses = next(addresses), []
        for _ in range(10):
            if flooder:
                for name in [user.username, "nobody", "admin"] * 10:
                    log_in(name, "guess", flooder)
            statuses.append(log_in(user.username, PASSWORD, member).status_code)
        return statuses

    settings.LOGIN_THROTTLE_RATES = base.LOGIN_THROTTLE_RATES
    quiet, flooded = sign_ins(None), sign_ins(next(addresses))

    assert quiet == flooded == [200] * 10
