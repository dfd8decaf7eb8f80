"""Fire (chart pages 2-3) and close combat (chart 9), as umpire aids.

Fire: a d10 at or under the to-hit number hits (an unmodified 1 always hits
in range); a second d10 at or under the to-destroy number destroys, and a hit
that does not destroy suppresses.  Modifiers are score modifiers on the
number.  Variant: the to-destroy die is a d20 marked 1-10 in black and again
in red, and a red number brings in the destroy modifiers.  Close combat: each
side throws a d10 plus its modifiers; the higher score wins.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass

from rules_engine.dice import DiceKind, DiceRoll, DiceSource, roll
from rules_engine.great_battles.common import ArmourClass, Cover, Quality, ref, roll_against
from rules_engine.registry import procedure, table
from rules_engine.results import Applies, Comparison, CompoundResult, Modifier, RollResult

FIRE_RULE = ref("Infantry Fire, SMG Fire, Gun Fire [14.4]")
TO_HIT_RULE = ref("To Hit Modifiers [14.4.8]")
DESTROY_RULE = ref("All fire types: Destroy Modifiers (variant); FAQ 1")
RED_BLACK_DIE_RULE = ref("Gun Fire, Variant (20-sided red #s); Summary of Variants (May 2003), Fire")
FIRE_VARIANT_RULE = ref("FAQ 1; Summary of Variants (May 2003), Move and Supply")
CLOSE_COMBAT_RULE = ref("9. Close Combat [14.8.2]")


class FireWeapon(enum.Enum):
    INFANTRY = "Infantry Fire"  # also guns of class I
    SMG = "SMG Fire"
    LIGHT_GUN = "Light Gun Fire"
    MEDIUM_GUN = "Medium Gun Fire"
    HEAVY_GUN = "Heavy Gun Fire"
    SUPERHEAVY_GUN = "Superheavy Gun Fire"


class FireTarget(enum.Enum):
    DISMOUNTED = "Dismounted"
    SOFT_VEHICLE = "Soft"
    LIGHT_ARMOUR = "Light Armor"
    MEDIUM_ARMOUR = "Medium Armor"
    HEAVY_ARMOUR = "Heavy Armor"
    SUPERHEAVY_ARMOUR = "Superheavy Armor"

    @classmethod
    def armour(cls, armour: ArmourClass) -> FireTarget:
        """The target row for a vehicle's armour letter (0 is a soft vehicle)."""
        return _TARGET_BY_ARMOUR[armour]


_TARGET_BY_ARMOUR = {
    ArmourClass.NONE: FireTarget.SOFT_VEHICLE,
    ArmourClass.LIGHT: FireTarget.LIGHT_ARMOUR,
    ArmourClass.MEDIUM: FireTarget.MEDIUM_ARMOUR,
    ArmourClass.HEAVY: FireTarget.HEAVY_ARMOUR,
    ArmourClass.SUPERHEAVY: FireTarget.SUPERHEAVY_ARMOUR,
}
_ARMOUR_TARGETS = tuple(_TARGET_BY_ARMOUR.values())[1:]


@dataclass(frozen=True)
class FireTable:
    """One fire chart: range columns (at most, in inches), to-hit and to-destroy rows.

    A ``None`` to-destroy cell is the printed "-": a hit only suppresses.
    """

    ranges: tuple[float, ...]
    to_hit: tuple[int, ...]
    to_destroy: dict[FireTarget, tuple[int | None, ...]]

    def column(self, range_inches: float) -> int | None:
        return next((i for i, top in enumerate(self.ranges) if range_inches <= top), None)


def _small_arms(
    ranges: tuple[float, ...], numbers: tuple[int, ...], armour: tuple[int | None, ...]
) -> FireTable:
    # Small arms read their to-hit row again against dismounted stands, always
    # 6 against soft vehicles, and one "Armor" row for every armour class.
    return FireTable(
        ranges=ranges,
        to_hit=numbers,
        to_destroy={
            FireTarget.DISMOUNTED: numbers,
            FireTarget.SOFT_VEHICLE: (6,) * len(ranges),
            **dict.fromkeys(_ARMOUR_TARGETS, armour),
        },
    )


INFANTRY_FIRE: FireTable = table(
    "gb.fire_infantry",
    "Infantry fire: to hit and to destroy by range",
    FIRE_RULE,
    _small_arms((1, 2, 3, 8), (6, 4, 2, 1), (4, None, None, None)),
)

SMG_FIRE: FireTable = table(
    "gb.fire_smg",
    "SMG fire: to hit and to destroy by range",
    FIRE_RULE,
    _small_arms((1, 2, 8), (6, 4, 1), (4, None, None)),
)

GUN_RANGES = (3, 6, 9, 12)
_ONLY_SUPPRESS = (None, None, None, None)


def _gun(to_hit: tuple[int, ...], armour: dict[FireTarget, tuple[int | None, ...]]) -> FireTable:
    # Once hit, a gun destroys dismounted stands on 2 and soft vehicles on 6
    # at every range; armour it has no row for it may only suppress.
    return FireTable(
        ranges=GUN_RANGES,
        to_hit=to_hit,
        to_destroy={
            FireTarget.DISMOUNTED: (2,) * 4,
            FireTarget.SOFT_VEHICLE: (6,) * 4,
            **{target: armour.get(target, _ONLY_SUPPRESS) for target in _ARMOUR_TARGETS},
        },
    )


GUN_FIRE: dict[FireWeapon, FireTable] = table(
    "gb.fire_gun",
    "Gun fire by gun class: to hit and to destroy by range",
    FIRE_RULE,
    {
        FireWeapon.LIGHT_GUN: _gun(
            (8, 8, 4, 1),
            {
                FireTarget.LIGHT_ARMOUR: (4, 3, 1, None),
                FireTarget.MEDIUM_ARMOUR: (1, None, None, None),
            },
        ),
        FireWeapon.MEDIUM_GUN: _gun(
            (8, 8, 6, 3),
            {
                FireTarget.LIGHT_ARMOUR: (6, 6, 5, 4),
                FireTarget.MEDIUM_ARMOUR: (3, 3, 2, None),
                FireTarget.HEAVY_ARMOUR: (1, None, None, None),
            },
        ),
        FireWeapon.HEAVY_GUN: _gun(
            (8, 8, 6, 3),
            {
                FireTarget.LIGHT_ARMOUR: (6, 6, 5, 5),
                FireTarget.MEDIUM_ARMOUR: (6, 6, 5, 4),
                FireTarget.HEAVY_ARMOUR: (4, 3, 2, 1),
                FireTarget.SUPERHEAVY_ARMOUR: (1, None, None, None),
            },
        ),
        FireWeapon.SUPERHEAVY_GUN: _gun(
            (8, 8, 8, 5),
            {
                FireTarget.LIGHT_ARMOUR: (6, 6, 6, 5),
                FireTarget.MEDIUM_ARMOUR: (6, 6, 6, 5),
                FireTarget.HEAVY_ARMOUR: (6, 6, 5, 5),
                FireTarget.SUPERHEAVY_ARMOUR: (6, 4, 2, 1),
            },
        ),
    },
)

FIRE_TABLES: dict[FireWeapon, FireTable] = {
    FireWeapon.INFANTRY: INFANTRY_FIRE,
    FireWeapon.SMG: SMG_FIRE,
    **GUN_FIRE,
}

TO_HIT_MODIFIERS: dict[str, int] = table(
    "gb.to_hit_modifiers",
    "To hit score modifiers",
    TO_HIT_RULE,
    {
        "target on road": +2,
        "target in column": +1,
        "target not activated": -2,
        "firer using op. fire": -3,
        "firer outside front 180°": -2,
        "infantry with Hvy Wpns": +2,
    },
)

TO_HIT_VARIANT_MODIFIERS: dict[str, int] = table(
    "gb.to_hit_variant_modifiers",
    "To hit score modifiers (variants)",
    FIRE_VARIANT_RULE,
    {"target in cover": -1, "target riding on tanks": +2, "each ammo low marker": -1},
    optional=True,
)

DESTROY_QUALITY_MODIFIERS: dict[Quality, int] = table(
    "gb.destroy_quality_modifiers",
    "To destroy score modifiers by target quality (variant)",
    DESTROY_RULE,
    {
        Quality.RAW: +1,
        Quality.INFERIOR: +1,
        Quality.AVERAGE: 0,
        Quality.EXPERIENCED: -1,
        Quality.VETERAN: -1,
    },
    optional=True,
)

# The chart's "Cover" read as soft or hard cover (rules notes GB-A-14).
DESTROY_COVER_MODIFIERS: dict[Cover, int] = table(
    "gb.destroy_cover_modifiers",
    "To destroy score modifiers by target cover (variant)",
    DESTROY_RULE,
    {Cover.SOFT: -1, Cover.HARD: -1, Cover.BUNKER: -2},
    optional=True,
)

INDIRECT_FIRE_RANGE = 8  # indirect fire always reads the 8" column [14.6.2]


class FireOutcome(enum.Enum):
    MISS = "miss"
    SUPPRESSED = "suppressed"
    DESTROYED = "destroyed"


@dataclass(frozen=True)
class FireInput:
    weapon: FireWeapon
    range_inches: float
    target: FireTarget
    target_on_road: bool = False
    target_in_column: bool = False
    target_not_activated: bool = False
    opportunity_fire: bool = False
    outside_front_arc: bool = False
    heavy_weapons_bonus: bool = False  # infantry fire only
    indirect: bool = False  # infantry fire only
    # Variants, off in the stock game.
    target_in_cover_to_hit: bool = False
    target_riding_on_tanks: bool = False
    ammo_low_markers: int = 0  # -1 to hit each (ammo variant)
    red_black_destroy_die: bool = False  # destroy on the d20 marked 1-10 black and red
    destroy_modifiers: bool = False  # FAQ 1: destroy modifiers on every shot, whatever the colour
    target_quality: Quality = Quality.AVERAGE
    target_cover: Cover = Cover.OPEN


@dataclass(frozen=True)
class FireResult:
    to_hit: RollResult
    to_destroy: RollResult | None
    outcome: FireOutcome

    def roll_results(self) -> tuple[RollResult, ...]:
        return (self.to_hit,) + ((self.to_destroy,) if self.to_destroy else ())

    def line(self) -> str:
        return "; ".join(r.line() for r in self.roll_results()) + f" ⇒ {self.outcome.value}"

    def to_dict(self) -> dict[str, object]:
        return {
            "to_hit": self.to_hit.to_dict(),
            "to_destroy": self.to_destroy.to_dict() if self.to_destroy else None,
            "outcome": self.outcome.value,
            "line": self.line(),
        }


def _flagged(flags: dict[str, bool], values: dict[str, int]) -> list[Modifier]:
    return [Modifier(name, values[name], Applies.THRESHOLD) for name, on in flags.items() if on]


def to_hit_modifiers(inputs: FireInput) -> tuple[Modifier, ...]:
    small_arms = inputs.weapon in (FireWeapon.INFANTRY, FireWeapon.SMG)
    if (inputs.heavy_weapons_bonus or inputs.indirect) and not small_arms:
        raise ValueError(f"{TO_HIT_RULE.text()}: Hvy Wpns bonus and indirect fire are infantry only")
    modifiers = _flagged(
        {
            "target on road": inputs.target_on_road,
            "target in column": inputs.target_in_column,
            "target not activated": inputs.target_not_activated,
            "firer using op. fire": inputs.opportunity_fire,
            "firer outside front 180°": inputs.outside_front_arc,
            "infantry with Hvy Wpns": inputs.heavy_weapons_bonus,
        },
        TO_HIT_MODIFIERS,
    ) + _flagged(
        {
            "target in cover": inputs.target_in_cover_to_hit,
            "target riding on tanks": inputs.target_riding_on_tanks,
        },
        TO_HIT_VARIANT_MODIFIERS,
    )
    if inputs.ammo_low_markers:
        modifiers.append(ammo_to_hit_modifier(inputs.ammo_low_markers))
    return tuple(modifiers)


def ammo_to_hit_modifier(markers: int) -> Modifier:
    """The ammo variant's to-hit penalty for ``markers`` ammo-low markers (a score modifier)."""
    if markers < 0:
        raise ValueError(f"{FIRE_VARIANT_RULE.text()}: ammo-low markers cannot be negative, got {markers}")
    value = TO_HIT_VARIANT_MODIFIERS["each ammo low marker"] * markers
    return Modifier(f"ammo low ×{markers}", value, Applies.THRESHOLD)


def destroy_modifiers(inputs: FireInput, *, red_number: bool = False) -> tuple[Modifier, ...]:
    """The destroy modifiers, on a red number of the variant die or on every shot (FAQ 1)."""
    if not (red_number or inputs.destroy_modifiers):
        return ()
    modifiers = []
    if DESTROY_QUALITY_MODIFIERS[inputs.target_quality]:
        value = DESTROY_QUALITY_MODIFIERS[inputs.target_quality]
        modifiers.append(Modifier(f"{inputs.target_quality.value} target", value, Applies.THRESHOLD))
    if inputs.target_cover in DESTROY_COVER_MODIFIERS:
        value = DESTROY_COVER_MODIFIERS[inputs.target_cover]
        modifiers.append(Modifier(f"target in {inputs.target_cover.value}", value, Applies.THRESHOLD))
    return tuple(modifiers)


def fire_column(inputs: FireInput) -> tuple[FireTable, int]:
    chart = FIRE_TABLES[inputs.weapon]
    reach = INDIRECT_FIRE_RANGE if inputs.indirect else inputs.range_inches
    column = chart.column(reach) if inputs.range_inches <= chart.ranges[-1] else None
    if inputs.range_inches < 0 or column is None:
        raise ValueError(
            f'{FIRE_RULE.text()}: {inputs.range_inches:g}" is out of range for '
            f'{inputs.weapon.value} (at most {chart.ranges[-1]:g}")'
        )
    return chart, column


@procedure("gb.fire", "Direct and indirect fire", FIRE_RULE)
def roll_fire(inputs: FireInput, dice: DiceSource) -> FireResult:
    chart, column = fire_column(inputs)
    range_label = f'≤{chart.ranges[column]:g}"'
    number = chart.to_hit[column]
    modifiers = to_hit_modifiers(inputs)
    thrown = roll(DiceKind.D10, dice)
    needed = number + sum(m.value for m in modifiers)
    # In range, an unmodified 1 always hits.
    hit = thrown.total == 1 or thrown.total <= needed
    to_hit = RollResult(
        title="To hit",
        subject=f"{inputs.weapon.value} at {inputs.target.value}",
        rule=FIRE_RULE,
        rolls=(thrown,),
        modifiers=modifiers,
        threshold_base=number,
        comparison=Comparison.AT_MOST,
        cell=f"{inputs.weapon.value} {range_label}",
        outcome=hit,
        outcome_text="hit (a 1 always hits)" if hit and thrown.total > needed else ("hit" if hit else "miss"),
        inputs=asdict(inputs),
    )
    if not hit:
        return FireResult(to_hit=to_hit, to_destroy=None, outcome=FireOutcome.MISS)
    destroy_number = chart.to_destroy[inputs.target][column]
    if destroy_number is None:
        # "-": the weapon cannot destroy this target, so a hit suppresses.
        return FireResult(to_hit=to_hit, to_destroy=None, outcome=FireOutcome.SUPPRESSED)
    cell = f"{inputs.weapon.value} {range_label} {inputs.target.value}"
    if inputs.red_black_destroy_die:
        to_destroy = _roll_red_black_destroy(inputs, dice, destroy_number, cell)
    else:
        to_destroy = roll_against(
            title="To destroy",
            rule=FIRE_RULE,
            dice=dice,
            threshold=destroy_number,
            modifiers=destroy_modifiers(inputs),
            passed=(True, "destroyed"),
            failed=(False, "suppressed"),
            subject=f"{inputs.target.value} target",
            cell=cell,
            inputs=asdict(inputs),
        )
    outcome = FireOutcome.DESTROYED if to_destroy.outcome else FireOutcome.SUPPRESSED
    return FireResult(to_hit=to_hit, to_destroy=to_destroy, outcome=outcome)


RED_FACES_FROM = 11  # d20 faces 1-10 are the black 1-10, faces 11-20 the red 1-10 (GB-A-20)


def read_red_black_die(thrown: DiceRoll) -> tuple[DiceRoll, bool]:
    """The d20 read as the number printed on it (1-10), and whether that number is red."""
    face = thrown.faces[0]
    red = face >= RED_FACES_FROM
    number = face - RED_FACES_FROM + 1 if red else face
    return DiceRoll(kind=thrown.kind, faces=thrown.faces, total=number), red


def _roll_red_black_destroy(inputs: FireInput, dice: DiceSource, number: int, cell: str) -> RollResult:
    thrown, red = read_red_black_die(roll(DiceKind.D20, dice))
    modifiers = destroy_modifiers(inputs, red_number=red)
    needed = number + sum(m.value for m in modifiers)
    destroyed = thrown.total <= needed
    return RollResult(
        title="To destroy",
        subject=f"{inputs.target.value} target",
        rule=RED_BLACK_DIE_RULE,
        rolls=(thrown,),
        modifiers=modifiers,
        threshold_base=number,
        comparison=Comparison.AT_MOST,
        cell=f"{cell}, {'red' if red else 'black'} number",
        outcome=destroyed,
        outcome_text="destroyed" if destroyed else "suppressed",
        inputs=asdict(inputs),
    )


# --- Close combat -----------------------------------------------------------

CLOSE_COMBAT_MODIFIERS: dict[str, dict[str, int]] = table(
    "gb.close_combat_modifiers",
    "Close combat modifiers to the d10",
    CLOSE_COMBAT_RULE,
    {
        "attacker": {
            "armor vs. open": +4,
            "armor vs. cover": +1,
            "light armor": -1,
            "superheavy armor": +1,
        },
        "defender": {
            "2+ stands in soft cover": +2,
            "2+ stands in hard cover": +3,
            "2+ stands in bunker": +4,
            "AT gun attached": +2,
            "Hvy Wpns attached": +2,
        },
        "both sides": {
            "submachinegun Bn.": +2,
            "higher morale, per level": +1,
            "each extra unsuppressed stand": +1,
        },
    },
)

_DEFENDER_COVER = {
    Cover.SOFT: "2+ stands in soft cover",
    Cover.HARD: "2+ stands in hard cover",
    Cover.BUNKER: "2+ stands in bunker",
}


class CloseCombatOutcome(enum.Enum):
    ATTACKER_WINS = "attacker wins"
    DEFENDER_WINS = "defender wins"
    CONTINUES = "continues"


@dataclass(frozen=True)
class CloseCombatInput:
    """Unsuppressed stands count every stand but HQ and Hvy Wpns (FAQ 42 C)."""

    attacker_quality: Quality
    defender_quality: Quality
    attacker_unsuppressed: int
    defender_unsuppressed: int
    attacker_armour: ArmourClass = ArmourClass.NONE  # armour in the attack, if any
    defender_cover: Cover = Cover.OPEN
    defender_stands_in_cover: int = 0
    defender_at_gun_attached: bool = False
    defender_heavy_weapons_attached: bool = False
    attacker_smg: bool = False
    defender_smg: bool = False


def close_combat_modifiers(inputs: CloseCombatInput) -> tuple[tuple[Modifier, ...], tuple[Modifier, ...]]:
    """The attacker's and the defender's modifiers."""
    chart = CLOSE_COMBAT_MODIFIERS
    attacker: list[Modifier] = []
    defender: list[Modifier] = []
    if inputs.attacker_armour is not ArmourClass.NONE:
        in_cover = inputs.defender_cover in _DEFENDER_COVER
        name = "armor vs. cover" if in_cover else "armor vs. open"
        attacker.append(Modifier(name, chart["attacker"][name]))
        if inputs.attacker_armour is ArmourClass.LIGHT:
            attacker.append(Modifier("light armor", chart["attacker"]["light armor"]))
        if inputs.attacker_armour is ArmourClass.SUPERHEAVY:
            attacker.append(Modifier("superheavy armor", chart["attacker"]["superheavy armor"]))
    if inputs.defender_cover in _DEFENDER_COVER and inputs.defender_stands_in_cover >= 2:
        name = _DEFENDER_COVER[inputs.defender_cover]
        defender.append(Modifier(name, chart["defender"][name]))
    for name, attached in (
        ("AT gun attached", inputs.defender_at_gun_attached),
        ("Hvy Wpns attached", inputs.defender_heavy_weapons_attached),
    ):
        if attached:
            defender.append(Modifier(name, chart["defender"][name]))
    both = chart["both sides"]
    for side, smg in ((attacker, inputs.attacker_smg), (defender, inputs.defender_smg)):
        if smg:
            side.append(Modifier("submachinegun Bn.", both["submachinegun Bn."]))
    levels = list(Quality).index(inputs.attacker_quality) - list(Quality).index(inputs.defender_quality)
    if levels:
        side = attacker if levels > 0 else defender
        side.append(Modifier(f"higher morale x{abs(levels)}", both["higher morale, per level"] * abs(levels)))
    extra = inputs.attacker_unsuppressed - inputs.defender_unsuppressed
    if extra:
        side = attacker if extra > 0 else defender
        side.append(
            Modifier(f"{abs(extra)} extra unsuppressed", both["each extra unsuppressed stand"] * abs(extra))
        )
    return tuple(attacker), tuple(defender)


@procedure("gb.close_combat", "Close combat", CLOSE_COMBAT_RULE)
def roll_close_combat(inputs: CloseCombatInput, dice: DiceSource) -> CompoundResult:
    if min(inputs.attacker_unsuppressed, inputs.defender_unsuppressed, inputs.defender_stands_in_cover) < 0:
        raise ValueError(f"{CLOSE_COMBAT_RULE.text()}: stand counts cannot be negative")
    attacker_mods, defender_mods = close_combat_modifiers(inputs)
    results = []
    for side, modifiers in (("attacker", attacker_mods), ("defender", defender_mods)):
        thrown = roll(DiceKind.D10, dice)
        score = thrown.total + sum(m.value for m in modifiers)
        results.append(
            RollResult(
                title="Close combat",
                subject=side,
                rule=CLOSE_COMBAT_RULE,
                rolls=(thrown,),
                modifiers=modifiers,
                outcome=score,
                outcome_text=f"scores {score}",
                inputs=asdict(inputs),
            )
        )
    attacker, defender = results
    if attacker.score > defender.score:
        outcome, text = (
            CloseCombatOutcome.ATTACKER_WINS,
            'attacker wins: defender retreats 3", attacker advances 1"',
        )
    elif defender.score > attacker.score:
        outcome, text = (
            CloseCombatOutcome.DEFENDER_WINS,
            'defender wins: attacker retreats 3", defender advances 1"',
        )
    else:
        outcome, text = CloseCombatOutcome.CONTINUES, "equal: close combat continues next player turn"
    return CompoundResult(title="Close combat", results=tuple(results), outcome=outcome, outcome_text=text)
