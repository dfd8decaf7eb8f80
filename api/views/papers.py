"""Printable papers: the PDF or HTML a day or a battle prints."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils.text import slugify
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import PermissionDenied

from api import inputs
from api.viewsets import CampaignScopedViewSet
from campaign import paper
from campaign.choices import PaperFormat

PAPER_RESPONSE = {(200, "application/pdf"): OpenApiTypes.BINARY, (200, "text/html"): OpenApiTypes.STR}
PAPER_SIDE = OpenApiParameter(
    "side", int, OpenApiParameter.QUERY, required=True, description="the side it is printed for"
)
PAPER_FORMAT = OpenApiParameter(
    "output",
    str,
    OpenApiParameter.QUERY,
    enum=PaperFormat.values,
    default=PaperFormat.PDF.value,
    description="; ".join(f"`{value}`: {label}" for value, label in PaperFormat.choices),
)


# Not a docstring: the schema would take it for the description of the viewsets deriving from it.
class PaperMixin(CampaignScopedViewSet[Any]):
    # Printable papers of a side (campaign.paper): its players and the umpires print them.

    def paper_query(self) -> tuple[int, PaperFormat]:
        query = inputs.PaperInput(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        side_id: int = query.validated_data["side"]
        if not self.campaign_access.prints_for(side_id):
            raise PermissionDenied("Only the umpires and the side's own players may print its papers.")
        return side_id, PaperFormat(query.validated_data["output"])

    def paper_response(
        self, html: str, paper_format: PaperFormat, side_id: int, *name: object
    ) -> HttpResponse:
        side = self.campaign_access.sides[side_id]  # the paper was printed: the side exists
        return paper_http_response(html, paper_format, self.campaign_access.campaign.slug, *name, side.name)


def paper_http_response(html: str, paper_format: PaperFormat, *name: object) -> HttpResponse:
    """A paper as its format asks, shown in the browser and saved under a name made of ``name``."""
    filename = f"{slugify('-'.join(str(part) for part in name))}.{paper_format.value}"
    if paper_format is PaperFormat.HTML:
        response = HttpResponse(html, content_type="text/html; charset=utf-8")
    else:
        response = HttpResponse(paper.pdf(html), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
