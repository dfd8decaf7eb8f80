"""The v1 endpoints. Each viewset names its selector, serializers and filters;
the base classes (:mod:`api.viewsets`) carry transactions, scoping and permissions."""

from __future__ import annotations

import contextlib
from functools import cached_property
from typing import Any

from django.contrib.auth import authenticate, login, logout
from django.db.models import QuerySet
from django.http import HttpResponse, HttpResponseBase
from django.middleware.csrf import get_token
from django.utils import timezone
from django.utils.text import slugify
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.authentication import SessionAuthentication
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api import conditional, filters, inputs, schema
from api import serializers as out
from api.authentication import REQUEST_STATUS_ATTRIBUTE, grant_store
from api.pagination import PagePagination, TimelineCursorPagination
from api.permissions import (
    CAMPAIGN_KWARG,
    CampaignAccessMixin,
    IsAuthenticatedOrAPIKey,
    IsCampaignMember,
    IsSidePlayerInPerson,
    IsUmpire,
    authenticated_user_id,
    request_api_key,
)
from api.views_admin import CampaignAdminActions
from api.viewsets import (
    CAMPAIGN_PERMISSIONS,
    UMPIRES_IN_PERSON,
    ApiViewSet,
    CampaignScopedViewSet,
    ReadOnlyCampaignViewSet,
)
from campaign import models, paper, polls, selectors
from campaign.access import CampaignAccess, battle_table_side
from campaign.choices import COPS_QUALITY_CHOICES, OperationKind, PaperFormat
from campaign.services import activation as activation_services
from campaign.services import api_keys as api_key_services
from campaign.services import battle_drafts as draft_services
from campaign.services import battle_reports as battle_report_services
from campaign.services import battle_setups as battle_setup_services
from campaign.services import battles as battle_services
from campaign.services import campaigns as campaign_services
from campaign.services import corrections as correction_services
from campaign.services import day_rules
from campaign.services import days as day_services
from campaign.services import night as night_services
from campaign.services import orders as order_services
from campaign.services import overrides as override_services
from campaign.services import reinforcements as reinforcement_services
from campaign.services import sectors as sector_services
from campaign.services import sides as side_services
from campaign.services import supply as supply_services
from campaign.services import webhook_subscriptions as webhook_services
from campaign.services.errors import ConflictError, DomainError
from campaign.services.rules import optional_rule_on
from rules_engine import catalog
from rules_engine.registry import CatalogError
from rules_engine.results import RuleSystem

# Umpires only, reads included: anybody else is 403, or 404 outside the campaign.
UMPIRE_PERMISSIONS = [*CAMPAIGN_PERMISSIONS, IsUmpire]


def _roll_answer(view: CampaignScopedViewSet[Any], record: models.RollRecord) -> Response:
    """A write that rolled answers its roll record (201), at its URL in the roll log."""
    return view.respond(
        record,
        status.HTTP_201_CREATED,
        serializer_class=out.RollSerializer,
        queryset=selectors.rolls(view.campaign_access),
        location=view.location(record, "roll", pk=record.public_id),
    )


ROLL_ANSWER = {201: out.RollSerializer}


class PublicIdLookup:
    """Rows named by their public id (rules notes C-14): ids in sequence would count the rows
    a reader does not see."""

    lookup_field = "public_id"
    lookup_url_kwarg: str | None = "pk"
    lookup_value_regex = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"


@extend_schema(tags=["campaigns"])
@extend_schema_view(
    list=extend_schema(summary="The campaigns you are a member of, as summaries"),
    retrieve=extend_schema(
        summary="Campaign summary",
        description="Current day, segment, weather, wind and turns; each side's activation points and "
        "barrage stock (null for sides you do not see in full); your role and side.",
    ),
)
class CampaignViewSet(
    CampaignAdminActions,
    CampaignAccessMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    ApiViewSet[models.Campaign],
):
    serializer_class = out.CampaignSerializer
    permission_classes = CAMPAIGN_PERMISSIONS
    lookup_field = "slug"
    lookup_url_kwarg = CAMPAIGN_KWARG
    ordering_fields = ["name", "start_date", "id"]

    def get_queryset(self) -> QuerySet[models.Campaign]:
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return models.Campaign.objects.none()
        api_key = request_api_key(self.request)
        return selectors.campaign_summaries(api_key or authenticated_user_id(self.request))

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        with selectors.one_moment():  # the pools never half of a night
            return super().list(request, *args, **kwargs)

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        with selectors.one_moment():
            return super().retrieve(request, *args, **kwargs)

    @extend_schema(
        summary="Start the campaign (umpires; idempotent)",
        description="From set-up to active, so day 1 may dawn (`POST days/dawn/`). 409 when the "
        "campaign is not being set up. Send an Idempotency-Key to retry safely.",
        request=None,
        responses=out.CampaignSerializer,
    )
    @action(detail=True, methods=["post"])
    def start(self, request: Request, **kwargs: Any) -> Response:
        return self.respond(campaign_services.campaign_start(self.campaign_access.campaign.pk, self.actor))

    @extend_schema(
        methods=["GET"],
        summary="Supply proposal (umpires)",
        description="Each battalion on the map with the situation the map proposes (OK, separated, "
        "isolated), why, and its line: the sectors from where it stands to a source of supply over "
        "ground its side holds; each C Ops and whether it is cut off from every source; each side's "
        "sources; what the umpire confirmed today. The night applies the proposal at nightfall with "
        "the day's overrides, confirmed or not (rules notes MS-04).",
        responses=out.SupplyReviewSerializer,
    )
    @extend_schema(
        methods=["POST"],
        summary="Confirm the supply proposal (umpires)",
        description="Writes every battalion's situation: the proposal's, or the one given in "
        "`overrides` with its reason (each recorded on the timeline). Before the night phase starts: "
        "409 during it. Answers the proposal as confirmed.",
        request=inputs.SupplyConfirmInput,
        responses=out.SupplyReviewSerializer,
    )
    @action(
        detail=True,
        methods=["get", "post"],
        pagination_class=None,
        filter_backends=[],
        permission_classes=[*CAMPAIGN_PERMISSIONS, IsUmpire],
    )
    def supply(self, request: Request, **kwargs: Any) -> Response:
        campaign = self.campaign_access.campaign
        if request.method == "POST":
            overrides = self.validated(inputs.SupplyConfirmInput).get("overrides", [])
            supply_services.supply_confirm(campaign.pk, self.actor, overrides)
        return Response(out.SupplyReviewSerializer(supply_services.supply_review(campaign)).data)

    @extend_schema(
        summary="Order of battle",
        description="Forces with battlegroups, battalions and stands: your side in full, enemy "
        "battalions only once identified (and their stands only when the enemy reveals strengths).",
        responses=out.OrderOfBattleSerializer,
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def oob(self, request: Request, **kwargs: Any) -> Response:
        access = self.campaign_access
        context = {**self.get_serializer_context(), "access": access}
        with selectors.one_moment():
            forces = selectors.oob(access)
            night_in_progress = selectors.night_restore_tree(access.campaign.pk, forces)
            data = out.OrderOfBattleSerializer(
                {
                    "forces": forces,
                    "night_in_progress": night_in_progress,
                    "cops_qualities": [code for code, _ in COPS_QUALITY_CHOICES],
                },
                context=context,
            ).data
        return Response(data)

    @extend_schema(
        summary="The campaign map, as your side sees it (poll with If-None-Match)",
        description="One request for the map: every sector (the ground and its owners are public) "
        "and link; the forces and battalions you see on it (your side's all; the enemy's identified "
        "ones, and those standing on or next to a sector your side's battalions or C Ops stand on, "
        "as the enemy's fog of war says); the battles you see. Umpires see everything. Send the "
        "ETag back in If-None-Match: an unchanged map answers 304 with no body.",
        responses={200: out.MapDocumentSerializer},
    )
    @action(
        detail=True,
        methods=["get"],
        url_path="map",
        url_name="map",
        pagination_class=None,
        filter_backends=[],
    )
    def campaign_map(self, request: Request, **kwargs: Any) -> Response:
        access = self.campaign_access
        context = {**self.get_serializer_context(), "access": access}
        # Its ETag and 304 are the base viewset's (api.conditional), as for every read.
        return Response(out.MapDocumentSerializer(selectors.map_document(access), context=context).data)

    @extend_schema(
        summary="Chart series: each side's strength and stocks at every dawn",
        description="One entry per campaign day and side, taken as the day dawned. Null where you may "
        "not see the value: activation points and barrage rounds as the campaign summary shows them, "
        "strength only for the sides you see in full.",
        responses=OpenApiResponse(out.StatisticsSerializer, examples=[schema.STATISTICS_EXAMPLE]),
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def statistics(self, request: Request, **kwargs: Any) -> Response:
        access = self.campaign_access
        context = {**self.get_serializer_context(), "access": access}
        return Response(out.StatisticsSerializer(selectors.statistics(access), context=context).data)

    @extend_schema(
        summary="The umpire's to-do: what waits for them now (umpires)",
        description="One list of what waits for the umpire in this campaign now, each with its "
        "`kind` (and label), a sentence and the web app's page where it is done: orders submitted "
        "for approval, battles whose drafts are filed (both sides: to reconcile; one: the other "
        "awaited), the day's supply unconfirmed, segments left to play, arrival rolls running, and "
        "the night phase due (no segment left, or the club's scheduled time has come).",
        responses=out.TodoSerializer,
    )
    @action(
        detail=True,
        methods=["get"],
        pagination_class=None,
        filter_backends=[],
        permission_classes=[*CAMPAIGN_PERMISSIONS, IsUmpire],
    )
    def todo(self, request: Request, **kwargs: Any) -> Response:
        items = selectors.umpire_todo(self.campaign_access.campaign, timezone.now())
        return Response(out.TodoSerializer({"items": items}).data)

    @extend_schema(
        summary="Victory: the scenario's conditions and each side's standing (every member)",
        description="Each of the scenario's victory conditions with its side, the sectors it names "
        "(who holds each) and its victory-point threshold, and where its side stands against it as "
        "the map stands now (`standing`, in words; `met`: tonight's night phase would end the "
        "campaign with it); each side's sectors and victory points held; what ends the campaign "
        "if no condition is met; and, once finished, the result. Sectors and their owners are "
        "public (rules notes C-17), so every member reads the same (rules notes MS-06).",
        responses=out.VictorySerializer,
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def victory(self, request: Request, **kwargs: Any) -> Response:
        return Response(out.VictorySerializer(selectors.victory_standing(self.campaign_access.campaign)).data)

    @extend_schema(
        summary="The dice commitment and the revealed day seeds (every member)",
        description="The SHA-256 hash chain commitments published when the campaign was created, one "
        "per audience (every member, each side, each battle's two sides, the umpires), and the day "
        "seeds revealed to you after each night phase: the public ones to every member, each other "
        "audience's to its members (rules notes C-22). Day d's seed hashed d times gives its "
        "commitment; `GET days/{number}/dice/` serves a revealed day's rolls to replay "
        "(docs/api.md, Verifying the dice). The campaign's own seed is never served.",
        responses=out.DiceSummarySerializer,
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def dice(self, request: Request, **kwargs: Any) -> Response:
        return Response(out.DiceSummarySerializer(selectors.dice_summary(self.campaign_access)).data)


@extend_schema(tags=["orders of battle"])
@extend_schema_view(list=extend_schema(summary="Sides"), retrieve=extend_schema(summary="One side"))
class SideViewSet(ReadOnlyCampaignViewSet[models.Side]):
    model = models.Side
    serializer_class = out.SideSerializer

    def visible(self, access: CampaignAccess) -> QuerySet[models.Side]:
        return selectors.sides(access)

    @extend_schema(
        summary="Set what the side's enemies have identified and see (umpires; idempotent)",
        description="The side's fog of war: the codes of its battalions the enemy has identified "
        "(the whole list: it replaces the one set before), and whether the enemy sees those "
        "battalions' stands and their lines of battle reports. Recorded on the umpires' timeline. "
        "Send an Idempotency-Key to retry safely.",
        request=inputs.SideFogInput,
        responses=out.SideSerializer,
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
        responses={201: out.ArtilleryOrderSerializer},
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
            serializer_class=out.ArtilleryOrderSerializer,
            queryset=selectors.artillery_orders(self.campaign_access, side.pk),
        )


def _status_scope(access: CampaignAccess) -> str:
    """Whose view of a force status: the umpire's, one side's players', or the public one."""
    if access.is_umpire:
        return "umpire"
    side_id = access.player_side_id
    return f"side:{side_id}" if side_id is not None else "public"


@extend_schema(tags=["orders of battle"])
@extend_schema_view(
    list=extend_schema(summary="Forces (divisions and independent forces)"),
    retrieve=extend_schema(summary="One force"),
)
class ForceViewSet(PublicIdLookup, ReadOnlyCampaignViewSet[models.Force]):
    model = models.Force
    serializer_class = out.ForceSerializer
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
        responses={200: OpenApiResponse(out.ForceStatusSerializer, examples=[schema.FORCE_STATUS_EXAMPLE])},
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
        response: HttpResponseBase
        renderer = request.accepted_renderer
        if isinstance(renderer, JSONRenderer) and request.accepted_media_type == JSONRenderer.media_type:
            # A key's poll read its status with its grant (api.authentication), else from the cache.
            cached = getattr(request, REQUEST_STATUS_ATTRIBUTE, None) or self._status_cached(renderer)
            etag = cached.etag
            unchanged = cached.body is None
            response = HttpResponse(cached.body, content_type=JSONRenderer.media_type)
        else:  # the browsable API and other formats render every time
            data = self._status_data()
            etag = conditional.weak_etag(data)
            unchanged = conditional.etag_matches(request, etag)
            response = Response(data)
        if unchanged:
            return conditional.not_modified(etag)
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
        return _roll_answer(self, record)

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
        return _roll_answer(self, record)

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
        return _roll_answer(self, record)

    @extend_schema(
        summary="Record a C Ops overrun (umpires; idempotent)",
        description="The division's pool (the one paying at that turn) loses 10 activation points, "
        "never below zero, and every battalion of the division is isolated for the coming night.",
        request=inputs.ForceTurnInput,
        responses=out.ForceSerializer,
    )
    @action(detail=True, methods=["post"], url_path="cops-overrun")
    def cops_overrun(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.ForceTurnInput)
        force = day_rules.force_cops_overrun(
            self.campaign_access.campaign.pk, self.actor, force_id=self.get_object().pk, **data
        )
        return self.respond(force)

    def _status_cached(self, renderer: JSONRenderer) -> polls.CachedForceStatus:
        access = self.campaign_access
        version = selectors.version_shown(access.campaign)
        scope = _status_scope(access)
        cached = polls.force_status_cached(
            access.campaign.pk,
            version,
            self.kwargs["pk"],
            scope,
            self.request.headers.get("If-None-Match", ""),
            lambda: self._status_rendered(renderer),
        )
        api_key = request_api_key(self.request)
        if api_key is not None:  # its next polls are answered from Redis alone
            grant_store(api_key, access.campaign.slug, scope)
            polls.version_publish(access.campaign.pk, version)
        return cached

    def _status_data(self) -> Any:
        with selectors.one_moment():  # never half of a night
            return self._status_read()

    def _status_read(self) -> Any:
        force = self.get_object()
        access = self.campaign_access
        in_full = access.sees_in_full(force.side_id)
        campaign = access.campaign
        context = {
            **self.get_serializer_context(),
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
        return out.ForceStatusSerializer(force_status, context=context).data

    @extend_schema(
        summary="Move a force's C Ops or forming-up point (umpires; idempotent)",
        description="To a sector next to where it stands (links: GET map/), onto the map from off "
        "it anywhere, or off it (null). Refused in the night phase. An FUP moved onto its C Ops' "
        "sector is with its C Ops again. Send an Idempotency-Key to retry safely.",
        request=inputs.ForceMoveInput,
        responses=out.ForceSerializer,
    )
    @action(detail=True, methods=["post"])
    def move(self, request: Request, **kwargs: Any) -> Response:
        campaign_id = self.campaign_access.campaign.pk
        force = sector_services.force_move(
            campaign_id, self.actor, self.get_object().pk, **self.validated(inputs.ForceMoveInput)
        )
        return self.respond(force)

    def _status_rendered(self, renderer: JSONRenderer) -> polls.RenderedForceStatus:
        data = self._status_data()
        body = renderer.render(data, JSONRenderer.media_type, self.get_renderer_context())
        return polls.RenderedForceStatus(body=body, etag=conditional.weak_etag(data))


@extend_schema(tags=["orders of battle"])
@extend_schema_view(list=extend_schema(summary="Battalions"), retrieve=extend_schema(summary="One battalion"))
class BattalionViewSet(PublicIdLookup, ReadOnlyCampaignViewSet[models.Battalion]):
    model = models.Battalion
    serializer_class = out.BattalionSerializer
    filterset_class = filters.BattalionFilter
    ordering_fields = ["code", "id"]

    def visible(self, access: CampaignAccess) -> QuerySet[models.Battalion]:
        return selectors.battalions(access).select_related("battlegroup__force", "sector")

    @extend_schema(
        summary="Move a battalion (umpires; idempotent)",
        description="To a sector next to where it stands, onto the map from off it anywhere, or off "
        "it (null). A battalion in reserve stays off the map. Refused in the night phase. Send an "
        "Idempotency-Key to retry safely.",
        request=inputs.BattalionMoveInput,
        responses=out.BattalionSerializer,
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
        responses=out.BattalionSerializer,
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
        return _roll_answer(self, record)

    @extend_schema(
        summary="Initiative activation of the battalion's battlegroup (umpires; variant 2; idempotent)",
        description="The battalion holding the battlegroup's HQ spends one activation point and rolls "
        "1D10 by nation and morale, a second try with its second action; with no point left, one try "
        "on 1D20. On a success the whole battlegroup is activated (at -10 morale). Answers the "
        "battalion; the rolls are in the roll log.",
        request=inputs.InitiativeActivationInput,
        responses=out.BattalionSerializer,
    )
    @action(detail=True, methods=["post"], url_path="initiative-activation")
    def initiative_activation(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.InitiativeActivationInput)
        battalion = self.get_object()
        activation_services.battlegroup_initiative_activate(
            self.campaign_access.campaign.pk, self.actor, battalion_code=battalion.code, **data
        )
        return self.respond(battalion)


@extend_schema(tags=["map"])
@extend_schema_view(
    list=extend_schema(summary="Sectors of the campaign map, with what you see on them"),
    retrieve=extend_schema(summary="One sector"),
)
class SectorViewSet(ReadOnlyCampaignViewSet[models.Sector]):
    model = models.Sector
    serializer_class = out.SectorSerializer
    ordering_fields = ["name", "id"]

    def visible(self, access: CampaignAccess) -> QuerySet[models.Sector]:
        return selectors.sectors(access)

    @extend_schema(
        summary="Give a sector to a side, or make it contested (umpires; idempotent)",
        description="Records who holds it now and why (every member reads the reason), and tells "
        "webhooks subscribed to sector.control_changed. Refused in the night phase. Send an "
        "Idempotency-Key to retry safely.",
        request=inputs.SectorControlInput,
        responses=out.SectorSerializer,
    )
    @action(detail=True, methods=["post"])
    def control(self, request: Request, **kwargs: Any) -> Response:
        campaign_id = self.campaign_access.campaign.pk
        sector = sector_services.sector_control_set(
            campaign_id, self.actor, self.get_object().pk, **self.validated(inputs.SectorControlInput)
        )
        return self.respond(sector)


@extend_schema(tags=["orders of battle"])
@extend_schema_view(list=extend_schema(summary="Stands"), retrieve=extend_schema(summary="One stand"))
class StandViewSet(PublicIdLookup, ReadOnlyCampaignViewSet[models.Stand]):
    model = models.Stand
    serializer_class = out.StandSerializer
    filterset_class = filters.StandFilter
    ordering_fields = ["label", "id"]

    def visible(self, access: CampaignAccess) -> QuerySet[models.Stand]:
        return selectors.stands(access)

    @extend_schema(
        summary="Correct a stand's state, with the reason (umpires; idempotent)",
        description="Sets the stand OK, suppressed or destroyed by hand, recorded on the umpires' "
        "timeline as a correction with its reason. Send an Idempotency-Key to retry safely.",
        request=inputs.StandCorrectInput,
        responses=out.StandSerializer,
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
        responses=out.StandSerializer,
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
        responses=out.StandSerializer,
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
        parts = (self.campaign_access.campaign.slug, *name, side.name)
        filename = f"{slugify('-'.join(str(part) for part in parts))}.{paper_format.value}"
        if paper_format is PaperFormat.HTML:
            response = HttpResponse(html, content_type="text/html; charset=utf-8")
        else:
            response = HttpResponse(paper.pdf(html), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{filename}"'
        return response


@extend_schema(tags=["days"])
@extend_schema_view(
    list=extend_schema(summary="Campaign days with their segments"),
    retrieve=extend_schema(summary="One campaign day, by number"),
)
class DayViewSet(PaperMixin, ReadOnlyCampaignViewSet[models.CampaignDay]):
    model = models.CampaignDay
    serializer_class = out.DaySerializer
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
        responses={201: out.DaySerializer},
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
        responses=OpenApiResponse(out.DawnPreviewSerializer, examples=[schema.DAWN_PREVIEW_EXAMPLE]),
        examples=[schema.DAY_DAWN_EXAMPLE],
    )
    @action(detail=False, methods=["post"], url_path="dawn-preview")
    def dawn_preview(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.DayDawnInput)
        orders = [day_services.DeploymentOrder(**order) for order in data.get("deployments", [])]
        preview = day_services.dawn_preview(self.campaign_access.campaign.pk, orders)
        return Response(out.DawnPreviewSerializer(preview).data)

    @extend_schema(
        summary="Open the day's next segment (umpires; idempotent)",
        description="Only the day under way advances (409 otherwise). Rolls the new segment's "
        "initiative, wind and turns, and starts arrival rolls for forces due. Answers the day with "
        "its segments, the new one last. Send an Idempotency-Key to retry safely.",
        request=None,
        responses=out.DaySerializer,
    )
    @action(detail=True, methods=["post"], url_path="advance-segment")
    def advance_segment(self, request: Request, **kwargs: Any) -> Response:
        day = self.get_object()
        day_services.segment_advance(self.campaign_access.campaign.pk, self.actor, day_number=day.number)
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
        responses={200: out.DayDiceSerializer, 409: OpenApiResponse(description="not revealed yet")},
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
        return Response(out.DayDiceSerializer(document, context=context).data)

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
        return _roll_answer(self, record)


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
    serializer_class = out.ActivationSpendSerializer

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
                out.ActivationSpendSerializer, examples=[schema.ACTIVATION_SPEND_RESPONSE_EXAMPLE]
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
    serializer_class = out.ReinforcementSerializer
    ordering_fields = ["arrival_day", "name", "id"]

    def visible(self, access: CampaignAccess) -> QuerySet[models.Force]:
        return selectors.reinforcements(access)

    @extend_schema(
        summary="Schedule a force's arrival (umpires; idempotent)",
        description="Sets the day a force off the table is due and where it enters; from that day "
        "it rolls for arrival as each segment opens. Send an Idempotency-Key to retry safely.",
        request=inputs.ReinforcementScheduleInput,
        responses={201: out.ReinforcementSerializer},
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
        responses=out.ReinforcementSerializer,
    )
    @action(detail=True, methods=["post"])
    def postpone(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.ReinforcementPostponeInput)
        force = reinforcement_services.reinforcement_postpone(
            self.campaign_access.campaign.pk, self.actor, force_id=self.get_object().pk, **data
        )
        return self.respond(force)


@extend_schema(tags=["battles"])
@extend_schema_view(
    list=extend_schema(summary="Battles (players: the battles their side fights)"),
    retrieve=extend_schema(summary="One battle"),
)
class BattleViewSet(
    PublicIdLookup,
    PaperMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    CampaignScopedViewSet[models.Battle],
):
    model = models.Battle
    serializer_class = out.BattleSerializer
    filterset_class = filters.BattleFilter
    ordering_fields = ["sector", "id"]

    def visible(self, access: CampaignAccess) -> QuerySet[models.Battle]:
        return selectors.battles(access)

    @extend_schema(
        summary="Create a battle (umpires)",
        request=inputs.BattleCreateInput,
        responses={201: out.BattleSerializer},
        examples=[schema.BATTLE_CREATE_EXAMPLE],
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        battle = battle_services.battle_create(
            self.campaign_access.campaign.pk, self.actor, **self.validated(inputs.BattleCreateInput)
        )
        return self.respond(battle, status.HTTP_201_CREATED)

    @extend_schema(
        summary="Roll the set-up procedures (umpires; players of the battle rolling at the table)",
        description="Rolls every set-up procedure of the campaign's profile, in order. `inputs` "
        "supplies what the campaign cannot know; `faces`, the faces of the steps rolled at the table, "
        "which their procedures read instead of the seed's dice (recorded \"rolled at the table by "
        "<member>\"). The campaign's `table_dice` says which steps may be rolled at the table and "
        "whether the battle's players may enter them (their shared steps and their own side's); a "
        "player sets the battle up only so, signed in. 403 naming the field otherwise.",
        request=inputs.BattleSetupInput,
        responses=out.BattleSerializer,
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="setup",
        permission_classes=[IsAuthenticatedOrAPIKey, IsCampaignMember],
    )
    def set_up(self, request: Request, **kwargs: Any) -> Response:  # View.setup is Django's
        access = self.campaign_access
        if not access.is_umpire and (access.player_side_id is None or request_api_key(request) is not None):
            raise PermissionDenied(
                "Only an umpire sets a battle up, or a player of it rolling at the table, signed in."
            )
        given = self.validated(inputs.BattleSetupInput)
        campaign_id = self.campaign_access.campaign.pk
        return self.respond(
            battle_setup_services.battle_setup(
                campaign_id, self.actor, self.get_object().pk, given.get("inputs"), given.get("faces")
            )
        )

    @extend_schema(
        summary="The inputs its set-up asks for (umpires; players of the battle who roll at the table)",
        description="Each set-up step of the campaign's profile (per side where each side rolls) with "
        "the inputs the campaign cannot supply: give them to `POST setup/` as `inputs[step]`. "
        "Those `needed` have no default; those `at_table` you may roll at the table (`faces[step]`). "
        "A player of the battle, where the club lets players roll at the table, reads the steps "
        "rolled once for both sides and their own side's; 403 for anybody else.",
        responses=out.SetupQuestionSerializer(many=True),
    )
    @action(
        detail=True,
        methods=["get"],
        url_path="setup-inputs",
        pagination_class=None,
        filter_backends=[],
        permission_classes=[IsAuthenticatedOrAPIKey, IsCampaignMember],
    )
    def setup_inputs(self, request: Request, **kwargs: Any) -> Response:
        access = self.campaign_access
        refused = PermissionDenied(
            "Only an umpire, or a player of this battle where the club lets players roll its set-up "
            "at the table, reads what its set-up asks."
        )
        if not access.is_umpire and access.player_side_id is None:
            raise refused  # before the battle is looked up: a member who may not ask gets 403, not 404
        battle = self.get_object()
        player_side = battle_table_side(
            access.role, access.player_side_id, battle, access.campaign.table_dice
        )
        if not access.is_umpire and player_side is None:
            raise refused
        questions: Any = battle_setup_services.battle_setup_questions(access.campaign, battle, player_side)
        return Response(out.SetupQuestionSerializer(questions, many=True).data)

    @extend_schema(
        summary="Report the battle's outcome (umpires; idempotent)",
        description="Applies stands destroyed and suppressed, points and rounds spent, objectives "
        "and supply in one transaction. Send an Idempotency-Key to retry safely.",
        request=inputs.BattleReportInput,
        responses=out.BattleSerializer,
        examples=[schema.BATTLE_REPORT_EXAMPLE],
    )
    @action(detail=True, methods=["post"])
    def report(self, request: Request, **kwargs: Any) -> Response:
        report = self.validated(inputs.BattleReportInput)
        campaign_id = self.campaign_access.campaign.pk
        return self.respond(
            battle_report_services.battle_report(campaign_id, self.actor, self.get_object().pk, report)
        )

    @extend_schema(
        methods=["GET"],
        summary="Your side's draft of the battle's report (players of the battle)",
        description="Your side's draft, and whether the other side has filed one: never what it says "
        "(rules notes C-20). 403 for anybody but a player of a side that fights the battle.",
        responses=out.OwnDraftSerializer,
    )
    @extend_schema(
        methods=["PUT"],
        summary="File or change your side's draft of the report (players of the battle, signed in)",
        description="Takes the report as `POST report/` does and checks it against the order of battle "
        "the same way (400 naming the field), but changes nothing in the campaign: the umpire compares "
        "both sides' drafts and confirms. 409 once the battle is reported.",
        request=inputs.BattleReportInput,
        responses=out.OwnDraftSerializer,
    )
    @action(
        detail=True,
        methods=["get", "put"],
        permission_classes=[IsAuthenticatedOrAPIKey, IsCampaignMember],
        pagination_class=None,
        filter_backends=[],
    )
    def draft(self, request: Request, **kwargs: Any) -> Response:
        battle, access = self.get_object(), self.campaign_access
        if selectors.battle_draft_own(access, battle) is None:
            raise PermissionDenied(
                "Only a player of a side that fights this battle drafts its report; umpires compare "
                "both sides' drafts at drafts/."
            )
        if request.method == "PUT":
            if request_api_key(request) is not None:
                raise PermissionDenied("A draft is filed by a player signed in, never by an API key.")
            report = self.validated(inputs.BattleReportInput)
            draft_services.battle_draft_save(access.campaign.pk, self.actor, battle.pk, report)
        own = selectors.battle_draft_own(access, battle)
        assert own is not None
        return Response(out.OwnDraftSerializer(out.own_draft_data(own, access)).data)

    @extend_schema(
        summary="Both sides' drafts of the report, compared (umpires)",
        description="Each item of the drafts (a stand's loss, a battalion's points, rounds, templates, "
        "objectives and supply, the winner, the sector's owner, the turn) with each side's version: "
        "`agreed`, `conflict` or `one_side` (a battalion or field only one draft entered, proposed as "
        "entered; rules notes C-20), a stand's state in the order of battle now, and the proposal.",
        responses=out.DraftComparisonSerializer,
    )
    @action(
        detail=True,
        methods=["get"],
        url_path="drafts",
        permission_classes=UMPIRE_PERMISSIONS,
        pagination_class=None,
        filter_backends=[],
    )
    def drafts(self, request: Request, **kwargs: Any) -> Response:
        access = self.campaign_access
        compared = selectors.battle_draft_comparison(access, self.get_object())
        assert compared is not None  # umpires only
        return Response(out.DraftComparisonSerializer(out.draft_comparison_data(compared, access)).data)

    @extend_schema(
        summary="Confirm the drafts as the battle's report (umpires; idempotent)",
        description="The proposal, with each conflict as the side `choices` names, applied as "
        "`POST report/` applies a report. `revision` is the comparison's: 409 if a draft changed "
        "since; 400 naming `choices.<key>` for a conflict left unchosen.",
        request=inputs.BattleDraftConfirmInput,
        responses=out.BattleSerializer,
    )
    @action(detail=True, methods=["post"], url_path="drafts/confirm", permission_classes=UMPIRE_PERMISSIONS)
    def drafts_confirm(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.BattleDraftConfirmInput)
        campaign_id = self.campaign_access.campaign.pk
        battle = draft_services.battle_draft_confirm(
            campaign_id, self.actor, self.get_object().pk, data["revision"], data["choices"]
        )
        return self.respond(battle)

    @extend_schema(
        summary="A side's printable battle packet (PDF)",
        description="The battle's set-up results, the day's weather and the battle's segments with "
        "their turns and wind, the side's pools and barrage stock, its battalions with every stand's "
        "state and the enemy's as their fog of war reveals (as the side's players see it in the API). "
        "Umpires print either side's, players their own.",
        parameters=[PAPER_SIDE, PAPER_FORMAT],
        responses=PAPER_RESPONSE,
    )
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def packet(self, request: Request, **kwargs: Any) -> HttpResponse:
        battle, (side_id, paper_format) = self.get_object(), self.paper_query()
        html = paper.packet_html(self.campaign_access.campaign, battle, side_id)
        return self.paper_response(
            html, paper_format, side_id, "battle", battle.sector.name, "day", battle.day.number, "packet"
        )

    @extend_schema(
        summary="Check for a combat lull (umpires)",
        description="At the start of the attacker's assault phase of `turn`, from the turn the set-up "
        "proximity die gave: a 6 brings a short lull, or a long one from turn 7 (1943 § Combat "
        "Lulls). The roll is recorded and read by both sides of the battle; 409 before the set-up "
        "or for a turn already checked.",
        request=inputs.BattleLullCheckInput,
        responses=out.BattleSerializer,
    )
    @action(detail=True, methods=["post"], url_path="lull-check")
    def lull_check(self, request: Request, **kwargs: Any) -> Response:
        turn = self.validated(inputs.BattleLullCheckInput)["turn"]
        campaign_id = self.campaign_access.campaign.pk
        return self.respond(
            battle_services.battle_lull_check(campaign_id, self.actor, self.get_object().pk, turn)
        )

    @extend_schema(summary="Close a reported battle (umpires)", request=None, responses=out.BattleSerializer)
    @action(detail=True, methods=["post"])
    def close(self, request: Request, **kwargs: Any) -> Response:
        campaign_id = self.campaign_access.campaign.pk
        return self.respond(battle_services.battle_close(campaign_id, self.actor, self.get_object().pk))


@extend_schema(tags=["operations"])
@extend_schema_view(
    list=extend_schema(summary="Background operations (night phases; arrival rolls for umpires)"),
    retrieve=extend_schema(summary="An operation's status and progress"),
)
class OperationViewSet(
    PublicIdLookup, mixins.ListModelMixin, mixins.RetrieveModelMixin, CampaignScopedViewSet[models.Operation]
):
    model = models.Operation
    serializer_class = out.OperationSerializer
    filterset_class = filters.OperationFilter

    def visible(self, access: CampaignAccess) -> QuerySet[models.Operation]:
        return selectors.operations(access)

    @extend_schema(
        summary="Start the night phase or arrival rolls (umpires; idempotent)",
        description="Answers 202 at once; a worker runs the operation. Poll the operation's URL "
        "(Location) for status and progress. Arrival rolls start on their own as a segment opens; "
        "`arrivals` starts them in the current segment for forces that fell due since (409 when none "
        "is due or the segment's rolls exist). Send an Idempotency-Key to retry safely.",
        request=inputs.OperationStartInput,
        responses={202: out.OperationSerializer},
        examples=[schema.OPERATION_START_EXAMPLE],
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        kind = self.validated(inputs.OperationStartInput)["kind"]
        campaign_id = self.campaign_access.campaign.pk
        if kind == OperationKind.ARRIVALS:
            operation = day_services.segment_arrivals_start(campaign_id, self.actor)
        else:
            operation = night_services.night_phase_start(campaign_id, self.actor)
        return self.respond(operation, status.HTTP_202_ACCEPTED)


@extend_schema(tags=["operations"])
@extend_schema_view(
    list=extend_schema(
        summary="Night orders, newest day first (umpires)",
        description="Withdrawals to reserve, attachments and detachments queued for night phases; "
        "`applied` once their night carried them out.",
    ),
    retrieve=extend_schema(summary="One night order (umpires)"),
)
class NightOrderViewSet(
    PublicIdLookup, mixins.ListModelMixin, mixins.RetrieveModelMixin, CampaignScopedViewSet[models.NightOrder]
):
    model = models.NightOrder
    serializer_class = out.NightOrderSerializer
    permission_classes = UMPIRE_PERMISSIONS
    filterset_class = filters.NightOrderFilter

    def visible(self, access: CampaignAccess) -> QuerySet[models.NightOrder]:
        return selectors.night_orders(access)

    @extend_schema(
        summary="Queue an order for tonight's night phase (umpires; idempotent)",
        description="Withdraw a battalion to reserve, or attach or detach one of its stands to a "
        "battalion of the same side. An attachment is checked against Great Battles' attachment "
        "limits (1 HQ, 1 heavy weapons and 2 others per battalion, counting the orders already "
        "queued): refused with a 400 naming the rule. 409 once the day's night phase has started. "
        "Send an Idempotency-Key to retry safely.",
        request=inputs.NightOrderInput,
        responses={201: out.NightOrderSerializer},
        examples=[schema.NIGHT_ORDER_EXAMPLE],
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        order = night_services.night_order_queue(
            self.campaign_access.campaign.pk, self.actor, **self.validated(inputs.NightOrderInput)
        )
        return self.respond(order, status.HTTP_201_CREATED)

    @extend_schema(
        summary="Take a queued order back (umpires)",
        description="Only before its night phase starts (409 after).",
        responses={204: OpenApiResponse(description="Taken back")},
    )
    def destroy(self, request: Request, **kwargs: Any) -> Response:
        night_services.night_order_cancel(self.campaign_access.campaign.pk, self.actor, self.get_object().pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


SIDE_ORDER_PLAYER_ACTIONS = frozenset({"create", "partial_update", "submit", "withdraw"})
SIDE_ORDER_UMPIRE_ACTIONS = frozenset({"approve", "send_back", "amend"})


@extend_schema(tags=["orders"])
@extend_schema_view(
    list=extend_schema(
        summary="Sealed orders: your side's, or for umpires every side's submitted ones",
        description="A side's players read all of their side's orders (drafts too); umpires every "
        "side's once submitted (`?status=submitted` is the approval queue); nobody else any. An "
        "answer carries an ETag: send it back in If-None-Match for a 304 while nothing changed.",
    ),
    retrieve=extend_schema(summary="One sealed order"),
)
class SideOrderViewSet(
    PublicIdLookup, mixins.ListModelMixin, mixins.RetrieveModelMixin, CampaignScopedViewSet[models.SideOrder]
):
    model = models.SideOrder
    serializer_class = out.SideOrderSerializer
    filterset_class = filters.SideOrderFilter
    ordering_fields = ["id", "day_number"]

    def get_permissions(self) -> list[Any]:
        base = [IsAuthenticatedOrAPIKey(), IsCampaignMember()]
        if self.action in SIDE_ORDER_PLAYER_ACTIONS:
            return [*base, IsSidePlayerInPerson()]
        if self.action in SIDE_ORDER_UMPIRE_ACTIONS:
            return [*base, IsUmpire()]
        return base

    def visible(self, access: CampaignAccess) -> QuerySet[models.SideOrder]:
        return selectors.side_orders(access)

    @property
    def _ids(self) -> tuple[int, Any]:
        return self.campaign_access.campaign.pk, self.actor

    @property
    def _side_id(self) -> int:
        side_id = self.campaign_access.player_side_id
        assert side_id is not None  # IsSidePlayerInPerson let only players in
        return side_id

    @extend_schema(
        summary="Draft an order for your side (players; idempotent)",
        description="For the coming night and dawn. The payload is checked for shape and that what "
        "it names is your side's; the full checks are the applying service's, at approval. "
        "`deploy` and `activation` orders are refused, named. Only your side and the umpires read it.",
        request=inputs.SideOrderInput,
        responses={201: out.SideOrderSerializer},
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        campaign_id, actor = self._ids
        order = order_services.side_order_draft(
            campaign_id, actor, side_id=self._side_id, **self.validated(inputs.SideOrderInput)
        )
        return self.respond(order, status.HTTP_201_CREATED)

    @extend_schema(
        summary="Edit a draft or an order sent back (players)",
        description="An order sent back becomes a draft again; submit it once more.",
        request=inputs.SideOrderEditInput,
        responses={200: out.SideOrderSerializer},
    )
    def partial_update(self, request: Request, **kwargs: Any) -> Response:
        campaign_id, actor = self._ids
        order = order_services.side_order_edit(
            campaign_id,
            actor,
            self.get_object().pk,
            side_id=self._side_id,
            **self.validated(inputs.SideOrderEditInput, partial=True),
        )
        return self.respond(order)

    @extend_schema(
        summary="Submit an order to the umpires (players; idempotent)",
        description="Refused (409, naming the deadline) after your side's deadline: the club night "
        "that plays the order's day, less the club's lead time.",
        request=None,
        responses={200: out.SideOrderSerializer},
    )
    @action(detail=True, methods=["post"])
    def submit(self, request: Request, **kwargs: Any) -> Response:
        campaign_id, actor = self._ids
        order = order_services.side_order_submit(
            campaign_id, actor, self.get_object().pk, side_id=self._side_id
        )
        return self.respond(order)

    @extend_schema(
        summary="Withdraw an order before the umpire decides (players)",
        request=None,
        responses={200: out.SideOrderSerializer},
    )
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, **kwargs: Any) -> Response:
        campaign_id, actor = self._ids
        order = order_services.side_order_withdraw(
            campaign_id, actor, self.get_object().pk, side_id=self._side_id
        )
        return self.respond(order)

    @extend_schema(
        summary="Approve a submitted order (umpires)",
        description="It becomes the night order, move or artillery order it describes, through the "
        "same service and checks: refused with that service's reason (nothing written). Only while "
        "the order's day is under way.",
        request=None,
        responses={200: out.SideOrderSerializer},
    )
    @action(detail=True, methods=["post"])
    def approve(self, request: Request, **kwargs: Any) -> Response:
        campaign_id, actor = self._ids
        order = order_services.side_order_approve(campaign_id, actor, self.get_object().pk)
        return self.respond(order)

    @extend_schema(
        summary="Send a submitted order back with a reason (umpires)",
        request=inputs.SideOrderReturnInput,
        responses={200: out.SideOrderSerializer},
    )
    @action(detail=True, methods=["post"], url_path="send-back", url_name="send-back")
    def send_back(self, request: Request, **kwargs: Any) -> Response:
        campaign_id, actor = self._ids
        order = order_services.side_order_return(
            campaign_id, actor, self.get_object().pk, **self.validated(inputs.SideOrderReturnInput)
        )
        return self.respond(order)

    @extend_schema(
        summary="Amend what a submitted order says (umpires)",
        description="Its kind stays; it stays submitted, to be approved.",
        request=inputs.SideOrderAmendInput,
        responses={200: out.SideOrderSerializer},
    )
    @action(detail=True, methods=["post"])
    def amend(self, request: Request, **kwargs: Any) -> Response:
        campaign_id, actor = self._ids
        order = order_services.side_order_amend(
            campaign_id, actor, self.get_object().pk, **self.validated(inputs.SideOrderAmendInput)
        )
        return self.respond(order)

    @extend_schema(
        summary="When new orders close",
        description="The campaign day new orders are for and its deadline (null: none set by the "
        "club schedule; orders close when the night phase starts).",
        responses={200: out.SideOrdersDeadlineSerializer},
    )
    @action(detail=False, methods=["get"], pagination_class=None, filter_backends=[])
    def deadline(self, request: Request, **kwargs: Any) -> Response:
        campaign = self.campaign_access.campaign
        day = selectors.side_orders_day(campaign)
        moment = selectors.side_orders_deadline(campaign, day)
        data = {
            "day": day,
            "deadline": moment,
            "deadline_text": selectors.deadline_text(moment) if moment is not None else None,
        }
        return Response(out.SideOrdersDeadlineSerializer(data).data)


@extend_schema(tags=["operations"])
@extend_schema_view(
    list=extend_schema(summary="Night and arrival reports, each of its kind (players: their side's)"),
    retrieve=extend_schema(summary="One night or arrival report"),
)
class NightReportViewSet(PublicIdLookup, ReadOnlyCampaignViewSet[models.NightReport]):
    model = models.NightReport
    serializer_class = out.NightReportSerializer
    filterset_class = filters.NightReportFilter

    def visible(self, access: CampaignAccess) -> QuerySet[models.NightReport]:
        return selectors.night_reports(access)


@extend_schema(tags=["audit"])
@extend_schema_view(
    list=extend_schema(summary="Roll log (players: their own units' rolls)"),
    retrieve=extend_schema(summary="One roll record"),
)
class RollViewSet(PublicIdLookup, ReadOnlyCampaignViewSet[models.RollRecord]):
    model = models.RollRecord
    serializer_class = out.RollSerializer
    filterset_class = filters.RollFilter
    pagination_class = TimelineCursorPagination
    ordering_fields = []  # the cursor fixes the order

    def visible(self, access: CampaignAccess) -> QuerySet[models.RollRecord]:
        return selectors.rolls(access)

    @extend_schema(
        summary="The procedures the roll log holds, with their titles",
        description="The choices of the `procedure` filter: those of the rolls you may read.",
        responses=out.RollProcedureSerializer(many=True),
    )
    @action(detail=False, methods=["get"], pagination_class=None, filter_backends=[])
    def procedures(self, request: Request, **kwargs: Any) -> Response:
        procedures = selectors.roll_procedures(self.campaign_access)
        return Response([out.RollProcedureSerializer(procedure).data for procedure in procedures])

    @extend_schema(
        summary="Override a rolled value (umpires; idempotent)",
        description="Replaces values the roll set (`changes`: name → value) on the object it changed, "
        "with a reason. The original roll stays in the log; the override is a new roll record "
        "naming it. Send an Idempotency-Key to retry safely.",
        request=inputs.RollOverrideInput,
        responses={
            201: OpenApiResponse(out.RollOverrideSerializer, examples=[schema.ROLL_OVERRIDE_RESPONSE_EXAMPLE])
        },
        examples=[schema.ROLL_OVERRIDE_EXAMPLE],
    )
    @action(detail=True, methods=["post"])
    def override(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.RollOverrideInput)
        original = self.get_object()
        override = override_services.roll_override(
            self.campaign_access.campaign.pk, self.actor, original.pk, **data
        )
        rolls = self.get_queryset().in_bulk([original.pk, override.pk])
        both = {"original": rolls[original.pk], "override": rolls[override.pk]}
        return Response(
            out.RollOverrideSerializer(both, context=self.get_serializer_context()).data,
            status=status.HTTP_201_CREATED,
        )


@extend_schema(tags=["audit"])
@extend_schema_view(
    list=extend_schema(summary="Event timeline (players: public entries and their own side's)"),
    retrieve=extend_schema(summary="One event"),
)
class EventViewSet(PublicIdLookup, ReadOnlyCampaignViewSet[models.Event]):
    model = models.Event
    serializer_class = out.EventSerializer
    filterset_class = filters.EventFilter
    pagination_class = TimelineCursorPagination
    ordering_fields = []

    def visible(self, access: CampaignAccess) -> QuerySet[models.Event]:
        return selectors.events(access)


@extend_schema(tags=["api keys"])
@extend_schema_view(
    list=extend_schema(summary="The campaign's API keys (umpires)"),
    retrieve=extend_schema(summary="One API key (umpires)"),
)
class APIKeyViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, CampaignScopedViewSet[models.CampaignAPIKey]
):
    """Keys for third-party apps. Managed by the umpire in person, never by a key."""

    model = models.CampaignAPIKey
    serializer_class = out.APIKeySerializer
    permission_classes = UMPIRES_IN_PERSON
    lookup_field = "prefix"
    lookup_value_regex = r"[A-Za-z0-9]+"
    ordering_fields = ["created", "name"]

    def visible(self, access: CampaignAccess) -> QuerySet[models.CampaignAPIKey]:
        return selectors.api_keys(access)

    @extend_schema(
        summary="Create an API key (umpires; the key is in this response only)",
        request=inputs.APIKeyCreateInput,
        responses={201: out.APIKeyCreatedSerializer},
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        api_key, plain = api_key_services.api_key_create(
            self.campaign_access.campaign.pk, self.actor, **self.validated(inputs.APIKeyCreateInput)
        )
        return self.respond(
            api_key, status.HTTP_201_CREATED, serializer_class=out.APIKeyCreatedSerializer, plain_key=plain
        )

    @extend_schema(
        summary="Revoke an API key for good (umpires)", request=None, responses=out.APIKeySerializer
    )
    @action(detail=True, methods=["post"])
    def revoke(self, request: Request, **kwargs: Any) -> Response:
        api_key = api_key_services.api_key_revoke(
            self.campaign_access.campaign.pk, self.actor, self.get_object().prefix
        )
        return self.respond(api_key)


@extend_schema(tags=["reference"])
@extend_schema_view(
    list=extend_schema(summary="Vehicles and guns by nation and year"),
    retrieve=extend_schema(summary="One equipment entry"),
)
class EquipmentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet[models.Equipment]):
    serializer_class = out.EquipmentSerializer
    filterset_class = filters.EquipmentFilter
    permission_classes = [IsAuthenticatedOrAPIKey]
    ordering_fields = ["name", "year_from", "id"]

    def get_queryset(self) -> QuerySet[models.Equipment]:
        return selectors.equipment()


@extend_schema(tags=["reference"])
class RuleViewSet(viewsets.ViewSet):
    """The rules catalog (``rules_engine.catalog``): every table and procedure of the three systems."""

    permission_classes = [IsAuthenticatedOrAPIKey]
    pagination_class = PagePagination
    lookup_field = "key"
    lookup_value_regex = r"[^/]+"

    @extend_schema(
        summary="Rules catalog", parameters=[inputs.RuleQuery], responses=out.RuleEntrySerializer(many=True)
    )
    def list(self, request: Request) -> Response:
        query = inputs.RuleQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        system = RuleSystem(query.validated_data["system"]) if "system" in query.validated_data else None
        kind = query.validated_data.get("kind")
        entries = [
            *(
                catalog.describe_procedure(p)
                for p in catalog.procedures(system)
                if kind in (None, "procedure")
            ),
            *(catalog.describe_table(t) for t in catalog.tables(system) if kind in (None, "table")),
        ]
        paginator = self.pagination_class()
        # Django's paginator pages a list as well as a queryset.
        page: list[Any] | None = paginator.paginate_queryset(entries, request, view=self)  # type: ignore[arg-type]
        return paginator.get_paginated_response(out.RuleEntrySerializer(page, many=True).data)

    @extend_schema(
        summary="One table (with its chart) or procedure (with its inputs)",
        description="A procedure and the table it reads may share a key (gb.activation_cost): "
        "the procedure answers, unless `kind=table` asks for the table.",
        parameters=[
            OpenApiParameter("key", str, OpenApiParameter.PATH, description="e.g. gb.weather"),
            OpenApiParameter(
                "kind", str, enum=["procedure", "table"], description="which, when both have the key"
            ),
        ],
        responses=out.RuleEntrySerializer,
    )
    def retrieve(self, request: Request, key: str) -> Response:
        query = inputs.RuleQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        kind = query.validated_data.get("kind")
        entry = None
        if kind in (None, "procedure"):
            with contextlib.suppress(CatalogError):
                entry = catalog.describe_procedure(catalog.get_procedure(key))
        if entry is None and kind in (None, "table"):
            with contextlib.suppress(CatalogError):
                entry = catalog.describe_table(catalog.get_table(key), with_data=True)
        if entry is None:
            raise NotFound(f"No {kind or 'table or procedure'} {key!r} in the rules catalog.")
        return Response(out.RuleEntrySerializer(entry).data)


@extend_schema(tags=["session"])
class SessionView(APIView):
    """Session login for browsers and scripts: GET sets the CSRF cookie, POST logs in, DELETE out."""

    permission_classes = [AllowAny]

    def _state(self, request: Request) -> Response:
        user = request.user
        signed_in = bool(user.is_authenticated)
        get_token(request._request)  # sets the csrftoken cookie for the next unsafe request
        api_key = request_api_key(request)
        if api_key is not None:
            return Response(out.SessionSerializer(selectors.key_session(api_key)).data)
        session = {
            "authenticated": signed_in,
            "username": user.get_username() if signed_in else None,
            "campaigns": selectors.memberships_of(user.pk if signed_in else None),
            "api_key": None,
        }
        return Response(out.SessionSerializer(session).data)

    @extend_schema(
        summary="Who you are (a person or an API key); sets the CSRF cookie", responses=out.SessionSerializer
    )
    def get(self, request: Request) -> Response:
        return self._state(request)

    @extend_schema(
        summary="Log in (send the csrftoken cookie's value as X-CSRFToken)",
        request=inputs.LoginInput,
        responses=out.SessionSerializer,
    )
    def post(self, request: Request) -> Response:
        SessionAuthentication().enforce_csrf(request)  # DRF checks CSRF only for logged-in users
        credentials = inputs.LoginInput(data=request.data)
        credentials.is_valid(raise_exception=True)
        user = authenticate(request._request, **credentials.validated_data)
        if user is None:
            raise DomainError("wrong username or password", field="password", code="login_failed")
        login(request._request, user)
        request.user = user
        return self._state(request)

    @extend_schema(
        summary="Log out", request=None, responses={204: OpenApiResponse(description="Logged out")}
    )
    def delete(self, request: Request) -> Response:
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


WEBHOOK_KWARG = "webhook_pk"


@extend_schema(tags=["webhooks"])
@extend_schema_view(
    list=extend_schema(summary="Webhook subscriptions (umpires)"),
    retrieve=extend_schema(summary="One webhook subscription (umpires)"),
)
class WebhookViewSet(
    PublicIdLookup,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    CampaignScopedViewSet[models.WebhookSubscription],
):
    """Subscriptions; their secrets are never shown, except once when the service made one."""

    model = models.WebhookSubscription
    serializer_class = out.WebhookSerializer
    # Signed in: a subscription a key made would keep sending the timeline out once it is revoked.
    permission_classes = UMPIRES_IN_PERSON
    filterset_class = filters.WebhookFilter
    ordering_fields = ["created_at", "id"]

    def visible(self, access: CampaignAccess) -> QuerySet[models.WebhookSubscription]:
        return selectors.webhooks(access)

    @extend_schema(
        summary="Subscribe a URL to events (umpires)",
        description="Each event a subscription asks for is POSTed to its URL as JSON, signed with "
        "HMAC-SHA256 (docs/api.md, Webhooks). Omit `secret` and the service makes one: the "
        "response shows it this once.",
        request=inputs.WebhookInput,
        responses={201: out.WebhookCreatedSerializer},
        examples=[schema.WEBHOOK_CREATE_EXAMPLE, schema.WEBHOOK_CREATED_EXAMPLE],
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.WebhookInput)
        subscription = webhook_services.webhook_subscribe(
            self.campaign_access.campaign.pk, self.actor, **data
        )
        return self.respond(
            subscription,
            status.HTTP_201_CREATED,
            serializer_class=out.WebhookCreatedSerializer,
            secret_made="secret" not in data,
        )

    @extend_schema(
        summary="Change a subscription: URL, events, secret, active (umpires)",
        request=inputs.WebhookInput,
        responses=out.WebhookSerializer,
    )
    def partial_update(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.WebhookInput, partial=True)
        subscription = webhook_services.webhook_update(
            self.campaign_access.campaign.pk, self.actor, self.get_object().pk, **data
        )
        return self.respond(subscription)

    @extend_schema(
        summary="Unsubscribe, with the delivery log (umpires)",
        responses={204: OpenApiResponse(description="Unsubscribed")},
    )
    def destroy(self, request: Request, **kwargs: Any) -> Response:
        webhook_services.webhook_unsubscribe(
            self.campaign_access.campaign.pk, self.actor, self.get_object().pk
        )
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        summary="Send a signed test event (umpires)",
        description="Queues one delivery with `X-Campaign-Event: ping`, sent by a worker like every "
        "delivery (and retried like one); the answer's Location is that delivery, in the log.",
        request=None,
        responses={202: out.WebhookDeliverySerializer},
    )
    @action(detail=True, methods=["post"])
    def ping(self, request: Request, **kwargs: Any) -> Response:
        delivery = webhook_services.webhook_ping(
            self.campaign_access.campaign.pk, self.actor, self.get_object().pk
        )
        queued = out.WebhookDeliverySerializer(delivery, context=self.get_serializer_context())
        url = self.location(
            delivery, "webhook-delivery", pk=delivery.public_id, **{WEBHOOK_KWARG: self.kwargs["pk"]}
        )
        return Response(queued.data, status=status.HTTP_202_ACCEPTED, headers={"Location": url})


@extend_schema(
    tags=["webhooks"],
    parameters=[
        OpenApiParameter(
            WEBHOOK_KWARG, OpenApiTypes.UUID, OpenApiParameter.PATH, description="the subscription's id"
        )
    ],
)
@extend_schema_view(
    list=extend_schema(summary="A subscription's delivery log, newest first (umpires)"),
    retrieve=extend_schema(summary="One delivery and its attempts' outcome (umpires)"),
)
class WebhookDeliveryViewSet(
    PublicIdLookup,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    CampaignScopedViewSet[models.WebhookDelivery],
):
    model = models.WebhookDelivery
    serializer_class = out.WebhookDeliverySerializer
    permission_classes = UMPIRES_IN_PERSON
    filterset_class = filters.WebhookDeliveryFilter
    ordering_fields = ["created_at", "last_attempt_at", "id"]

    def visible(self, access: CampaignAccess) -> QuerySet[models.WebhookDelivery]:
        subscription = get_object_or_404(selectors.webhooks(access), public_id=self.kwargs[WEBHOOK_KWARG])
        return selectors.webhook_deliveries(subscription)

    @extend_schema(
        summary="Send a failed delivery again (umpires)",
        description="With a fresh count of attempts, by a worker; 409 unless it failed.",
        request=None,
        responses={202: out.WebhookDeliverySerializer},
    )
    @action(detail=True, methods=["post"])
    def retry(self, request: Request, **kwargs: Any) -> Response:
        delivery = self.get_object()
        delivery = webhook_services.webhook_delivery_retry(
            self.campaign_access.campaign.pk, self.actor, delivery.subscription_id, delivery.pk
        )
        return self.respond(delivery, status.HTTP_202_ACCEPTED)
