"""Battles: their setup, drafts, results and papers."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from api import filters, inputs, schema
from api.changes import ChangesMixin
from api.permissions import IsAuthenticatedOrAPIKey, IsCampaignMember, request_api_key
from api.serializers.battles import BattleSerializer, SetupQuestionSerializer
from api.serializers.drafts import (
    DraftComparisonSerializer,
    OwnDraftSerializer,
    draft_comparison_data,
    own_draft_data,
)
from api.views.base import UMPIRE_PERMISSIONS, PublicIdLookup
from api.views.papers import PAPER_FORMAT, PAPER_RESPONSE, PAPER_SIDE, PaperMixin
from api.viewsets import CampaignScopedViewSet, VersionedListMixin
from campaign import models, paper, selectors
from campaign.access import CampaignAccess, battle_table_side
from campaign.services import battle_drafts as draft_services
from campaign.services import battle_reports as battle_report_services
from campaign.services import battle_setups as battle_setup_services
from campaign.services import battles as battle_services


@extend_schema(tags=["battles"])
@extend_schema_view(
    list=extend_schema(summary="Battles (players: the battles their side fights)"),
    retrieve=extend_schema(summary="One battle"),
)
class BattleViewSet(
    PublicIdLookup,
    PaperMixin,
    ChangesMixin[models.Battle],
    VersionedListMixin[models.Battle],
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    CampaignScopedViewSet[models.Battle],
):
    change_kind = "battle"
    model = models.Battle
    serializer_class = BattleSerializer
    filterset_class = filters.BattleFilter
    ordering_fields = ["sector", "id"]

    def visible(self, access: CampaignAccess) -> QuerySet[models.Battle]:
        return selectors.battles(access)

    @extend_schema(
        summary="Create a battle (umpires)",
        request=inputs.BattleCreateInput,
        responses={201: BattleSerializer},
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
        responses=BattleSerializer,
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
        responses=SetupQuestionSerializer(many=True),
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
        return Response(SetupQuestionSerializer(questions, many=True).data)

    @extend_schema(
        summary="Report the battle's outcome (umpires; idempotent)",
        description="Applies stands destroyed and suppressed, points and rounds spent, objectives "
        "and supply in one transaction. Send an Idempotency-Key to retry safely.",
        request=inputs.BattleReportInput,
        responses=BattleSerializer,
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
        responses=OwnDraftSerializer,
    )
    @extend_schema(
        methods=["PUT"],
        summary="File or change your side's draft of the report (players of the battle, signed in)",
        description="Takes the report as `POST report/` does and checks it against the order of battle "
        "the same way (400 naming the field), but changes nothing in the campaign: the umpire compares "
        "both sides' drafts and confirms. 409 once the battle is reported.",
        request=inputs.BattleReportInput,
        responses=OwnDraftSerializer,
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
        return Response(OwnDraftSerializer(own_draft_data(own, access)).data)

    @extend_schema(
        summary="Both sides' drafts of the report, compared (umpires)",
        description="Each item of the drafts (a stand's loss, a battalion's points, rounds, templates, "
        "objectives and supply, the winner, the sector's owner, the turn) with each side's version: "
        "`agreed`, `conflict` or `one_side` (a battalion or field only one draft entered, proposed as "
        "entered; rules notes C-20), a stand's state in the order of battle now, and the proposal.",
        responses=DraftComparisonSerializer,
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
        return Response(DraftComparisonSerializer(draft_comparison_data(compared, access)).data)

    @extend_schema(
        summary="Confirm the drafts as the battle's report (umpires; idempotent)",
        description="The proposal, with each conflict as the side `choices` names, applied as "
        "`POST report/` applies a report. `revision` is the comparison's: 409 if a draft changed "
        "since; 400 naming `choices.<key>` for a conflict left unchosen.",
        request=inputs.BattleDraftConfirmInput,
        responses=BattleSerializer,
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
        responses=BattleSerializer,
    )
    @action(detail=True, methods=["post"], url_path="lull-check")
    def lull_check(self, request: Request, **kwargs: Any) -> Response:
        turn = self.validated(inputs.BattleLullCheckInput)["turn"]
        campaign_id = self.campaign_access.campaign.pk
        return self.respond(
            battle_services.battle_lull_check(campaign_id, self.actor, self.get_object().pk, turn)
        )

    @extend_schema(summary="Close a reported battle (umpires)", request=None, responses=BattleSerializer)
    @action(detail=True, methods=["post"])
    def close(self, request: Request, **kwargs: Any) -> Response:
        campaign_id = self.campaign_access.campaign.pk
        return self.respond(battle_services.battle_close(campaign_id, self.actor, self.get_object().pk))
