"""Campaign days and the activation points spent in them."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from api import inputs, schema
from api.serializers.days import ActivationSpendSerializer, DawnPreviewSerializer, DaySerializer
from api.serializers.dice import DayDiceSerializer
from api.views.base import UMPIRE_PERMISSIONS, PublicIdLookup
from api.views.papers import PAPER_FORMAT, PAPER_RESPONSE, PAPER_SIDE, PaperMixin
from api.views.rolls import ROLL_ANSWER, roll_answer
from api.viewsets import CampaignScopedViewSet, ReadOnlyCampaignViewSet
from campaign import models, paper, selectors
from campaign.access import CampaignAccess
from campaign.models.days import JOURNAL_MAX_LENGTH
from campaign.services import activation as activation_services
from campaign.services import day_rules
from campaign.services import days as day_services
from campaign.services import journal as journal_services
from campaign.services.errors import ConflictError, DomainError


@extend_schema(tags=["days"])
@extend_schema_view(
    list=extend_schema(summary="Campaign days with their segments"),
    retrieve=extend_schema(summary="One campaign day, by number"),
)
class DayViewSet(PaperMixin, ReadOnlyCampaignViewSet[models.CampaignDay]):
    model = models.CampaignDay
    serializer_class = DaySerializer
    lookup_field = "number"
    lookup_value_regex = r"[0-9]+"
    ordering_fields = ["number"]

    def visible(self, access: CampaignAccess) -> QuerySet[models.CampaignDay]:
        return selectors.days(access)

    @extend_schema(
        summary="Dawn the next day (umpires; idempotent)",
        description="Rolls the day's weather, deploys the battalions leaving reserve and opens the "
        "first segment (initiative, wind, turns); records each side's dawn tally for the charts. "
        "The previous day must be through its night phase. Send an Idempotency-Key to retry safely.",
        request=inputs.DayDawnInput,
        responses={201: DaySerializer},
        examples=[schema.DAY_DAWN_EXAMPLE],
    )
    @action(detail=False, methods=["post"])
    def dawn(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.DayDawnInput)
        orders = [day_services.DeploymentOrder(**order) for order in data.get("deployments", [])]
        day = day_services.day_dawn(self.campaign_access.campaign.pk, self.actor, orders)
        return self.respond(day, status.HTTP_201_CREATED)

    @extend_schema(
        summary="What dawn would do to the battalions leaving reserve (umpires; writes nothing)",
        description="Reads the deployment chart for each deployment as `POST days/dawn/` would, "
        "and names the stands its casualties fall on. The chart is read, not rolled, so this is "
        "exactly what the dawn does with the same deployments; it rolls nothing (weather, "
        "initiative, wind and turns are the dawn's own rolls). Refused as the dawn would be.",
        request=inputs.DayDawnInput,
        responses=OpenApiResponse(DawnPreviewSerializer, examples=[schema.DAWN_PREVIEW_EXAMPLE]),
        examples=[schema.DAY_DAWN_EXAMPLE],
    )
    @action(detail=False, methods=["post"], url_path="dawn-preview")
    def dawn_preview(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.DayDawnInput)
        orders = [day_services.DeploymentOrder(**order) for order in data.get("deployments", [])]
        preview = day_services.dawn_preview(self.campaign_access.campaign.pk, orders)
        return Response(DawnPreviewSerializer(preview).data)

    @extend_schema(
        summary="Open the day's next segment (umpires; idempotent)",
        description="Only the day under way advances (409 otherwise). Rolls the new segment's "
        "initiative, wind and turns, and starts arrival rolls for forces due. Answers the day with "
        "its segments, the new one last. Send an Idempotency-Key to retry safely.",
        request=None,
        responses=DaySerializer,
    )
    @action(detail=True, methods=["post"], url_path="advance-segment")
    def advance_segment(self, request: Request, **kwargs: Any) -> Response:
        day = self.get_object()
        day_services.segment_advance(self.campaign_access.campaign.pk, self.actor, day_number=day.number)
        return self.respond(day)

    @extend_schema(
        summary="Write the day's journal (umpires)",
        description="The umpire's short account of the day, which the timeline shows every member: "
        "the whole text, replacing the one there was (blank clears it), at most "
        f"{JOURNAL_MAX_LENGTH} characters. Written again with the same text, nothing changes. "
        "Answers the day.",
        request=inputs.DayJournalInput,
        responses=DaySerializer,
    )
    @action(detail=True, methods=["put"], permission_classes=UMPIRE_PERMISSIONS)
    def journal(self, request: Request, **kwargs: Any) -> Response:
        text = self.validated(inputs.DayJournalInput)["text"]
        day = journal_services.day_journal_write(
            self.campaign_access.campaign.pk, self.actor, int(self.kwargs["number"]), text
        )
        return self.respond(day)

    @extend_schema(
        summary="A revealed day's dice: its seed and roll log, to verify",
        description="The document `python -m rules_engine verify` replays: the public commitment and "
        "seed of the day, the day's seeds of the other audiences you are of (your side's, your "
        "battles'; every audience's for umpires and once the campaign is over: rules notes C-22), and "
        "every roll of the day you may read (umpires all; players the public rolls, their side's and "
        "their battles'), in the order rolled, each naming the audience whose seed rolled it, with the "
        "recorded faces and results. "
        "A roll whose inputs quote strengths hidden from you is marked `hidden` and cannot be replayed; "
        "an umpire's override is marked `override`. 409 until the day's night phase reveals its seed.",
        responses={200: DayDiceSerializer, 409: OpenApiResponse(description="not revealed yet")},
    )
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def dice(self, request: Request, **kwargs: Any) -> Response:
        day = self.get_object()
        document = selectors.day_dice(self.campaign_access, day)
        if document is None:
            raise ConflictError(
                f"day {day.number}'s dice seed is not revealed yet: it is revealed when day "
                f"{day.number}'s night phase is done",
                field="day",
                code="dice_not_revealed",
            )
        context = {**self.get_serializer_context(), "access": self.campaign_access}
        return Response(DayDiceSerializer(document, context=context).data)

    @extend_schema(
        summary="A side's printable briefing for the day (PDF)",
        description="Weather, each segment's turns, initiative and wind, the side's pools and barrage "
        "stock, the day's battles with their set-up results, and the order of battle with every "
        "stand's state: the side's own in full, the enemy as their fog of war reveals (as the side's "
        "players see it in the API). Umpires print any side's, players their own.",
        parameters=[PAPER_SIDE, PAPER_FORMAT],
        responses=PAPER_RESPONSE,
    )
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def briefing(self, request: Request, **kwargs: Any) -> HttpResponse:
        day, (side_id, paper_format) = self.get_object(), self.paper_query()
        html = paper.briefing_html(self.campaign_access.campaign, day.number, side_id)
        return self.paper_response(html, paper_format, side_id, "day", day.number, "briefing")

    @extend_schema(
        summary="Roll for the day's end after an Allied turn (umpires; Malta; idempotent)",
        description="After Allied turns 7 to 10 a d10 at or above the turn number ends the day: the "
        "segment under way is cut at that turn and no later segment opens (the night phase comes "
        "next). Each turn rolls once. Answers the roll, which every member reads.",
        request=inputs.DayEndRollInput,
        responses=ROLL_ANSWER,
    )
    @action(detail=True, methods=["post"], url_path="day-end-roll")
    def day_end_roll(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.DayEndRollInput)
        day = self.get_object()
        if day.number != self.campaign_access.campaign.current_day:
            raise DomainError(f"day {day.number} is not the day under way", field="day")
        record = day_rules.day_end_roll(self.campaign_access.campaign.pk, self.actor, **data)
        return roll_answer(self, record)


@extend_schema(
    tags=["days"],
    parameters=[OpenApiParameter("side_pk", int, OpenApiParameter.PATH, description="the side's id")],
)
@extend_schema_view(
    list=extend_schema(
        summary="A side's activation-point spends, newest first",
        description="Its players and the umpires see them; for anybody else the list is empty, as "
        "the side's pool is hidden from them.",
    )
)
class ActivationSpendViewSet(
    PublicIdLookup, mixins.ListModelMixin, CampaignScopedViewSet[models.ActivationSpend]
):
    model = models.ActivationSpend
    serializer_class = ActivationSpendSerializer

    @cached_property
    def side(self) -> models.Side:
        side = self.campaign_access.sides.get(int(self.kwargs["side_pk"]))
        if side is None:
            raise NotFound(f"No side {self.kwargs['side_pk']} in this campaign.")
        return side

    def visible(self, access: CampaignAccess) -> QuerySet[models.ActivationSpend]:
        return selectors.activation_spends(access, self.side.pk)

    @extend_schema(
        summary="Spend activation points on a column (umpires; idempotent)",
        description="Buys one activation-chart column for a turn (0 = dawn) of the day under way and "
        "activates the battalions; refused, naming the rule, when the pool would go below zero or "
        "the battalions do not fit the column. Send an Idempotency-Key to retry safely.",
        request=inputs.ActivationSpendInput,
        responses={
            201: OpenApiResponse(
                ActivationSpendSerializer, examples=[schema.ACTIVATION_SPEND_RESPONSE_EXAMPLE]
            )
        },
        examples=[schema.ACTIVATION_SPEND_EXAMPLE],
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        spend = activation_services.activation_spend(
            self.campaign_access.campaign.pk,
            self.actor,
            side_id=self.side.pk,
            **self.validated(inputs.ActivationSpendInput),
        )
        return self.respond(spend, status.HTTP_201_CREATED)
