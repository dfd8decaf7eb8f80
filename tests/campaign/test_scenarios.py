"""Scenario packs: the Malta demo, validation errors by path, export/import round trips,
the synthetic generator, the commands and the equipment reference data."""

from __future__ import annotations

import copy
import datetime
import importlib
import io
import json
import math
import os
import subprocess
import sys
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.test.utils import CaptureQueriesContext

from campaign import models
from campaign.choices import (
    AttachmentKind,
    BattleStatus,
    EventVerb,
    MemberRole,
    NightOrderKind,
    OperationStatus,
    StandStatus,
    StandType,
)
from campaign.scenarios import MALTA_PACK_PATH, SCHEMA_PATH, pack_dumps, pack_parse, pack_read, schema_load
from campaign.scenarios.exporting import campaign_export
from campaign.scenarios.format import schema_text
from campaign.scenarios.generator import STANDS_PER_BATTALION, synthetic_pack
from campaign.scenarios.validation import scenario_validate
from campaign.services.activation import activation_spend
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from campaign.services.battle_setups import battle_setup
from campaign.services.battles import battle_create
from campaign.services.campaigns import campaign_start
from campaign.services.days import DeploymentOrder, day_dawn, segment_advance
from campaign.services.demo import demo_campaign_load
from campaign.services.errors import ConflictError, DomainError
from campaign.services.night import night_phase_start
from campaign.services.night_orders import night_order_queue
from campaign.services.operations import operation_run
from campaign.services.overrides import roll_override
from campaign.services.scenario import scenario_import
from campaign.services.sectors import battalion_move, force_move, sector_control_set
from campaign.services.supply import supply_confirm
from rules_engine.great_battles.activation import ActivationColumn
from rules_engine.great_battles.equipment import equipment_rows
from tests.conftest import ROOT, _database_url

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("equipment_reference")]

EQUIPMENT_MIGRATION = ("campaign", "0002_equipment_reference_data")
equipment_migration = importlib.import_module(f"campaign.migrations.{EQUIPMENT_MIGRATION[1]}")
GREAT_BATTLES_GRADES = "Raw, Inferior, Average, Experienced, Veteran"


@pytest.fixture
def malta() -> dict[str, Any]:
    pack: dict[str, Any] = pack_read(MALTA_PACK_PATH)
    return pack


def _battalions(pack: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        battalion
        for side in pack["sides"]
        for force in side.get("forces", [])
        for group in force.get("battlegroups", [])
        for battalion in group.get("battalions", [])
    ]


def _stand_count(pack: dict[str, Any]) -> int:
    return sum(len(battalion.get("stands", [])) for battalion in _battalions(pack))


# --- the Malta demo ---------------------------------------------------------------------


def test_the_malta_pack_imports_with_the_scenario_parameters(malta):
    campaign = scenario_import(malta, Actor())

    assert (campaign.slug, campaign.profile, campaign.year, campaign.theatre) == (
        "malta-1942",
        "club",
        1942,
        "Mediterranean",
    )
    axis, allied = campaign.sides.get(is_axis=True), campaign.sides.get(is_axis=False)
    assert (axis.activation_points, axis.carry_over_base, axis.carry_over_direction) == (8, 8, "-")
    assert (allied.activation_points, allied.carry_over_base, allied.carry_over_direction) == (3, 3, "+")
    assert campaign.battalions.filter(side=axis).count() == 11
    assert campaign.battalions.filter(side=allied).count() == 10
    assert campaign.stands.count() == _stand_count(malta)
    assert campaign.club_nights.count() == 6
    assert (campaign.night_weekday, campaign.night_time) == (2, datetime.time(9, 0))
    devons = campaign.battalions.get(code="E1")
    assert devons.name == "2nd Bn Devonshire Regiment"
    assert devons.stands_started == devons.stands.count() == 8
    gun = devons.stands.get(label="25-pdr (RMA)")
    assert gun.attached
    assert gun.attachment_kind == "other"
    assert gun.equipment is not None
    assert gun.equipment.key == "field-gun/any/infantry-guns-80-105mm"
    assert campaign.stands.filter(equipment__key="vehicle/soviet/kv-i").get().battalion.code == "P1"
    roles = {m.user.username: (m.role, m.side.name if m.side else None) for m in campaign.memberships.all()}
    assert roles == {
        "umpire": (MemberRole.UMPIRE, None),
        "axis": (MemberRole.PLAYER, "Axis"),
        "allied": (MemberRole.PLAYER, "Allied"),
    }
    imported = campaign.events.get(verb=EventVerb.CAMPAIGN_IMPORTED)
    assert imported.after == {
        "sides": 2,
        "sectors": 22,
        "forces": 6,
        "battalions": 21,
        "stands": campaign.stands.count(),
        "days": 0,
        "battles": 0,
        "rolls": 0,
        "events": 0,
    }


def test_users_a_pack_names_are_created_without_a_usable_password(malta):
    scenario_import(malta, Actor())

    axis = get_user_model().objects.get(username="axis")
    assert not axis.has_usable_password()


def test_load_demo_creates_the_logins_and_the_campaign_once():
    call_command("load_demo", stdout=io.StringIO())
    call_command("load_demo", stdout=io.StringIO())

    assert models.Campaign.objects.filter(slug="malta-1942").count() == 1
    users = get_user_model().objects
    umpire = users.get(username="umpire")
    assert umpire.is_staff
    assert umpire.is_superuser
    assert umpire.check_password("umpire")
    assert users.get(username="axis").check_password("axis")
    assert users.get(username="allied").check_password("allied")
    memberships = models.Membership.objects.filter(campaign__slug="malta-1942")
    assert memberships.get(user__username="axis").side.name == "Axis"
    assert memberships.get(user__username="allied").side.name == "Allied"
    assert memberships.get(user__username="umpire").role == MemberRole.UMPIRE
    assert demo_campaign_load() is None


# --- validation errors name the path inside the file ------------------------------------


def _set_quality(pack):
    pack["sides"][1]["forces"][0]["battlegroups"][0]["battalions"][1]["quality"] = "Elite"


def _unknown_profile(pack):
    pack["campaign"]["profile"] = "advanced-squad-leader"


def _player_without_side(pack):
    del pack["memberships"][1]["side"]


def _duplicate_code(pack):
    pack["sides"][1]["forces"][1]["battlegroups"][0]["battalions"][1]["code"] = "W1"


def _missing_start(pack):
    del pack["campaign"]["start_date"]


def _unknown_equipment(pack):
    pack["sides"][0]["forces"][0]["battlegroups"][0]["battalions"][0]["stands"][5]["equipment"] = "vehicle/x"


def _attached_without_kind(pack):
    del pack["sides"][0]["forces"][0]["battlegroups"][0]["battalions"][0]["stands"][6]["attachment_kind"]


def _wrong_stand_type(pack):
    pack["sides"][1]["forces"][0]["battlegroups"][0]["battalions"][0]["stands"][2]["stand_type"] = "cavalry"


def _misspelt_field(pack):
    pack["sides"][0]["activation_pionts"] = 8


def _unknown_rule_setting(pack):
    pack["campaign"]["rule_settings"]["gb.activation_carry_over.ceiling"] = 30


@pytest.mark.parametrize(
    ("spoil", "path", "message"),
    [
        (
            _set_quality,
            "sides[1].forces[0].battlegroups[0].battalions[1].quality",
            f"'Elite' is not one of {GREAT_BATTLES_GRADES}",
        ),
        (
            _unknown_profile,
            "campaign.profile",
            "'advanced-squad-leader' is not one of great-battles, panzer-korps, 1943, club",
        ),
        (_player_without_side, "memberships[1].side", "a player must belong to a side"),
        (
            _duplicate_code,
            "sides[1].forces[1].battlegroups[0].battalions[1].code",
            "duplicate battalion code 'W1' (first at sides[1].forces[0].battlegroups[0].battalions[0].code)",
        ),
        (_missing_start, "campaign.start_date", "required field is missing"),
        (
            _unknown_equipment,
            "sides[0].forces[0].battlegroups[0].battalions[0].stands[5].equipment",
            "no equipment with key 'vehicle/x'",
        ),
        (
            _attached_without_kind,
            "sides[0].forces[0].battlegroups[0].battalions[0].stands[6].attachment_kind",
            "an attached stand needs an attachment kind, and only an attached one",
        ),
        (
            _wrong_stand_type,
            "sides[1].forces[0].battlegroups[0].battalions[0].stands[2].stand_type",
            "'cavalry' is not one of infantry, smg, engineer, recce, armour, at_gun, field_gun, "
            "heavy_weapons, hq, transport",
        ),
        (_misspelt_field, "sides[0].activation_pionts", "unknown field"),
        (
            _unknown_rule_setting,
            "campaign.rule_settings.gb.activation_carry_over.ceiling",
            "gb.activation_carry_over has no input 'ceiling'",
        ),
    ],
)
def test_an_invalid_pack_is_refused_naming_the_path_and_nothing_is_written(malta, spoil, path, message):
    spoil(malta)

    with pytest.raises(DomainError) as refused:
        scenario_import(malta, Actor())

    assert refused.value.field == path
    assert f"{path}: {message}" in refused.value.message.splitlines()[0]
    assert not models.Campaign.objects.exists()
    assert not get_user_model().objects.filter(username="axis").exists()


def test_every_issue_is_reported_not_only_the_first(malta):
    _set_quality(malta)
    _duplicate_code(malta)

    paths = [issue.path for issue in scenario_validate(malta)]

    assert paths == [
        "sides[1].forces[0].battlegroups[0].battalions[1].quality",
        "sides[1].forces[1].battlegroups[0].battalions[1].code",
    ]


def test_a_taken_slug_is_a_conflict_and_another_slug_imports(malta):
    scenario_import(malta, Actor())

    with pytest.raises(ConflictError) as taken:
        scenario_import(malta, Actor())
    assert taken.value.field == "campaign.slug"

    copy_of = scenario_import(malta, Actor(), slug="malta-rematch")
    assert copy_of.battalions.count() == 21


@pytest.mark.process
def test_import_scenario_command_prints_the_path_and_exits_non_zero(tmp_path, malta):
    _set_quality(malta)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(malta))

    with pytest.raises(CommandError) as refused:
        call_command("import_scenario", str(bad))
    quality = "sides[1].forces[0].battlegroups[0].battalions[1].quality"
    assert f"{quality}: 'Elite' is not one of {GREAT_BATTLES_GRADES}" in str(refused.value)

    _missing_start(malta)
    bad.write_text(json.dumps(malta))
    env = {**os.environ, "DATABASE_URL": _database_url(connection.settings_dict)}
    run = subprocess.run(
        [sys.executable, "manage.py", "import_scenario", str(bad), "--skip-checks"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1
    assert "campaign.start_date: required field is missing" in run.stderr


# --- export → import → export -----------------------------------------------------------


def _play_a_little(campaign: models.Campaign) -> None:
    """Give the campaign state of every kind: days, segments, spends, battles, rolls, overrides."""
    umpire = Actor(get_user_model().objects.get(username="umpire"), request_id="round-trip")
    axis, allied = campaign.sides.get(name="Axis"), campaign.sides.get(name="Allied")
    campaign_start(campaign.pk, umpire)
    day_dawn(campaign.pk, umpire, deployments=[DeploymentOrder("E4", range_inches=30)])
    segment_advance(campaign.pk, umpire)
    activation_spend(
        campaign.pk,
        umpire,
        side_id=axis.pk,
        column=ActivationColumn.ONE_BATTLEGROUP.value,
        turn=0,
        battalion_codes=["G1", "G2"],
    )
    airfield = battle_create(
        campaign.pk,
        umpire,
        sector_name="Hal Far",
        battle_type="Local Attack",
        attacker_id=axis.pk,
        defender_id=allied.pk,
        battalion_codes=["G1", "G2", "E1"],
    )
    zurrieq = battle_create(
        campaign.pk,
        umpire,
        sector_name="Zurrieq",
        battle_type="Meeting Engagement",
        attacker_id=axis.pk,
        defender_id=allied.pk,
        battalion_codes=["I1", "W3"],
        feeds_ids=[airfield.public_id],
    )
    battle_setup(
        airfield.campaign_id, umpire, airfield.pk, inputs={"n43.setup_proximity": {"terrain": "Open Terrain"}}
    )
    battle_report(
        airfield.campaign_id,
        umpire,
        airfield.pk,
        {
            "battalions": [{"code": "E1", "destroyed": ["A Coy"], "suppressed": ["B Coy"]}, {"code": "G1"}],
            "winner": axis.pk,
            "sector_owner": axis.pk,
        },
    )
    # The map: a move, an FUP apart from its C Ops, a sector changing hands by the umpire's word.
    sectors = {sector.key: sector.pk for sector in campaign.sectors.all()}
    battalion_move(campaign.pk, umpire, campaign.battalions.get(code="G2").pk, sector_id=sectors["qrendi"])
    ramcke = campaign.forces.get(name="Fallschirmjäger-Brigade Ramcke")
    campaign.forces.filter(pk=ramcke.pk).update(fup_road_clear=False)  # so the night leaves its FUP apart
    force_move(campaign.pk, umpire, ramcke.pk, sector_id=sectors["luqa"], forming_up_point=True)
    sector_control_set(campaign.pk, umpire, sectors["gudja"], owner_id=None, reason="both sides patrol it")
    battle_report(
        zurrieq.campaign_id, umpire, zurrieq.pk, {"battalions": [{"code": "I1", "suppressed": ["13a Cp"]}]}
    )
    turns_roll = campaign.rolls.filter(procedure="pk.segment_turns").first()
    assert turns_roll is not None
    roll_override(
        turns_roll.campaign_id,
        umpire,
        turns_roll.pk,
        changes={"turns": 6},
        reason="the club agreed a longer morning",
    )
    night_order_queue(
        campaign.pk,
        umpire,
        kind=NightOrderKind.ATTACH,
        battalion_code="W4",
        stand_label="MG Pl",
        target_battalion_code="W2",
        attachment_kind=AttachmentKind.HEAVY_WEAPONS,
    )
    # Cut off by Gudja's patrols, E1 would not roll tonight: the umpire keeps it in supply.
    e1 = campaign.battalions.get(code="E1")
    supply_confirm(
        campaign.pk, umpire, [{"battalion": e1.public_id, "situation": "OK", "reason": "a track past Gudja"}]
    )
    # The worker's job, run here: the test transaction never commits to enqueue it.
    operation_run(night_phase_start(campaign.pk, umpire).pk)


def _campaign_delete(campaign: models.Campaign) -> None:
    # Battles and overrides PROTECT what they point at, even from a cascade: they go first.
    campaign.rolls.filter(override_of__isnull=False).delete()
    campaign.battles.all().delete()
    campaign.delete()


def test_export_import_export_round_trips_the_whole_malta_campaign(malta):
    campaign = scenario_import(malta, Actor())
    _play_a_little(campaign)
    exported = campaign_export(campaign.pk)

    state = exported["state"]
    assert state["status"] == "active"
    assert state["current_day"] == 1
    assert [s["segment"] for s in state["days"][0]["segments"]] == ["early morning", "morning"]
    assert state["days"][0]["activation_spends"][0]["battalions"] == ["G1", "G2"]
    assert [(b["ref"], b["feeds"], b["status"], b["sector"], b["winner"]) for b in state["battles"]] == [
        (1, [], BattleStatus.REPORTED, "hal-far", "Axis"),
        (2, [1], BattleStatus.REPORTED, "zurrieq", None),
    ]
    ground = {sector["key"]: sector for sector in exported["map"]["sectors"]}
    assert (ground["hal-far"]["owner"], ground["gudja"]["owner"]) == ("Axis", None)
    assert next(b for b in _battalions(exported) if b["code"] == "G2")["sector"] == "qrendi"
    ramcke = next(f for s in exported["sides"] for f in s["forces"] if f["name"].startswith("Fallschirm"))
    assert (ramcke["sector"], ramcke["fup_sector"]) == ("dz-qrendi", "luqa")
    assert len(exported["map"]["links"]) == len(malta["map"]["links"])
    assert exported["campaign"]["victory"] == malta["campaign"]["victory"]
    assert [(o["kind"], o["status"], o["created_by"]) for o in state["operations"]] == [
        ("night_phase", OperationStatus.DONE, "umpire")
    ]
    assert {r["side"] for r in state["operations"][0]["night_reports"]} == {"Axis", "Allied"}
    assert state["night_orders"] == [
        {
            "day": 1,
            "battalion": "W4",
            # Attached overnight to W2, which has an MG platoon of its own: the second of two.
            "stand": "W2/MG Pl#2",
            "target_battalion": "W2",
            "kind": NightOrderKind.ATTACH,
            "attachment_kind": AttachmentKind.HEAVY_WEAPONS,
            "applied": True,
        }
    ]
    assert state["battles"][0]["setup"]
    overrides = [r for r in state["rolls"] if r["override_of"] is not None]
    assert len(overrides) == 1
    assert state["rolls"][overrides[0]["override_of"]]["procedure"] == "pk.segment_turns"
    assert {r["actor"] for r in state["rolls"]} == {"umpire", None}  # the night phase rolls as the system
    owners = {("public", None), ("battle", None), ("side", "Axis"), ("side", "Allied")}
    assert {(r["visibility"], r["side"]) for r in state["rolls"]} == owners  # kept by the round trip below
    assert ("side", "Allied") in {(e["visibility"], e["side"]) for e in state["events"]}
    devons = next(b for b in _battalions(exported) if b["code"] == "E1")
    assert {s["label"]: s["status"] for s in devons["stands"]}["A Coy"] == StandStatus.DESTROYED
    assert EventVerb.CAMPAIGN_IMPORTED not in {e["verb"] for e in state["events"]}

    # Into an empty database: the campaign and the users it named are gone.
    _campaign_delete(campaign)
    get_user_model().objects.filter(username__in=["umpire", "axis", "allied"]).delete()
    reimported = scenario_import(exported, Actor())

    assert campaign_export(reimported.pk) == exported
    battle_event = reimported.events.filter(verb=EventVerb.BATTLE_CREATED).first()
    assert battle_event is not None
    assert reimported.battles.filter(pk=battle_event.object_id).exists()
    first_roll = reimported.rolls.order_by("pk").first()
    assert first_roll is not None
    assert first_roll.created_at.isoformat() == state["rolls"][0]["created_at"]


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_the_round_trip_holds_through_yaml_and_json_text(malta, suffix):
    campaign = scenario_import(malta, Actor())
    _play_a_little(campaign)
    exported = campaign_export(campaign.pk)
    text = pack_dumps(exported, suffix)
    _campaign_delete(campaign)

    reimported = scenario_import(pack_parse(text, suffix), Actor())

    assert pack_dumps(campaign_export(reimported.pk), suffix) == text


def test_export_campaign_command_writes_yaml_or_json_by_extension(tmp_path, malta):
    campaign = scenario_import(malta, Actor())
    for name in ("malta.yaml", "malta.json"):
        call_command("export_campaign", "malta-1942", "-o", str(tmp_path / name), stderr=io.StringIO())
    assert pack_read(tmp_path / "malta.yaml") == campaign_export(campaign.pk)
    assert json.loads((tmp_path / "malta.json").read_text()) == campaign_export(campaign.pk)
    assert (tmp_path / "malta.yaml").read_text().startswith("format: campaign-scenario\n")


# --- version 1 packs ---------------------------------------------------------------------


def _as_version_1(pack: dict[str, Any]) -> dict[str, Any]:
    """``pack`` as version 1 wrote it: no map, no victory or objective awards, places named in words."""
    old = copy.deepcopy(pack)
    names = {sector["key"]: sector["name"] for sector in old.pop("map")["sectors"]}
    old["version"] = 1
    del old["campaign"]["victory"]
    del old["campaign"]["objective_awards"]
    for side in old["sides"]:
        for force in side["forces"]:
            force.pop("airborne_drop", None)  # version 2 brought airborne drops
            cops = force.pop("sector", None)
            if cops:
                force.update(cops_location=names[cops], fup_location="Rendezvous " + names[cops])
            for group in force["battlegroups"]:
                for battalion in group["battalions"]:
                    battalion.pop("sector", None)
    return old


def test_a_version_1_pack_imports_upgraded_its_places_as_unplaced_sectors(malta):
    old = _as_version_1(malta)
    assert scenario_validate(copy.deepcopy(old)) == []
    old["sides"][0]["forces"][0]["fup_with_cops"] = False  # Ramcke's FUP apart, at its rendezvous

    campaign = scenario_import(old, Actor())

    ramcke = campaign.forces.select_related("sector", "fup_sector").get(name="Fallschirmjäger-Brigade Ramcke")
    assert ramcke.sector.name == "Drop zone north of Qrendi"
    assert ramcke.fup_sector.name == "Rendezvous Drop zone north of Qrendi"
    assert not ramcke.sector.placed
    assert campaign.forces.get(name="Western Infantry Command").fup_sector is None  # with its C Ops
    assert set(campaign.sectors.values_list("key", flat=True)) == {
        "drop-zone-north-of-qrendi",
        "rendezvous-drop-zone-north-of-qrendi",
        "drop-zone-hal-far",
        "rabat",
        "tarxien",
    }
    assert not campaign.sector_links.exists()
    exported = campaign_export(campaign.pk)
    assert exported["version"] == 2
    _campaign_delete(campaign)
    assert campaign_export(scenario_import(exported, Actor()).pk) == exported


def test_a_version_1_pack_is_checked_against_version_1s_schema(malta):
    old = _as_version_1(malta)
    old["map"] = malta["map"]
    old["sides"][0]["forces"][0]["sector"] = "dz-qrendi"

    assert [issue.text() for issue in scenario_validate(old)] == [
        "map: unknown field",
        "sides[0].forces[0].sector: unknown field",
    ]


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (
            lambda p: p["map"]["links"].append({"a": "valletta", "b": "nowhere"}),
            "map.links[34].b: no sector 'nowhere'",
        ),
        (lambda p: p["map"]["links"].append({"a": "mdina", "b": "ta-qali"}), "map.links[34]: duplicate link"),
        (
            lambda p: p["map"]["sectors"][1].update(key="valletta"),
            "map.sectors[1].key: duplicate key 'valletta'",
        ),
        (lambda p: p["map"]["sectors"][0].update(owner="Vichy"), "map.sectors[0].owner: no side 'Vichy'"),
        (
            lambda p: p["map"]["sectors"][0].update(x=1200),
            "map.sectors[0].x: 1200 is greater than the maximum",
        ),
        (
            lambda p: p["campaign"]["victory"]["conditions"][0]["sectors"].append("gozo"),
            "campaign.victory.conditions[0].sectors[2]: no sector 'gozo'",
        ),
        (lambda p: _battalions(p)[0].update(sector="gozo"), "battalions[0].sector: no sector 'gozo'"),
        (
            lambda p: _battalions(p)[-1].update(sector="valletta"),
            "battalions[2].sector: a battalion in reserve is off the map",
        ),
    ],
)
def test_an_invalid_map_is_refused_naming_the_path(malta, spoil, message):
    spoil(malta)
    texts = [issue.text() for issue in scenario_validate(malta)]
    assert any(message in text for text in texts), texts


# --- the synthetic generator ------------------------------------------------------------


@pytest.mark.parametrize("stands", [1, 9, 10, 25, 500 * STANDS_PER_BATTALION])
def test_synthetic_packs_have_the_size_asked_and_are_valid(stands):
    pack = synthetic_pack(stands)

    assert _stand_count(pack) == stands
    assert len(_battalions(pack)) == math.ceil(stands / STANDS_PER_BATTALION)
    assert scenario_validate(pack) == []


def test_synthetic_packs_are_deterministic_for_a_seed():
    assert synthetic_pack(50, seed="a") == synthetic_pack(50, seed="a")
    assert synthetic_pack(50, seed="a") != synthetic_pack(50, seed="b")


def _queries(action) -> int:
    with CaptureQueriesContext(connection) as captured:
        action()
    return len(captured.captured_queries)


def test_import_and_export_take_as_many_queries_for_500_battalions_as_for_1():
    one = synthetic_pack(STANDS_PER_BATTALION, seed="one", sectors=2)
    many = synthetic_pack(500 * STANDS_PER_BATTALION, seed="many", sectors=200)
    many["campaign"]["slug"] = "synthetic-many"

    import_one = _queries(lambda: scenario_import(one, Actor()))
    import_many = _queries(lambda: scenario_import(many, Actor()))
    export_one = _queries(
        lambda: campaign_export(models.Campaign.objects.get(slug=one["campaign"]["slug"]).pk)
    )
    export_many = _queries(lambda: campaign_export(models.Campaign.objects.get(slug="synthetic-many").pk))

    assert import_many == import_one
    assert export_many == export_one
    assert models.Battalion.objects.filter(campaign__slug="synthetic-many").count() == 500


# --- the schema and the models agree ----------------------------------------------------

# Which model each schema definition holds, and the model fields a pack names another way
# (parents by nesting, users by username, event subjects by object_key) or leaves out.
SCHEMA_MODELS = {
    "campaign": models.Campaign,
    "state": models.Campaign,
    "club_night": models.ClubNight,
    "side": models.Side,
    "membership": models.Membership,
    "sector": models.Sector,
    "sector_link": models.SectorLink,
    "force": models.Force,
    "airborne_drop": models.AirborneDrop,
    "battlegroup": models.Battlegroup,
    "battalion": models.Battalion,
    "stand": models.Stand,
    "day": models.CampaignDay,
    "segment": models.DaySegmentRecord,
    "activation_spend": models.ActivationSpend,
    "tally": models.SideDayTally,
    "artillery_order": models.ArtilleryOrder,
    "battle": models.Battle,
    "roll": models.RollRecord,
    "event": models.Event,
    "operation": models.Operation,
    "night_report": models.NightReport,
    "night_order": models.NightOrder,
}
NOT_IN_PACKS = {
    # night_version: set only while a night runs; the dice commitment: derived from the seed
    # an import draws or the pack fixes (campaign.services.dice).
    models.Campaign: {
        "created_at",
        "updated_at",
        "night_version",
        "dice_commitment",
        "dice_chain_length",
        "public_id",
    },
    # A member's calendar secret is the running service's: an import makes new ones; and the
    # member's own choice of e-mails too (an imported member gets them, as a new one does).
    models.Membership: {"campaign", "user", "calendar_token", "notification_emails", "public_id"},
    models.ClubNight: {"campaign"},
    models.Side: {"campaign"},
    models.Sector: {"campaign"},
    models.SectorLink: {"campaign"},
    models.Force: {"campaign", "side", "public_id"},
    models.AirborneDrop: {"force"},
    models.Battlegroup: {"force", "public_id"},
    models.Battalion: {"battlegroup", "campaign", "side", "public_id"},
    models.Stand: {"battalion", "campaign", "public_id"},
    models.CampaignDay: {"campaign", "public_id"},
    models.DaySegmentRecord: {"day", "public_id"},
    models.ActivationSpend: {"day", "public_id"},
    models.SideDayTally: {"day"},
    models.ArtilleryOrder: {"day", "public_id"},
    models.Battle: {"campaign", "public_id"},
    # The public ids are the service's own names for rows: an import gives the rows new ones.
    models.RollRecord: {"campaign", "public_id"},
    models.Event: {"campaign", "object_id", "object_public_id", "public_id"},
    models.Operation: {"campaign", "lease_expires_at", "public_id"},  # and a live worker's lease
    models.NightReport: {"operation", "public_id"},
    models.NightOrder: {"campaign", "public_id"},
}


def test_every_campaign_model_and_field_has_a_place_in_the_pack_format():
    # Reference data ships as a migration; webhooks and API keys hold a third party's URL and
    # secrets, which belong to the running service, never to a shareable pack; a night's
    # snapshot lives only while that night runs (an export then waits for it, or omits it);
    # invitation links are secrets of the running service too; a member's notifications are
    # their inbox on the running service; players' drafts of a battle report are their working
    # copies, not the campaign's state (a confirmed one is the battle's report).
    not_campaign_state = {
        models.Notification,
        models.BattleDraft,
        models.Invitation,
        models.Equipment,
        models.WebhookSubscription,
        models.WebhookDelivery,
        models.CampaignAPIKey,
        models.NightSnapshot,
        # The map kept at each dawn and night (issue 32): what each side saw then, derived state
        # the campaign's own rows and events already hold; a pack starts a campaign afresh.
        models.MapSnapshot,
        # What changed since a client's cursor (issue 33): bookkeeping for readers of the API.
        models.ChangeRecord,
        models.SyncCursor,
        # A side's sealed orders: a shareable pack would show them to the enemy's players.
        models.SideOrder,
    }
    campaign_models = set(django_apps.get_app_config("campaign").get_models()) - not_campaign_state
    assert campaign_models == set(SCHEMA_MODELS.values())
    definitions = schema_load()["$defs"]
    for model in campaign_models:
        named = {
            name for key, m in SCHEMA_MODELS.items() if m is model for name in definitions[key]["properties"]
        }
        fields = {f.name for f in model._meta.get_fields() if f.concrete and not f.primary_key}
        fields |= {f.name for f in model._meta.many_to_many}
        assert fields - NOT_IN_PACKS.get(model, set()) <= named, model.__name__


def test_the_schema_file_is_the_one_built_from_the_models():
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text()
    stand_type = schema_load()["$defs"]["stand"]["properties"]["stand_type"]
    assert stand_type["enum"] == StandType.values
    assert stand_type["maxLength"] == models.Stand._meta.get_field("stand_type").max_length


def test_the_malta_pack_is_valid_as_written(malta):
    assert scenario_validate(copy.deepcopy(malta)) == []


def test_the_example_in_the_format_documentation_imports():
    text = (ROOT / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    example = text.split("## Example", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]

    campaign = scenario_import(pack_parse(example, ".yaml"), Actor())

    assert campaign.stands.get(label="Pz IV").equipment.key == "vehicle/german/pz-iv-f2-h"
    assert campaign.memberships.get(user__username="rommel").side.name == "Axis"
    assert campaign.battalions.get(code="U1").sector.name == "Kasserine Pass"
    assert campaign.victory["end"]["side"] == "Allied"


# --- equipment reference data -----------------------------------------------------------


def test_the_equipment_migration_loads_every_chart_row_and_reverses():
    assert EQUIPMENT_MIGRATION in MigrationRecorder(connection).applied_migrations()
    historical = MigrationLoader(connection).project_state(EQUIPMENT_MIGRATION).apps

    equipment_migration.equipment_unload(historical, None)
    assert not models.Equipment.objects.exists()
    equipment_migration.equipment_load(historical, None)

    assert models.Equipment.objects.count() == len(equipment_rows())
    matilda = models.Equipment.objects.get(key="vehicle/british/matilda")
    assert (matilda.nation, matilda.category, matilda.year_from) == ("British", "vehicle", 1940)
    assert matilda.data["codes"] == "L-H-S"
    assert "Weapon/Armor Data" in matilda.source
    six_pounder = models.Equipment.objects.get(key="at-gun/any/45-59mm-6-pounder")
    assert (six_pounder.nation, six_pounder.data["calibre_min_mm"], six_pounder.data["gun"]) == ("", 45, "M")


def test_a_roll_or_event_of_a_side_names_that_side_and_no_other_does(malta):
    roll = {"procedure": "gb.weather", "stream": "day/1/weather", "inputs": {}, "result": {}, "line": "C"}
    roll["created_at"] = "1942-07-10T06:00:00+00:00"
    event = {"verb": "day.dawned", "object_type": "Campaign", "object_repr": "Malta", "message": "Dawn"}
    event["created_at"] = roll["created_at"]
    malta["state"] = {
        "rolls": [
            {**roll, "visibility": "side"},
            {**roll, "visibility": "public", "side": "Axis"},
            {**roll, "visibility": "side", "side": "Vichy"},
            {**roll, "visibility": "battle"},
            {**roll, "visibility": "side", "side": "Axis"},
        ],
        "events": [{**event, "visibility": "side"}, {**event, "visibility": "side", "side": "Allied"}],
    }

    issues = {issue.path: issue.message for issue in scenario_validate(malta)}

    assert issues == {
        "state.rolls[0].side": "a roll or event read by its side names the side",
        "state.rolls[1].side": "only a roll or event read by its side names a side",
        "state.rolls[2].side": "no side 'Vichy' in this pack",
        "state.rolls[3].battle": "a roll read by its battle's sides needs its battle",
        "state.events[0].side": "a roll or event read by its side names the side",
    }
