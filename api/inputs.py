"""Input serializers: the shape of each write. The rules are the services' to enforce."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.fields import empty

from campaign.choices import (
    COPS_QUALITY_CHOICES,
    MAP_SUPPLY_SITUATION_CHOICES,
    REPORTED_FUEL_CHOICES,
    WEBHOOK_EVENT_CHOICES,
    ArtilleryMode,
    AttachmentKind,
    MapMoment,
    MemberRole,
    NightOrderKind,
    OperationKind,
    PaperFormat,
    StandStatus,
    TimelineKind,
    WebhookAudience,
    WebhookKind,
    enum_choices,
)
from campaign.models.days import JOURNAL_MAX_LENGTH
from campaign.services.days import RANGE_MAX_INCHES
from rules_engine.great_battles.activation import ActivationColumn, InitiativeRow
from rules_engine.nineteen43.common import BattleType
from rules_engine.results import RuleSystem
from rules_engine.vocab import SupplySituation

# Every number an input takes is bounded: ids by the database's bigint, counts by the
# small-integer columns they end in, so 10**40 is a 400 naming the field, never stored.
ID_MAX = 2**63 - 1
COUNT_MAX = 32767
LAST_TURN = 10


_T = TypeVar("_T")
# Sent by Django's and the browsable API's HTML forms along with the fields.
FORM_FIELDS = frozenset({"csrfmiddlewaretoken"})


class Input(serializers.Serializer[_T]):
    """Every input's base: a field it does not have is a 400 naming it and the fields it takes,
    never ignored (``"colour": "red"`` on a battle is a mistake the sender should hear of).
    Nested inputs are inputs too, so ``battalions[0].colour`` is named by its path. A field an
    input once took says why it is gone (``retired``), so no client thinks it still counts."""

    retired: ClassVar[dict[str, str]] = {}

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        for field in fields.values():
            if isinstance(field, serializers.BooleanField):
                # DRF reads a form's missing box as false (an unticked checkbox); a client sends
                # a form body without the fields it leaves out (openapi-python-client's multipart),
                # which must keep their defaults: a webhook subscribed that way was switched off.
                field.default_empty_html = empty
        return fields

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(set(data) - set(self.fields) - FORM_FIELDS)
            if unknown:
                takes = f"it takes {', '.join(self.fields)}" if self.fields else "it takes none"
                raise ValidationError(
                    {
                        name: [self.retired.get(name, f"is not a field of this input ({takes})")]
                        for name in unknown
                    }
                )
        return super().to_internal_value(data)


class QueryInput(serializers.Serializer[_T]):
    """The shape of a request's query parameters: they share the query with paging and
    ``format``, and an unknown one is refused before (api.contract checks the query against
    the operation's parameters in the OpenAPI document), so this one does not refuse them again."""


def id_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=ID_MAX, **kwargs)


def count_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, max_value=COUNT_MAX, **kwargs)


class PaperFormatQuery(QueryInput[Mapping[str, Any]]):
    """The query of a printable paper printed for its reader (the chronicle)."""

    output = serializers.ChoiceField(
        choices=PaperFormat.choices,
        default=PaperFormat.PDF,
        help_text="a PDF laid out for A4, or the web page it is laid out from (the same paper)",
    )


class PaperInput(PaperFormatQuery):
    """The query of a side's printable paper (a briefing, a battle packet)."""

    side = id_field(help_text="the side it is printed for (players: their own)")


class TimelineQuery(QueryInput[Mapping[str, Any]]):
    """The timeline's filters: each narrows it, none given shows everything the reader sees."""

    side = id_field(
        required=False,
        help_text="only the entries of this side (its id, as the campaign summary gives it)",
        error_messages={
            "invalid": "The side must be a side's id, as the campaign summary gives it.",
            "max_value": "No such side in this campaign.",
        },
    )
    force = serializers.UUIDField(
        required=False,
        help_text="only the entries about this force (its id): its moves, its battalions' battles",
        error_messages={"invalid": "The force must be a force's id, as the order of battle gives it."},
    )
    kind = serializers.ChoiceField(
        choices=TimelineKind.choices,
        required=False,
        help_text="only the entries of this kind",
        error_messages={"invalid_choice": "The kind must be one of: " + ", ".join(TimelineKind.values) + "."},
    )


class DayJournalInput(Input[Mapping[str, Any]]):
    """The umpire's journal of a day: the whole text, replacing what was there (blank clears it)."""

    text = serializers.CharField(
        allow_blank=True,
        max_length=JOURNAL_MAX_LENGTH,
        help_text=f"the day as the umpire tells it, for every member (at most {JOURNAL_MAX_LENGTH})",
        error_messages={"max_length": "Keep the journal to {max_length} characters."},
    )


class MapMomentQuery(QueryInput[Mapping[str, Any]]):
    """The query of the map replayed: a kept moment (both given), or the map as it stands (neither)."""

    day = serializers.IntegerField(
        min_value=1,
        max_value=COUNT_MAX,
        required=False,
        help_text="the campaign day to replay (with moment)",
        error_messages={
            "invalid": "The day must be a whole number, such as 2.",
            "min_value": "The day must be 1 or more.",
            "max_value": "The day must be {max_value} or less.",
        },
    )
    moment = serializers.ChoiceField(
        choices=MapMoment.choices,
        required=False,
        help_text="when in that day (with day): at dawn, or after the night",
        error_messages={"invalid_choice": "The moment must be one of: dawn, night."},
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "day" in attrs and "moment" not in attrs:
            raise serializers.ValidationError(
                {"moment": "Say which moment of the day to replay: dawn or night."}
            )
        if "moment" in attrs and "day" not in attrs:
            raise serializers.ValidationError({"day": "Say which day to replay, as a number."})
        return attrs


class BattleCreateInput(Input[Mapping[str, Any]]):
    sector = id_field(
        source="sector_id",
        required=False,
        allow_null=True,
        help_text="where it is fought: a sector id (GET sectors/); or give sector_name",
    )
    sector_name = serializers.CharField(
        max_length=100,
        required=False,
        help_text="a sector's name; a campaign without a map may name a new table here",
    )
    battle_type = serializers.ChoiceField(choices=enum_choices(BattleType))
    attacker_id = id_field(help_text="side id")
    defender_id = id_field(help_text="side id")
    battalion_codes = serializers.ListField(child=serializers.CharField(max_length=20), allow_empty=False)
    continues_id = serializers.UUIDField(
        required=False, allow_null=True, help_text="the id of the battle on the same sector the day before"
    )
    feeds_ids = serializers.ListField(
        child=serializers.UUIDField(),
        required=False,
        help_text="ids of the battles forces leave this one for",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("sector_id") is None and not attrs.get("sector_name"):
            raise serializers.ValidationError(
                {"sector": ["Give the sector's id, or its name as sector_name."]}
            )
        return attrs


class BattleSetupInput(Input[Mapping[str, Any]]):
    inputs = serializers.DictField(
        child=serializers.DictField(),
        required=False,
        help_text='what the campaign cannot know, by procedure key or "key@Side name": {field: value}',
    )
    faces = serializers.DictField(
        child=serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=100), max_length=40
        ),
        required=False,
        help_text="the faces of the steps rolled at the table, in the order rolled, by the same labels: "
        '{"n43.air_superiority": [4]}; only the steps the campaign\'s table_dice lets you enter',
    )


class BattleLullCheckInput(Input[Mapping[str, Any]]):
    turn = serializers.IntegerField(
        min_value=1, max_value=99, help_text="the battle turn starting its assault phase"
    )


class ObjectiveInput(Input[Mapping[str, Any]]):
    name = serializers.CharField(max_length=200)
    activation_points = count_field(required=False)


class ReportedBattalionInput(Input[Mapping[str, Any]]):
    code = serializers.CharField(max_length=20)
    destroyed = serializers.ListField(
        child=serializers.CharField(max_length=60),
        required=False,
        help_text='the stands destroyed, each by its label ("1. Kp") or its id',
    )
    suppressed = serializers.ListField(
        child=serializers.CharField(max_length=60),
        required=False,
        help_text='the stands suppressed, each by its label ("1. Kp") or its id',
    )
    activation_points_spent = count_field(required=False)
    barrage_rounds_spent = count_field(required=False)
    barrage_templates_used = count_field(
        required=False,
        help_text="barrage templates placed in the battle: in use until the night returns them",
    )
    objectives = ObjectiveInput(many=True, required=False)
    supply_situation = serializers.ChoiceField(
        choices=enum_choices(SupplySituation), required=False, help_text="at the end of the battle"
    )
    fuel_state = serializers.ChoiceField(
        choices=REPORTED_FUEL_CHOICES,
        required=False,
        help_text="a vehicle battalion's fuel at the end of the battle, when the campaign plays fuel supply",
    )


class BattleReportInput(Input[Mapping[str, Any]]):
    battalions = ReportedBattalionInput(many=True, allow_empty=False)
    turn = serializers.IntegerField(
        min_value=0,
        max_value=10,
        required=False,
        help_text="the turn the reported activation points were spent or won: the pool paying then "
        "takes them (Malta: the side's on day 1 up to turn 1, else the division's); 1 if left out",
    )
    winner = id_field(
        required=False,
        allow_null=True,
        help_text="the side that won: the attacker's or defender's id; null: nobody",
    )
    sector_owner = id_field(
        required=False,
        allow_null=True,
        help_text="who holds the battle's sector now (a side of the battle; null: contested); "
        "leave out when control does not change",
    )


class BattleDraftConfirmInput(Input[Mapping[str, Any]]):
    revision = serializers.CharField(
        max_length=64, help_text="the comparison's revision, as GET drafts/ gave it"
    )
    choices = serializers.DictField(
        child=id_field(),
        required=False,
        default=dict,
        help_text="for each conflict (by its item's key) the side whose version is kept",
    )


class ForceMoveInput(Input[Mapping[str, Any]]):
    sector = id_field(
        source="sector_id",
        allow_null=True,
        help_text="a sector next to where it stands (any sector from off the map); null: off the map",
    )
    forming_up_point = serializers.BooleanField(
        default=False, help_text="move its forming-up point instead of its C Ops"
    )


class BattalionMoveInput(Input[Mapping[str, Any]]):
    sector = id_field(
        source="sector_id",
        allow_null=True,
        help_text="a sector next to where it stands (any sector from off the map); null: off the map",
    )


class SectorControlInput(Input[Mapping[str, Any]]):
    owner = id_field(
        source="owner_id", allow_null=True, help_text="the side that holds it now; null: contested"
    )
    reason = serializers.CharField(max_length=500, help_text="why it changes hands (every member reads it)")


class NightOrderInput(Input[Mapping[str, Any]]):
    kind = serializers.ChoiceField(choices=NightOrderKind.choices)
    battalion_code = serializers.CharField(
        max_length=20, help_text="the battalion withdrawing, or whose stand is attached or detached"
    )
    stand_label = serializers.CharField(
        max_length=60, required=False, allow_blank=True, default="", help_text="attach and detach only"
    )
    target_battalion_code = serializers.CharField(
        max_length=20,
        required=False,
        allow_blank=True,
        default="",
        help_text="attach and detach only: the battalion of the same side the stand joins",
    )
    attachment_kind = serializers.ChoiceField(
        choices=AttachmentKind.choices,
        required=False,
        allow_blank=True,
        default="",
        help_text="attach only; follows from the stand's type when left out",
    )


class APIKeyCreateInput(Input[Mapping[str, Any]]):
    name = serializers.CharField(max_length=50, help_text="who uses the key, for what")
    side = id_field(
        source="side_id",
        required=False,
        allow_null=True,
        help_text="side id: the key sees as that side's player; empty: the public (observer) view",
    )
    can_write = serializers.BooleanField(
        default=False,
        help_text="without a side: the key may make the umpire's writes (and sees all); with a side: it "
        "manages that side's webhook subscriptions and writes nothing else",
    )
    expiry_date = serializers.DateTimeField(required=False, allow_null=True, help_text="empty: never expires")


class OperationStartInput(Input[Mapping[str, Any]]):
    kind = serializers.ChoiceField(
        choices=OperationKind.choices,
        help_text="arrival rolls start on their own when a segment opens; start them here for forces "
        "that fell due later in the segment",
    )


RANGE_NEEDED = "Give the range to the nearest enemy, in inches: the deployment chart is read by it."


class DeploymentInput(Input[Mapping[str, Any]]):
    battalion = serializers.CharField(max_length=20, help_text="code of a battalion in reserve")
    range_inches = serializers.FloatField(
        min_value=0,
        max_value=RANGE_MAX_INCHES,
        help_text="to the nearest enemy",
        # Picked after ticking the battalion: the chart cannot be read without it.
        error_messages={
            "null": RANGE_NEEDED,
            "required": RANGE_NEEDED,
            "invalid": "The range to the nearest enemy is a number of inches.",
        },
    )
    friendly_intervening = serializers.BooleanField(default=False)


class DayDawnInput(Input[Mapping[str, Any]]):
    deployments = DeploymentInput(many=True, required=False, help_text="battalions leaving reserve at dawn")


class ReinforcementPostponeInput(Input[Mapping[str, Any]]):
    day = serializers.IntegerField(
        min_value=1, max_value=COUNT_MAX, help_text="the later campaign day it is due on instead"
    )


class StandCorrectInput(Input[Mapping[str, Any]]):
    status = serializers.ChoiceField(
        choices=StandStatus.choices, help_text="the stand's state as it should be"
    )
    reason = serializers.CharField(max_length=500, help_text="why, for the timeline")


class SideFogInput(Input[Mapping[str, Any]]):
    identified_units = serializers.ListField(
        child=serializers.CharField(max_length=20),
        allow_empty=True,
        max_length=1000,
        help_text="codes of this side's battalions its enemies have identified (the whole list)",
    )
    strengths = serializers.BooleanField(help_text="the enemy sees the stands of the identified battalions")
    battle_results = serializers.BooleanField(
        help_text="the enemy sees the identified battalions' lines of battle reports"
    )


class ActivationSpendInput(Input[Mapping[str, Any]]):
    column = serializers.ChoiceField(
        choices=enum_choices(ActivationColumn), help_text="activation chart column"
    )
    turn = serializers.IntegerField(
        min_value=0, max_value=LAST_TURN, help_text="0 for the dawn turn, else 1..10"
    )
    battalion_codes = serializers.ListField(child=serializers.CharField(max_length=20), allow_empty=False)


class RollOverrideInput(Input[Mapping[str, Any]]):
    changes = serializers.DictField(allow_empty=False, help_text="value the roll set → the umpire's value")
    reason = serializers.CharField(max_length=500)


class ReinforcementScheduleInput(Input[Mapping[str, Any]]):
    force_id = serializers.UUIDField(help_text="the force's id")
    day = serializers.IntegerField(min_value=1, max_value=COUNT_MAX, help_text="the campaign day it is due")
    zone = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")


class WebhookInput(Input[Mapping[str, Any]]):
    """A subscription; a PATCH sends only what changes."""

    url = serializers.CharField(max_length=500, help_text="http:// or https:// URL that receives the POSTs")
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=WEBHOOK_EVENT_CHOICES), allow_empty=False
    )
    secret = serializers.CharField(
        min_length=16,
        max_length=128,
        required=False,
        write_only=True,
        help_text="HMAC-SHA256 key of X-Campaign-Signature; omit it and the service makes one, "
        "returned once in the response",
    )
    active = serializers.BooleanField(required=False, help_text="inactive subscriptions receive nothing")
    kind = serializers.ChoiceField(
        choices=WebhookKind.choices,
        required=False,
        help_text="json (default): the service's signed JSON; discord: a Discord channel's webhook URL "
        "(https://discord.com/api/webhooks/...), posted Discord's message in words; set when subscribing",
    )
    hold_for_approval = serializers.BooleanField(
        required=False,
        help_text="hold each post until an umpire publishes it (or discards it): nothing reaches the "
        "receiver before the umpire checked it",
    )
    audience = serializers.ChoiceField(
        choices=WebhookAudience.choices,
        required=False,
        help_text="whose eyes it reads with: what it receives, and every link in it, is what that "
        "audience may read (default umpires; a side's key subscribes for its own side only)",
    )
    side = id_field(
        source="side_id",
        required=False,
        allow_null=True,
        help_text="the side's id, for a side's audience",
    )


class RuleQuery(QueryInput[dict[str, str]]):
    system = serializers.ChoiceField(choices=[s.value for s in RuleSystem], required=False)
    kind = serializers.ChoiceField(choices=["procedure", "table"], required=False)


class LoginInput(Input[dict[str, str]]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=1024, style={"input_type": "password"})


class SupplyOverrideInput(Input[Mapping[str, Any]]):
    battalion = serializers.UUIDField(help_text="the battalion's id (on the map)")
    situation = serializers.ChoiceField(
        choices=MAP_SUPPLY_SITUATION_CHOICES,
        help_text="the situation the umpire confirms instead of the one proposed",
    )
    # Blank reaches the service, whose refusal says what to write ("say why battalion E1 is ...").
    reason = serializers.CharField(
        max_length=500, allow_blank=True, help_text="why: recorded on the timeline"
    )


class SupplyConfirmInput(Input[Mapping[str, Any]]):
    overrides = SupplyOverrideInput(many=True, required=False, help_text="battalions confirmed otherwise")


TURN_HELP = "the turn of the day under way: 0 is the dawn turn, then 1 to 10"


def turn_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, max_value=10, help_text=TURN_HELP, **kwargs)


class DayEndRollInput(Input[Mapping[str, Any]]):
    allied_turn = serializers.IntegerField(
        min_value=1,
        max_value=10,
        help_text="the Allied turn just ended (the roll is made after turns 7 to 10)",
    )


class ForceTurnInput(Input[Mapping[str, Any]]):
    turn = turn_field()


class ArrivalPostponeInput(Input[Mapping[str, Any]]):
    entry_point = serializers.CharField(max_length=60, help_text="where the force will enter instead")


class EntrenchInput(Input[Mapping[str, Any]]):
    action_points = count_field(required=False, default=0, help_text="action points spent digging this time")
    at_start = serializers.BooleanField(
        required=False, default=False, help_text="an Allied stand outside a town starting entrenched (day 1)"
    )


class ArtilleryOrderInput(Input[Mapping[str, Any]]):
    template = serializers.IntegerField(min_value=1, max_value=COUNT_MAX, help_text="the template's number")
    mode = serializers.ChoiceField(choices=ArtilleryMode.choices)


class CopsActionPointsInput(Input[Mapping[str, Any]]):
    retired = {
        "isolated_from_source": "the C Ops' isolation is read from the supply lines "
        "(with the umpire's confirmed overrides), not sent: confirm supply instead"
    }

    turn = turn_field()
    quality = serializers.ChoiceField(choices=COPS_QUALITY_CHOICES, help_text="the C Ops' quality")
    convert = serializers.BooleanField(
        required=False, default=True, help_text="save the actions as the division's activation points"
    )


class InitiativeActivationInput(Input[Mapping[str, Any]]):
    turn = turn_field()
    row = serializers.ChoiceField(
        choices=enum_choices(InitiativeRow),
        required=False,
        help_text="the chart's row, for a nation it has none for (Italian: the club's choice)",
    )


class CampaignCreateInput(Input[Mapping[str, Any]]):
    based_on = serializers.ChoiceField(
        choices=[("demo", "The Malta 1942 demo"), ("pack", "A scenario pack file")],
        help_text="the demo campaign, or the scenario pack sent in `pack`",
    )
    pack = serializers.CharField(
        required=False,
        trim_whitespace=False,
        help_text="the pack file's text (docs/scenario-format.md), when based on `pack`",
    )
    pack_file_name = serializers.CharField(
        max_length=255, required=False, help_text="its name: .yaml or .yml is read as YAML, else JSON"
    )
    slug = serializers.SlugField(
        max_length=100, required=False, help_text="default: the pack's, numbered when taken"
    )
    name = serializers.CharField(max_length=200, required=False, help_text="default: the pack's")

    def validate(self, attrs: Mapping[str, Any]) -> Mapping[str, Any]:
        if attrs["based_on"] == "pack" and not attrs.get("pack"):
            raise serializers.ValidationError({"pack": "Choose a scenario pack file (YAML or JSON)."})
        return attrs


class MemberCreateInput(Input[Mapping[str, Any]]):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=MemberRole.choices)
    side = id_field(required=False, allow_null=True, help_text="the side's id, for a player")


class InvitationCreateInput(Input[Mapping[str, Any]]):
    role = serializers.ChoiceField(choices=MemberRole.choices)
    side = id_field(required=False, allow_null=True, help_text="the side's id, for a player")
    expires_in_days = serializers.IntegerField(min_value=1, max_value=30, default=7)


class ClubNightInput(Input[Mapping[str, Any]]):
    campaign_day = serializers.IntegerField(min_value=1, max_value=COUNT_MAX)
    play_date = serializers.DateField(help_text="the real date the club plays that campaign day")


class ScheduleInput(Input[Mapping[str, Any]]):
    night_weekday = serializers.IntegerField(
        min_value=0, max_value=6, allow_null=True, help_text="0 = Monday; null with no weekly night phase"
    )
    night_time = serializers.TimeField(allow_null=True, help_text="in the club's time zone")
    club_nights = serializers.ListField(child=ClubNightInput(), required=False, max_length=1000)
    orders_lead_hours = serializers.IntegerField(
        min_value=0,
        max_value=24 * 14,
        required=False,
        default=0,
        help_text="how many hours before the night phase the sides' orders close (0: at the night phase)",
    )


class NotificationEmailsInput(Input[Mapping[str, Any]]):
    notification_emails = serializers.BooleanField(
        help_text="false: notifications of this campaign reach only your inbox, not your e-mail"
    )


class NotificationsReadAllInput(Input[Mapping[str, Any]]):
    campaign = serializers.SlugField(
        required=False, help_text="only this campaign's (its slug); every campaign's without it"
    )


class SideOrderInput(Input[Mapping[str, Any]]):
    kind = serializers.CharField(
        max_length=20,
        help_text="withdraw, attach, detach, move, artillery or deploy (activation is refused, named)",
    )
    payload = serializers.DictField(
        help_text="by kind: withdraw {battalion_code}; attach and detach {battalion_code, stand_label, "
        "target_battalion_code}; move {battalion_code, sector} (the sector's key); artillery "
        "{template, mode}; deploy {battalion_code, range_inches, friendly_intervening} (a reserve "
        "battalion, as the dawn's deployments take it)"
    )


class SideOrderEditInput(Input[Mapping[str, Any]]):
    kind = serializers.CharField(
        max_length=20, required=False, help_text="as when drafted; unchanged if left out"
    )
    payload = serializers.DictField(required=False, help_text="the whole payload; unchanged if left out")


class SideOrderReturnInput(Input[Mapping[str, Any]]):
    reason = serializers.CharField(max_length=2000, help_text="why the order is sent back, for its side")


class SideOrderAmendInput(Input[Mapping[str, Any]]):
    payload = serializers.DictField(help_text="the whole payload, as the order's kind takes it")
    reason = serializers.CharField(
        max_length=2000, help_text="why the umpire amends it: shown to its side, kept in the event"
    )
