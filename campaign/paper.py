"""Printable papers for one side: the day's briefing and a battle's packet, as PDF or as the
web page the PDF is laid out from.

Each shows the campaign as that side's players see it (:meth:`CampaignAccess.of_side`, the
API's fog of war): their own battalions with every stand's state, the enemy's only as far as
the enemy's fog settings reveal, the set-up results rolled for both sides and for their own.

WeasyPrint lays them out from Django templates (``campaign/templates/campaign/paper/``): the
papers are HTML and CSS like the rest of the project (paged media for A4, headers and page
numbers), where ReportLab would need a second layout language in Python. It needs Pango
(Debian's ``libpango-1.0-0``/``libpangoft2-1.0-0``), imported only when a paper is printed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.template.loader import render_to_string

from campaign import access as access_rules
from campaign import models, selectors
from campaign.access import CampaignAccess
from campaign.choices import StandStatus
from campaign.map_svg import map_svg
from campaign.services.errors import DomainError, NotFoundError
from rules_engine import catalog
from rules_engine.panzer_korps.wind import wind_words
from rules_engine.registry import CatalogError


@dataclass
class BattalionPaper:
    """A battalion's lines: its stands when the reader sees its strength, else none."""

    battalion: models.Battalion
    strength_shown: bool
    stands: list[models.Stand] = field(default_factory=list)

    @property
    def counts(self) -> list[tuple[str, int]]:
        """Stands by state, in the states' order: "OK 5, Suppressed 1"."""
        counted = Counter(stand.status for stand in self.stands)
        return [(status.label, counted[status.value]) for status in StandStatus if counted[status.value]]


@dataclass
class SetupLine:
    title: str
    side: str | None  # the side it was rolled for; None when rolled once for both
    text: str | None  # None: it quotes strengths the reader does not see
    table_roll: str = ""  # "rolled at the table by <member>" (RollRecord.table_roll)


def _side_view(campaign: models.Campaign, side_id: int) -> tuple[CampaignAccess, models.Side]:
    side_view = CampaignAccess.of_side(campaign, side_id)
    side = side_view.sides.get(side_id)
    if side is None:
        raise DomainError(f"side {side_id} is not a side of this campaign", field="side")
    return side_view, side


def _battalion_papers(access: CampaignAccess, battalions: list[models.Battalion]) -> list[BattalionPaper]:
    papers = []
    for battalion in battalions:
        # The selectors left out the stands the reader may not see; this says why there are none.
        shown = access.sees_in_full(battalion.side_id) or access.fog(battalion.side_id).strengths
        papers.append(BattalionPaper(battalion, shown, list(battalion.stands.all()) if shown else []))
    return papers


def _procedure_title(key: str) -> str:
    try:
        return catalog.get_procedure(key).title
    except CatalogError:
        return key


def _result_text(result: dict[str, Any]) -> str | None:
    """What a set-up result says: its outcome as people read it (None when it quotes strengths
    the reader does not see), or for a table reading without one its plain values."""
    if "outcome_text" in result or "line" in result:
        return result.get("outcome_text") or result.get("line")
    shown = []
    for name, value in result.items():
        if isinstance(value, list) and all(isinstance(item, str | int | float) for item in value):
            value = ", ".join(str(item) for item in value) or "none"
        if isinstance(value, str | int | float) and name != "rule":
            shown.append(f"{name.replace('_', ' ')}: {value}")
    return "; ".join(shown)


def _setup_lines(access: CampaignAccess, battle: models.Battle) -> list[SetupLine]:
    lines = []
    entered = battle.rolls.filter(at_table=True, override_of__isnull=True).select_related("actor")
    table_rolls = {roll.changes.get("setup"): roll.table_roll for roll in entered}
    for key, result in access_rules.battle_setup_shown(access, battle).items():
        result = result if isinstance(result, dict) else {}
        procedure, _, side = key.partition("@")
        title = str(result.get("title") or _procedure_title(procedure))
        lines.append(SetupLine(title, side or None, _result_text(result), table_rolls.get(key, "")))
    return lines


def segments_of_day(
    access: CampaignAccess, day: models.CampaignDay, only: set[int] | None = None
) -> list[tuple[models.DaySegmentRecord, models.Side | None, str]]:
    """The day's segments (``only`` those, when given) with the side that has the initiative and
    the wind in words."""
    return [
        (
            segment,
            access.sides.get(segment.initiative_side_id) if segment.initiative_side_id else None,
            wind_words(segment.wind_velocity, segment.wind_direction),
        )
        for segment in day.segments.all()
        if not only or segment.pk in only
    ]


def _pools(side: models.Side, day: models.CampaignDay) -> dict[str, Any]:
    """The side's pools now (as before a night under way) and as ``day`` dawned."""
    before = selectors.night_before(side.campaign_id, "side")
    if before is not None:
        before.restore(side)
    return {"now": side, "at_dawn": selectors.dawn_tally(side.pk, day)}


def _side_map(access: CampaignAccess, side: models.Side, day: models.CampaignDay) -> str | None:
    """The side's map as its players see it (fog-filtered like map/), as SVG; none without a map."""
    document = selectors.map_document(access)
    if not any(sector.placed for sector in document.sectors):
        return None
    sides = list(access.sides.values())
    return map_svg(document, sides, title=f"{side.name}'s map, day {day.number}")


def briefing_context(campaign: models.Campaign, day_number: int, side_id: int) -> dict[str, Any]:
    """What a side's briefing for a day shows (read in one moment)."""
    access, side = _side_view(campaign, side_id)
    day = selectors.days(access).filter(number=day_number).first()
    if day is None:
        raise NotFoundError(f"day {day_number} has not dawned", field="day")
    forces = selectors.oob(access)
    selectors.night_restore_tree(campaign.pk, forces)
    battles = list(selectors.battles(access).filter(day=day).select_related("attacker", "defender"))
    return {
        "campaign": campaign,
        "side": side,
        "day": day,
        "segments": segments_of_day(access, day),
        "pools": _pools(side, day),
        "forces": [
            {
                "force": force,
                "own": force.side_id == side.pk,
                "battlegroups": [
                    (group, _battalion_papers(access, list(group.battalions.all())))
                    for group in force.battlegroups.all()
                ],
            }
            for force in forces
        ],
        "battles": [(battle, _setup_lines(access, battle)) for battle in battles],
        "map_svg": _side_map(access, side, day),
        # Public (sectors and owners, C-17): the same for every side, as the map stands now.
        "victory": selectors.victory_standing(campaign),
    }


def packet_context(campaign: models.Campaign, battle: models.Battle, side_id: int) -> dict[str, Any]:
    """What a side's packet for a battle it fights shows (read in one moment)."""
    access, side = _side_view(campaign, side_id)
    if side_id not in (battle.attacker_id, battle.defender_id):
        raise DomainError(f"{side.name} does not fight the battle at {battle.sector}", field="side")
    battle = selectors.battles(access).select_related("attacker", "defender").get(pk=battle.pk)
    day = selectors.days(access).get(pk=battle.day_id)
    segment_ids = set(battle.segments.values_list("pk", flat=True))
    battalions = list(selectors.battle_battalions(access, battle))
    return {
        "campaign": campaign,
        "side": side,
        "day": day,
        "battle": battle,
        "segments": segments_of_day(access, day, segment_ids),
        "pools": _pools(side, day),
        "setup": _setup_lines(access, battle),
        "own": _battalion_papers(access, [b for b in battalions if b.side_id == side.pk]),
        "enemy": _battalion_papers(access, [b for b in battalions if b.side_id != side.pk]),
    }


class PaperUnavailable(DomainError):
    """This machine lacks what WeasyPrint lays out text with."""

    status = 503

    def __init__(self, reason: OSError):
        super().__init__(
            f"printing needs Pango (Debian: apt-get install libpango-1.0-0 libpangoft2-1.0-0): {reason}",
            code="printing_unavailable",
        )


def pdf(html: str) -> bytes:
    """A paper's web page laid out as a PDF: layout only, nothing more is read."""
    try:
        import weasyprint  # needs Pango: loaded with the first paper, not with every process
    except OSError as missing_library:
        raise PaperUnavailable(missing_library) from missing_library

    return bytes(weasyprint.HTML(string=html).write_pdf())


@dataclass(frozen=True)
class PaperOffered:
    """A paper the reader may print now, named in words; the API turns it into a link."""

    kind: str  # "briefing", "packet" or "chronicle": which route prints it
    title: str
    side_id: int | None = None  # the side it is printed for; None: printed for the reader


def campaign_papers(access: CampaignAccess) -> list[PaperOffered]:
    """The day under way's briefings of the sides the reader prints for, then the chronicle so
    far (printed for the reader): nothing before day 1 dawns."""
    day = access.campaign.current_day
    if not day:
        return []
    briefings = [
        PaperOffered("briefing", f"{side.name}'s briefing for day {day} (PDF)", side_id)
        for side_id, side in access.sides.items()
        if access.prints_for(side_id)
    ]
    return [*briefings, PaperOffered("chronicle", "The chronicle so far (PDF)")]


def battle_papers(access: CampaignAccess, battle: models.Battle) -> list[PaperOffered]:
    """A battle's packets, one for each side fighting it that the reader prints for (in the
    sides' order, as the briefings)."""
    fighting = {battle.attacker_id, battle.defender_id}
    return [
        PaperOffered("packet", f"{side.name}'s battle packet (PDF)", side_id)
        for side_id, side in access.sides.items()
        if side_id in fighting and access.prints_for(side_id)
    ]


def briefing_html(campaign: models.Campaign, day_number: int, side_id: int) -> str:
    with selectors.one_moment():
        context = briefing_context(campaign, day_number, side_id)
    return render_to_string("campaign/paper/briefing.html", context)


def packet_html(campaign: models.Campaign, battle: models.Battle, side_id: int) -> str:
    with selectors.one_moment():
        context = packet_context(campaign, battle, side_id)
    return render_to_string("campaign/paper/packet.html", context)
