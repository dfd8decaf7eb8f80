"""The migration that gives the campaign its map turns free-text places into sectors, and back."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db

TARGET = ("campaign", "0016_map_core_sectors")
PARENT = ("campaign", "0015_event_verbs_webhooks")


def _old_rows(apps: Any) -> dict[str, int]:
    """Places as version 1 wrote them, in words; the rows' ids by name."""
    get = apps.get_model
    campaign = get("campaign", "Campaign").objects.create(
        name="Old",
        slug="old-places",
        profile="club",
        theatre="Mediterranean",
        year=1942,
        season="summer",
        start_date=datetime.date(1942, 7, 10),
        rng_seed="old",
    )
    axis = get("campaign", "Side").objects.create(campaign=campaign, name="Axis")
    allied = get("campaign", "Side").objects.create(campaign=campaign, name="Allied")
    force = get("campaign", "Force").objects.create
    apart = force(
        campaign=campaign,
        side=allied,
        name="Western",
        nation="British",
        cops_location="Rabat",
        fup_location="Mdina",
        fup_with_cops=False,
    )
    together = force(
        campaign=campaign,
        side=axis,
        name="Ramcke",
        nation="German",
        cops_location="Mdina",
        fup_location="Qrendi",
    )
    nowhere = force(campaign=campaign, side=axis, name="Livorno", nation="Italian")
    day = get("campaign", "CampaignDay").objects.create(campaign=campaign, number=1, date=campaign.start_date)
    battle = get("campaign", "Battle").objects.create
    first = battle(
        campaign=campaign, day=day, sector="Mdina", battle_type="Local Attack", attacker=axis, defender=allied
    )
    second = battle(
        campaign=campaign, day=day, sector="Mdina", battle_type="Local Attack", attacker=axis, defender=allied
    )
    third = battle(
        campaign=campaign,
        day=day,
        sector="Ta' Qali",
        battle_type="Local Attack",
        attacker=axis,
        defender=allied,
    )
    return {
        "campaign": campaign.pk,
        "apart": apart.pk,
        "together": together.pk,
        "nowhere": nowhere.pk,
        "first": first.pk,
        "second": second.pk,
        "third": third.pk,
    }


def _migrate(target: tuple[str, str]) -> Any:
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    with connection.cursor() as cursor:  # no pending foreign key checks while the tables change
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    return MigrationExecutor(connection).loader.project_state([target]).apps


def test_free_text_places_become_unplaced_sectors_and_come_back_as_words():
    ids = _old_rows(_migrate(PARENT))

    apps = _migrate(TARGET)

    sector_model = apps.get_model("campaign", "Sector")
    sectors = {s.name: s for s in sector_model.objects.filter(campaign_id=ids["campaign"])}
    assert set(sectors) == {"Mdina", "Rabat", "Ta' Qali"}  # Qrendi was an FUP with its C Ops: no place
    assert {s.key for s in sectors.values()} == {"mdina", "rabat", "ta-qali"}
    assert all(s.x is None and s.geometry is None and s.terrain == "" for s in sectors.values())
    battles = apps.get_model("campaign", "Battle").objects
    assert {battles.get(pk=ids[name]).sector_id for name in ("first", "second")} == {sectors["Mdina"].pk}
    assert battles.get(pk=ids["third"]).sector_id == sectors["Ta' Qali"].pk
    forces = apps.get_model("campaign", "Force").objects
    apart, together, nowhere = (forces.get(pk=ids[name]) for name in ("apart", "together", "nowhere"))
    assert (apart.sector_id, apart.fup_sector_id) == (sectors["Rabat"].pk, sectors["Mdina"].pk)
    assert (together.sector_id, together.fup_sector_id) == (sectors["Mdina"].pk, None)
    assert (nowhere.sector_id, nowhere.fup_sector_id) == (None, None)

    apps = _migrate(PARENT)

    battles = apps.get_model("campaign", "Battle").objects
    assert battles.get(pk=ids["first"]).sector == "Mdina"
    forces = apps.get_model("campaign", "Force").objects
    apart = forces.get(pk=ids["apart"])
    assert (apart.cops_location, apart.fup_location, apart.fup_with_cops) == ("Rabat", "Mdina", False)
    together = forces.get(pk=ids["together"])
    assert (together.cops_location, together.fup_location, together.fup_with_cops) == ("Mdina", "Mdina", True)
