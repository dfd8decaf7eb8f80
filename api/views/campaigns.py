"""Campaigns: their reads and the actions on a whole campaign, its creation, export, schedule and calendar."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api import conditional, inputs, schema
from api.permissions import (
    CAMPAIGN_KWARG,
    CampaignAccessMixin,
    IsAuthenticatedOrAPIKey,
    IsCampaignMember,
    IsUmpire,
    authenticated_user_id,
    request_api_key,
)
from api.serializers.campaigns import CampaignSerializer, TodoSerializer
from api.serializers.club import CalendarLinkSerializer, ScheduleSerializer
from api.serializers.dice import DiceSummarySerializer
from api.serializers.forces import OrderOfBattleSerializer
from api.serializers.map import MapDocumentSerializer
from api.serializers.notifications import NotificationEmailsSerializer
from api.serializers.standings import StatisticsSerializer, VictorySerializer
from api.serializers.supply import SupplyReviewSerializer
from api.views.base import UMPIRE_PERMISSIONS, IsSignedIn
from api.views.papers import PAPER_FORMAT, PAPER_RESPONSE, paper_http_response
from api.viewsets import CAMPAIGN_PERMISSIONS, ApiViewSet
from campaign import models, selectors
from campaign.choices import COPS_QUALITY_CHOICES, MapMoment, PaperFormat
from campaign.chronicle import chronicle_html
from campaign.scenarios import pack_dumps
from campaign.scenarios.exporting import campaign_export
from campaign.services import campaigns as campaign_services
from campaign.services import memberships as membership_services
from campaign.services import scenario as scenario_services
from campaign.services import schedule as schedule_services
from campaign.services import supply as supply_services
from campaign.services.demo import demo_campaign_create

# JSON is UTF-8 by definition (RFC 8259), so it takes no charset; YAML names it.
EXPORT_TYPES = {"yaml": "application/yaml; charset=utf-8", "json": "application/json"}


class IsMemberInPerson(BasePermission):
    """A member signed in (a calendar link or a notification setting is a person's own, never a key's)."""

    message = "Only a member, signed in, has this: an API key acts for nobody in person."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request_api_key(request) is None


MEMBER_IN_PERSON = [IsAuthenticatedOrAPIKey, IsCampaignMember, IsMemberInPerson]


# The campaign viewset's create, export, schedule and calendar actions (a comment, not a
# docstring: the schema would take it for the viewset's own description).
class CampaignAdminActions(CampaignAccessMixin, ApiViewSet[models.Campaign]):
    def get_permissions(self) -> Sequence[Any]:
        if self.action == "create":  # no campaign yet: any signed-in person may make one
            return [IsSignedIn()]
        return super().get_permissions()

    @extend_schema(
        summary="Create a campaign from the demo or a scenario pack; you become its umpire",
        description="`based_on: demo` makes a new copy of the Malta 1942 demo; `based_on: pack` imports "
        "the pack file's text sent in `pack` (docs/scenario-format.md). You are its only member, its "
        "umpire: the pack's memberships and the users its history names are left out. A pack the "
        "JSON Schema or the domain checks refuse is a 400 whose `fields` name each issue by its path "
        "in the file, under `pack.` (`pack.sides[0].name`). Nothing is created on an error.",
        request=inputs.CampaignCreateInput,
        responses={201: CampaignSerializer},
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.CampaignCreateInput)
        names = {"slug": data.get("slug"), "name": data.get("name")}
        if data["based_on"] == "demo":
            campaign = demo_campaign_create(self.actor, **names)
        else:
            campaign = scenario_services.campaign_create_from_file(
                self.actor, data.get("pack_file_name", "pack.json"), data["pack"], **names
            )
        return self.respond(campaign, status.HTTP_201_CREATED)

    @extend_schema(
        summary="Export the campaign as a scenario pack (umpires; a file download)",
        description="The whole campaign, as `manage.py export_campaign` writes it: set-up, order of "
        "battle, memberships and state, with nothing hidden. Import it again with `POST /campaigns/`.",
        parameters=[
            OpenApiParameter(
                "file_format", str, enum=list(EXPORT_TYPES), description="yaml (default) or json"
            )
        ],
        # Any body: the pack as YAML text or as a JSON document, as the query asked.
        responses={
            (200, media_type.partition(";")[0]): OpenApiResponse(
                OpenApiTypes.ANY, description="the pack (docs/scenario-format.md), as a download"
            )
            for media_type in EXPORT_TYPES.values()
        },
    )
    @action(
        detail=True,
        methods=["get"],
        permission_classes=UMPIRE_PERMISSIONS,
        pagination_class=None,
        filter_backends=[],
    )
    def export(self, request: Request, **kwargs: Any) -> HttpResponse:
        campaign = self.campaign_access.campaign
        file_format = request.query_params.get("file_format", "yaml")
        if file_format not in EXPORT_TYPES:
            raise ValidationError({"file_format": ["Choose yaml or json."]})
        text = pack_dumps(campaign_export(campaign.pk), f".{file_format}")
        response = HttpResponse(text, content_type=EXPORT_TYPES[file_format])
        response["Content-Disposition"] = f'attachment; filename="{campaign.slug}.{file_format}"'
        return response

    def _schedule(self) -> Response:
        schedule = selectors.club_schedule(self.campaign_access.campaign, timezone.now())
        return Response(ScheduleSerializer(schedule, context=self.get_serializer_context()).data)

    @extend_schema(
        methods=["GET"],
        summary="The club's schedule: the weekly night phase and the club nights",
        responses=ScheduleSerializer,
    )
    @extend_schema(
        methods=["PUT"],
        summary="Set the club's schedule (umpires)",
        description="The whole schedule: the weekday and time the night phase starts by itself (both, "
        "or both null for none), and the real date of each campaign day's club night (the list "
        "replaces the one there was), and how many hours before the night phase the sides' "
        "orders close.",
        request=inputs.ScheduleInput,
        responses=ScheduleSerializer,
    )
    @action(detail=True, methods=["get", "put"], pagination_class=None, filter_backends=[])
    def schedule(self, request: Request, **kwargs: Any) -> Response:
        if request.method == "PUT":
            data = self.validated(inputs.ScheduleInput)
            schedule_services.campaign_schedule_set(
                self.campaign_access.campaign.pk,
                self.actor,
                night_weekday=data["night_weekday"],
                night_time=data["night_time"],
                club_nights=data.get("club_nights", []),
                orders_lead_hours=data["orders_lead_hours"],
            )
            # The access read the campaign before the write: read the schedule as saved.
            self.campaign_access.campaign.refresh_from_db()
        return self._schedule()

    def _calendar_link(self, membership: models.Membership) -> Response:
        path = reverse("api:calendar-feed", kwargs={"token": membership.calendar_token})
        return Response(CalendarLinkSerializer({"url": self.request.build_absolute_uri(path)}).data)

    @extend_schema(
        summary="Your own calendar link (an iCal feed of the club nights)",
        description="A secret URL of your own, for a calendar app to subscribe to: the campaign's club "
        "nights and weekly night phase, nothing else. Anybody with it reads them: renew it if it leaks.",
        responses=CalendarLinkSerializer,
    )
    @action(
        detail=True,
        methods=["get"],
        permission_classes=MEMBER_IN_PERSON,
        pagination_class=None,
        filter_backends=[],
    )
    def calendar(self, request: Request, **kwargs: Any) -> Response:
        membership = selectors.membership_of(authenticated_user_id(request), self.campaign_access.campaign.pk)
        if membership is None:
            raise Http404
        return self._calendar_link(membership)

    @extend_schema(
        summary="Renew your calendar link: the old one stops working",
        request=None,
        responses=CalendarLinkSerializer,
    )
    @action(detail=True, methods=["post"], url_path="calendar/renew", permission_classes=MEMBER_IN_PERSON)
    def calendar_renew(self, request: Request, **kwargs: Any) -> Response:
        membership = membership_services.membership_calendar_renew(
            self.campaign_access.campaign.pk, self.actor
        )
        return self._calendar_link(membership)

    @extend_schema(
        methods=["GET"],
        summary="Whether your notifications of this campaign are e-mailed to you",
        responses=NotificationEmailsSerializer,
    )
    @extend_schema(
        methods=["PUT"],
        summary="Turn your notification e-mails of this campaign on or off",
        description="Off: the campaign's notifications reach your inbox (`/notifications/`) only.",
        request=inputs.NotificationEmailsInput,
        responses=NotificationEmailsSerializer,
    )
    @action(
        detail=True,
        methods=["get", "put"],
        url_path="notification-emails",
        permission_classes=MEMBER_IN_PERSON,
        pagination_class=None,
        filter_backends=[],
    )
    def notification_emails(self, request: Request, **kwargs: Any) -> Response:
        campaign = self.campaign_access.campaign
        if request.method == "PUT":
            data = self.validated(inputs.NotificationEmailsInput)
            membership: models.Membership | None = membership_services.membership_notification_emails_set(
                campaign.pk, self.actor, enabled=data["notification_emails"]
            )
        else:
            membership = selectors.membership_of(authenticated_user_id(request), campaign.pk)
        if membership is None:
            raise Http404
        return Response(NotificationEmailsSerializer(membership).data)


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
    serializer_class = CampaignSerializer
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
        """With an ETag of the campaign's version, the reader and the minute (its next night phase
        is read against the clock): a poll sending it back is answered 304 before a row is read."""
        etag = conditional.version_etag(request, self.campaign_access, clock=True)
        if conditional.etag_matches(request, etag):
            return conditional.not_modified(etag)
        with selectors.one_moment():
            response = super().retrieve(request, *args, **kwargs)
        response["ETag"] = etag
        response["Cache-Control"] = conditional.CACHE_CONTROL
        return response

    @extend_schema(
        summary="Start the campaign (umpires; idempotent)",
        description="From set-up to active, so day 1 may dawn (`POST days/dawn/`). 409 when the "
        "campaign is not being set up. Send an Idempotency-Key to retry safely.",
        request=None,
        responses=CampaignSerializer,
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
        responses=SupplyReviewSerializer,
    )
    @extend_schema(
        methods=["POST"],
        summary="Confirm the supply proposal (umpires)",
        description="Writes every battalion's situation: the proposal's, or the one given in "
        "`overrides` with its reason (each recorded on the timeline). Before the night phase starts: "
        "409 during it. Answers the proposal as confirmed.",
        request=inputs.SupplyConfirmInput,
        responses=SupplyReviewSerializer,
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
        return Response(SupplyReviewSerializer(supply_services.supply_review(campaign)).data)

    @extend_schema(
        summary="Order of battle",
        description="Forces with battlegroups, battalions and stands: your side in full, enemy "
        "battalions only once identified (and their stands only when the enemy reveals strengths).",
        responses=OrderOfBattleSerializer,
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def oob(self, request: Request, **kwargs: Any) -> Response:
        access = self.campaign_access
        context = {**self.get_serializer_context(), "access": access}
        with selectors.one_moment():
            forces = selectors.oob(access)
            night_in_progress = selectors.night_restore_tree(access.campaign.pk, forces)
            data = OrderOfBattleSerializer(
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
        "ETag back in If-None-Match: an unchanged map answers 304 with no body. With `day` and "
        "`moment` it answers the map replayed: as it stood at that day's dawn or after its night, "
        "as your side saw it then (kept when it happened); `moments` lists those kept.",
        parameters=[inputs.MapMomentQuery],
        responses={
            200: MapDocumentSerializer,
            400: OpenApiResponse(description="day or moment unreadable, or one without the other"),
            404: OpenApiResponse(description="no such moment kept (yet)"),
        },
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
        query = inputs.MapMomentQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        if "day" in query.validated_data:
            day, moment = query.validated_data["day"], query.validated_data["moment"]
            document = selectors.map_replay(access, day, moment)
            if document is None:
                raise Http404(f"Day {day} has no map kept {MapMoment(moment).label.lower()} (yet).")
        else:
            document = selectors.map_document(access)
        document = dataclasses.replace(document, moments=selectors.map_moments(access.campaign))
        # Its ETag and 304 are the base viewset's (api.conditional), as for every read.
        return Response(MapDocumentSerializer(document, context=context).data)

    @extend_schema(
        summary="Chart series: each side's strength and stocks at every dawn",
        description="One entry per campaign day and side, taken as the day dawned. Null where you may "
        "not see the value: activation points and barrage rounds as the campaign summary shows them, "
        "strength only for the sides you see in full.",
        responses=OpenApiResponse(StatisticsSerializer, examples=[schema.STATISTICS_EXAMPLE]),
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def statistics(self, request: Request, **kwargs: Any) -> Response:
        access = self.campaign_access
        context = {**self.get_serializer_context(), "access": access}
        return Response(StatisticsSerializer(selectors.statistics(access), context=context).data)

    @extend_schema(
        summary="The chronicle: the campaign so far, a page per day (PDF)",
        description="Each day's weather and segments, its map as it stood after the day's night (or "
        "at its dawn) as you saw it then, and its battles with their results and the report's lines "
        "you may read: printed for you, through the same fog of war as every read (an umpire's copy "
        "shows everything, a player's the campaign as their side saw it).",
        parameters=[PAPER_FORMAT],
        responses=PAPER_RESPONSE,
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def chronicle(self, request: Request, **kwargs: Any) -> HttpResponse:
        query = inputs.PaperFormatQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        access = self.campaign_access
        reader = access.sides[access.player_side_id].name if access.player_side_id else access.role.label
        return paper_http_response(
            chronicle_html(access),
            PaperFormat(query.validated_data["output"]),
            access.campaign.slug,
            "chronicle",
            reader,
        )

    @extend_schema(
        summary="The umpire's to-do: what waits for them now (umpires)",
        description="One list of what waits for the umpire in this campaign now, each with its "
        "`kind` (and label), a sentence and the web app's page where it is done: orders submitted "
        "for approval, battles whose drafts are filed (both sides: to reconcile; one: the other "
        "awaited), the day's supply unconfirmed, segments left to play, arrival rolls running, and "
        "the night phase due (no segment left, or the club's scheduled time has come).",
        responses=TodoSerializer,
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
        return Response(TodoSerializer({"items": items}).data)

    @extend_schema(
        summary="Victory: the scenario's conditions and each side's standing (every member)",
        description="Each of the scenario's victory conditions with its side, the sectors it names "
        "(who holds each) and its victory-point threshold, and where its side stands against it as "
        "the map stands now (`standing`, in words; `met`: tonight's night phase would end the "
        "campaign with it); each side's sectors and victory points held; what ends the campaign "
        "if no condition is met; and, once finished, the result. Sectors and their owners are "
        "public (rules notes C-17), so every member reads the same (rules notes MS-06).",
        responses=VictorySerializer,
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def victory(self, request: Request, **kwargs: Any) -> Response:
        return Response(VictorySerializer(selectors.victory_standing(self.campaign_access.campaign)).data)

    @extend_schema(
        summary="The dice commitment and the revealed day seeds (every member)",
        description="The SHA-256 hash chain commitments published when the campaign was created, one "
        "per audience (every member, each side, each battle's two sides, the umpires), and the day "
        "seeds revealed to you after each night phase: the public ones to every member, each other "
        "audience's to its members (rules notes C-22). Day d's seed hashed d times gives its "
        "commitment; `GET days/{number}/dice/` serves a revealed day's rolls to replay "
        "(docs/api.md, Verifying the dice). The campaign's own seed is never served.",
        responses=DiceSummarySerializer,
    )
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def dice(self, request: Request, **kwargs: Any) -> Response:
        return Response(DiceSummarySerializer(selectors.dice_summary(self.campaign_access)).data)
