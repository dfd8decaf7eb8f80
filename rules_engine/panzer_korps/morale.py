"""Morale die, morale results, panic recovery and disorder recovery."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.panzer_korps.common import (
    Band,
    Quality,
    band_result,
    inputs_of,
    modifiers,
    per_item,
    ref,
)
from rules_engine.panzer_korps.leaders import LEADER_RATINGS
from rules_engine.registry import procedure, table
from rules_engine.results import Modifier, RollResult
from rules_engine.vocab import LeaderRating

MORALE_RULE = ref("Morale results table")
RECOVERY_RULE = ref("Disruption recovery")


@dataclass(frozen=True)
class MoraleProfile:
    die: DiceKind
    panic_recovery: int  # panics allowed before the formation must retire


MORALE_DIE: dict[Quality, MoraleProfile] = table(
    "pk.morale_die",
    "Morale die and panic recovery by quality",
    MORALE_RULE,
    {
        Quality.HARDENED: MoraleProfile(DiceKind.D12, 4),
        Quality.ELITE: MoraleProfile(DiceKind.D12, 4),
        Quality.VETERAN: MoraleProfile(DiceKind.D10, 3),
        Quality.REGULAR: MoraleProfile(DiceKind.D10, 3),
        Quality.RESERVIST: MoraleProfile(DiceKind.D8, 2),
        Quality.RECRUIT: MoraleProfile(DiceKind.D8, 2),
        Quality.MILITIA: MoraleProfile(DiceKind.D6, 1),
        Quality.PARTISAN: MoraleProfile(DiceKind.D6, 0),
    },
)


class MoraleOutcome(enum.Enum):
    NO_EFFECT = "no effect"
    ONE_DISORDER = "add one disorder marker"
    TWO_DISORDER = "add two disorder markers"
    FALL_BACK = "fall back a normal move facing the enemy, add three disorder markers"
    PANIC = (
        "panic: normal move plus d6 foot/d10 AFV or cavalry away from the enemy, add four disorder markers"
    )


# Modified morale die; 5 and over is no effect (unprinted, rules notes PK-11).
MORALE_RESULTS: tuple[Band[MoraleOutcome], ...] = table(
    "pk.morale_results",
    "Morale results",
    MORALE_RULE,
    (
        Band(None, 1, MoraleOutcome.PANIC),
        Band(2, 2, MoraleOutcome.FALL_BACK),
        Band(3, 3, MoraleOutcome.TWO_DISORDER),
        Band(4, 4, MoraleOutcome.ONE_DISORDER),
        Band(5, None, MoraleOutcome.NO_EFFECT),
    ),
)

MORALE_DISORDER_MARKERS: dict[MoraleOutcome, int] = {
    MoraleOutcome.NO_EFFECT: 0,
    MoraleOutcome.ONE_DISORDER: 1,
    MoraleOutcome.TWO_DISORDER: 2,
    MoraleOutcome.FALL_BACK: 3,
    MoraleOutcome.PANIC: 4,
}


class Position(enum.Enum):
    OPEN = "open"
    COVER = "in cover"
    ENTRENCHED = "in entrenchments"


@dataclass(frozen=True)
class MoraleModifierChart:
    decorated_leader: int
    enemy_panic_seen: int
    enemy_panic_seen_cap: int
    position: dict[Position, int]
    disorder_marker: int
    under_artillery_fire: int
    partisans: int
    ss: int
    fanatics_or_hardened: int
    panic_extra_move_foot: DiceKind
    panic_extra_move_mounted: DiceKind


MORALE_MODIFIERS: MoraleModifierChart = table(
    "pk.morale_modifiers",
    "Morale modifiers",
    MORALE_RULE,
    MoraleModifierChart(
        decorated_leader=1,
        enemy_panic_seen=1,
        enemy_panic_seen_cap=3,
        position={Position.OPEN: 0, Position.COVER: 1, Position.ENTRENCHED: 2},
        disorder_marker=-1,
        under_artillery_fire=-1,
        partisans=-1,
        ss=3,
        fanatics_or_hardened=3,
        panic_extra_move_foot=DiceKind.D6,
        panic_extra_move_mounted=DiceKind.D10,
    ),
)


@dataclass(frozen=True)
class MoraleInput:
    quality: Quality
    disorder_markers: int = 0
    decorated_leaders: int = 0
    enemy_panics_seen: int = 0  # enemy formations seen panic or fall back within 20"
    position: Position = Position.OPEN
    under_artillery_fire: bool = False
    ss: bool = False
    fanatics: bool = False
    leader: LeaderRating | None = None  # G and H leaders add to the morale die
    mounted: bool = False  # AFV or cavalry: panic moves an extra d10, not d6
    red_markers: int = 0  # panic failures already marked
    formation: str = ""


@dataclass(frozen=True)
class MoraleCheck:
    outcome: MoraleOutcome
    disorder_markers_added: int
    roll: RollResult
    panic_move_roll: RollResult | None = None
    red_markers: int = 0  # after this check
    must_retire: bool = False

    def roll_results(self) -> tuple[RollResult, ...]:
        return (self.roll,) if self.panic_move_roll is None else (self.roll, self.panic_move_roll)

    def line(self) -> str:
        text = "; ".join(r.line() for r in self.roll_results())
        if self.outcome is MoraleOutcome.PANIC:
            text += f" ⇒ red marker {self.red_markers}" + (", must retire" if self.must_retire else "")
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome.value,
            "disorder_markers_added": self.disorder_markers_added,
            "red_markers": self.red_markers,
            "must_retire": self.must_retire,
            "rolls": [r.to_dict() for r in self.roll_results()],
            "line": self.line(),
        }


def morale_modifiers(inputs: MoraleInput) -> tuple[Modifier, ...]:
    chart = MORALE_MODIFIERS
    seen = min(inputs.enemy_panics_seen, chart.enemy_panic_seen_cap // chart.enemy_panic_seen)
    leader_mod = LEADER_RATINGS[inputs.leader].morale_die_modifier if inputs.leader else 0
    return modifiers(
        per_item(inputs.decorated_leaders, "decorated leader", chart.decorated_leader),
        per_item(seen, "enemy panic seen", chart.enemy_panic_seen),
        (True, inputs.position.value, chart.position[inputs.position]),
        per_item(inputs.disorder_markers, "disorder marker", chart.disorder_marker),
        (inputs.under_artillery_fire, "under artillery fire", chart.under_artillery_fire),
        (inputs.quality is Quality.PARTISAN, "partisans", chart.partisans),
        (inputs.ss, "SS", chart.ss),
        (
            inputs.fanatics or inputs.quality is Quality.HARDENED,
            "fanatics/hardened",
            chart.fanatics_or_hardened,
        ),
        (inputs.leader is not None, f"{inputs.leader.value if inputs.leader else ''} leader", leader_mod),
    )


def panic_forces_retirement(quality: Quality, red_markers_after: int) -> bool:
    """Panic recovery N allows N panics; the next one forces retirement (PK-12)."""
    return red_markers_after > MORALE_DIE[quality].panic_recovery


@procedure("pk.morale", "Morale check", MORALE_RULE)
def roll_morale(inputs: MoraleInput, dice: DiceSource) -> MoraleCheck:
    profile = MORALE_DIE[inputs.quality]
    record = inputs_of(inputs)
    outcome, result = band_result(
        title="Morale",
        subject=inputs.formation or inputs.quality.value,
        rule=MORALE_RULE,
        bands=MORALE_RESULTS,
        thrown=roll(profile.die, dice),
        mods=morale_modifiers(inputs),
        text=lambda o: o.value,
        inputs=record,
    )
    markers = MORALE_DISORDER_MARKERS[outcome]
    if outcome is not MoraleOutcome.PANIC:
        return MoraleCheck(outcome, markers, result, red_markers=inputs.red_markers)
    extra_die = (
        MORALE_MODIFIERS.panic_extra_move_mounted
        if inputs.mounted
        else MORALE_MODIFIERS.panic_extra_move_foot
    )
    extra = roll(extra_die, dice)
    move_roll = RollResult(
        title="Panic move",
        subject=inputs.formation or inputs.quality.value,
        rule=MORALE_RULE,
        rolls=(extra,),
        outcome=extra.total,
        outcome_text=f'normal move +{extra.total}"',
        inputs=record,
    )
    red = inputs.red_markers + 1
    return MoraleCheck(
        outcome,
        markers,
        result,
        panic_move_roll=move_roll,
        red_markers=red,
        must_retire=panic_forces_retirement(inputs.quality, red),
    )


DISORDER_RECOVERY: dict[str, int] = table(
    "pk.disorder_recovery",
    "Disorder markers removed in the movement phase",
    RECOVERY_RULE,
    {
        "non-movement turn": 1,
        "per decision die auto-rally allocated": 1,
        "per decorated leader with the formation": 1,
        "Regular or Veteran": 1,
        "Elite or Hardened": 2,
        "divisional HQ company attached": 2,
    },
)


@dataclass(frozen=True)
class DisorderRecoveryInput:
    quality: Quality
    disorder_markers: int
    moved: bool = False
    auto_rally: int = 0  # decision die auto-rallies allocated to the formation
    decorated_leaders: int = 0
    divisional_hq_attached: bool = False


@dataclass(frozen=True)
class DisorderRecovery:
    removed: int
    remaining: int
    reasons: tuple[Modifier, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "removed": self.removed,
            "remaining": self.remaining,
            "reasons": [{"name": m.name, "value": m.value} for m in self.reasons],
        }


@procedure("pk.disorder_recovery", "Disorder recovery", RECOVERY_RULE, rolls=False)
def lookup_disorder_recovery(inputs: DisorderRecoveryInput) -> DisorderRecovery:
    chart = DISORDER_RECOVERY
    quality = inputs.quality
    reasons = modifiers(
        (not inputs.moved, "non-movement turn", chart["non-movement turn"]),
        per_item(inputs.auto_rally, "auto-rally", chart["per decision die auto-rally allocated"]),
        per_item(
            inputs.decorated_leaders, "decorated leader", chart["per decorated leader with the formation"]
        ),
        (quality in (Quality.REGULAR, Quality.VETERAN), quality.value, chart["Regular or Veteran"]),
        (quality in (Quality.ELITE, Quality.HARDENED), quality.value, chart["Elite or Hardened"]),
        (inputs.divisional_hq_attached, "divisional HQ company", chart["divisional HQ company attached"]),
    )
    removed = min(sum(m.value for m in reasons), inputs.disorder_markers)
    return DisorderRecovery(removed, inputs.disorder_markers - removed, reasons)
