"""Vocabulary, references and small helpers shared across the Panzer Korps charts."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from rules_engine.dice import DiceKind, DiceRoll, DiceSource, roll
from rules_engine.results import Applies, Modifier, RollResult, RuleRef, RuleSystem, to_jsonable

SEED = "003_87cc295bdca6f18c.txt"

T = TypeVar("T")
E = TypeVar("E", bound=enum.Enum)


def ref(section: str) -> RuleRef:
    return RuleRef(RuleSystem.PANZER_KORPS, SEED, section)


class Quality(enum.Enum):
    """Troop, crew and pilot quality (the charts call it morale), best first."""

    HARDENED = "Hardened"
    ELITE = "Elite"
    VETERAN = "Veteran"
    REGULAR = "Regulars"
    RESERVIST = "Reservists"
    RECRUIT = "Recruits"
    MILITIA = "Militia"
    PARTISAN = "Partisans"  # printed "Partizans" on the fire die chart

    @property
    def rank(self) -> int:
        """0 for Hardened, 7 for Partisans."""
        return list(Quality).index(self)

    def at_least(self, other: Quality) -> bool:
        return self.rank <= other.rank

    def at_most(self, other: Quality) -> bool:
        return self.rank >= other.rank


class Cover(enum.Enum):
    """The five cover classes of the cover die chart, open to super heavy."""

    OPEN = "open"
    LIGHT = "light cover"
    MEDIUM = "medium cover"
    HEAVY = "heavy cover"
    SUPER_HEAVY = "super heavy cover"


class BattlefieldCondition(enum.Enum):
    """Weather and going named by the simulator, activation and availability charts."""

    RAIN = "rain"
    SAND = "sand"
    MUD = "mud"
    SNOW = "snow"
    FOG = "fog"
    ICE = "ice"
    MARSH = "marsh"


class Mobility(enum.Enum):
    """How a whole force moves (availability and deployment charts)."""

    MIXED = "mixed or foot"
    MOTORIZED = "all motorized"
    MECHANIZED = "all mechanized"


class TieRule(enum.Enum):
    """What an opposed roll does when both sides score the same."""

    REROLL = "re-roll"
    NO_WINNER = "no winner"


class Side(enum.Enum):
    FIRST = "first"
    SECOND = "second"


@dataclass(frozen=True)
class Band(Generic[T]):
    """A run of scores ``low..high`` (``None``: open-ended) and what it reads as."""

    low: int | None
    high: int | None
    value: T

    def holds(self, score: int) -> bool:
        return (self.low is None or score >= self.low) and (self.high is None or score <= self.high)

    def label(self) -> str:
        if self.low is None and self.high is None:
            return "any"
        if self.low is None:
            return f"{self.high} or less"
        if self.high is None:
            return f"{self.low}+"
        if self.low == self.high:
            return str(self.low)
        return f"{self.low}-{self.high}"


def band_for(bands: Sequence[Band[T]], score: int) -> Band[T]:
    """The band a modified score falls in; charts here are open at both ends."""
    for band in bands:
        if band.holds(score):
            return band
    raise ValueError(f"score {score} is on no band of this chart")


def modifiers(*candidates: tuple[bool, str, int], applies: Applies = Applies.ROLL) -> tuple[Modifier, ...]:
    """The modifiers whose condition holds; zero values are left out of the record."""
    return tuple(Modifier(name, value, applies) for holds, name, value in candidates if holds and value)


def per_item(count: int, name: str, value_each: int) -> tuple[bool, str, int]:
    """A "per each" modifier as one recorded modifier, e.g. ``decorated leader ×2``."""
    if count < 0:
        raise ValueError(f"{name}: a count cannot be negative ({count})")
    label = name if count == 1 else f"{name} ×{count}"
    return (count > 0, label, count * value_each)


def score_of(thrown: DiceRoll, mods: Iterable[Modifier]) -> int:
    return thrown.total + sum(m.value for m in mods if m.applies_to is Applies.ROLL)


def inputs_of(inputs: Any) -> dict[str, Any]:
    """The input dataclass as a mapping for the result's audit record."""
    return {f.name: getattr(inputs, f.name) for f in dataclasses.fields(inputs)}


def markers_over(attack: int, defence: int) -> int:
    """Markers when an attacking die beats a defending die: over 1, double 2, triple 3.

    "Double" and "triple" are read as at least two and three times the
    defending score (rules notes PK-09).
    """
    if attack <= defence:
        return 0
    if attack >= 3 * defence:
        return 3
    if attack >= 2 * defence:
        return 2
    return 1


@dataclass(frozen=True)
class NationYearModifier(Generic[E]):
    """A modifier printed as "<nation(s)> <years>", e.g. "-1 Russia 39-42"."""

    label: str
    nations: frozenset[E]
    value: int
    first_year: int | None = None
    last_year: int | None = None

    def applies(self, nation: E | None, year: int) -> bool:
        if nation not in self.nations:
            return False
        return (self.first_year is None or year >= self.first_year) and (
            self.last_year is None or year <= self.last_year
        )


def nation_year_modifiers(
    table: Iterable[NationYearModifier[E]], nation: E | None, year: int, *, prefix: str = ""
) -> tuple[Modifier, ...]:
    return tuple(
        Modifier(prefix + entry.label, entry.value) for entry in table if entry.applies(nation, year)
    )


@dataclass(frozen=True)
class OpposedRoll:
    """Both sides throw, the higher score wins; ties re-roll or leave no winner."""

    title: str
    first_name: str
    second_name: str
    throws: tuple[RollResult, ...]  # first, second, first, second... in throw order
    winner: Side | None

    @property
    def winner_name(self) -> str | None:
        if self.winner is None:
            return None
        return self.first_name if self.winner is Side.FIRST else self.second_name

    def roll_results(self) -> tuple[RollResult, ...]:
        return self.throws

    def line(self) -> str:
        verdict = f"{self.winner_name} wins" if self.winner_name else "tie, no winner"
        return "; ".join(r.line() for r in self.throws) + f" ⇒ {verdict}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "first": self.first_name,
            "second": self.second_name,
            "throws": [r.to_dict() for r in self.throws],
            "winner": to_jsonable(self.winner),
            "winner_name": self.winner_name,
            "line": self.line(),
        }


def roll_opposed(
    *,
    title: str,
    rule: RuleRef,
    kind: DiceKind,
    first: tuple[str, tuple[Modifier, ...]],
    second: tuple[str, tuple[Modifier, ...]],
    tie_rule: TieRule,
    inputs: dict[str, Any],
    dice: DiceSource,
) -> OpposedRoll:
    throws: list[RollResult] = []
    winner: Side | None

    def throw(name: str, mods: tuple[Modifier, ...]) -> RollResult:
        thrown = roll(kind, dice)
        score = score_of(thrown, mods)
        result = RollResult(
            title=title,
            subject=name,
            rule=rule,
            rolls=(thrown,),
            modifiers=mods,
            outcome=score,
            outcome_text=str(score),
            inputs=inputs,
        )
        throws.append(result)
        return result

    while True:
        a, b = throw(*first), throw(*second)
        if a.score != b.score:
            winner = Side.FIRST if a.score > b.score else Side.SECOND
            break
        if tie_rule is TieRule.NO_WINNER:
            winner = None
            break
    return OpposedRoll(title, first[0], second[0], tuple(throws), winner)


def band_result(
    *,
    title: str,
    rule: RuleRef,
    bands: Sequence[Band[T]],
    thrown: DiceRoll,
    mods: tuple[Modifier, ...],
    text: Callable[[T], str],
    inputs: dict[str, Any],
    subject: str = "",
    cell_prefix: str = "",
) -> tuple[T, RollResult]:
    """Read a modified throw on a banded chart (the common "d6 + DRM → row" shape)."""
    band = band_for(bands, score_of(thrown, mods))
    result = RollResult(
        title=title,
        subject=subject,
        rule=rule,
        rolls=(thrown,),
        modifiers=mods,
        cell=f"{cell_prefix}{band.label()}",
        outcome=band.value,
        outcome_text=text(band.value),
        inputs=inputs,
    )
    return band.value, result
