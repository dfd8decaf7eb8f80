"""A force status as a poll answers it (its JSON body and ETag): rendered for the request that
finds no entry in the cache, or, after a night, by a task for the readers who polled it during
the night (:func:`force_statuses_render`), so that their first poll after it is warm.
Each entry is kept under its reader's audience (``campaign.audiences``): readers of one see the
same."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.http import HttpResponse
from rest_framework import status
from rest_framework.renderers import JSONRenderer

from api import conditional
from api.serializers.force_status import ForceStatusSerializer
from campaign import access as access_rules
from campaign import models, polls, selectors
from campaign.access import CampaignAccess
from campaign.audiences import audience_reader
from campaign.services import day_rules
from campaign.services import supply as supply_services
from campaign.services.rules import optional_rule_on


def force_status_data(access: CampaignAccess, force: models.Force, context: dict[str, Any]) -> Any:
    """The status of ``force`` (one ``access`` sees) as ``access`` reads it, inside
    ``selectors.one_moment()`` (never half of a night); ``context``: the serializer's."""
    # Its battalions and fog ask where the reader is in contact several times: read once.
    access = access_rules.contact_read(access)
    in_full = access.sees_in_full(force.side_id)
    campaign = access.campaign
    context = {
        **context,
        "access": access,
        "latest_night_report": selectors.latest_night_report(force.side_id) if in_full else None,
        # The C Ops rolls by day: during a night the supply it reads is being rewritten.
        "cops_isolated_from_source": (
            force.pk in supply_services.supply_cops_isolated(campaign)
            if in_full
            and not selectors.night_in_progress(campaign)
            and optional_rule_on(campaign, day_rules.COPS_ACTION_POINTS)
            else None
        ),
    }
    force_status = selectors.force_status(force.pk, selectors.battalions(access))
    return ForceStatusSerializer(force_status, context=context).data


def force_status_rendered(data: Any) -> polls.RenderedForceStatus:
    """``data`` as a poll sends it: JSON (no indent: the poll's media type has no parameters)."""
    body = JSONRenderer().render(data, JSONRenderer.media_type, {})
    return polls.RenderedForceStatus(body=body, etag=conditional.weak_etag(data))


def status_response(cached: polls.CachedForceStatus) -> HttpResponse:
    """A poll's answer in JSON: the status with its ETag, or 304 with no body when the client
    holds it (:mod:`api.warm_polls` answers with it too)."""
    if cached.body is None:
        response = HttpResponse(status=status.HTTP_304_NOT_MODIFIED)
        del response["Content-Type"]  # no content: nothing to type (as DRF's own 304)
    else:
        response = HttpResponse(cached.body, content_type=JSONRenderer.media_type)
    response["ETag"], response["Cache-Control"] = cached.etag, conditional.CACHE_CONTROL
    return response


def force_statuses_render(campaign_id: int, versions: Collection[int]) -> int:
    """Render, at the campaign's version shown now, the statuses polled at ``versions``
    (those whose entries exist: a status nobody polled costs nothing) and store them for the
    next polls; the number rendered (none that a poll stored already)."""
    polled = polls.statuses_polled(campaign_id, versions)
    if not polled:
        return 0
    with selectors.one_moment():  # the version and every status of one moment
        campaign = models.Campaign.objects.get(pk=campaign_id)
        version = selectors.version_shown(campaign)
        return sum(_status_render(campaign, version, force_id, audience) for force_id, audience in polled)


def _status_render(campaign: models.Campaign, version: int, force_id: str, audience: str) -> bool:
    """Store the status at ``version`` unless a poll did already; whether it was rendered."""
    # The force found here and its status ask where the reader is in contact: read once.
    access = access_rules.contact_read(audience_reader(campaign, audience))
    force = selectors.forces(access).filter(public_id=force_id).first()
    if force is None:  # no longer seen: its next poll answers 404
        return False
    rendered = False

    def render() -> polls.RenderedForceStatus:
        nonlocal rendered
        rendered = True
        return force_status_rendered(force_status_data(access, force, {}))

    # "*": an entry a poll stored already is left as it is, its body unread.
    polls.force_status_cached(campaign.pk, version, force_id, audience, "*", render)
    return rendered
