"""The night's reports by e-mail: each member told their night report is ready, with its figures."""

from __future__ import annotations

from django.db import transaction

from campaign import models
from campaign.access import CampaignAccess, reports_for
from campaign.choices import NotificationKind, OperationStatus
from campaign.links import campaign_page
from campaign.services.audit import Actor
from campaign.services.night_words import night_report_lines
from campaign.services.notifications import notification_send, notifications_recorded
from rules_engine.vocab import counted

# The night phase's actor: its steps' records and its reports' notifications.
SYSTEM_ACTOR = Actor(request_id="night-phase")


@transaction.atomic
def night_reports_notify(operation_id: int) -> list[models.Notification]:
    """Tell each member their night report is ready (in the inbox, and e-mailed with the report's
    figures): a player their side's, an umpire every side's, an observer nothing. Once per member
    and night: the operation is the notifications' subject key, so a second run tells nobody."""
    operation = models.Operation.objects.select_related("campaign", "day").filter(pk=operation_id).first()
    if operation is None or operation.status != OperationStatus.DONE:
        return []
    campaign = operation.campaign
    reports = list(operation.night_reports.select_related("side", "day", "operation__segment"))
    # Members reading the same reports get the same notification: one send for each such group.
    groups: dict[tuple[int, ...], list[models.Membership]] = {}
    for membership in campaign.memberships.select_related("user").order_by("pk"):
        mine = reports_for(CampaignAccess.of_member(campaign, membership), reports)
        if mine:
            groups.setdefault(tuple(r.pk for r in mine), []).append(membership)
    by_id = {report.pk: report for report in reports}
    title = f"Night report, day {operation.day.number}"
    sent: list[models.Notification] = []
    for report_ids, members in groups.items():
        mine = [by_id[pk] for pk in report_ids]
        sent += notification_send(
            campaign,
            members,
            NotificationKind.NIGHT_REPORT_READY,
            title,
            "\n\n".join(_report_text(r) for r in mine),
            campaign_page(campaign.slug, "night"),
            SYSTEM_ACTOR,
            side_id=mine[0].side_id if len(mine) == 1 else None,
            key=f"operation:{operation.pk}",
            recorded=False,
        )
    # One line on the timeline for the night, not one per group of readers.
    if sent:
        told = counted(len(sent), "member")
        notifications_recorded(
            campaign, sent, f"Night report of day {operation.day.number} ready: {told} told", SYSTEM_ACTOR
        )
    return sent


def _report_text(report: models.NightReport) -> str:
    return "\n".join(night_report_lines(report))
