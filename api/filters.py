"""django-filter filter sets.

Filters only ever narrow the caller's visible queryset, and they exist only on
fields every caller who sees the row may see: filtering identified enemy
battalions by supply situation would leak what the masked field hides.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any

import django_filters as filters  # type: ignore[import-untyped]
from django import forms
from django.db.models import Model, Q, QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework.exceptions import ValidationError
from rest_framework.filters import OrderingFilter
from rest_framework.request import Request
from rest_framework.views import APIView

from api.inputs import ID_MAX
from campaign import models
from campaign.choices import (
    DAY_SEGMENT_CHOICES,
    WEBHOOK_EVENT_CHOICES,
    BattleStatus,
    DeliveryStatus,
    EventVerb,
    NotificationKind,
    OperationKind,
    OperationStatus,
    SideOrderStatus,
    StandStatus,
    StandType,
    enum_choices,
)
from rules_engine.vocab import Nation

AFTER_HELP = "the id of an entry: only the entries after it, to poll for what is new since the last one seen"


def _after(queryset: QuerySet[Any], name: str, value: Any) -> QuerySet[Any]:
    """Entries after the one whose public id is ``value``, among those the caller sees."""
    position = queryset.filter(public_id=value).values_list("pk", flat=True).first()
    if position is None:
        raise ValidationError({name: [f"is not the id of an entry of this list you can see: {value}"]})
    return queryset.filter(pk__gt=position)


@extend_schema_field(OpenApiTypes.INT)  # the schema says integer, as the filter reads it (not number)
class IntegerFilter(filters.NumberFilter):  # type: ignore[misc]
    """A whole number from 0 (ids, day numbers, years): ``?day=0.5`` or ``?day=abc`` is a
    400 naming the parameter, where django-filter's NumberFilter takes any decimal."""

    field_class = forms.IntegerField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, min_value=0, max_value=ID_MAX, **kwargs)


class CampaignRowFilter(IntegerFilter):
    """A side or sector by its number, refused unless it names one of the campaign's: a
    mistyped number answers a 400 naming the parameter, not an empty list, and another
    campaign's number answers the same as a number no row has."""

    def __init__(self, model: type[models.Side] | type[models.Sector], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.row_model = model

    def filter(self, queryset: QuerySet[Any], value: int | None) -> QuerySet[Any]:
        if value is not None:
            view = self.parent.request.parser_context["view"]
            if not self.row_model.objects.filter(campaign=view.campaign_access.campaign, pk=value).exists():
                parameter = next(name for name, declared in self.parent.filters.items() if declared is self)
                kind = self.row_model._meta.verbose_name
                raise ValidationError({parameter: [f"No {kind} {value} in this campaign."]})
        narrowed: QuerySet[Any] = super().filter(queryset, value)
        return narrowed


class CheckedOrderingFilter(OrderingFilter):
    """DRF's ``?ordering=``, refusing the fields it would silently drop."""

    def remove_invalid_fields(
        self, queryset: QuerySet[Any], fields: Iterable[str], view: APIView, request: Request
    ) -> list[str]:
        fields = list(fields)
        valid = super().remove_invalid_fields(queryset, fields, view, request)
        if len(valid) < len(fields):
            names = [name for name, _ in self.get_valid_fields(queryset, view, {"request": request})]
            allowed = (
                f"order by {', '.join(names)} (- first for descending)" if names else "its order is fixed"
            )
            raise ValidationError({self.ordering_param: [f"cannot order by {', '.join(fields)}: {allowed}"]})
        return valid

    def get_schema_operation_parameters(self, view: APIView) -> list[dict[str, Any]]:
        """The parameter with the keys it takes as an enum (each ascending, and descending with
        ``-``); a list ordered by several joins them with commas. None where the order is fixed
        (the cursor-paged lists): there it is refused."""
        keys = getattr(view, "ordering_fields", None) or []
        if not keys:
            return []
        [parameter] = super().get_schema_operation_parameters(view)
        parameter["schema"]["enum"] = [order for key in keys for order in (key, f"-{key}")]
        parameter["description"] = (
            f"order by {', '.join(keys)} (- first for descending); several, joined by commas, "
            "order by the first, then the next"
        )
        return [parameter]


class ForceFilter(filters.FilterSet):  # type: ignore[misc]
    side = CampaignRowFilter(models.Side, field_name="side_id")
    nation = filters.ChoiceFilter(choices=enum_choices(Nation))

    class Meta:
        model = models.Force
        fields = ["side", "nation"]


class BattalionFilter(filters.FilterSet):  # type: ignore[misc]
    side = CampaignRowFilter(models.Side, field_name="side_id")
    force = filters.UUIDFilter(field_name="battlegroup__force__public_id", help_text="a force's id")
    battlegroup = filters.UUIDFilter(field_name="battlegroup__public_id", help_text="a battlegroup's id")
    code = filters.CharFilter()

    class Meta:
        model = models.Battalion
        fields = ["side", "force", "battlegroup", "code"]


class StandFilter(filters.FilterSet):  # type: ignore[misc]
    battalion = filters.CharFilter(field_name="battalion__code", help_text="battalion code")
    force = filters.UUIDFilter(
        field_name="battalion__battlegroup__force__public_id", help_text="a force's id"
    )
    status = filters.ChoiceFilter(choices=StandStatus.choices)
    stand_type = filters.ChoiceFilter(choices=StandType.choices)

    class Meta:
        model = models.Stand
        fields = ["battalion", "force", "status", "stand_type"]


class BattleFilter(filters.FilterSet):  # type: ignore[misc]
    day = IntegerFilter(field_name="day__number")
    status = filters.ChoiceFilter(choices=BattleStatus.choices)
    sector = CampaignRowFilter(models.Sector, field_name="sector_id", help_text="a sector's id")
    sector_name = filters.CharFilter(field_name="sector__name", help_text="a sector's name")

    class Meta:
        model = models.Battle
        fields = ["day", "status", "sector", "sector_name"]


class OperationFilter(filters.FilterSet):  # type: ignore[misc]
    day = IntegerFilter(field_name="day__number")
    kind = filters.ChoiceFilter(choices=OperationKind.choices)
    status = filters.ChoiceFilter(choices=OperationStatus.choices)

    class Meta:
        model = models.Operation
        fields = ["day", "kind", "status"]


class NightReportFilter(filters.FilterSet):  # type: ignore[misc]
    day = IntegerFilter(field_name="day__number")
    side = CampaignRowFilter(models.Side, field_name="side_id")
    kind = filters.ChoiceFilter(
        field_name="operation__kind", choices=OperationKind.choices, help_text="the operation that wrote it"
    )

    class Meta:
        model = models.NightReport
        fields = ["day", "side", "kind"]


class RollFilter(filters.FilterSet):  # type: ignore[misc]
    day = IntegerFilter(field_name="day__number", help_text="campaign day number")
    segment = filters.ChoiceFilter(field_name="segment__segment", choices=DAY_SEGMENT_CHOICES)
    battle = filters.UUIDFilter(field_name="battle__public_id", help_text="a battle's id")
    force = filters.UUIDFilter(field_name="force__public_id", help_text="a force's id")
    battalion = filters.CharFilter(field_name="battalion__code", help_text="battalion code")
    procedure = filters.CharFilter(help_text="rules catalog key, e.g. gb.weather")
    table = filters.BooleanFilter(
        method="_table",
        help_text="true: the table's rolls (weather, initiative, wind, turns), of no force, battalion "
        "or battle; false: the others",
    )
    after = filters.UUIDFilter(method=_after, help_text=AFTER_HELP)

    class Meta:
        model = models.RollRecord
        fields = ["day", "segment", "battle", "force", "battalion", "procedure", "table", "after"]

    def _table(
        self, queryset: QuerySet[models.RollRecord], name: str, value: bool
    ) -> QuerySet[models.RollRecord]:
        of_the_table = Q(force__isnull=True, battalion__isnull=True, battle__isnull=True)
        return queryset.filter(of_the_table if value else ~of_the_table)


def _object_named_filter(object_type: type[Model]) -> Any:
    """Events about the object the API names by ``value``, its public id."""

    def by_object(queryset: QuerySet[models.Event], name: str, value: uuid.UUID) -> QuerySet[models.Event]:
        return queryset.filter(object_type=object_type.__name__, object_public_id=value)

    return by_object


class EventFilter(filters.FilterSet):  # type: ignore[misc]
    day = IntegerFilter(field_name="day_number", help_text="campaign day number")
    verb = filters.ChoiceFilter(choices=EventVerb.choices)
    battle = filters.UUIDFilter(
        method=_object_named_filter(models.Battle), help_text="events about this battle (its id)"
    )
    force = filters.UUIDFilter(
        method=_object_named_filter(models.Force), help_text="events about this force (its id)"
    )
    after = filters.UUIDFilter(method=_after, help_text=AFTER_HELP)

    class Meta:
        model = models.Event
        fields = ["day", "verb", "battle", "force", "after"]


class EquipmentFilter(filters.FilterSet):  # type: ignore[misc]
    nation = filters.ChoiceFilter(choices=enum_choices(Nation))
    category = filters.CharFilter()
    name = filters.CharFilter(lookup_expr="icontains")
    year = IntegerFilter(method="in_service", help_text="in service in this year")

    class Meta:
        model = models.Equipment
        fields = ["nation", "category", "name", "year"]

    def in_service(
        self, queryset: QuerySet[models.Equipment], name: str, value: int
    ) -> QuerySet[models.Equipment]:
        return queryset.exclude(year_from__gt=value).exclude(year_to__lt=value)


class NightOrderFilter(filters.FilterSet):  # type: ignore[misc]
    day = IntegerFilter(field_name="day__number", help_text="the campaign day whose night it is for")
    applied = filters.BooleanFilter(help_text="false: still queued; true: carried out in its night phase")

    class Meta:
        model = models.NightOrder
        fields = ["day", "applied"]


class SideOrderFilter(filters.FilterSet):  # type: ignore[misc]
    day = IntegerFilter(field_name="day_number", help_text="the campaign day whose night and dawn it is for")
    status = filters.ChoiceFilter(choices=SideOrderStatus.choices, help_text="submitted: the approval queue")
    side = CampaignRowFilter(models.Side, field_name="side_id")

    class Meta:
        model = models.SideOrder
        fields = ["day", "status", "side"]


class WebhookFilter(filters.FilterSet):  # type: ignore[misc]
    active = filters.BooleanFilter()
    event = filters.ChoiceFilter(
        choices=WEBHOOK_EVENT_CHOICES, method="subscribed_to", help_text="subscriptions to this event"
    )

    class Meta:
        model = models.WebhookSubscription
        fields = ["active", "event"]

    def subscribed_to(
        self, queryset: QuerySet[models.WebhookSubscription], name: str, value: str
    ) -> QuerySet[models.WebhookSubscription]:
        return queryset.filter(events__contains=[value])


class WebhookDeliveryFilter(filters.FilterSet):  # type: ignore[misc]
    status = filters.ChoiceFilter(choices=DeliveryStatus.choices)
    event = filters.ChoiceFilter(field_name="event__verb", choices=WEBHOOK_EVENT_CHOICES)

    class Meta:
        model = models.WebhookDelivery
        fields = ["status", "event"]


class NotificationFilter(filters.FilterSet):  # type: ignore[misc]
    campaign = filters.CharFilter(field_name="campaign__slug", help_text="only this campaign's (its slug)")
    kind = filters.ChoiceFilter(choices=NotificationKind.choices)
    unread = filters.BooleanFilter(
        field_name="read_at", lookup_expr="isnull", help_text="true: only unread ones"
    )

    class Meta:
        model = models.Notification
        fields = ["campaign", "kind", "unread"]
