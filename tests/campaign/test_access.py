"""Who sees what (campaign.access), asked directly: no HTTP, no serializer."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from campaign import models, selectors
from campaign.access import CampaignAccess, api_key_role, battle_setup_shown, reports_for, roll_shown
from campaign.choices import MemberRole, Visibility
from campaign.services.api_keys import api_key_create
from campaign.services.audit import Actor
from campaign.services.battle_setups import battle_setup
from campaign.services.battles import battle_create
from campaign.services.days import day_dawn, segment_advance
from campaign.services.overrides import roll_override
from tests.campaign.factories import UserFactory, campaign_with_sides

pytestmark = pytest.mark.django_db
ACTOR = Actor(request_id="access-test")
CAMPAIGN_PACKAGE = Path(__file__).resolve().parents[2] / "campaign"
FIRE = ("n43.planned_fire", "n43.support_fire")


def test_campaign_never_imports_api_at_any_level():
    """The layers: api calls campaign, never the other way round, not even inside a function."""
    found = []
    for path in sorted(CAMPAIGN_PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            found += [f"{path.name}:{node.lineno} {n}" for n in names if n == "api" or n.startswith("api.")]
    assert not found


@pytest.fixture
def campaign() -> models.Campaign:
    return campaign_with_sides(battalions_per_side=2)


def _sides(campaign: models.Campaign) -> tuple[models.Side, models.Side]:
    return campaign.sides.get(name="Axis"), campaign.sides.get(name="Allied")


def _player(campaign: models.Campaign, side: models.Side) -> CampaignAccess:
    return CampaignAccess(campaign=campaign, role=MemberRole.PLAYER, side_id=side.pk)


def test_an_api_key_reads_as_the_role_of_its_scope(campaign):
    axis, _ = _sides(campaign)
    umpire = Actor(user=UserFactory())
    write, _plain = api_key_create(campaign.pk, umpire, name="tool", can_write=True)
    side, _plain = api_key_create(campaign.pk, umpire, name="tracker", side_id=axis.pk)
    public, _plain = api_key_create(campaign.pk, umpire, name="club page")

    assert [api_key_role(k) for k in (write, side, public)] == [
        MemberRole.UMPIRE,
        MemberRole.PLAYER,
        MemberRole.OBSERVER,
    ]
    assert CampaignAccess.of_api_key(side).player_side_id == axis.pk
    assert CampaignAccess.of_api_key(write).player_side_id is None
    assert CampaignAccess.of_api_key(public).side_id is None


def _set_up_battle(campaign: models.Campaign) -> models.Battle:
    axis, allied = _sides(campaign)
    day_dawn(campaign.pk, ACTOR)
    battle = battle_create(
        campaign.pk,
        ACTOR,
        sector_name="Hal Far",
        battle_type="Local Attack",
        attacker_id=axis.pk,
        defender_id=allied.pk,
        battalion_codes=["A1", "L1"],
    )
    return battle_setup(
        battle.campaign_id, ACTOR, battle.pk, inputs={"n43.setup_proximity": {"terrain": "Open Terrain"}}
    )


def _fire_rolls(access: CampaignAccess) -> list[models.RollRecord]:
    return list(selectors.rolls(access).filter(procedure__in=FIRE))


def test_fire_rolls_hide_the_field_strength_of_a_battle_with_an_unidentified_enemy(campaign):
    battle = _set_up_battle(campaign)
    axis, allied = _sides(campaign)
    player = _player(campaign, axis)

    rolls = _fire_rolls(player)
    assert rolls, "the Axis player reads the fire rolls of its own side"
    for roll in rolls:
        assert roll.inputs["total_units"] == 6  # A1 and L1: 3 infantry each
        shown = roll_shown(player, roll)
        assert shown.inputs["total_units"] is None, roll.procedure
        assert shown.result["inputs"]["total_units"] is None
        assert shown.result["cell"] is None  # its multiplier would tell the units it counted
        # Issue 30: the side's own allotment reads in words ("hidden: it counts enemy stands you
        # do not see" hid it), the units counted left out.
        count = roll.result["outcome"]
        unit = "barrage" if roll.procedure == "n43.planned_fire" else "batter"
        assert shown.result["outcome"] == count
        assert shown.result["outcome_text"].startswith(f"{count} {unit}")
        assert "units" not in shown.result["outcome_text"]
        assert shown.line is not None
        assert shown.line.endswith(f"→ {shown.result['outcome_text']}")
        assert "6" not in shown.line.replace(roll.result["subject"], "")
    setup = selectors.battles(player).get(pk=battle.pk)
    shown_setup = battle_setup_shown(player, setup)
    strength = shown_setup["n43.field_strength"]
    assert strength["units"] is strength["stands"] is strength["line"] is None
    planned = shown_setup[f"n43.planned_fire@{axis.name}"]
    assert planned["outcome_text"] == roll_words(setup.setup[f"n43.planned_fire@{axis.name}"]["outcome"])
    # The enemy's own allotment is not the Axis player's to read at all.
    assert f"n43.planned_fire@{allied.name}" not in shown_setup

    # Once the Allies identify L1 with its strengths, nothing of the battle is hidden.
    allied.fog_of_war = {"identified_units": ["L1"], "strengths": True}
    allied.save(update_fields=["fog_of_war"])
    player = _player(campaign, axis)
    for roll in _fire_rolls(player):
        assert roll_shown(player, roll).inputs["total_units"] == 6
    setup = selectors.battles(player).get(pk=battle.pk)
    assert battle_setup_shown(player, setup)["n43.field_strength"]["units"] == 6

    # An identified battalion whose strengths stay hidden still hides them.
    allied.fog_of_war = {"identified_units": ["L1"], "strengths": False}
    allied.save(update_fields=["fog_of_war"])
    player = _player(campaign, axis)
    assert all(roll_shown(player, r).inputs["total_units"] is None for r in _fire_rolls(player))


def roll_words(count: int) -> str:
    return f"{count} barrage" if count == 1 else f"{count} barrages"


def test_the_umpire_reads_every_roll_in_full(campaign):
    _set_up_battle(campaign)
    umpire = CampaignAccess(campaign=campaign, role=MemberRole.UMPIRE, side_id=None)
    for roll in _fire_rolls(umpire):
        shown = roll_shown(umpire, roll)
        assert (shown.inputs, shown.result, shown.line) == (roll.inputs, roll.result, roll.line)


def test_a_roll_read_without_its_battle_annotation_is_fogged(campaign):
    """A roll fetched by a path that skips the selector shows no strength but to umpires."""
    _set_up_battle(campaign)
    axis, allied = _sides(campaign)
    allied.fog_of_war = {"identified_units": ["L1"], "strengths": True}
    allied.save(update_fields=["fog_of_war"])
    roll = models.RollRecord.objects.filter(procedure__in=FIRE).first()
    assert roll_shown(_player(campaign, axis), roll).inputs["total_units"] is None


def test_an_override_keeps_who_reads_the_roll(campaign):
    axis, allied = _sides(campaign)
    day_dawn(campaign.pk, ACTOR)
    morning = segment_advance(campaign.pk, ACTOR)
    turns_roll = morning.rolls.get(procedure="pk.segment_turns")
    # As if the roll were the Axis's own: its override must stay the Axis's too.
    models.RollRecord.objects.filter(pk=turns_roll.pk).update(visibility=Visibility.SIDE, side=axis)

    override = roll_override(
        turns_roll.campaign_id, ACTOR, turns_roll.pk, changes={"turns": 6}, reason="club agreed"
    )

    assert (override.visibility, override.side_id) == (Visibility.SIDE, axis.pk)
    assert not selectors.rolls(_player(campaign, allied)).filter(pk__in=[turns_roll.pk, override.pk]).exists()
    assert selectors.rolls(_player(campaign, axis)).filter(pk__in=[turns_roll.pk, override.pk]).count() == 2
    assert str(turns_roll.public_id) in override.line  # never its place in the sequence


def test_a_member_gets_the_night_reports_of_their_side_and_an_umpire_every_sides(campaign):
    axis, allied = _sides(campaign)
    reports = [models.NightReport(side=axis), models.NightReport(side=allied)]
    umpire = CampaignAccess(campaign=campaign, role=MemberRole.UMPIRE, side_id=None)
    observer = CampaignAccess(campaign=campaign, role=MemberRole.OBSERVER, side_id=None)

    assert reports_for(umpire, reports) == reports
    assert reports_for(_player(campaign, allied), reports) == [reports[1]]
    assert reports_for(observer, reports) == []
