"""The night: operations and the night's reports."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from api.labels import LabelledModelSerializer, LabelledSerializer
from api.permissions import CAMPAIGN_KWARG
from api.serializers.base import PUBLIC_ID_HELP, access_of
from campaign import access as access_rules
from campaign import models
from campaign.choices import DAY_SEGMENT_CHOICES, ArrivalStatus, OperationKind
from campaign.services.night_words import COUNTER_WORDS
from campaign.services.operations import operation_failed, operation_running


class OperationSerializer(LabelledModelSerializer[models.Operation]):
    """A background operation's status; its progress, report and errors are the umpire's."""

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    url = serializers.SerializerMethodField()
    day = serializers.IntegerField(source="day.number", read_only=True)
    segment = serializers.ChoiceField(
        source="segment.segment", choices=DAY_SEGMENT_CHOICES, read_only=True, allow_null=True
    )
    steps_done = serializers.SerializerMethodField(help_text="null but for umpires")
    steps_total = serializers.SerializerMethodField(help_text="null but for umpires")
    running = serializers.SerializerMethodField(
        help_text="still waiting for a worker or running: its outcome is to come"
    )
    failed = serializers.SerializerMethodField(help_text="it gave up; done when neither this nor running")

    class Meta:
        model = models.Operation
        fields = [
            "id",
            "url",
            "kind",
            "day",
            "segment",
            "status",
            "running",
            "failed",
            "steps_done",
            "steps_total",
            "steps",
            "completed_steps",
            "attempts",
            "report",
            "error",
            "created_at",
            "started_at",
            "finished_at",
        ]
        extra_kwargs = {name: {"allow_null": True} for name in access_rules.OPERATION_UMPIRE_ONLY}

    def get_url(self, operation: models.Operation) -> str:
        return reverse(
            "api:operation-detail",
            kwargs={CAMPAIGN_KWARG: access_of(self).campaign.slug, "pk": operation.public_id},
            request=self.context.get("request"),
        )

    def get_running(self, operation: models.Operation) -> bool:
        return operation_running(operation)

    def get_failed(self, operation: models.Operation) -> bool:
        return operation_failed(operation)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_steps_done(self, operation: models.Operation) -> int:
        return len(operation.completed_steps)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_steps_total(self, operation: models.Operation) -> int:
        return len(operation.steps)

    def to_representation(self, instance: models.Operation) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        data.update(dict.fromkeys(access_rules.operation_fields_hidden(access_of(self))))
        return data


def _counter(help_text: str) -> serializers.IntegerField:
    return serializers.IntegerField(required=False, help_text=help_text)


def _names(help_text: str) -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(), required=False, help_text=help_text)


def _roll_lines() -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(), help_text="each roll, as the umpire reads it")


class NightReportBattalionSerializer(LabelledSerializer[dict[str, Any]]):
    """A battalion's replacement rolls in its side's night report."""

    code = serializers.CharField()
    text = serializers.CharField(help_text="the outcome in words")
    lines = _roll_lines()


class ReportBodySerializer(LabelledSerializer[dict[str, Any]]):
    """A side's part of an operation's report, as its kind writes it (``api.schema`` closes its
    schema to these keys, so a body matches its own kind's only)."""


class NightReportDivisionSerializer(LabelledSerializer[dict[str, Any]]):
    """A division's own activation pool through the night (Malta's division pools)."""

    name = serializers.CharField(help_text="the division (force)")
    before = serializers.IntegerField(help_text="activation points before the night")
    carried = serializers.IntegerField(help_text="activation points carried to the next day")


class NightReportBodySerializer(ReportBodySerializer):
    """A side's part of a night phase (``campaign.services.night``): its own figures, each step's
    present when the night ran that step (0 when the step found nothing of the side's)."""

    day = serializers.IntegerField()
    side = serializers.CharField(help_text="the side's name")
    fups_moved = _counter(COUNTER_WORDS["fups_moved"])
    suppressions_flipped = _counter(COUNTER_WORDS["suppressions_flipped"])
    replacements_rolled = _counter("replacement rolls made")
    replacements_due = _counter("destroyed stands the replacement rolls were for")
    replacements_returned = _counter("of those, the stands returned")
    extra_stands_lost = _counter("stands isolated battalions lost besides")
    battalions = NightReportBattalionSerializer(many=True, required=False)
    moved_to_reserve = _names("battalions sent to reserve: withdrawn, or wiped out tonight")
    command_rolls = _names("Panzer Korps night command rolls, one line a force")
    forces_removed = _names("forces removed in the night: their command roll failed")
    barrage_rounds_before = _counter("barrage rounds before the night")
    barrage_rounds_replenished = _counter("barrage rounds the night added")
    barrage_rounds_after = _counter("barrage rounds after the night")
    templates_returned = _counter("barrage templates available again")
    activation_points_before = _counter("activation points before the night")
    activation_points_carried = _counter("activation points carried to the next day")
    activation_points_lost = _counter("activation points lost in the carry-over")
    divisions = NightReportDivisionSerializer(many=True, required=False)
    ammo_markers_rolled = _counter(COUNTER_WORDS["ammo_markers_rolled"])
    battalions_refuelled = _counter(COUNTER_WORDS["battalions_refuelled"])
    battalions_set_inactive = _counter(COUNTER_WORDS["battalions_set_inactive"])
    forces_to_reroll_availability = _counter(COUNTER_WORDS["forces_to_reroll_availability"])
    battalions_isolated = _counter(COUNTER_WORDS["battalions_isolated"])
    battalions_separated = _counter(COUNTER_WORDS["battalions_separated"])
    isolated_battalions = _names("battalions isolated from supply at nightfall")
    campaign_result = serializers.CharField(
        required=False, help_text="how the campaign ended, when this night ended it"
    )


@extend_schema_field({"type": "integer", "nullable": True})
class _ReserveTurnField(serializers.IntegerField):
    """A Malta-style reserve's turn count, null while it has none; absent for any other force
    (``allow_null`` would read an absent one as null)."""


class ArrivalReportEntrySerializer(LabelledSerializer[dict[str, Any]]):
    """A force's arrival rolls in a segment (``campaign.services.arrivals``)."""

    force = serializers.CharField(help_text="the force's name")
    arrival_status = serializers.ChoiceField(choices=ArrivalStatus.choices)
    zone = serializers.CharField(
        required=False, help_text="where it enters, as the scenario or its side chose"
    )
    deployment_zone = serializers.CharField(
        required=False, help_text="the deployment chart's zone, once it arrived"
    )
    arrival_attempts = serializers.IntegerField(required=False)
    turns_left = _ReserveTurnField(required=False, help_text="a Malta-style reserve: turns it still waits")
    enters_on_turn = _ReserveTurnField(
        required=False, help_text="a Malta-style reserve: the turn it enters on"
    )
    lines = _roll_lines()


class ArrivalReportBodySerializer(ReportBodySerializer):
    """A side's part of an arrival roll: its forces that rolled in the segment."""

    day = serializers.IntegerField()
    segment = serializers.CharField()
    side = serializers.CharField(help_text="the side's name")
    arrivals = ArrivalReportEntrySerializer(many=True, help_text="none when no force of the side rolled")


class NightReportSerializer(LabelledModelSerializer[models.NightReport]):
    """A side's report of a night phase or of an arrival roll (its kind)."""

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    operation = serializers.SlugRelatedField[models.Operation](
        slug_field="public_id", read_only=True, help_text="the id of the operation that wrote it"
    )
    BODIES: ClassVar[Mapping[str, type[ReportBodySerializer]]] = {
        OperationKind.NIGHT_PHASE: NightReportBodySerializer,
        OperationKind.ARRIVALS: ArrivalReportBodySerializer,
    }

    day = serializers.IntegerField(source="day.number", read_only=True)
    kind = serializers.ChoiceField(source="operation.kind", choices=OperationKind.choices, read_only=True)
    title = serializers.CharField(
        read_only=True, help_text='e.g. "Night of day 1", "Arrivals, day 2, morning"'
    )
    body = serializers.SerializerMethodField()

    class Meta:
        model = models.NightReport
        fields = ["id", "operation", "kind", "title", "side", "day", "body", "created_at"]

    @extend_schema_field(
        PolymorphicProxySerializer(
            component_name="ReportBody",
            serializers=[NightReportBodySerializer, ArrivalReportBodySerializer],
            resource_type_field_name=None,
        )
    )
    def get_body(self, report: models.NightReport) -> dict[str, Any]:
        """The side's part, as its kind's serializer reads it: the schema is what the services write."""
        body: dict[str, Any] = self.BODIES[report.operation.kind](report.body).data
        return body
