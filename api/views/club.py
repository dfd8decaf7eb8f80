"""The club's administration: members, invitations, invitation links and the calendar feed."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from api import inputs
from api.calendar_feed import calendar_ics
from api.serializers.club import (
    InvitationCreatedSerializer,
    InvitationPreviewSerializer,
    InvitationSerializer,
    MemberCreatedSerializer,
    MemberSerializer,
)
from api.views.base import IsSignedIn, PublicIdLookup
from api.viewsets import UMPIRES_IN_PERSON, ApiViewSet, CampaignScopedViewSet
from campaign import models, selectors
from campaign.access import CampaignAccess
from campaign.services import memberships as membership_services


@extend_schema(tags=["members"])
@extend_schema_view(list=extend_schema(summary="The campaign's members (umpires)"))
class MemberViewSet(PublicIdLookup, mixins.ListModelMixin, CampaignScopedViewSet[models.Membership]):
    model = models.Membership
    serializer_class = MemberSerializer
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
        responses={201: MemberCreatedSerializer},
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
            serializer_class=MemberCreatedSerializer,
            initial_password=password,
        )

    @extend_schema(
        summary="Remove a member (umpires; never the last umpire)",
        description="Their login stays; they no longer see the campaign.",
        responses={204: OpenApiResponse(description="Removed")},
    )
    def destroy(self, request: Request, **kwargs: Any) -> Response:
        membership_services.member_remove(self.campaign_access.campaign.pk, self.actor, self.get_object().pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(tags=["members"])
@extend_schema_view(list=extend_schema(summary="The campaign's invitation links, newest first (umpires)"))
class InvitationViewSet(PublicIdLookup, mixins.ListModelMixin, CampaignScopedViewSet[models.Invitation]):
    model = models.Invitation
    serializer_class = InvitationSerializer
    permission_classes = UMPIRES_IN_PERSON
    filter_backends: list[Any] = []

    def visible(self, access: CampaignAccess) -> Any:
        return selectors.invitations(access)

    @extend_schema(
        summary="Make an invitation link (umpires; the link is in this answer only)",
        description="A single-use link, valid for `expires_in_days`: whoever opens it signed in joins "
        "with its role (and side, for a player).",
        request=inputs.InvitationCreateInput,
        responses={201: InvitationCreatedSerializer},
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
            invitation, status.HTTP_201_CREATED, serializer_class=InvitationCreatedSerializer, token=token
        )


@extend_schema(tags=["members"])
class InvitationLinkViewSet(ApiViewSet[models.Invitation]):
    """An invitation as its link opens it, for the signed-in person who follows it."""

    serializer_class = InvitationPreviewSerializer
    permission_classes = [IsSignedIn]
    lookup_field = "token"
    lookup_value_regex = r"[A-Za-z0-9_-]+"

    def _invitation(self) -> models.Invitation:
        invitation = selectors.invitation_by_token(self.kwargs["token"])
        if invitation is None:
            raise Http404
        return invitation

    @extend_schema(summary="What an invitation link offers", responses=InvitationPreviewSerializer)
    def retrieve(self, request: Request, **kwargs: Any) -> Response:
        return Response(InvitationPreviewSerializer(self._invitation()).data)

    @extend_schema(
        summary="Accept an invitation: join its campaign",
        description="Once, before it expires; 409 when it was used, expired, or you are a member already.",
        request=None,
        responses={201: MemberSerializer},
    )
    @action(detail=True, methods=["post"])
    def accept(self, request: Request, **kwargs: Any) -> Response:
        membership = membership_services.invitation_accept(self.kwargs["token"], self.actor)
        return Response(MemberSerializer(membership).data, status=status.HTTP_201_CREATED)


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
