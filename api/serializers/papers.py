"""The printable papers a reader may print now, as links named in words (campaign.paper)."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from rest_framework import serializers
from rest_framework.reverse import reverse

from api.labels import LabelledSerializer
from api.permissions import CAMPAIGN_KWARG
from campaign import models
from campaign.paper import PaperOffered

# The route that prints each kind.
ROUTES = {
    "briefing": "api:day-briefing",
    "packet": "api:battle-packet",
    "chronicle": "api:campaign-chronicle",
}


class PaperLinkSerializer(LabelledSerializer[PaperOffered]):
    title = serializers.CharField(help_text="what the paper is, in words: the link's text")
    url = serializers.SerializerMethodField(help_text="where it prints (a PDF)")

    def get_url(self, offered: PaperOffered) -> str:
        campaign: models.Campaign = self.context["campaign"]
        kwargs: dict[str, Any] = {CAMPAIGN_KWARG: campaign.slug}
        if offered.kind == "briefing":
            kwargs["number"] = campaign.current_day
        elif offered.kind == "packet":
            kwargs["pk"] = self.context["battle"].public_id
        url = reverse(ROUTES[offered.kind], kwargs=kwargs, request=self.context.get("request"))
        if offered.side_id is None:
            return url
        query = QueryDict(mutable=True)
        query["side"] = str(offered.side_id)
        return f"{url}?{query.urlencode()}"


def paper_links(offered: list[PaperOffered], context: dict[str, Any]) -> list[dict[str, Any]]:
    row = PaperLinkSerializer(context=context)
    return [row.to_representation(paper) for paper in offered]
