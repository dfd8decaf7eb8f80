"""004 FAQ 45 variant 1 (Action Pts.=Activation Pts., Activation Delay),
Summary of Variants SUPPLY (ammo, isolation), FAQ 33 (ammo low), FAQ 23.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_engine.dice import DiceKind, ScriptedDice, SeededDice
from rules_engine.great_battles.common import Quality
from rules_engine.great_battles.variants import (
    SUPPLY_ISOLATION_VARIANT,
    ActionConversionInput,
    ActivationDelayInput,
    AmmoMarkerInput,
    AmmoRemovalInput,
    AmmoScheme,
    CopsActionPointInput,
    ammo_removal_chance,
    ammo_to_hit_modifier,
    lookup_action_conversion,
    lookup_ammo_low_marker,
    roll_activation_delay,
    roll_ammo_removal,
    roll_cops_action_points,
)
from rules_engine.registry import PROCEDURES, TABLES
from rules_engine.results import Applies
from rules_engine.vocab import SupplyQuality, SupplySituation


def test_every_variant_is_optional():
    assert all(e.optional for k, e in PROCEDURES.items() if k.startswith("gb.variant."))
    assert all(e.optional for k, e in TABLES.items() if k.startswith("gb.variant."))


# --- variant 1 ----------------------------------------------------------------------


def test_conversion_adds_to_pool_capped_at_20():
    assert lookup_action_conversion(ActionConversionInput(5, 2)).after == 7
    change = lookup_action_conversion(ActionConversionInput(19, 2))
    assert (change.after, change.lost_to_cap) == (20, 1)


@pytest.mark.parametrize(
    ("quality", "face", "isolated", "actions"),
    [
        (Quality.AVERAGE, 25, False, 2),
        (Quality.AVERAGE, 26, False, 1),
        (Quality.AVERAGE, 15, True, 2),  # 15 + 10 = 25
        (Quality.AVERAGE, 16, True, 1),
        (Quality.VETERAN, 81, True, 0),  # 91
        (Quality.RAW, 60, False, 1),
    ],
)
def test_cops_action_points_isolated_penalty(quality, face, isolated, actions):
    result = roll_cops_action_points(CopsActionPointInput(quality, isolated), ScriptedDice([face]))
    assert result.outcome == actions
    assert result.score == face + (10 if isolated else 0)


@pytest.mark.parametrize(
    ("flags", "face", "turns"),
    [
        ({}, 40, 0),  # Average column: 01-40 immediate
        ({"with_regiment_hq": True}, 50, 0),  # 40
        ({"over_4_inches_from_regiment_hq": True}, 31, 1),  # 41
        ({"regiment_hq_over_12_inches_from_c_ops": True}, 80, 3),  # 90
        ({"over_4_inches_from_regiment_hq": True, "regiment_hq_over_12_inches_from_c_ops": True}, 69, 3),
    ],
)
def test_activation_delay_on_barrage_chart(flags, face, turns):
    result = roll_activation_delay(ActivationDelayInput(Quality.AVERAGE, **flags), ScriptedDice([face]))
    assert result.outcome == turns
    assert result.rolls[0].kind is DiceKind.PERCENTILE


# --- ammo -----------------------------------------------------------------------------

# Summary 2003: base % by situation, then supply modifier; isolated removes none.
PRINTED_BASE = {SupplySituation.ISOLATED: 0, SupplySituation.SEPARATED: 50, SupplySituation.OK: 80}
PRINTED_SUPPLY = {
    SupplyQuality.POOR: -20,
    SupplyQuality.INFERIOR: -10,
    SupplyQuality.AVERAGE: 0,
    SupplyQuality.SUPERIOR: 10,
    SupplyQuality.SUPERB: 20,
}


@pytest.mark.parametrize(
    ("situation", "supply", "chance"),
    [
        (sit, q, 0 if base == 0 else base + mod)
        for sit, base in [*PRINTED_BASE.items(), (SupplySituation.RESERVE, 80)]
        for q, mod in PRINTED_SUPPLY.items()
    ],
    ids=lambda v: getattr(v, "value", str(v)),
)
def test_every_ammo_removal_cell(situation, supply, chance):
    assert ammo_removal_chance(situation, supply) == chance


def test_ammo_removal_rolls_d100_per_marker():
    inputs = AmmoRemovalInput(SupplySituation.SEPARATED, SupplyQuality.POOR, markers=2)
    result = roll_ammo_removal(inputs, ScriptedDice([30, 31]))
    assert (result.removed, result.left) == (1, 1)
    assert result.rolls[0].threshold == 30


def test_ammo_isolated_removes_none_and_rolls_nothing():
    inputs = AmmoRemovalInput(SupplySituation.ISOLATED, SupplyQuality.SUPERB, markers=3)
    result = roll_ammo_removal(inputs, ScriptedDice([]))
    assert (result.removed, result.left, result.rolls) == (0, 3, ())


@pytest.mark.parametrize(
    ("situation", "markers", "removed"),
    [
        (SupplySituation.ISOLATED, 2, 0),
        (SupplySituation.SEPARATED, 2, 1),
        (SupplySituation.SEPARATED, 0, 0),
        (SupplySituation.OK, 3, 3),
        (SupplySituation.RESERVE, 2, 2),
    ],
)
def test_ammo_removal_faq_2002_counts(situation, markers, removed):
    inputs = AmmoRemovalInput(situation, SupplyQuality.AVERAGE, markers, AmmoScheme.FAQ_2002)
    assert roll_ammo_removal(inputs, ScriptedDice([])).removed == removed


@pytest.mark.parametrize(
    ("inputs", "marker"),
    [
        (AmmoMarkerInput(to_hit_die=3, hit=True, to_destroy_die=10), True),
        (AmmoMarkerInput(to_hit_die=3, hit=True, to_destroy_die=9), False),
        (AmmoMarkerInput(to_hit_die=8, hit=False, to_destroy_die=10), False),
        (AmmoMarkerInput(1, True, 4, AmmoScheme.FAQ_2002), True),
        (AmmoMarkerInput(2, True, 10, AmmoScheme.FAQ_2002), False),
        (AmmoMarkerInput(1, True, 6, AmmoScheme.FAQ_2002, rally_number=6), True),  # Raw 6-10
        (AmmoMarkerInput(1, True, 5, AmmoScheme.FAQ_2002, rally_number=6), False),
        (AmmoMarkerInput(1, True, 9, AmmoScheme.FAQ_2002, rally_number=10), False),  # Veteran 10 only
        (AmmoMarkerInput(1, True, 10, AmmoScheme.FAQ_2002, rally_number=10), True),
    ],
)
def test_ammo_low_marker(inputs, marker):
    assert lookup_ammo_low_marker(inputs) is marker


def test_ammo_marker_minus_one_to_hit_each():
    modifier = ammo_to_hit_modifier(2)
    assert (modifier.value, modifier.applies_to) == (-2, Applies.THRESHOLD)


def test_supply_isolation_variant_36_inches_12_zoc():
    assert SUPPLY_ISOLATION_VARIANT.longest_line_inches == 36
    assert SUPPLY_ISOLATION_VARIANT.enemy_zoc_inches == 12


_removal = st.builds(
    AmmoRemovalInput,
    situation=st.sampled_from(SupplySituation),
    supply_quality=st.sampled_from(SupplyQuality),
    markers=st.integers(0, 4),
)


@given(_removal, st.integers(0, 10_000))
def test_ammo_removal_properties(inputs, seed):
    first = roll_ammo_removal(inputs, SeededDice(seed))
    assert first == roll_ammo_removal(inputs, SeededDice(seed))
    assert first.removed + first.left == inputs.markers
    for r in first.roll_results():
        assert r.score == r.natural
        assert r.succeeded is r.outcome


@given(st.sampled_from(Quality), st.booleans(), st.booleans(), st.booleans(), st.integers(0, 10_000))
def test_activation_delay_properties(quality, hq, far, hq_far, seed):
    inputs = ActivationDelayInput(quality, hq, far, hq_far)
    result = roll_activation_delay(inputs, SeededDice(seed))
    assert result == roll_activation_delay(inputs, SeededDice(seed))
    assert result.outcome in (0, 1, 2, 3)
    assert len(result.modifiers) == hq + far + hq_far
    assert result.score == result.natural + sum(m.value for m in result.modifiers)
