"""The campaign's chronicle: a printable record of the campaign so far, a page per day with the map
as it stood after that day's night, the weather, and the day's battles with their results.

It is printed for its reader (:class:`CampaignAccess`): an umpire's copy shows everything, a
player's the campaign as their side saw it. Each day's map is the snapshot kept then for the
reader's audience (``campaign.selectors.map_replay``), never today's state; the battles and
their report lines pass through the same selectors and fog rules as the API's battles. Laid out
by WeasyPrint like the other papers (:mod:`campaign.paper`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string

from campaign import access as access_rules
from campaign import models, selectors
from campaign.access import CampaignAccess
from campaign.choices import BattleStatus, MapMoment
from campaign.map_svg import map_svg
from campaign.paper import segments_of_day


@dataclass(frozen=True)
class ChronicleBattle:
    battle: models.Battle
    attacker: str
    defender: str
    result: str | None  # in words; None until it is reported
    lines: list[str]  # the report's lines the reader sees, in words


@dataclass(frozen=True)
class ChronicleFigures:
    """The day's figures as the reader may read them, a row a figure and a column a side."""

    sides: list[str]
    rows: list[tuple[str, list[str]]]  # the figure in words, then each side's value in words


@dataclass(frozen=True)
class ChronicleDay:
    day: models.CampaignDay
    segments: list[tuple[models.DaySegmentRecord, models.Side | None, str]]
    map_moment: str | None  # the moment of the map shown, in words; None: no map kept
    map_svg: str | None
    battles: list[ChronicleBattle]
    figures: ChronicleFigures | None  # None: no tally of that day


def _stands(labels: list[Any]) -> str:
    return ", ".join(str(label) for label in labels)


def _result(battle: models.Battle, names: dict[int, str]) -> str | None:
    if battle.status != BattleStatus.REPORTED:
        return None
    return f"{names[battle.winner_id]} won." if battle.winner_id else "Neither side won."


def _report_lines(access: CampaignAccess, battle: models.Battle) -> list[str]:
    """ "G1: lost 1. Kp, 2. Kp; suppressed 3. Kp", for each battalion line the reader sees."""
    if battle.report is None:
        return []
    visible = {b.code: b.side_id for b in getattr(battle, "visible_battalions", [])}
    lines = []
    for entry in access_rules.battle_report_shown(access, battle.report, visible).get("battalions", []):
        parts = [
            f"{outcome} {_stands(entry[key])}"
            for key, outcome in (("destroyed", "lost"), ("suppressed", "suppressed"))
            if entry.get(key)
        ]
        lines.append(f"{entry['code']}: {'; '.join(parts) if parts else 'no stand lost or suppressed'}")
    return lines


def _day_map(access: CampaignAccess, day: models.CampaignDay) -> tuple[str | None, str | None]:
    """The map kept after the day's night, else at its dawn, as the reader's audience saw it."""
    for moment in (MapMoment.NIGHT, MapMoment.DAWN):
        document = selectors.map_replay(access, day.number, moment.value)
        if document is not None and any(sector.placed for sector in document.sectors):
            title = f"Day {day.number}, {moment.label.lower()}"
            return str(moment.label), map_svg(document, list(access.sides.values()), title=title)
    return None, None


def _figures(access: CampaignAccess, tallies: selectors.DayTallies) -> ChronicleFigures:
    """The statistics' figures of a day (``campaign.selectors.statistics``, its fog per figure)."""
    shown = [
        (access.sides[side_day.side_id].name, selectors.figures_shown(access, side_day))
        for side_day in tallies.tallies
    ]

    def value(name: str, figure: int | None) -> str:
        if figure is not None:
            return str(figure)
        return "after the night" if name in selectors.AFTER_NIGHT and not tallies.night_done else "hidden"

    return ChronicleFigures(
        sides=[side for side, _ in shown],
        rows=[
            (words, [value(name, figures[name]) for _, figures in shown])
            for name, words in selectors.FIGURE_WORDS.items()
        ],
    )


def _reader(access: CampaignAccess) -> str:
    """Whose copy it is, for its header: the fog it was printed through."""
    if access.is_umpire:
        return "the umpires' copy: everything shown"
    if access.player_side_id is not None:
        return (
            f"{access.sides[access.player_side_id].name}'s copy: the enemy as far as their fog of war reveals"
        )
    return "an observer's copy: what every member sees"


def chronicle_context(access: CampaignAccess) -> dict[str, Any]:
    """What the reader's chronicle shows, day by day (read in one moment)."""
    names = {pk: side.name for pk, side in access.sides.items()}
    battles_by_day: dict[int, list[ChronicleBattle]] = {}
    for battle in selectors.battles(access):
        battles_by_day.setdefault(battle.day_id, []).append(
            ChronicleBattle(
                battle=battle,
                attacker=names[battle.attacker_id],
                defender=names[battle.defender_id],
                result=_result(battle, names),
                lines=_report_lines(access, battle),
            )
        )
    figures = {tallies.day.number: _figures(access, tallies) for tallies in selectors.statistics(access).days}
    days = []
    for day in selectors.days(access):
        moment, svg = _day_map(access, day)
        battles = battles_by_day.get(day.pk, [])
        days.append(
            ChronicleDay(day, segments_of_day(access, day), moment, svg, battles, figures.get(day.number))
        )
    return {
        "campaign": access.campaign,
        "reader": _reader(access),
        "reader_is_player": access.player_side_id is not None,
        "days": days,
        "victory": selectors.victory_standing(access.campaign),
    }


def chronicle_html(access: CampaignAccess) -> str:
    with selectors.one_moment():
        context = chronicle_context(access)
    return render_to_string("campaign/paper/chronicle.html", context)
