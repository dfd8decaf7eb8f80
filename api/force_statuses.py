"""A force status as a poll answers it (its JSON body and ETag): rendered for the request that
finds no entry in the cache, or, as a night starts and ends, inside its transaction for the
readers who polled it before (:func:`force_statuses_render`), so that their first poll after
its commit is warm.
Each entry is kept under its reader's audience (``campaign.audiences``): readers of one see the
same."""

from __future__ import annotations

import uuid
from collections import defaultdict
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


def force_statuses_render(
    sender: Any, campaign_id: int, polled: Collection[tuple[str, str]], **kwargs: Any
) -> list[polls.ForceStatusEntry]:
    """``campaign.polls.statuses_outdated``'s receiver, inside the write's transaction: the
    statuses ``polled`` (as (force, audience)) rendered as it reads them, at its version shown; a
    force its reader no longer sees is left out (its next poll answers 404)."""
    campaign = models.Campaign.objects.get(pk=campaign_id)
    version = selectors.version_shown(campaign)
    # The forces each audience polled, by public id, as their polls named them (their entries' keys).
    by_audience: dict[str, dict[uuid.UUID, str]] = defaultdict(dict)
    for force_id, audience in polled:
        by_audience[audience][uuid.UUID(force_id)] = force_id
    entries = []
    for audience, named in by_audience.items():
        # Each reader once, and where it is in contact read once: its forces and statuses ask.
        access = access_rules.contact_read(audience_reader(campaign, audience))
        for force in selectors.forces(access).filter(public_id__in=named):
            rendered = force_status_rendered(force_status_data(access, force, {}))
            entries.append(polls.ForceStatusEntry(named[force.public_id], audience, version, rendered))
    return entries
