"""The migration that gives rolls and events their owners backfills existing rows (rules notes C-13)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from campaign import models
from campaign.choices import Visibility

pytestmark = pytest.mark.django_db


def _migration_and_parent(executor: MigrationExecutor) -> tuple[tuple[str, str], tuple[str, str]]:
    """The owners migration and the campaign migration before it."""
    graph = executor.loader.graph
    target = ("campaign", "0008_roll_event_owners")
    parent = next(node.key for node in graph.node_map[target].parents if node.key[0] == "campaign")
    return target, parent


def _old_rows(apps: Any) -> dict[str, int]:
    """Rows as written before owners existed, with the historical models; their ids by name."""
    get = apps.get_model
    campaign = get("campaign", "Campaign").objects.create(
        name="Old",
        slug="old-rows",
        profile="club",
        theatre="Mediterranean",
        year=1942,
        season="summer",
        start_date=datetime.date(1942, 7, 10),
        rng_seed="old",
    )
    axis = get("campaign", "Side").objects.create(campaign=campaign, name="Axis")
    allied = get("campaign", "Side").objects.create(campaign=campaign, name="Allied")
    axis_force = get("campaign", "Force").objects.create(
        campaign=campaign, side=axis, name="Ariete", nation="Italian"
    )
    allied_force = get("campaign", "Force").objects.create(
        campaign=campaign, side=allied, name="Reserve", nation="British"
    )
    group = get("campaign", "Battlegroup").objects.create(force=axis_force, name="132nd")
    a1 = get("campaign", "Battalion").objects.create(
        battlegroup=group, campaign=campaign, side=axis, code="A1", quality="Average"
    )
    day = get("campaign", "CampaignDay").objects.create(campaign=campaign, number=1, date=campaign.start_date)
    battle = get("campaign", "Battle").objects.create(
        campaign=campaign, day=day, sector="Mdina", battle_type="Local Attack", attacker=axis, defender=allied
    )
    roll_model, event_model = get("campaign", "RollRecord"), get("campaign", "Event")

    def roll(procedure: str, **values: Any) -> int:
        row = roll_model.objects.create(
            campaign=campaign,
            day=day,
            procedure=procedure,
            stream="s",
            result={},
            line="l",
            **{"inputs": {}, **values},
        )
        return int(row.pk)

    def event(verb: str, subject: Any, **values: Any) -> int:
        row = event_model.objects.create(
            campaign=campaign,
            verb=verb,
            day_number=1,
            object_type=type(subject).__name__,
            object_id=subject.pk,
            object_repr=str(subject),
            message="m",
            **values,
        )
        return int(row.pk)

    return {
        "axis": axis.pk,
        "allied": allied.pk,
        "battalion roll": roll("gb.night_replacements", battalion=a1),
        "force roll": roll("pk.arrival", force=allied_force),
        "own set-up roll": roll(
            "n43.air_presence", battle=battle, changes={"setup": "n43.air_presence@Allied"}
        ),
        "shared set-up roll": roll(
            "n43.air_superiority", battle=battle, changes={"setup": "n43.air_superiority"}
        ),
        "carry-over roll": roll("gb.activation_carry_over", inputs={"side": "Axis"}),
        "weather roll": roll("gb.weather"),
        "other roll": roll("gb.deployment_casualties"),
        "dawn": event("day.dawned", day),
        "night done": event(
            "night.done", day, after={"Axis": {"activation_points_carried": 3}, "Allied": {}}
        ),
        "activation spent": event("activation.spent", allied),
        "arrival due": event("arrival.due", axis_force),
        "battle reported": event("battle.reported", battle),
        "arrivals resolved": event("arrivals.resolved", day, after={"sides": {}}),
    }


def test_existing_rolls_and_events_get_the_owners_the_services_now_give():
    executor = MigrationExecutor(connection)
    target, parent = _migration_and_parent(executor)
    executor.migrate([parent])
    ids = _old_rows(MigrationExecutor(connection).loader.project_state([parent]).apps)
    with connection.cursor() as cursor:  # no pending foreign key checks while the tables change
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    executor = MigrationExecutor(connection)
    executor.migrate([target])

    def roll(name: str) -> tuple[str, int | None]:
        # Today's model has columns added after this migration: read only the owner's.
        return models.RollRecord.objects.values_list("visibility", "side_id").get(pk=ids[name])

    def event(name: str) -> tuple[str, int | None]:
        return models.Event.objects.values_list("visibility", "side_id").get(pk=ids[name])

    axis, allied = ids["axis"], ids["allied"]
    assert roll("battalion roll") == (Visibility.SIDE, axis)
    assert roll("force roll") == (Visibility.SIDE, allied)
    assert roll("own set-up roll") == (Visibility.SIDE, allied)
    assert roll("shared set-up roll") == (Visibility.BATTLE, None)
    assert roll("carry-over roll") == (Visibility.SIDE, axis)
    assert roll("weather roll") == (Visibility.PUBLIC, None)
    assert roll("other roll") == (Visibility.UMPIRE, None)
    assert event("dawn") == (Visibility.PUBLIC, None)
    assert event("night done") == (Visibility.PUBLIC, None)
    assert models.Event.objects.values_list("after", flat=True).get(pk=ids["night done"]) == {
        "day": 1,
        "reports": 2,
    }
    assert event("activation spent") == (Visibility.SIDE, allied)
    assert event("arrival due") == (Visibility.SIDE, axis)
    assert event("battle reported") == (Visibility.UMPIRE, None)
    assert event("arrivals resolved") == (Visibility.UMPIRE, None)
    # The test's transaction, rolled back, takes the schema back to today's (as for the sectors).
