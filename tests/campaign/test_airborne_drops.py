"""The Malta landings: each planned airborne drop rolls approach, drift and landing for every
stand at the dawn of its day, applies the damage and records every roll (issue 15)."""

from __future__ import annotations

import pytest

from campaign import models
from campaign.access import CampaignAccess
from campaign.choices import EventVerb, MemberRole, StandStatus
from campaign.scenarios import MALTA_PACK_PATH, pack_read
from campaign.selectors import events as events_selector
from campaign.selectors import rolls as rolls_selector
from campaign.services.audit import Actor
from campaign.services.campaigns import campaign_start
from campaign.services.days import day_dawn
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from campaign.services.rules import roll_replay
from campaign.services.scenario import scenario_import
from tests.campaign.factories import malta_pack_without_supply_drop_zones

pytestmark = pytest.mark.django_db
ACTOR = Actor(request_id="the-landings")
DROPPING = ("Fallschirmjäger-Brigade Ramcke", "185a Divisione Paracadutisti Folgore")
SEVERITY = {"NE": 0, "S": 1, "D": 2}
STATUS = {0: StandStatus.OK, 1: StandStatus.SUPPRESSED, 2: StandStatus.DESTROYED}


@pytest.fixture
def malta(django_capture_on_commit_callbacks) -> models.Campaign:
    campaign = scenario_import(pack_read(MALTA_PACK_PATH), ACTOR)
    with django_capture_on_commit_callbacks(execute=False):  # arrival rolls would go to a worker
        campaign_start(campaign.pk, ACTOR)
        day_dawn(campaign.pk, ACTOR)
    return campaign


def test_every_dropping_stand_rolls_in_order_and_takes_its_worst_effect(malta):
    drops = models.AirborneDrop.objects.filter(force__campaign=malta).select_related("force")
    assert sorted(d.force.name for d in drops) == sorted(DROPPING)
    assert all(drop.dropped for drop in drops)

    stands = models.Stand.objects.filter(campaign=malta, battalion__battlegroup__force__name__in=DROPPING)
    rolls = malta.rolls.filter(procedure__startswith="gb.airborne.")
    by_stand: dict[str, list[models.RollRecord]] = {}
    for roll in rolls.order_by("pk"):
        by_stand.setdefault(roll.changes["stand"], []).append(roll)
    assert len(by_stand) == stands.count()
    hit = 0
    for stand in stands.select_related("battalion"):
        own = by_stand[f"{stand.battalion.code}/{stand.label}"]
        procedures = [r.procedure for r in own]
        effects = [r.result["outcome"] for r in own if r.procedure != "gb.airborne.drift"]
        worst = max(SEVERITY[effect] for effect in effects)
        if procedures == ["gb.airborne.approach"]:
            assert effects == ["D"]  # destroyed on the approach: no drift, no landing
        else:
            assert procedures == ["gb.airborne.approach", "gb.airborne.drift", "gb.airborne.landing"]
        assert stand.status == STATUS[worst]
        assert {r.changes["status"] for r in own} == {stand.status}
        hit += worst > 0
        for roll in own:
            assert roll.result["rule"]["section"].startswith("Drop Zone")
            assert roll_replay(roll) == [roll.result]  # replayable from the campaign's seed
    assert hit > 0  # medium AA over the island: some stands are hit (this seed)


def test_the_landings_are_the_axis_players_own_rolls_and_events(malta):
    axis, allied = malta.sides.get(is_axis=True), malta.sides.get(is_axis=False)

    def reads(side: models.Side) -> tuple[int, int]:
        access = CampaignAccess(campaign=malta, role=MemberRole.PLAYER, side_id=side.pk)
        landings = events_selector(access).filter(verb=EventVerb.AIRBORNE_LANDED).count()
        return rolls_selector(access).filter(procedure__startswith="gb.airborne.").count(), landings

    axis_rolls, axis_events = reads(axis)
    assert axis_rolls == malta.rolls.filter(procedure__startswith="gb.airborne.").count()
    assert axis_events == 2
    assert reads(allied) == (0, 0)


def test_an_enemy_on_the_drop_zone_costs_the_landing_its_minus_one(django_capture_on_commit_callbacks):
    campaign = scenario_import(pack_read(MALTA_PACK_PATH), ACTOR)
    zone = models.Sector.objects.get(campaign=campaign, key="dz-hal-far")
    models.Battalion.objects.filter(campaign=campaign, code="E1").update(sector=zone)
    with django_capture_on_commit_callbacks(execute=False):
        campaign_start(campaign.pk, ACTOR)
        day_dawn(campaign.pk, ACTOR)

    landings = campaign.rolls.filter(procedure="gb.airborne.landing")
    folgore = {r.inputs["within_6_inches_of_enemy"] for r in landings if r.changes["stand"].startswith("I")}
    ramcke = {r.inputs["within_6_inches_of_enemy"] for r in landings if r.changes["stand"].startswith("G")}
    assert (folgore, ramcke) == ({True}, {False})
    # Hal Far's drop zone is wide open ground: the clear column.
    assert {r.inputs["terrain"] for r in landings} == {"Clear"}


def test_a_drop_lands_once(malta, django_capture_on_commit_callbacks):
    before = malta.rolls.filter(procedure__startswith="gb.airborne.").count()
    models.CampaignDay.objects.filter(campaign=malta, number=1).update(status="done")
    with django_capture_on_commit_callbacks(execute=False):
        day_dawn(malta.pk, ACTOR)
    assert malta.rolls.filter(procedure__startswith="gb.airborne.").count() == before


def test_a_campaign_playing_the_drift_variant_rolls_d8_and_d6_for_each_landing_stand(
    django_capture_on_commit_callbacks,
):
    pack = pack_read(MALTA_PACK_PATH)
    pack["campaign"]["optional_rules"].append("gb.airborne.drift_variant")
    campaign = scenario_import(pack, ACTOR)
    with django_capture_on_commit_callbacks(execute=False):
        campaign_start(campaign.pk, ACTOR)
        day_dawn(campaign.pk, ACTOR)

    assert not campaign.rolls.filter(procedure="gb.airborne.drift").exists()
    drifts = list(campaign.rolls.filter(procedure="gb.airborne.drift_variant"))
    assert drifts
    heavy = set(
        models.Stand.objects.filter(campaign=campaign, stand_type="heavy_weapons").values_list(
            "battalion__code", "label"
        )
    )
    for drift in drifts:
        code, label = drift.changes["stand"].split("/", 1)
        assert drift.inputs["heavy_weapons"] is ((code, label) in heavy)
        assert "Bill Owen" in drift.result["rule"]["section"]
        _, distance = faces(drift)  # d8 compass point, d6 inches
        inches = distance if distance < 6 or drift.inputs["heavy_weapons"] else 0
        assert (drift.result["outcome"]["inches"] == 0) is (inches == 0)
        assert roll_replay(drift) == [drift.result]


def faces(record: models.RollRecord) -> list[int]:
    return [face for roll in record.result["rolls"] for face in roll["faces"]]


def test_isolated_paratroops_lose_no_extra_stand_at_night(django_capture_on_commit_callbacks):
    # Without supply drop zones the paratroops are isolated at the first night (MS-03).
    campaign = scenario_import(malta_pack_without_supply_drop_zones(), ACTOR)
    with django_capture_on_commit_callbacks(execute=False):
        campaign_start(campaign.pk, ACTOR)
        day_dawn(campaign.pk, ACTOR)
    airborne = models.Stand.objects.filter(
        campaign=campaign, battalion__battlegroup__force__name__in=DROPPING
    )
    destroyed_at_dusk = airborne.filter(status=StandStatus.DESTROYED).count()

    operation = night_phase_start(campaign.pk, ACTOR)
    with django_capture_on_commit_callbacks(execute=False):
        operation_run(operation.pk)

    axis = campaign.sides.get(is_axis=True)
    report = models.NightReport.objects.get(operation=operation, side=axis).body
    assert report["battalions_isolated"] == 8
    assert report["extra_stands_lost"] == 0
    assert airborne.filter(status=StandStatus.DESTROYED).count() <= destroyed_at_dusk
    entries = {entry["code"]: entry["text"] for entry in report["battalions"]}
    assert len(entries) == 8
    assert not any("more stand" in text for text in entries.values())
    # Every roll that was made read the isolated row.
    for roll in campaign.rolls.filter(procedure="gb.night_replacements", side=axis):
        assert roll.inputs["situation"] == "isolated"
