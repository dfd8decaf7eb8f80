"""The OOB tree and force status run a constant number of queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign import selectors
from campaign.services.audit import Actor
from campaign.services.days import day_dawn
from tests.campaign.factories import campaign_with_sides

pytestmark = pytest.mark.django_db


def _queries(call) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as captured:
        result = call()
    return len(captured), result


def _count_stands(forces) -> int:
    return sum(
        len(battalion.stands.all())
        for force in forces
        for group in force.battlegroups.all()
        for battalion in group.battalions.all()
    )


@pytest.mark.parametrize("battalions", [1, 500])
def test_oob_tree_is_four_queries_at_any_size(battalions):
    campaign = campaign_with_sides(battalions_per_side=battalions, stands_per_battalion=3)

    count, forces = _queries(lambda: selectors.oob_tree(campaign.pk))

    assert count == 4
    assert _count_stands(forces) == 2 * battalions * 3  # walking the tree queries nothing more
    with CaptureQueriesContext(connection) as walk:
        _count_stands(forces)
    assert len(walk) == 0


@pytest.mark.parametrize("battalions", [1, 500])
def test_force_status_is_constant_at_any_size(battalions):
    campaign = campaign_with_sides(battalions_per_side=battalions, stands_per_battalion=3)
    day_dawn(campaign.pk, Actor())
    force = campaign.forces.get(side__name="Axis")

    count, status = _queries(lambda: selectors.force_status(force.pk))

    assert count == 4
    assert status.strength == {"hq": {"ok": battalions}, "infantry": {"ok": 2 * battalions}}
    assert len(status.battalions) == battalions
    assert status.battalions[0].stands == {"ok": 3, "suppressed": 0, "destroyed": 0}
    assert status.battalions[0].battle is None
