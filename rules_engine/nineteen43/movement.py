"""Movement chapter (002): command control, dangerous terrain, transport,
riders, towing and gun set-up, digging in, minefields."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.nineteen43.common import ReactionProfile, as_inputs, check_year, movement_ref
from rules_engine.registry import procedure, table
from rules_engine.results import Comparison, Modifier, RollResult
from rules_engine.vocab import Nation

COMMAND_RULE = movement_ref("2.1 Command Control")
VEHICLE_RULE = movement_ref("2.3 Vehicle Movement")
TRANSPORT_RULE = movement_ref("2.4 Transport and Towing")
DEFENSES_RULE = movement_ref("2.5 Defenses")


class CommandAction(enum.Enum):
    MANEUVER = "Maneuver"  # any move or change of disposition, standing from prone
    ASSAULT = "Assault"  # assault move, or moving into assault contact
    GO_PRONE = "go prone"  # needs no roll


class CommandModifier(enum.Enum):
    OVER_THE_TOP = "Over the Top"
    HQ_HIT = "Each Command (HQ) Hit"
    CONSECUTIVE_ASSAULT = "Each Consecutive Assault Move"
    PINNED_OR_WITHDRAWN = "Pinned or Withdrawn"
    DEMORALIZED = "Demoralized"


COMMAND_MODIFIERS: dict[CommandModifier, int] = table(
    "n43.command_modifiers",
    "Command chart modifiers",
    COMMAND_RULE,
    {
        CommandModifier.OVER_THE_TOP: -1,
        CommandModifier.HQ_HIT: -1,
        CommandModifier.CONSECUTIVE_ASSAULT: -1,
        CommandModifier.PINNED_OR_WITHDRAWN: -2,
        CommandModifier.DEMORALIZED: -4,
    },
)


@dataclass(frozen=True)
class CommandTestInput:
    action: CommandAction
    # The Maneuver/Assault value for the unit's training, from the combat
    # chart's Command box, which is not among the seeds (N43-16).
    required: int = 4
    over_the_top: bool = False
    hq_hits: int = 0
    consecutive_assault_moves: int = 0
    pinned_or_withdrew: bool = False
    demoralized: bool = False
    reaction_profile: ReactionProfile | None = None


def command_modifiers(inputs: CommandTestInput) -> tuple[Modifier, ...]:
    counts = {
        CommandModifier.OVER_THE_TOP: int(inputs.over_the_top),
        CommandModifier.HQ_HIT: inputs.hq_hits,
        CommandModifier.CONSECUTIVE_ASSAULT: inputs.consecutive_assault_moves,
        CommandModifier.PINNED_OR_WITHDRAWN: int(inputs.pinned_or_withdrew),
        CommandModifier.DEMORALIZED: int(inputs.demoralized),
    }
    modifiers = []
    for kind, count in counts.items():
        if count < 0:
            raise ValueError(f"{kind.value}: count cannot be negative")
        if count:
            name = kind.value if count == 1 else f"{kind.value} x{count}"
            modifiers.append(Modifier(name, COMMAND_MODIFIERS[kind] * count))
    return tuple(modifiers)


@procedure("n43.command_test", "Command control test", COMMAND_RULE)
def roll_command_test(inputs: CommandTestInput, dice: DiceSource) -> RollResult:
    common: dict[str, Any] = {
        "procedure": "n43.command_test",
        "title": "Command test",
        "subject": inputs.action.value,
        "rule": COMMAND_RULE,
        "inputs": as_inputs(inputs),
    }
    if inputs.action is CommandAction.GO_PRONE:
        return RollResult(rolls=(), outcome=True, outcome_text="goes prone (no roll)", **common)
    thrown = roll(DiceKind.D6, dice)
    modifiers = command_modifiers(inputs)
    passed = thrown.total + sum(m.value for m in modifiers) >= inputs.required
    text = "may move" if passed else "remains stationary"
    # 000 § 8: a D profile unit that fails a maneuver or assault roll also may not fire.
    if not passed and inputs.reaction_profile is ReactionProfile.D:
        text += " and may not fire this turn"
    return RollResult(
        rolls=(thrown,),
        modifiers=modifiers,
        threshold_base=inputs.required,
        comparison=Comparison.AT_LEAST,
        cell=f"{inputs.action.value} column",
        outcome=passed,
        outcome_text=text,
        **common,
    )


@dataclass(frozen=True)
class DangerousTerrainInput:
    # The "I" range printed for the terrain in the chart's Tracked column (not a seed).
    immobilized_from: int
    immobilized_to: int
    terrain: str = ""


@procedure("n43.dangerous_terrain", "Dangerous terrain immobilization", VEHICLE_RULE)
def roll_dangerous_terrain(inputs: DangerousTerrainInput, dice: DiceSource) -> RollResult:
    """2D6 per turn moved in each listed terrain; a roll in the range immobilizes."""
    thrown = roll(DiceKind.TWO_D6, dice)
    stuck = inputs.immobilized_from <= thrown.total <= inputs.immobilized_to
    return RollResult(
        title="Dangerous terrain",
        subject=inputs.terrain,
        rule=VEHICLE_RULE,
        rolls=(thrown,),
        cell=f"I {inputs.immobilized_from}-{inputs.immobilized_to}",
        outcome=stuck,
        outcome_text="immobilized" if stuck else "moves on",
        inputs=as_inputs(inputs),
    )


@dataclass(frozen=True)
class MovementRules:
    """Fixed movement costs and limits (fractions of a turn's movement)."""

    vehicle_minimum_move_yards: int
    mount_dismount_infantry_share: float
    mount_dismount_vehicle_share: float
    rider_mount_infantry_yards: int
    rider_mount_vehicle_yards: int
    riders_per_large_tank: int
    towing_speed_share: float
    towing_terrain_penalty_multiplier: int
    cavalry_mount_dismount_share: float


MOVEMENT_RULES: MovementRules = table(
    "n43.transport",
    "Transport, riders and towing costs",
    TRANSPORT_RULE,
    MovementRules(
        vehicle_minimum_move_yards=100,
        mount_dismount_infantry_share=0.5,
        mount_dismount_vehicle_share=0.5,
        rider_mount_infantry_yards=100,
        rider_mount_vehicle_yards=200,
        riders_per_large_tank=1,
        towing_speed_share=0.75,
        towing_terrain_penalty_multiplier=2,
        cavalry_mount_dismount_share=0.25,
    ),
)

RIDERS_FROM_YEAR: dict[Nation | None, int] = table(
    "n43.riders",
    "First year infantry may ride on tanks (None: every other nation)",
    TRANSPORT_RULE,
    {Nation.SOVIET: 1942, None: 1943},
)


@dataclass(frozen=True)
class RidersInput:
    nation: Nation
    year: int


@dataclass(frozen=True)
class RidersAllowed:
    nation: Nation
    year: int
    allowed: bool
    from_year: int

    def roll_results(self) -> tuple[RollResult, ...]:
        return ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "nation": self.nation.value,
            "year": self.year,
            "allowed": self.allowed,
            "from_year": self.from_year,
        }


@procedure("n43.riders_allowed", "Infantry riders allowed", TRANSPORT_RULE, rolls=False)
def lookup_riders_allowed(inputs: RidersInput) -> RidersAllowed:
    check_year(inputs.year)
    from_year = RIDERS_FROM_YEAR.get(inputs.nation, RIDERS_FROM_YEAR[None])
    return RidersAllowed(inputs.nation, inputs.year, inputs.year >= from_year, from_year)


class GunClassBand(enum.Enum):
    CLASS_1_TO_4 = "1 through 4"
    CLASS_5_OR_6 = "5 or 6"
    CLASS_7_UP = "7 or larger"

    @classmethod
    def of(cls, gun_class: int) -> GunClassBand:
        if gun_class < 1:
            raise ValueError(f"gun class {gun_class} is below 1")
        if gun_class <= 4:
            return cls.CLASS_1_TO_4
        return cls.CLASS_5_OR_6 if gun_class <= 6 else cls.CLASS_7_UP


@dataclass(frozen=True)
class GunHandling:
    """Quarters of a turn's movement: limber, unlimber, set-up."""

    limber_quarters: int
    unlimber_quarters: int
    set_up_quarters: int


GUN_HANDLING: dict[GunClassBand, GunHandling] = table(
    "n43.gun_handling",
    "Limber - unlimber cost and set-up time by gun class (quarters of a turn)",
    TRANSPORT_RULE,
    {
        GunClassBand.CLASS_1_TO_4: GunHandling(1, 0, 0),  # ¼ - none, none
        GunClassBand.CLASS_5_OR_6: GunHandling(2, 1, 3),  # ½ - ¼, ¾
        GunClassBand.CLASS_7_UP: GunHandling(4, 2, 4),  # 1 - ½, 1
    },
)

QUARTERS = 4


@dataclass(frozen=True)
class GunDeploymentInput:
    gun_class: int
    # Quarters of its movement the tow used this turn before stopping to unlimber.
    tow_moved_quarters: int = 0


@dataclass(frozen=True)
class TurnPlan:
    turn: int
    may_fire: bool
    moved_modifier: bool

    def text(self) -> str:
        if not self.may_fire:
            return f"turn {self.turn}: may not fire"
        return f"turn {self.turn}: fires" + (
            " with the Moved modifier" if self.moved_modifier else " at full effect"
        )


@dataclass(frozen=True)
class GunDeployment:
    band: GunClassBand
    handling: GunHandling
    turns: tuple[TurnPlan, ...]  # from the unlimbering turn to the first full-effect turn

    def roll_results(self) -> tuple[RollResult, ...]:
        return ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "gun_class_band": self.band.value,
            "limber_quarters": self.handling.limber_quarters,
            "unlimber_quarters": self.handling.unlimber_quarters,
            "set_up_quarters": self.handling.set_up_quarters,
            "turns": [
                {"turn": t.turn, "may_fire": t.may_fire, "moved_modifier": t.moved_modifier}
                for t in self.turns
            ],
            "outcome_text": "; ".join(t.text() for t in self.turns),
        }


@procedure("n43.gun_deployment", "Gun unlimber and set-up", TRANSPORT_RULE, rolls=False)
def lookup_gun_deployment(inputs: GunDeploymentInput) -> GunDeployment:
    """Turn by turn, when an unlimbered gun may fire (notes N43-17).

    A turn entirely spent towed, unlimbering or setting up allows no fire;
    in the turn set-up ends, half or more of it spent unlimbering/setting up
    brings the Moved modifier, less than half does not.
    """
    if not 0 <= inputs.tow_moved_quarters <= QUARTERS:
        raise ValueError("tow_moved_quarters must be 0..4")
    band = GunClassBand.of(inputs.gun_class)
    handling = GUN_HANDLING[band]
    work = handling.unlimber_quarters + handling.set_up_quarters
    ready_at = inputs.tow_moved_quarters + work  # quarters from the start of turn 1
    plans: list[TurnPlan] = []
    turn = 1
    while True:
        turn_start = (turn - 1) * QUARTERS
        if ready_at - turn_start >= QUARTERS:
            plans.append(TurnPlan(turn, may_fire=False, moved_modifier=False))
        else:
            working = max(0, ready_at - max(turn_start, inputs.tow_moved_quarters))
            moved = 2 * working >= QUARTERS
            plans.append(TurnPlan(turn, may_fire=True, moved_modifier=moved))
            if not moved:
                break
        turn += 1
    return GunDeployment(band=band, handling=handling, turns=tuple(plans))


class DigInWork(enum.Enum):
    HASTY_DIG_IN = "hasty dig-in"
    FOXHOLES = "foxholes"


DIG_IN_TURNS: dict[DigInWork, int] = table(
    "n43.digging_in",
    "Turns to dig in",
    DEFENSES_RULE,
    {DigInWork.HASTY_DIG_IN: 6, DigInWork.FOXHOLES: 20},
)

VEHICLE_TRENCH_USAGE: int = table(
    "n43.vehicle_trench_usage",
    "Vehicles dig in with set-up sheet trench-line at this multiple of their frontage",
    DEFENSES_RULE,
    2,
)


@dataclass(frozen=True)
class DigInInput:
    work: DigInWork
    turns_dug: int = 0


@dataclass(frozen=True)
class DigInProgress:
    work: DigInWork
    turns_needed: int
    turns_left: int

    @property
    def complete(self) -> bool:
        return self.turns_left == 0

    def roll_results(self) -> tuple[RollResult, ...]:
        return ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "work": self.work.value,
            "turns_needed": self.turns_needed,
            "turns_left": self.turns_left,
            "complete": self.complete,
        }


@procedure("n43.dig_in", "Digging in progress", DEFENSES_RULE, rolls=False)
def lookup_dig_in(inputs: DigInInput) -> DigInProgress:
    if inputs.turns_dug < 0:
        raise ValueError("turns_dug cannot be negative")
    needed = DIG_IN_TURNS[inputs.work]
    return DigInProgress(inputs.work, needed, max(needed - inputs.turns_dug, 0))


@dataclass(frozen=True)
class MinefieldRules:
    marker_radius_yards: int
    clearing_speed_standing: str
    clearing_speed_prone: str
    attack_modifiers_applied: bool


MINEFIELDS: MinefieldRules = table(
    "n43.minefields",
    "Minefield markers and clearing",
    DEFENSES_RULE,
    MinefieldRules(
        marker_radius_yards=120,
        clearing_speed_standing="rough",
        clearing_speed_prone="double rough",
        attack_modifiers_applied=False,  # Area Weapons Chart roll without die roll modifiers
    ),
)


@dataclass(frozen=True)
class VehicleDigInInput:
    frontage_yards: int  # one vehicle's frontage
    vehicles: int = 1
    trench_yards_available: int | None = None  # the set-up sheet's remaining trench-line


@dataclass(frozen=True)
class VehicleDigIn:
    trench_yards_needed: int
    vehicles_entrenched: int

    def roll_results(self) -> tuple[RollResult, ...]:
        return ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "trench_yards_needed": self.trench_yards_needed,
            "vehicles_entrenched": self.vehicles_entrenched,
        }


@procedure("n43.vehicle_dig_in", "Trench-line to dig in vehicles", DEFENSES_RULE, rolls=False)
def lookup_vehicle_dig_in(inputs: VehicleDigInInput) -> VehicleDigIn:
    if inputs.frontage_yards <= 0 or inputs.vehicles < 0:
        raise ValueError("a vehicle's frontage must be positive and the count not negative")
    each = inputs.frontage_yards * VEHICLE_TRENCH_USAGE
    needed = each * inputs.vehicles
    available = inputs.trench_yards_available
    entrenched = inputs.vehicles if available is None else min(inputs.vehicles, available // each)
    return VehicleDigIn(needed, entrenched)
