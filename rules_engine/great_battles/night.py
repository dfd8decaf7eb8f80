"""Night phase: what every night resets, and replacements by supply (chart pg. 4).

Replacements are one d10 per destroyed stand read at or under the cell for the
battalion's supply situation and the scenario's supply quality (rules notes
GB-B-01); isolated battalions do not roll and lose one more stand.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from rules_engine.dice import DiceSource
from rules_engine.great_battles.common import Quality, ref, roll_against
from rules_engine.registry import procedure, table
from rules_engine.results import RollResult, to_jsonable
from rules_engine.vocab import SupplyQuality, SupplySituation

REPLACEMENT_RULE = ref("Night Phase, replacements [16.2.3]")


class NightReset(enum.Enum):
    """State that every night clears, whatever the steps did (FAQ 11, 38; chart pg. 13)."""

    ALL_BATTALIONS_INACTIVE = "all battalions become inactive"
    TEMPLATES_RETURNED = "used barrage templates are available again"
    UNUSED_ROUNDS_CARRIED = "unused barrage rounds carry over"
    TRANSPORT_MAY_RELOAD = "unloaded transport may reload"


NIGHT_RESETS: tuple[NightReset, ...] = table(
    "gb.night_resets",
    "What every night phase resets",
    ref("Night Phase; FAQ 11, 38; Transport; Barrage Rounds chart"),
    tuple(NightReset),
)


@dataclass(frozen=True)
class ReplacementCell:
    """One printed cell: highest d10 that returns a stand, and stands lost besides."""

    roll_at_most: int
    extra_stands_lost: int = 0

    @property
    def rolls(self) -> bool:
        return self.extra_stands_lost == 0

    def text(self) -> str:
        return (
            f"{self.roll_at_most}/-{self.extra_stands_lost}"
            if self.extra_stands_lost
            else str(self.roll_at_most)
        )


_ISOLATED = ReplacementCell(0, 1)
_SUPPLY_COLUMNS = tuple(SupplyQuality)  # Poor .. Superb, as printed left to right


def _row(*cells: int) -> dict[SupplyQuality, ReplacementCell]:
    return {quality: ReplacementCell(cell) for quality, cell in zip(_SUPPLY_COLUMNS, cells, strict=True)}


REPLACEMENTS: dict[SupplySituation, dict[SupplyQuality, ReplacementCell]] = table(
    "gb.night_replacements",
    "Replacements by supply situation and supply quality",
    REPLACEMENT_RULE,
    {
        # The Superb cell prints "0-1": read as the row's "0/-1" (GB-B-02).
        SupplySituation.ISOLATED: dict.fromkeys(_SUPPLY_COLUMNS, _ISOLATED),
        SupplySituation.SEPARATED: _row(0, 0, 1, 1, 2),
        SupplySituation.OK: _row(1, 2, 2, 3, 3),
        SupplySituation.RESERVE: _row(3, 5, 6, 7, 9),
    },
)


SITUATION_RULE = ref("Night Phase, replacements: Situation rows [16.2.3]; FAQ 23")


@dataclass(frozen=True)
class SupplySituationInput:
    """The umpire judges the line of communication; the distances are read here."""

    distance_to_c_ops_inches: float
    line_of_communication: bool = True  # traceable without passing the enemy's zone
    in_reserve: bool = False
    c_ops_overrun: bool = False  # the division's battalions are all isolated tonight
    ok_within_inches: float = 12
    isolated_from_inches: float = 36  # the row prints "36+" (GB-B-05)


@procedure("gb.supply_situation", "Battalion supply situation at nightfall", SITUATION_RULE, rolls=False)
def lookup_supply_situation(inputs: SupplySituationInput) -> SupplySituation:
    if inputs.in_reserve:
        return SupplySituation.RESERVE
    if (
        inputs.c_ops_overrun
        or not inputs.line_of_communication
        or inputs.distance_to_c_ops_inches >= inputs.isolated_from_inches
    ):
        return SupplySituation.ISOLATED
    if inputs.distance_to_c_ops_inches <= inputs.ok_within_inches:
        return SupplySituation.OK
    return SupplySituation.SEPARATED


MAP_SUPPLY_RULE = ref(
    "Night Phase, replacements: Situation rows [16.2.3]; FAQ 23; FAQ 44 Malta Scenario (source of supply)"
)


@dataclass(frozen=True)
class MapSupplyInput:
    """A battalion's line of supply as the campaign map traces it (rules notes MS-01, MS-02): over
    sectors its side holds, to a source of supply of its side and to its division's C Ops.
    Distances are counted in links between sectors, the map's measure."""

    line_to_source: bool
    links_to_c_ops: int | None = None  # None: no line over held sectors to its C Ops
    c_ops_on_map: bool = True
    in_reserve: bool = False
    c_ops_overrun: bool = False  # the division's battalions are all isolated tonight
    # The chart's 12" and 36" as links: a sector is about 12" of a C Ops' reach (MS-02).
    ok_within_links: int = 1
    isolated_beyond_links: int | None = 3  # None: no limit, as FAQ 23 reads it


@dataclass(frozen=True)
class MapSupplyReading:
    situation: SupplySituation
    reason: str


@procedure(
    "gb.map_supply_situation",
    "Battalion supply situation from the campaign map",
    MAP_SUPPLY_RULE,
    rolls=False,
)
def map_supply_situation(inputs: MapSupplyInput) -> MapSupplyReading:
    """The Situation rows read on the map: isolated without a line to a source of supply or to
    the C Ops, OK within ``ok_within_links`` of the C Ops, separated otherwise."""
    if inputs.in_reserve:
        return MapSupplyReading(SupplySituation.RESERVE, "in reserve, off the map")
    if inputs.c_ops_overrun:
        return MapSupplyReading(SupplySituation.ISOLATED, "its C Ops was overrun: the division is isolated")
    if not inputs.line_to_source:
        return MapSupplyReading(
            SupplySituation.ISOLATED, "no line over sectors its side holds to a source of supply"
        )
    if not inputs.c_ops_on_map:
        return MapSupplyReading(SupplySituation.SEPARATED, "in supply, but its C Ops is off the map")
    links = inputs.links_to_c_ops
    if links is None:
        return MapSupplyReading(SupplySituation.ISOLATED, "no line over sectors its side holds to its C Ops")
    away = "with its C Ops" if links == 0 else f"{links} sector{'s' if links > 1 else ''} from its C Ops"
    if inputs.isolated_beyond_links is not None and links > inputs.isolated_beyond_links:
        return MapSupplyReading(
            SupplySituation.ISOLATED, f"{away}, beyond the {inputs.isolated_beyond_links} the line may run"
        )
    if links <= inputs.ok_within_links:
        return MapSupplyReading(SupplySituation.OK, f"in supply, {away}")
    return MapSupplyReading(SupplySituation.SEPARATED, f"in supply, {away}")


class StandFate(enum.Enum):
    REPLACED = "replaced"
    NOT_REPLACED = "not replaced"
    NO_CHANCE = "no chance (cell 0)"
    ATTACHED = "attached: never replaced"
    ISOLATED = "isolated: no roll"
    WAITING_IN_RESERVE = "wiped out: waiting a full day in automatic reserve"


@dataclass(frozen=True)
class ReplacementInput:
    """One battalion at nightfall.

    ``destroyed_grades`` holds one entry per destroyed stand (its grade),
    ``destroyed_attached`` the matching attached flags (empty: none attached) and
    ``destroyed_labels`` their names for the roll's subject (empty: numbered in order, as
    rolls recorded before the names were passed read).
    """

    situation: SupplySituation
    supply_quality: SupplyQuality
    destroyed_grades: tuple[Quality, ...] = ()
    destroyed_attached: tuple[bool, ...] = ()
    destroyed_labels: tuple[str, ...] = ()
    battalion: str = ""
    # Every stand destroyed: automatic reserve, reserve rate after a full day (GB-B-03).
    wiped_out: bool = False
    full_days_waited: int = 0
    days_to_wait: int = 1
    # Airborne without C Ops/FUP: isolated but no extra stand lost (Airborne Supply 2).
    airborne_without_c_ops: bool = False
    # GB-B-04: an isolated battalion loses the extra stand even with no losses yet.
    extra_loss_needs_destroyed_stand: bool = False

    def __post_init__(self) -> None:
        if self.destroyed_attached and len(self.destroyed_attached) != len(self.destroyed_grades):
            raise ValueError("destroyed_attached needs one flag per destroyed stand")
        if self.destroyed_labels and len(self.destroyed_labels) != len(self.destroyed_grades):
            raise ValueError("destroyed_labels needs one name per destroyed stand")


@dataclass(frozen=True)
class StandReplacement:
    stand: int  # 1-based position in destroyed_grades
    fate: StandFate
    returns_as: Quality | None  # grade of the returned stand, if replaced
    roll: RollResult | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "stand": self.stand,
            "fate": self.fate.value,
            "returns_as": to_jsonable(self.returns_as),
            "roll": self.roll.to_dict() if self.roll else None,
        }


@dataclass(frozen=True)
class ReplacementResult:
    battalion: str
    situation: SupplySituation  # the row read (reserve for a rebuilt battalion)
    cell: ReplacementCell
    stands: tuple[StandReplacement, ...]
    extra_stands_lost: int

    @property
    def replaced(self) -> int:
        return sum(1 for s in self.stands if s.fate is StandFate.REPLACED)

    def roll_results(self) -> tuple[RollResult, ...]:
        return tuple(s.roll for s in self.stands if s.roll is not None)

    def outcome_text(self) -> str:
        text = f"{self.replaced} of {len(self.stands)} destroyed stands replaced"
        if self.extra_stands_lost:
            text += f", {self.extra_stands_lost} more stand lost"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "battalion": self.battalion,
            "situation": self.situation.value,
            "cell": self.cell.text(),
            "stands": [s.to_dict() for s in self.stands],
            "replaced": self.replaced,
            "extra_stands_lost": self.extra_stands_lost,
            "outcome_text": self.outcome_text(),
            "lines": [r.line() for r in self.roll_results()],
        }


def replacement_cell(situation: SupplySituation, supply: SupplyQuality) -> ReplacementCell:
    return REPLACEMENTS[situation][supply]


def _stand_subject(inputs: ReplacementInput, battalion: str, number: int) -> str:
    """ "1. Kp of G1" by the stand's name; "G1 stand 1" (its place among the destroyed) when
    the inputs name none, so a roll recorded before names were passed replays as recorded."""
    if inputs.destroyed_labels:
        return f"{inputs.destroyed_labels[number - 1]} of {battalion}"
    return f"{battalion} stand {number}"


def _row_read(inputs: ReplacementInput) -> SupplySituation:
    if inputs.wiped_out:
        return SupplySituation.RESERVE
    if inputs.airborne_without_c_ops:
        return SupplySituation.ISOLATED
    return inputs.situation


@procedure("gb.night_replacements", "Night replacements for one battalion", REPLACEMENT_RULE)
def roll_replacements(inputs: ReplacementInput, dice: DiceSource) -> ReplacementResult:
    situation = _row_read(inputs)
    cell = replacement_cell(situation, inputs.supply_quality)
    attached = inputs.destroyed_attached or (False,) * len(inputs.destroyed_grades)
    waiting = inputs.wiped_out and inputs.full_days_waited < inputs.days_to_wait
    cell_name = f"{situation.value} / {inputs.supply_quality.value}: {cell.text()}"
    stands: list[StandReplacement] = []
    subject = inputs.battalion or "battalion"
    # Most stands of a battalion share a grade: its texts and inputs are built once per grade.
    by_grade: dict[Quality, tuple[Quality, str, dict[str, Any]]] = {}
    for number, (grade, is_attached) in enumerate(zip(inputs.destroyed_grades, attached, strict=True), 1):
        if grade not in by_grade:
            # Rushed replacements of a rebuilt battalion come back a grade lower.
            lower = grade.lower() if inputs.wiped_out else grade
            roll_inputs = {"situation": situation, "supply_quality": inputs.supply_quality, "grade": grade}
            by_grade[grade] = (lower, f'replaced ({lower.value}), within 12" of FUP', roll_inputs)
        returns_as, replaced_text, roll_inputs = by_grade[grade]
        if is_attached:
            fate = StandFate.ATTACHED
        elif waiting:
            fate = StandFate.WAITING_IN_RESERVE
        elif not cell.rolls:
            fate = StandFate.ISOLATED
        elif cell.roll_at_most < 1:
            fate = StandFate.NO_CHANCE  # a d10 never reads 0, so nothing is rolled
        else:
            result = roll_against(
                title="Replacement",
                rule=REPLACEMENT_RULE,
                dice=dice,
                threshold=cell.roll_at_most,
                passed=(StandFate.REPLACED, replaced_text),
                failed=(StandFate.NOT_REPLACED, "not replaced"),
                subject=_stand_subject(inputs, subject, number),
                cell=cell_name,
                inputs=roll_inputs,
            )
            stands.append(StandReplacement(number, result.outcome, returns_as, result))
            continue
        stands.append(StandReplacement(number, fate, None))
    loses_extra = not inputs.airborne_without_c_ops and (
        not inputs.extra_loss_needs_destroyed_stand or bool(inputs.destroyed_grades)
    )
    return ReplacementResult(
        battalion=inputs.battalion,
        situation=situation,
        cell=cell,
        stands=tuple(stands),
        extra_stands_lost=cell.extra_stands_lost if loses_extra else 0,
    )
