"""The campaign map's services on Malta's ground: moves between adjacent sectors, control of a
sector (its event and webhook), battles fought on a sector (its terrain feeds the set-up), and
campaigns without a map naming their tables."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaign import models
from campaign.choices import BattleStatus, DayStatus, EventVerb, Visibility
from campaign.scenarios import MALTA_PACK_PATH, pack_read
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from campaign.services.battle_setups import battle_setup
from campaign.services.battles import battle_create
from campaign.services.campaigns import campaign_start
from campaign.services.days import day_dawn
from campaign.services.errors import ConflictError, DomainError
from campaign.services.night import night_phase_start
from campaign.services.scenario import scenario_import
from campaign.services.sectors import battalion_move, force_move, sector_control_set, sectors_adjacent
from campaign.services.webhook_subscriptions import webhook_subscribe
from tests.campaign.factories import campaign_with_sides

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("equipment_reference")]

HOOK = "https://club.example/hooks/map"


@pytest.fixture
def malta() -> models.Campaign:
    """The Malta demo on day 1, as the umpire dawned it."""
    campaign = scenario_import(pack_read(MALTA_PACK_PATH), Actor())
    umpire = Actor(get_user_model().objects.get(username="umpire"), request_id="map")
    campaign_start(campaign.pk, umpire)
    day_dawn(campaign.pk, umpire)
    campaign.refresh_from_db()
    return campaign


@pytest.fixture
def umpire(malta: models.Campaign) -> Actor:
    return Actor(get_user_model().objects.get(username="umpire"), request_id="map")


def sector(campaign: models.Campaign, key: str) -> models.Sector:
    return campaign.sectors.get(key=key)


def battalion(campaign: models.Campaign, code: str) -> models.Battalion:
    return campaign.battalions.select_related("sector").get(code=code)


def test_malta_has_its_ground_linked_into_one_piece(malta):
    keys = set(malta.sectors.values_list("key", flat=True))
    assert {"valletta", "grand-harbour", "marsaxlokk", "hal-far", "luqa", "ta-qali", "mdina"} <= keys
    kinds = dict(malta.sectors.values_list("key", "kind"))
    assert {kinds["grand-harbour"], kinds["marsaxlokk"]} == {"port"}
    assert {kinds["hal-far"], kinds["luqa"], kinds["ta-qali"]} == {"airfield"}
    assert {"beach", "drop_zone"} <= set(kinds.values())
    # Every sector reaches every other one along the links.
    neighbours: dict[int, set[int]] = {pk: set() for pk in malta.sectors.values_list("pk", flat=True)}
    for a, b in malta.sector_links.values_list("a_id", "b_id"):
        neighbours[a].add(b)
        neighbours[b].add(a)
    start = next(iter(neighbours))
    reached, frontier = {start}, [start]
    while frontier:
        for other in neighbours[frontier.pop()] - reached:
            reached.add(other)
            frontier.append(other)
    assert reached == set(neighbours)
    # Valletta north-east of Mdina, Hal Far south-east of Luqa (y grows southward).
    valletta, mdina = sector(malta, "valletta"), sector(malta, "mdina")
    hal_far, luqa = sector(malta, "hal-far"), sector(malta, "luqa")
    assert valletta.x > mdina.x
    assert valletta.y < mdina.y
    assert hal_far.x > luqa.x
    assert hal_far.y > luqa.y
    allied, axis = malta.sides.get(name="Allied"), malta.sides.get(name="Axis")
    assert set(sector(malta, "grand-harbour").supply_source_for.all()) == {allied, axis}
    assert set(sector(malta, "st-thomas-bay").supply_source_for.all()) == {axis}
    assert battalion(malta, "G1").sector.key == "dz-qrendi"
    assert battalion(malta, "E4").sector is None  # in reserve: off the map


def test_a_battalion_moves_to_an_adjacent_sector_recorded_for_its_side(malta, umpire):
    g1 = battalion(malta, "G1")
    qrendi = sector(malta, "qrendi")

    moved = battalion_move(malta.pk, umpire, g1.pk, sector_id=qrendi.pk)

    assert battalion(malta, "G1").sector == qrendi == moved.sector
    event = malta.events.get(verb=EventVerb.BATTALION_MOVED)
    assert event.message == "Battalion G1 moved from Drop zone north of Qrendi to Qrendi"
    assert (event.before, event.after) == ({"sector": "dz-qrendi"}, {"sector": "qrendi"})
    assert (event.visibility, event.side_id) == (Visibility.SIDE, g1.side_id)


def test_a_move_to_a_sector_not_next_to_it_is_refused_naming_the_neighbours(malta, umpire):
    g1 = battalion(malta, "G1")
    valletta = sector(malta, "valletta")
    assert not sectors_adjacent(g1.sector_id, valletta.pk)
    version = models.Campaign.objects.get(pk=malta.pk).version

    with pytest.raises(DomainError) as refused:
        battalion_move(malta.pk, umpire, g1.pk, sector_id=valletta.pk)

    assert refused.value.field == "sector"
    assert refused.value.code == "not_adjacent"
    assert refused.value.message == (
        "Valletta is not next to Drop zone north of Qrendi, where battalion G1 stands "
        "(next to it: Luqa, Qrendi)."
    )
    assert battalion(malta, "G1").sector.key == "dz-qrendi"
    assert models.Campaign.objects.get(pk=malta.pk).version == version
    assert not malta.events.filter(verb=EventVerb.BATTALION_MOVED).exists()


def test_reserves_stay_off_the_map_and_a_battalion_leaves_it_anywhere(malta, umpire):
    e4 = battalion(malta, "E4")
    with pytest.raises(DomainError, match="E4 is in reserve, and reserves are off the map"):
        battalion_move(malta.pk, umpire, e4.pk, sector_id=sector(malta, "luqa").pk)

    battalion_move(malta.pk, umpire, battalion(malta, "E1").pk, sector_id=None)
    # From off the map, the umpire places it anywhere (it arrives, or deploys).
    battalion_move(malta.pk, umpire, battalion(malta, "E1").pk, sector_id=sector(malta, "valletta").pk)
    assert battalion(malta, "E1").sector.key == "valletta"


def test_a_forming_up_point_moves_apart_and_back_to_its_c_ops(malta, umpire):
    ramcke = malta.forces.get(name="Fallschirmjäger-Brigade Ramcke")
    force_move(malta.pk, umpire, ramcke.pk, sector_id=sector(malta, "qrendi").pk, forming_up_point=True)
    ramcke.refresh_from_db()
    assert (ramcke.sector.key, ramcke.fup_sector.key) == ("dz-qrendi", "qrendi")

    with pytest.raises(DomainError, match="not next to Qrendi"):
        force_move(malta.pk, umpire, ramcke.pk, sector_id=sector(malta, "valletta").pk, forming_up_point=True)
    force_move(malta.pk, umpire, ramcke.pk, sector_id=sector(malta, "dz-qrendi").pk, forming_up_point=True)
    ramcke.refresh_from_db()
    assert ramcke.fup_sector is None  # with its C Ops again
    force_move(malta.pk, umpire, ramcke.pk, sector_id=sector(malta, "luqa").pk)
    ramcke.refresh_from_db()
    assert ramcke.sector.key == "luqa"
    assert [e.message for e in malta.events.filter(verb=EventVerb.FORCE_MOVED).order_by("pk")] == [
        "Fallschirmjäger-Brigade Ramcke's forming-up point moved from Drop zone north of Qrendi to Qrendi",
        "Fallschirmjäger-Brigade Ramcke's forming-up point moved from Qrendi to Drop zone north of Qrendi",
        "Fallschirmjäger-Brigade Ramcke's C Ops moved from Drop zone north of Qrendi to Luqa",
    ]


def test_nothing_moves_and_no_sector_changes_hands_during_the_night_phase(malta, umpire):
    night_phase_start(malta.pk, umpire)
    assert malta.days.get(number=1).status == DayStatus.NIGHT

    with pytest.raises(ConflictError, match="in its night phase") as refused:
        battalion_move(malta.pk, umpire, battalion(malta, "G1").pk, sector_id=sector(malta, "qrendi").pk)
    assert refused.value.code == "night_phase"
    with pytest.raises(ConflictError, match="in its night phase"):
        sector_control_set(
            malta.pk, umpire, sector(malta, "luqa").pk, owner_id=None, reason="the airfield is fought over"
        )


def test_control_of_a_sector_is_a_public_event_and_a_webhook(malta, umpire):
    subscription = webhook_subscribe(
        malta.pk, umpire, url=HOOK, events=[EventVerb.SECTOR_CONTROL_CHANGED], secret="s" * 20
    )
    luqa = sector(malta, "luqa")
    axis = malta.sides.get(name="Axis")

    sector_control_set(malta.pk, umpire, luqa.pk, owner_id=axis.pk, reason="the paratroops took the runway")

    luqa.refresh_from_db()
    assert luqa.owner == axis
    event = malta.events.get(verb=EventVerb.SECTOR_CONTROL_CHANGED)
    assert event.visibility == Visibility.PUBLIC
    assert event.message == "Luqa is held by Axis: the paratroops took the runway"
    assert event.before == {"sector": "luqa", "owner": "Allied"}
    assert event.after == {
        "sector": "luqa",
        "owner": "Axis",
        "reason": "the paratroops took the runway",
        "battle": None,
    }
    delivery = models.WebhookDelivery.objects.get(subscription=subscription)
    assert delivery.payload["event"] == "sector.control_changed"
    assert delivery.payload["message"] == "Control of Luqa changed"
    assert delivery.payload["links"]["object"] == reverse("api:sector-detail", args=[malta.slug, luqa.pk])

    with pytest.raises(DomainError, match="held by that side already"):
        sector_control_set(malta.pk, umpire, luqa.pk, owner_id=axis.pk, reason="again")
    with pytest.raises(DomainError, match="Say why"):
        sector_control_set(malta.pk, umpire, luqa.pk, owner_id=None, reason="  ")


def _fight_at_hal_far(malta: models.Campaign, umpire: Actor) -> models.Battle:
    return battle_create(
        malta.pk,
        umpire,
        sector_id=sector(malta, "hal-far").pk,
        battle_type="Local Attack",
        attacker_id=malta.sides.get(name="Axis").pk,
        defender_id=malta.sides.get(name="Allied").pk,
        battalion_codes=["I1", "E1"],
    )


def test_a_battle_on_a_sector_rolls_its_set_up_on_the_sectors_terrain(malta, umpire):
    battle = _fight_at_hal_far(malta, umpire)

    battle_setup(malta.pk, umpire, battle.pk)  # nobody names the terrain

    proximity = malta.rolls.get(battle=battle, procedure="n43.setup_proximity")
    assert proximity.inputs["terrain"] == "Wide Open Terrain" == sector(malta, "hal-far").terrain


def test_a_report_records_the_winner_and_the_sector_changing_hands(malta, umpire):
    battle = _fight_at_hal_far(malta, umpire)
    axis = malta.sides.get(name="Axis")
    battalions = [{"code": "I1"}, {"code": "E1", "destroyed": ["A Coy"]}]

    with pytest.raises(DomainError) as refused:
        battle_report(malta.pk, umpire, battle.pk, {"battalions": battalions, "winner": 999999})
    assert refused.value.field == "winner"
    battle_report(
        malta.pk, umpire, battle.pk, {"battalions": battalions, "winner": axis.pk, "sector_owner": axis.pk}
    )

    battle.refresh_from_db()
    assert (battle.status, battle.winner) == (BattleStatus.REPORTED, axis)
    assert "winner" not in battle.report
    assert "sector_owner" not in battle.report
    assert sector(malta, "hal-far").owner == axis
    event = malta.events.get(verb=EventVerb.SECTOR_CONTROL_CHANGED)
    assert event.after["battle"] == str(battle.public_id)
    assert event.message == "Hal Far is held by Axis: the battle of day 1"


def test_a_report_without_a_sector_owner_leaves_control_as_it_was(malta, umpire):
    battle = _fight_at_hal_far(malta, umpire)
    battle_report(malta.pk, umpire, battle.pk, {"battalions": [{"code": "I1"}], "winner": None})
    assert sector(malta, "hal-far").owner.name == "Allied"
    assert not malta.events.filter(verb=EventVerb.SECTOR_CONTROL_CHANGED).exists()


def _battle_named(campaign: models.Campaign, name: str, **more: Any) -> models.Battle:
    return battle_create(
        campaign.pk,
        Actor(),
        sector_name=name,
        battle_type="Local Attack",
        attacker_id=campaign.sides.get(name="Axis").pk,
        defender_id=campaign.sides.get(name="Allied").pk,
        battalion_codes=["A1"],
        **more,
    )


def test_a_campaign_without_a_map_names_its_tables_and_a_map_keeps_to_its_sectors(malta):
    tables = campaign_with_sides()
    day_dawn(tables.pk, Actor())
    first = _battle_named(tables, "Primosole bridge")
    again = _battle_named(tables, "Primosole bridge")
    assert first.sector == again.sector
    assert (first.sector.key, first.sector.placed, first.sector.terrain) == ("primosole-bridge", False, "")
    assert not tables.sector_links.exists()

    with pytest.raises(DomainError, match="Catania is not a sector of this campaign's map") as refused:
        battle_create(
            malta.pk,
            Actor(),
            sector_name="Catania",
            battle_type="Local Attack",
            attacker_id=malta.sides.get(name="Axis").pk,
            defender_id=malta.sides.get(name="Allied").pk,
            battalion_codes=["G1"],
        )
    assert refused.value.field == "sector_name"
    assert not malta.sectors.filter(name="Catania").exists()


def test_a_table_without_terrain_leaves_the_proximity_row_to_the_umpire():
    tables = campaign_with_sides()
    day_dawn(tables.pk, Actor())
    battle = _battle_named(tables, "Gela")

    with pytest.raises(DomainError, match="terrain"):
        battle_setup(tables.pk, Actor(), battle.pk)
    battle_setup(
        tables.pk, Actor(), battle.pk, inputs={"n43.setup_proximity": {"terrain": "Constricted Terrain"}}
    )
    assert tables.rolls.get(battle=battle, procedure="n43.setup_proximity").inputs["terrain"] == (
        "Constricted Terrain"
    )
