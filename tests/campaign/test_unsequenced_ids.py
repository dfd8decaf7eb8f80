"""Sides and sectors are named by numbers that count nothing (issue 28, point 7): every member
reads all of their campaign's by number, and a shared sequence made those numbers count the
sides and sectors of every other campaign (a campaign made after one other numbered its sides
3 and 4)."""

from __future__ import annotations

import itertools

import pytest

from campaign import models
from campaign.models.ids import unsequenced_id
from campaign.scenarios import MALTA_PACK_PATH, pack_read
from campaign.services.audit import Actor
from campaign.services.scenario import scenario_import

ACTOR = Actor(request_id="two-clubs")
JAVASCRIPT_SAFE = 2**53 - 1


def test_numbers_rise_in_a_process_fit_javascript_and_never_count() -> None:
    numbers = [unsequenced_id() for _ in range(2_000)]  # many in one millisecond

    assert numbers == sorted(set(numbers))  # rising: rows made one after another keep their order
    assert all(number <= JAVASCRIPT_SAFE for number in numbers)
    steps = {later - earlier for earlier, later in itertools.pairwise(numbers)}
    assert len(steps) > 100  # a sequence's step is always 1


@pytest.mark.django_db
def test_a_campaigns_sides_and_sectors_do_not_continue_the_numbers_of_the_campaign_made_before() -> None:
    pack = pack_read(MALTA_PACK_PATH)
    first = scenario_import(pack, ACTOR, slug="first-club")
    second = scenario_import(pack, ACTOR, slug="second-club")

    for rows in ("sides", "sectors"):
        before = sorted(getattr(first, rows).values_list("pk", flat=True))
        after = sorted(getattr(second, rows).values_list("pk", flat=True))
        assert len(before) == len(after) > 1
        # A sequence gave the second campaign the numbers right after the first's.
        assert after != list(range(before[-1] + 1, before[-1] + 1 + len(after))), (rows, before, after)
    # Still in the order they were made: the pack's order.
    assert [side.name for side in second.sides.order_by("pk")] == [side["name"] for side in pack["sides"]]
    assert models.Side.objects.filter(pk__gt=JAVASCRIPT_SAFE).count() == 0
