"""A reader's audience, as a key: the umpires', a side's players' (the side's id), or an
observer's (what is public). Readers of one audience see the same: map snapshots keep each
audience's view under its key (``selectors.map_replay``), and force statuses are cached by it
(``campaign.polls``)."""

from __future__ import annotations

from campaign import models
from campaign.access import CampaignAccess
from campaign.choices import MemberRole

UMPIRE = "umpire"
OBSERVER = "observer"


def audience_of(access: CampaignAccess) -> str:
    """Which audience ``access`` reads as."""
    if access.is_umpire:
        return UMPIRE
    side_id = access.player_side_id
    return str(side_id) if side_id is not None else OBSERVER


def audience_reader(campaign: models.Campaign, audience: str) -> CampaignAccess:
    """A reader of ``audience`` in ``campaign`` (:func:`audience_of`'s inverse)."""
    if audience == UMPIRE:
        return CampaignAccess(campaign=campaign, role=MemberRole.UMPIRE, side_id=None)
    if audience == OBSERVER:
        return CampaignAccess(campaign=campaign, role=MemberRole.OBSERVER, side_id=None)
    return CampaignAccess.of_side(campaign, int(audience))
