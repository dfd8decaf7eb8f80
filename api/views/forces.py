"""The order of battle: sides, forces, battalions, stands and the reinforcements due."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponseBase
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from api import conditional, filters, inputs, schema
from api.authentication import grant_store, warm_status
from api.changes import ChangesMixin
from api.force_statuses import force_status_data, force_status_rendered, status_response
from api.permissions import request_api_key
from api.serializers.campaigns import SideSerializer
from api.serializers.days import ArtilleryOrderSerializer
from api.serializers.force_status import ForceStatusSerializer
from api.serializers.forces import (
    BattalionHistorySerializer,
    BattalionSerializer,
    ForceSerializer,
    ReinforcementSerializer,
    StandSerializer,
)
from api.views.base import PublicIdLookup
from api.views.rolls import ROLL_ANSWER, roll_answer
from api.viewsets import CampaignScopedViewSet, ReadOnlyCampaignViewSet, VersionedListMixin
from campaign import models, polls, selectors
from campaign.access import CampaignAccess
from campaign.audiences import audience_of
from campaign.services import activation as activation_services
from campaign.services import corrections as correction_services
from campaign.services import day_rules
from campaign.services import reinforcements as reinforcement_services
from campaign.services import sectors as sector_services
from campaign.services import sides as side_services


@extend_schema(tags=["orders of battle"])
@extend_schema_view(list=extend_schema(summary="Sides"), retrieve=extend_schema(summary="One side"))
class SideViewSet(VersionedListMixin[models.Side], ReadOnlyCampaignViewSet[models.Side]):
    model = models.Side
    serializer_class = SideSerializer

    def visible(self, access: CampaignAccess) -> QuerySet[models.Side]:
        return selectors.sides(access)

    @extend_schema(
        summary="Set what the side's enemies have identified and see (umpires; idempotent)",
        description="The side's fog of war: the codes of its battalions the enemy has identified "
        "(the whole list: it replaces the one set before), and whether the enemy sees those "
        "battalions' stands and their lines of battle reports. Recorded on the umpires' timeline. "
        "Send an Idempotency-Key to retry safely.",
        request=inputs.SideFogInput,
        responses=SideSerializer,
        examples=[schema.SIDE_FOG_EXAMPLE],
    )
    @action(detail=True, methods=["put"], url_path="fog-of-war")
    def fog_of_war(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.SideFogInput)
        side = side_services.side_fog_set(
            self.campaign_access.campaign.pk, self.actor, self.get_object().pk, **data
        )
        return self.respond(side)

    @extend_schema(
        summary="Set a barrage template's mode for today (umpires; idempotent)",
        description="Pre-planned, pre-registered or on call, one mode a template and day. Malta "
        "(house rule 7): the Axis may only plan on-call artillery on day 1; any other mode is refused "
        "naming the rule.",
        request=inputs.ArtilleryOrderInput,
        responses={201: ArtilleryOrderSerializer},
    )
    @action(detail=True, methods=["post"], url_path="artillery-orders")
    def artillery_orders(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.ArtilleryOrderInput)
        side = self.get_object()
        order = day_rules.artillery_order_set(
            self.campaign_access.campaign.pk, self.actor, side_id=side.pk, **data
        )
        return self.respond(
            order,
            status.HTTP_201_CREATED,
            serializer_class=ArtilleryOrderSerializer,
            queryset=selectors.artillery_orders(self.campaign_access, side.pk),
        )


@extend_schema(tags=["orders of battle"])
@extend_schema_view(
    list=extend_schema(summary="Forces (divisions and independent forces)"),
    retrieve=extend_schema(summary="One force"),
)
class ForceViewSet(
    PublicIdLookup,
    ChangesMixin[models.Force],
    VersionedListMixin[models.Force],
    ReadOnlyCampaignViewSet[models.Force],
):
    change_kind = "force"
    fog_signature = ("sector_seen", "fup_sector_seen")
    model = models.Force
    serializer_class = ForceSerializer
    filterset_class = filters.ForceFilter
    ordering_fields = ["name", "id"]
    # Set on the status action: an API key's poll authenticates from its grant in Redis.
    polled_from_grant = False

    def visible(self, access: CampaignAccess) -> QuerySet[models.Force]:
        return selectors.forces(access)

    @extend_schema(
        summary="Force status (poll with If-None-Match)",
        description="One request for a force's strength by stand type and status, each battalion's "
        "state, supply, fuel and location, the side's remaining activation points and barrage "
        "rounds, and the side's latest night report. Send the ETag back in If-None-Match: an "
        "unchanged status answers 304 with no body. An identified enemy force shows only its "
        "identified battalions, with stand counts only when the enemy reveals strengths.",
        responses={200: OpenApiResponse(ForceStatusSerializer, examples=[schema.FORCE_STATUS_EXAMPLE])},
    )
    @action(
        detail=True,
        methods=["get"],
        url_path="status",
        pagination_class=None,
        filter_backends=[],
        polled_from_grant=True,
    )
    def force_status(self, request: Request, **kwargs: Any) -> HttpResponseBase:
        renderer = request.accepted_renderer
        if isinstance(renderer, JSONRenderer) and request.accepted_media_type == JSONRenderer.media_type:
            # A key's poll read its status with its grant (api.authentication), else from the cache.
            return status_response(warm_status(request) or self._status_cached())
        # The browsable API and other formats render every time.
        data = self._status_data()
        etag = conditional.weak_etag(data)
        if conditional.etag_matches(request, etag):
            return conditional.not_modified(etag)
        response = Response(data)
        response["ETag"], response["Cache-Control"] = etag, conditional.CACHE_CONTROL
        return response

    @extend_schema(
        summary="Ask for air support (umpires; Malta; idempotent)",
        description="Spends one activation point of the pool paying at that turn (the division's from "
        "day 1 turn 2) and rolls a d10: 3 or less brings one air template, rolled for as an on-call "
        "barrage. One request a side a turn. Answers the roll. Refused (409) when the campaign does not "
        "play Malta's air support.",
        request=inputs.ForceTurnInput,
        responses=ROLL_ANSWER,
    )
    @action(detail=True, methods=["post"], url_path="air-support")
    def air_support(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.ForceTurnInput)
        record = day_rules.air_support_request(
            self.campaign_access.campaign.pk, self.actor, force_id=self.get_object().pk, **data
        )
        return roll_answer(self, record)

    @extend_schema(
        summary="Postpone a planned arrival (umpires; Malta; idempotent)",
        description="Rolls two average dice for a delay of 4 to 10 turns and moves the entry point; "
        "the arrival rolls count the turns down once the force is due. Answers the roll.",
        request=inputs.ArrivalPostponeInput,
        responses=ROLL_ANSWER,
    )
    @action(detail=True, methods=["post"], url_path="postpone-arrival")
    def postpone_arrival(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.ArrivalPostponeInput)
        record = day_rules.arrival_postpone(
            self.campaign_access.campaign.pk, self.actor, force_id=self.get_object().pk, **data
        )
        return roll_answer(self, record)

    @extend_schema(
        summary="Roll the C Ops' action points (umpires; variant 1; idempotent)",
        description="The C Ops rolls its actions on the action point chart (no HQ +10%; +10 when "
        "isolated from its source of supply, read from the supply lines with the umpire's confirmed "
        "overrides) and, with convert, saves them as the division's "
        "activation points (at most 20). One roll a division a turn. Answers the roll.",
        request=inputs.CopsActionPointsInput,
        responses=ROLL_ANSWER,
    )
    @action(detail=True, methods=["post"], url_path="cops-action-points")
    def cops_action_points(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.CopsActionPointsInput)
        record = day_rules.force_cops_action_points(
            self.campaign_access.campaign.pk, self.actor, force_id=self.get_object().pk, **data
        )
        return roll_answer(self, record)

    @extend_schema(
        summary="Record a C Ops overrun (umpires; idempotent)",
        description="The division's pool (the one paying at that turn) loses 10 activation points, "
        "never below zero, and every battalion of the division is isolated for the coming night.",
        request=inputs.ForceTurnInput,
        responses=ForceSerializer,
    )
    @action(detail=True, methods=["post"], url_path="cops-overrun")
    def cops_overrun(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.ForceTurnInput)
        force = day_rules.force_cops_overrun(
            self.campaign_access.campaign.pk, self.actor, force_id=self.get_object().pk, **data
        )
        return self.respond(force)

    def _status_cached(self) -> polls.CachedForceStatus:
        access = self.campaign_access
        version = selectors.version_shown(access.campaign)
        scope = audience_of(access)
        cached = polls.force_status_cached(
            access.campaign.pk,
            version,
            self.kwargs["pk"],
            scope,
            self.request.headers.get("If-None-Match", ""),
            lambda: force_status_rendered(self._status_data()),
        )
        api_key = request_api_key(self.request)
        if api_key is not None:  # its next polls are answered from Redis alone
            grant_store(api_key, access.campaign.slug, scope)
            polls.version_publish(access.campaign.pk, version)
        return cached

    def _status_data(self) -> Any:
        with selectors.one_moment():  # never half of a night
            return force_status_data(self.campaign_access, self.get_object(), self.get_serializer_context())

    @extend_schema(
        summary="Move a force's C Ops or forming-up point (umpires; idempotent)",
        description="To a sector next to where it stands (links: GET map/), onto the map from off "
        "it anywhere, or off it (null). Refused in the night phase. An FUP moved onto its C Ops' "
        "sector is with its C Ops again. Send an Idempotency-Key to retry safely.",
        request=inputs.ForceMoveInput,
        responses=ForceSerializer,
    )
    @action(detail=True, methods=["post"])
    def move(self, request: Request, **kwargs: Any) -> Response:
        campaign_id = self.campaign_access.campaign.pk
        force = sector_services.force_move(
            campaign_id, self.actor, self.get_object().pk, **self.validated(inputs.ForceMoveInput)
        )
        return self.respond(force)


@extend_schema(tags=["orders of battle"])
@extend_schema_view(list=extend_schema(summary="Battalions"), retrieve=extend_schema(summary="One battalion"))
class BattalionViewSet(
    PublicIdLookup,
    ChangesMixin[models.Battalion],
    VersionedListMixin[models.Battalion],
    ReadOnlyCampaignViewSet[models.Battalion],
):
    change_kind = "battalion"
    model = models.Battalion
    serializer_class = BattalionSerializer
    filterset_class = filters.BattalionFilter
    ordering_fields = ["code", "id"]

    def visible(self, access: CampaignAccess) -> QuerySet[models.Battalion]:
        return selectors.battalions(access).select_related("battlegroup__force", "sector")

    @extend_schema(
        summary="A battalion's service history",
        description="The battles it fought, with its stands lost and suppressed and the activation "
        "points it spent in each, the nights it rolled for replacements and the stands they returned, "
        "and its moves: all read from what was recorded then, as you may read it (the battles your "
        "side fought, report lines as battle reports show them, the rolls and moves of your side).",
        responses=BattalionHistorySerializer,
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def history(self, request: Request, **kwargs: Any) -> Response:
        history = selectors.battalion_history(self.campaign_access, self.get_object())
        return Response(BattalionHistorySerializer(history, context=self.get_serializer_context()).data)

    @extend_schema(
        summary="Move a battalion (umpires; idempotent)",
        description="To a sector next to where it stands, onto the map from off it anywhere, or off "
        "it (null). A battalion in reserve stays off the map. Refused in the night phase. Send an "
        "Idempotency-Key to retry safely.",
        request=inputs.BattalionMoveInput,
        responses=BattalionSerializer,
    )
    @action(detail=True, methods=["post"])
    def move(self, request: Request, **kwargs: Any) -> Response:
        campaign_id = self.campaign_access.campaign.pk
        battalion = sector_services.battalion_move(
            campaign_id, self.actor, self.get_object().pk, **self.validated(inputs.BattalionMoveInput)
        )
        return self.respond(battalion)

    @extend_schema(
        summary="Deactivate a battalion for the defensive benefit (umpires; idempotent)",
        description="An activated battalion deactivates; with the reactivation variant it may roll to "
        "come back the same day.",
        request=None,
        responses=BattalionSerializer,
    )
    @action(detail=True, methods=["post"])
    def deactivate(self, request: Request, **kwargs: Any) -> Response:
        battalion = self.get_object()
        activation_services.battalion_deactivate(
            self.campaign_access.campaign.pk, self.actor, battalion_code=battalion.code
        )
        return self.respond(battalion)

    @extend_schema(
        summary="Roll to reactivate a deactivated battalion (umpires; variant; idempotent)",
        description="2D10 under its rally number (-1 a suppression, -2 a stand lost, +2 German), at no "
        "cost in activation points; once a turn. A battalion gone to ground is refused until the next "
        "day. Answers the roll.",
        request=inputs.ForceTurnInput,
        responses=ROLL_ANSWER,
    )
    @action(detail=True, methods=["post"])
    def reactivate(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.ForceTurnInput)
        record = activation_services.battalion_reactivate(
            self.campaign_access.campaign.pk, self.actor, battalion_code=self.get_object().code, **data
        )
        return roll_answer(self, record)

    @extend_schema(
        summary="Initiative activation of the battalion's battlegroup (umpires; variant 2; idempotent)",
        description="The battalion holding the battlegroup's HQ spends one activation point and rolls "
        "1D10 by nation and morale, a second try with its second action; with no point left, one try "
        "on 1D20. On a success the whole battlegroup is activated (at -10 morale). Answers the "
        "battalion; the rolls are in the roll log.",
        request=inputs.InitiativeActivationInput,
        responses=BattalionSerializer,
    )
    @action(detail=True, methods=["post"], url_path="initiative-activation")
    def initiative_activation(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.InitiativeActivationInput)
        battalion = self.get_object()
        activation_services.battlegroup_initiative_activate(
            self.campaign_access.campaign.pk, self.actor, battalion_code=battalion.code, **data
        )
        return self.respond(battalion)


@extend_schema(tags=["orders of battle"])
@extend_schema_view(list=extend_schema(summary="Stands"), retrieve=extend_schema(summary="One stand"))
class StandViewSet(
    PublicIdLookup,
    ChangesMixin[models.Stand],
    VersionedListMixin[models.Stand],
    ReadOnlyCampaignViewSet[models.Stand],
):
    change_kind = "stand"
    model = models.Stand
    serializer_class = StandSerializer
    filterset_class = filters.StandFilter
    ordering_fields = ["label", "id"]

    def visible(self, access: CampaignAccess) -> QuerySet[models.Stand]:
        return selectors.stands(access)

    @extend_schema(
        summary="Correct a stand's state, with the reason (umpires; idempotent)",
        description="Sets the stand OK, suppressed or destroyed by hand, recorded on the umpires' "
        "timeline as a correction with its reason. Send an Idempotency-Key to retry safely.",
        request=inputs.StandCorrectInput,
        responses=StandSerializer,
        examples=[schema.STAND_CORRECT_EXAMPLE],
    )
    @action(detail=True, methods=["post"])
    def correct(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.StandCorrectInput)
        stand = correction_services.stand_correct(
            self.campaign_access.campaign.pk, self.actor, self.get_object().pk, **data
        )
        return self.respond(stand)

    @extend_schema(
        summary="Dig a stand in (umpires; Malta; idempotent)",
        description="A stationary infantry stand spends action points on its entrenchment: at 5 it is "
        "entrenched (hard cover), kept across days until it moves. With at_start, an Allied stand "
        "outside a town starts entrenched (day 1).",
        request=inputs.EntrenchInput,
        responses=StandSerializer,
    )
    @action(detail=True, methods=["post"])
    def entrench(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.EntrenchInput)
        stand = self.get_object()
        day_rules.stand_entrench(
            self.campaign_access.campaign.pk,
            self.actor,
            battalion_code=stand.battalion.code,
            stand_label=stand.label,
            **data,
        )
        return self.respond(stand)

    @extend_schema(
        summary="Record that a stand moved (umpires; idempotent)",
        description="It leaves its entrenchment, finished or not.",
        request=None,
        responses=StandSerializer,
    )
    @action(detail=True, methods=["post"])
    def move(self, request: Request, **kwargs: Any) -> Response:
        stand = self.get_object()
        day_rules.stand_move(
            self.campaign_access.campaign.pk,
            self.actor,
            battalion_code=stand.battalion.code,
            stand_label=stand.label,
        )
        return self.respond(stand)


@extend_schema(tags=["orders of battle"])
@extend_schema_view(
    list=extend_schema(
        summary="Reinforcement schedule (players: their own side's)",
        description="Forces not on the table: in reserve, scheduled, rolling for arrival, arrived or "
        "not arriving, with their day, entry zone and arrival attempts. Never the enemy's reserves.",
    )
)
class ReinforcementViewSet(PublicIdLookup, mixins.ListModelMixin, CampaignScopedViewSet[models.Force]):
    model = models.Force
    serializer_class = ReinforcementSerializer
    ordering_fields = ["arrival_day", "name", "id"]

    def visible(self, access: CampaignAccess) -> QuerySet[models.Force]:
        return selectors.reinforcements(access)

    @extend_schema(
        summary="Schedule a force's arrival (umpires; idempotent)",
        description="Sets the day a force off the table is due and where it enters; from that day "
        "it rolls for arrival as each segment opens. Send an Idempotency-Key to retry safely.",
        request=inputs.ReinforcementScheduleInput,
        responses={201: ReinforcementSerializer},
        examples=[schema.REINFORCEMENT_EXAMPLE],
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.ReinforcementScheduleInput)
        force_id = selectors.force_key(self.campaign_access, data.pop("force_id"))
        force = reinforcement_services.reinforcement_schedule(
            self.campaign_access.campaign.pk, self.actor, force_id=force_id, **data
        )
        return self.respond(force, status.HTTP_201_CREATED)

    @extend_schema(
        summary="Postpone a force's arrival to a later day (umpires; idempotent)",
        description="A scheduled force, or one rolling for arrival, is due on a later day instead: "
        "it stops rolling until then and starts its arrival rolls afresh. Send an Idempotency-Key "
        "to retry safely.",
        request=inputs.ReinforcementPostponeInput,
        responses=ReinforcementSerializer,
    )
    @action(detail=True, methods=["post"])
    def postpone(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.ReinforcementPostponeInput)
        force = reinforcement_services.reinforcement_postpone(
            self.campaign_access.campaign.pk, self.actor, force_id=self.get_object().pk, **data
        )
        return self.respond(force)
