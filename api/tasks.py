"""Celery tasks of the API: ids in, one call, safe to run twice."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from api.force_statuses import force_statuses_render

FORCE_STATUSES_RENDER_TASK = "api.tasks.force_statuses_render_task"


@shared_task(name=FORCE_STATUSES_RENDER_TASK, acks_late=True)
def force_statuses_render_task(campaign_id: int, versions: list[int]) -> int:
    """Render the force statuses polled at ``versions`` at the version shown now (after a night's
    commit: before and during it); a second run finds them stored and renders none."""
    return force_statuses_render(campaign_id, versions)


def force_statuses_render_send(sender: Any, campaign_id: int, versions: list[int], **kwargs: Any) -> None:
    """``campaign.polls.statuses_outdated``'s receiver: the render, on the messages worker
    (a lost message costs only a cold poll, which renders the status as before)."""
    force_statuses_render_task.delay(campaign_id, versions)
