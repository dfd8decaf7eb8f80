"""The club's administration: creating and exporting campaigns, members and invitations,
the club's schedule, each member's calendar feed, and each person's notifications."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api import filters, inputs
from api import serializers as out
from api.calendar_feed import calendar_ics
from api.permissions import (
    CampaignAccessMixin,
    IsAuthenticatedOrAPIKey,
    IsCampaignMember,
    IsUmpire,
    authenticated_user_id,
    request_api_key,
)
from api.viewsets import CAMPAIGN_PERMISSIONS, UMPIRES_IN_PERSON, ApiViewSet, CampaignScopedViewSet
from campaign import models, selectors
from campaign.access import CampaignAccess
from campaign.scenarios import pack_dumps
from campaign.scenarios.exporting import campaign_export
from campaign.services import memberships as membership_services
from campaign.services import notifications as notification_services
from campaign.services import scenario as scenario_services
from campaign.services import schedule as schedule_services
from campaign.services.demo import demo_campaign_create

UMPIRE_PERMISSIONS = [*CAMPAIGN_PERMISSIONS, IsUmpire]
# JSON is UTF-8 by definition (RFC 8259), so it takes no charset; YAML names it.
EXPORT_TYPES = {"yaml": "application/yaml; charset=utf-8", "json": "application/json"}


class IsSignedIn(IsAuthenticated):
    """A person signed in, never an API key: keys belong to one campaign and make none."""

    message = "Sign in to do this: an API key may not."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request_api_key(request) is None and super().has_permission(request, view)


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
        responses={201: out.CampaignSerializer},
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
        return Response(out.ScheduleSerializer(schedule, context=self.get_serializer_context()).data)

    @extend_schema(
        methods=["GET"],
        summary="The club's schedule: the weekly night phase and the club nights",
        responses=out.ScheduleSerializer,
    )
    @extend_schema(
        methods=["PUT"],
        summary="Set the club's schedule (umpires)",
        description="The whole schedule: the weekday and time the night phase starts by itself (both, "
        "or both null for none), and the real date of each campaign day's club night (the list "
        "replaces the one there was), and how many hours before the night phase the sides' "
        "orders close.",
        request=inputs.ScheduleInput,
        responses=out.ScheduleSerializer,
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
        return Response(out.CalendarLinkSerializer({"url": self.request.build_absolute_uri(path)}).data)

    @extend_schema(
        summary="Your own calendar link (an iCal feed of the club nights)",
        description="A secret URL of your own, for a calendar app to subscribe to: the campaign's club "
        "nights and weekly night phase, nothing else. Anybody with it reads them: renew it if it leaks.",
        responses=out.CalendarLinkSerializer,
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
        responses=out.CalendarLinkSerializer,
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
        responses=out.NotificationEmailsSerializer,
    )
    @extend_schema(
        methods=["PUT"],
        summary="Turn your notification e-mails of this campaign on or off",
        description="Off: the campaign's notifications reach your inbox (`/notifications/`) only.",
        request=inputs.NotificationEmailsInput,
        responses=out.NotificationEmailsSerializer,
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
        return Response(out.NotificationEmailsSerializer(membership).data)


@extend_schema(tags=["members"])
@extend_schema_view(list=extend_schema(summary="The campaign's members (umpires)"))
class MemberViewSet(mixins.ListModelMixin, CampaignScopedViewSet[models.Membership]):
    model = models.Membership
    serializer_class = out.MemberSerializer
    permission_classes = UMPIRES_IN_PERSON
    pagination_class = None
    filter_backends: list[Any] = []

    def visible(self, access: CampaignAccess) -> Any:
        return selectors.members(access)

    @extend_schema(
        summary="Create an account and make it a member (umpires; the password is in this answer only)",
        description="A new login with a random initial password, shown this once, to hand over. To "
        "add somebody who has a login, send them an invitation link instead.",
        request=inputs.MemberCreateInput,
        responses={201: out.MemberCreatedSerializer},
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.MemberCreateInput)
        membership, password = membership_services.member_account_create(
            self.campaign_access.campaign.pk,
            self.actor,
            username=data["username"],
            role=data["role"],
            side_id=data.get("side"),
        )
        return self.respond(
            membership,
            status.HTTP_201_CREATED,
            serializer_class=out.MemberCreatedSerializer,
            initial_password=password,
        )

    @extend_schema(
        summary="Remove a member (umpires; never the last umpire)",
        description="Their login stays; they no longer see the campaign.",
        responses={204: OpenApiResponse(description="Removed")},
    )
    def destroy(self, request: Request, **kwargs: Any) -> Response:
        membership_services.member_remove(self.campaign_access.campaign.pk, self.actor, int(kwargs["pk"]))
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["members"])
@extend_schema_view(list=extend_schema(summary="The campaign's invitation links, newest first (umpires)"))
class InvitationViewSet(mixins.ListModelMixin, CampaignScopedViewSet[models.Invitation]):
    model = models.Invitation
    serializer_class = out.InvitationSerializer
    permission_classes = UMPIRES_IN_PERSON
    filter_backends: list[Any] = []

    def visible(self, access: CampaignAccess) -> Any:
        return selectors.invitations(access)

    @extend_schema(
        summary="Make an invitation link (umpires; the link is in this answer only)",
        description="A single-use link, valid for `expires_in_days`: whoever opens it signed in joins "
        "with its role (and side, for a player).",
        request=inputs.InvitationCreateInput,
        responses={201: out.InvitationCreatedSerializer},
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.InvitationCreateInput)
        invitation, token = membership_services.invitation_create(
            self.campaign_access.campaign.pk,
            self.actor,
            role=data["role"],
            side_id=data.get("side"),
            expires_in_days=data["expires_in_days"],
        )
        return self.respond(
            invitation, status.HTTP_201_CREATED, serializer_class=out.InvitationCreatedSerializer, token=token
        )


@extend_schema(tags=["members"])
class InvitationLinkViewSet(ApiViewSet[models.Invitation]):
    """An invitation as its link opens it, for the signed-in person who follows it."""

    serializer_class = out.InvitationPreviewSerializer
    permission_classes = [IsSignedIn]
    lookup_field = "token"
    lookup_value_regex = r"[A-Za-z0-9_-]+"

    def _invitation(self) -> models.Invitation:
        invitation = selectors.invitation_by_token(self.kwargs["token"])
        if invitation is None:
            raise Http404
        return invitation

    @extend_schema(summary="What an invitation link offers", responses=out.InvitationPreviewSerializer)
    def retrieve(self, request: Request, **kwargs: Any) -> Response:
        return Response(out.InvitationPreviewSerializer(self._invitation()).data)

    @extend_schema(
        summary="Accept an invitation: join its campaign",
        description="Once, before it expires; 409 when it was used, expired, or you are a member already.",
        request=None,
        responses={201: out.MemberSerializer},
    )
    @action(detail=True, methods=["post"])
    def accept(self, request: Request, **kwargs: Any) -> Response:
        membership = membership_services.invitation_accept(self.kwargs["token"], self.actor)
        return Response(out.MemberSerializer(membership).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=["notifications"])
@extend_schema_view(
    list=extend_schema(
        summary="Your inbox: your notifications of every campaign you are in, newest first",
        description="Orders due, orders sent back, a battle assigned to you, a draft waiting for your "
        "opponent, a night report ready: each with its page in the web app (`link`). `?campaign=` "
        "narrows it to one campaign, `?unread=true` to the unread ones. Signed-in people only: an "
        "API key acts for nobody in person.",
    ),
    retrieve=extend_schema(summary="One of your notifications"),
)
class NotificationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet[models.Notification]):
    serializer_class = out.NotificationSerializer
    permission_classes = [IsSignedIn]
    filterset_class = filters.NotificationFilter
    ordering_fields: ClassVar[list[str]] = []
    lookup_field = "public_id"
    lookup_url_kwarg = "pk"
    lookup_value_regex = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"

    def get_queryset(self) -> QuerySet[models.Notification]:
        if getattr(self, "swagger_fake_view", False):  # schema generation: no request
            return models.Notification.objects.none()
        return selectors.notifications(authenticated_user_id(self.request))

    @extend_schema(
        summary="How many of your notifications are unread (the bell's number)",
        parameters=[OpenApiParameter("campaign", str, description="only this campaign's (its slug)")],
        responses=out.NotificationCountSerializer,
    )
    @action(detail=False, methods=["get"], url_path="unread-count", pagination_class=None, filter_backends=[])
    def unread_count(self, request: Request) -> Response:
        unread = selectors.notifications_unread(
            authenticated_user_id(request), request.query_params.get("campaign")
        )
        return Response(out.NotificationCountSerializer({"unread": unread}).data)

    @extend_schema(
        summary="Mark one of your notifications read", request=None, responses=out.NotificationSerializer
    )
    @action(detail=True, methods=["post"])
    def read(self, request: Request, **kwargs: Any) -> Response:
        notification = notification_services.notification_read(self.actor, self.kwargs["pk"])
        return self.respond(notification)

    @extend_schema(
        summary="Mark all your notifications read (of one campaign, if named)",
        request=inputs.NotificationsReadAllInput,
        responses=out.NotificationsReadSerializer,
    )
    @action(detail=False, methods=["post"], url_path="read-all")
    def read_all(self, request: Request) -> Response:
        data = self.validated(inputs.NotificationsReadAllInput)
        campaign_id = None
        if "campaign" in data:
            campaign_id = selectors.member_campaign_id(authenticated_user_id(request), data["campaign"])
            if campaign_id is None:
                raise ValidationError(
                    {"campaign": [f"You are not a member of a campaign {data['campaign']!r}."]}
                )
        marked = notification_services.notifications_read_all(self.actor, campaign_id)
        return Response(out.NotificationsReadSerializer({"marked": marked}).data)


@require_GET
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """A member's iCal feed (no session: a calendar app only has the URL); 404 for any other secret."""
    schedule = selectors.calendar_feed(token)
    if schedule is None:
        raise Http404("No calendar at this address.")
    response = HttpResponse(calendar_ics(schedule), content_type="text/calendar; charset=utf-8")
    response["Cache-Control"] = "private, max-age=300"
    response["Content-Disposition"] = f'inline; filename="{schedule.campaign.slug}.ics"'
    return response
