"""Ruleset profiles: which procedure handles each campaign step.

A campaign picks one profile.  Profiles compose: :func:`compose` lays later
profiles over earlier ones step by step (a later profile's step wins where it
names one), unions the optional rules switched on, and merges settings with
the later one winning.  The club profile is Great Battles for the campaign
skeleton (weather, activation pool, night phase), Panzer Korps for the day's
segments and arrivals, and 1943 for the set-up of each battle.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from rules_engine import catalog
from rules_engine.great_battles.common import Quality as GreatBattlesQuality
from rules_engine.nineteen43.common import Training
from rules_engine.panzer_korps.common import Quality as PanzerKorpsQuality
from rules_engine.registry import CatalogError


class CampaignStep(enum.Enum):
    WEATHER = "weather"
    WIND = "wind"
    SEGMENT_TURNS = "segment_turns"
    INITIATIVE = "initiative"
    FORCE_AVAILABILITY = "force_availability"
    ARRIVAL = "arrival"
    DEPLOYMENT = "deployment"
    ACTIVATION_POOL = "activation_pool"
    REACTIVATION = "reactivation"
    NIGHT_REPLACEMENTS = "night_replacements"
    CARRY_OVER = "carry_over"
    NIGHT_COMMAND = "night_command"
    NIGHT_AVAILABILITY_REROLL = "night_availability_reroll"
    BATTLE_SETUP = "battle_setup"


class QualityScale(enum.Enum):
    """Which quality vocabulary a profile's battalions are graded in."""

    GREAT_BATTLES = "Great Battles (Raw..Veteran)"
    PANZER_KORPS = "Panzer Korps (Hardened..Partisans)"
    NINETEEN_43 = "1943 training (Poor..Outstanding)"

    @property
    def grades(self) -> tuple[str, ...]:
        enumeration: type[enum.Enum] = {
            QualityScale.GREAT_BATTLES: GreatBattlesQuality,
            QualityScale.PANZER_KORPS: PanzerKorpsQuality,
            QualityScale.NINETEEN_43: Training,
        }[self]
        return tuple(str(member.value) for member in enumeration)

    @property
    def reservist_or_worse(self) -> frozenset[str]:
        """Grades the segment simulator counts as "Reservists or worse morale" (rules notes C-15)."""
        lowest = {
            QualityScale.GREAT_BATTLES: (GreatBattlesQuality.RAW, GreatBattlesQuality.INFERIOR),
            QualityScale.PANZER_KORPS: (
                PanzerKorpsQuality.RESERVIST,
                PanzerKorpsQuality.RECRUIT,
                PanzerKorpsQuality.MILITIA,
                PanzerKorpsQuality.PARTISAN,
            ),
            QualityScale.NINETEEN_43: (Training.POOR, Training.MARGINAL),
        }[self]
        return frozenset(str(member.value) for member in lowest)


@dataclass(frozen=True)
class RulesetProfile:
    key: str
    name: str
    quality_scale: QualityScale | None = None
    # Step → procedure keys (BATTLE_SETUP names several, in the order rolled).
    steps: Mapping[CampaignStep, tuple[str, ...]] = field(default_factory=dict)
    optional_rules: frozenset[str] = frozenset()
    settings: Mapping[str, Any] = field(default_factory=dict)

    def procedures_for(self, step: CampaignStep) -> tuple[str, ...]:
        return self.steps.get(step, ())

    def procedure_for(self, step: CampaignStep) -> str | None:
        keys = self.procedures_for(step)
        return keys[0] if keys else None

    def without(self, *steps: CampaignStep) -> RulesetProfile:
        """This profile less ``steps``: a layer lending only part of its system."""
        kept = {step: keys for step, keys in self.steps.items() if step not in steps}
        return replace(self, steps=MappingProxyType(kept))


def compose(key: str, name: str, *layers: RulesetProfile) -> RulesetProfile:
    """Lay ``layers`` over each other, later over earlier."""
    steps: dict[CampaignStep, tuple[str, ...]] = {}
    settings: dict[str, Any] = {}
    optional: frozenset[str] = frozenset()
    scale = None
    for layer in layers:
        steps.update(layer.steps)
        settings.update(layer.settings)
        optional |= layer.optional_rules
        scale = layer.quality_scale or scale
    return RulesetProfile(key, name, scale, MappingProxyType(steps), optional, MappingProxyType(settings))


def validate(profile: RulesetProfile) -> None:
    """Every step names a registered procedure; optional rules name optional ones."""
    for keys in profile.steps.values():
        for procedure_key in keys:
            catalog.get_procedure(procedure_key)  # raises CatalogError
    for rule in profile.optional_rules:
        entry = catalog.get_procedure(rule)
        if not entry.optional:
            raise CatalogError(f"{rule!r} is not an optional rule")


S = CampaignStep

GREAT_BATTLES = RulesetProfile(
    "great-battles",
    "Great Battles of WWII",
    QualityScale.GREAT_BATTLES,
    {
        S.WEATHER: ("gb.weather",),
        S.ACTIVATION_POOL: ("gb.activation_pool",),
        S.REACTIVATION: ("gb.reactivation",),
        S.NIGHT_REPLACEMENTS: ("gb.night_replacements",),
        S.CARRY_OVER: ("gb.activation_carry_over",),
    },
)

PANZER_KORPS = RulesetProfile(
    "panzer-korps",
    "Panzer Korps",
    QualityScale.PANZER_KORPS,
    {
        S.WIND: ("pk.wind",),
        S.SEGMENT_TURNS: ("pk.segment_turns",),
        S.INITIATIVE: ("pk.initiative",),
        S.FORCE_AVAILABILITY: ("pk.force_availability",),
        S.ARRIVAL: ("pk.arrival",),
        S.DEPLOYMENT: ("pk.deployment",),
        S.NIGHT_COMMAND: ("pk.night_command",),
        S.NIGHT_AVAILABILITY_REROLL: ("pk.night_availability_reroll",),
    },
)

NINETEEN_43 = RulesetProfile(
    "1943",
    "1943",
    QualityScale.NINETEEN_43,
    {
        S.BATTLE_SETUP: (
            "n43.attacker_decision",
            "n43.air_superiority",
            "n43.air_presence",
            "n43.air_assets",
            "n43.field_strength",
            "n43.planned_fire",
            "n43.support_fire",
            "n43.counterbattery",
            "n43.setup_proximity",
            "n43.troop_reaction",
            # Optional (000 § 20-21): rolled only when the campaign switches them on.
            "n43.defensive_works",
            "n43.fuel_supply",
        ),
    },
)

# The club profile keeps Great Battles' quality scale: its night phase grades
# replacements one step lower on that scale. It borrows Panzer Korps' segments
# and arrivals, not its night (C-10).
CLUB = compose(
    "club",
    "Club campaign (Great Battles + Panzer Korps segments and arrivals + 1943 set-up)",
    NINETEEN_43,
    PANZER_KORPS.without(S.NIGHT_COMMAND, S.NIGHT_AVAILABILITY_REROLL),
    GREAT_BATTLES,
)

PROFILES: Mapping[str, RulesetProfile] = MappingProxyType(
    {p.key: p for p in (GREAT_BATTLES, PANZER_KORPS, NINETEEN_43, CLUB)}
)


def get_profile(key: str) -> RulesetProfile:
    try:
        return PROFILES[key]
    except KeyError:
        raise CatalogError(f"no ruleset profile {key!r}; choose one of {', '.join(PROFILES)}") from None
