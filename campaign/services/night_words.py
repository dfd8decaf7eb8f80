"""A side's night report in words (its e-mail, its Discord channel), apart from the services
that send it: the webhooks' fan-out, which the audit trail calls, reads it too."""

from __future__ import annotations

from campaign import models

# The counters' words, one home: the e-mail lists them one a line, the API documents the report
# body's fields with them and sends them in the vocabulary (`night_counter`) for the night page.
COUNTER_WORDS = {
    "battalions_isolated": "Battalions isolated from supply",
    "battalions_separated": "Battalions separated from their C Ops",
    "fups_moved": "FUPs moved up to their COPs",
    "suppressions_flipped": "Suppressed stands back in order",
    "ammo_markers_rolled": "Battalions rolled for their low-ammunition markers",
    "battalions_refuelled": "Vehicle battalions refuelled",
    "battalions_set_inactive": "Battalions set inactive",
    "forces_to_reroll_availability": "Forces to roll for availability again",
}


def night_report_lines(report: models.NightReport) -> list[str]:
    """A side's night report in lines (its e-mail, its Discord channel): the side's own figures
    (as its report holds them), the first line its title."""
    body = report.body
    lines = [f"{report.side.name} — {report.title.lower()}"]
    lines.append(
        f"Replacements: {body.get('replacements_returned', 0)} of "
        f"{body.get('replacements_due', 0)} destroyed stands returned"
    )
    if "extra_stands_lost" in body:
        lines.append(f"Extra stands lost (isolated): {body['extra_stands_lost']}")
    lines += [f"{words}: {body[counter]}" for counter, words in COUNTER_WORDS.items() if counter in body]
    lines.append(
        f"Activation points: {body.get('activation_points_carried', 0)} carried, "
        f"{body.get('activation_points_lost', 0)} lost"
    )
    lines += [
        f"{d['name']}: {d['carried']} of {d['before']} activation points carried"
        for d in body.get("divisions", [])
    ]
    lines.append(f"Barrage rounds: +{body.get('barrage_rounds_replenished', 0)}")
    if body.get("moved_to_reserve"):
        lines.append("To reserve: " + ", ".join(body["moved_to_reserve"]))
    if body.get("forces_removed"):
        lines.append("Removed in the night (command failed): " + ", ".join(body["forces_removed"]))
    if body.get("isolated_battalions"):
        lines.append("Cut off from supply: " + ", ".join(body["isolated_battalions"]))
    if body.get("campaign_result"):
        lines.append(f"The campaign is over. {body['campaign_result']}")
    return lines
