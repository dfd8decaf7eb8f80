"""No id a member reads counts rows hidden from them (issue 28, point 7), on every route.

Every sequence of the database jumps to 7,100,001 before the world is built, so each row the
world holds that is still named by its row number has a number in 7,100,001..7,199,999. A read
of any route of the access matrix, as any member who may read it, must show no such number,
nor a text with one: such a number would count the rows of every campaign (and, for a side's
reader, the rows of the other side) made before it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.api.row_numbers import A_ROW_NUMBER, row_numbers, world_after_every_sequence_jumps
from tests.api.world import MEMBERS, Role, World, matrix

pytestmark = pytest.mark.django_db

# Reference data of no campaign, the same for every reader: its numbers count nothing hidden.
REFERENCE_ROUTES = ("equipment-list", "equipment-detail", "rule-list", "rule-detail")


@pytest.fixture(scope="module")
def module_rows_build() -> Callable[[], World]:
    return world_after_every_sequence_jumps


@pytest.mark.parametrize("role", MEMBERS, ids=lambda role: role.name.lower())
def test_no_read_of_any_route_says_a_row_number(world: World, role: Role) -> None:
    client = world.client(role)
    found: dict[str, list[str]] = {}
    read = 0
    for name, route in matrix(world).items():
        if route.read is None or route.read.get(role) != 200 or name in REFERENCE_ROUTES:
            continue
        response = client.get(route.url)
        assert response.status_code == 200, (name, response.status_code)
        read += 1
        if "json" in response.get("Content-Type", ""):
            numbers = row_numbers(response.json(), name)
        else:  # papers, calendars, exports: their text
            numbers = A_ROW_NUMBER.findall(response.content.decode(errors="replace"))
        if numbers:
            found[name] = numbers
    assert read > 20
    assert not found, found
