"""Provably fair dice (:mod:`rules_engine.fairness`; docs/api.md "Verifying the dice"): the seeds'
commitments and each roll's proof."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.labels import LabelledModelSerializer, LabelledSerializer
from api.serializers.base import PUBLIC_ID_HELP, access_of
from campaign import access as access_rules
from campaign import models
from rules_engine import fairness

ALGORITHM_CHOICES = [(fairness.ALGORITHM, fairness.ALGORITHM_TEXT)]


class DiceDaySeedSerializer(LabelledModelSerializer[models.CampaignDay]):
    day = serializers.IntegerField(source="number", read_only=True)
    seed = serializers.CharField(source="dice_seed", read_only=True, help_text="the day's revealed seed")

    class Meta:
        model = models.CampaignDay
        fields = ["day", "seed"]


class DiceCommitmentFieldsSerializer(LabelledSerializer[Any]):
    """What a verifier needs besides the seeds: the commitment and how the chain is built."""

    commitment = serializers.CharField(
        source="campaign.dice_commitment",
        help_text="SHA-256 hash chain head published at the campaign's creation: day d's seed, "
        "hashed d times, gives it",
    )
    algorithm = serializers.ChoiceField(choices=ALGORITHM_CHOICES)
    chain_length = serializers.IntegerField(
        source="campaign.dice_chain_length", help_text="links of the chain: the days the campaign can roll"
    )


class DiceAudienceDaySeedSerializer(LabelledSerializer[Any]):
    day = serializers.IntegerField()
    seed = serializers.CharField(help_text="the audience's revealed seed of the day")


class DiceAudienceSerializer(LabelledSerializer[Any]):
    """An audience's own chain: its commitment, and the day seeds revealed to you."""

    audience = serializers.CharField(
        help_text="who reads its rolls besides the umpires: `side <name>`, `battle [<side>, <side>]` "
        "(a battle's two sides) or `umpire`; each roll names the audience whose seed rolled it"
    )
    commitment = serializers.CharField(
        help_text="the head of the audience's hash chain, fixed at the campaign's creation: day d's "
        "seed of the audience, hashed d times, gives it"
    )
    revealed = DiceAudienceDaySeedSerializer(
        source="seeds",
        many=True,
        help_text="its day seeds revealed to you: after each night to its readers, to every member "
        "once the campaign is over; empty for an audience you are not of",
    )


class DiceSummarySerializer(DiceCommitmentFieldsSerializer):
    rolling_day = serializers.IntegerField(
        help_text="the day whose seed rolls now (the first not revealed): set-up, day, night and the "
        "next dawn's rolls all belong to it"
    )
    revealed = DiceDaySeedSerializer(
        source="days", many=True, help_text="the public day seeds revealed so far (`commitment`'s chain)"
    )
    audiences = DiceAudienceSerializer(
        many=True, help_text="every other audience's chain: rolls only its readers read come from it"
    )


class DiceDayAudienceSerializer(LabelledSerializer[Any]):
    audience = serializers.CharField(help_text="an audience you are of (see the dice summary)")
    commitment = serializers.CharField(help_text="its chain's head: the seed hashed `day` times gives it")
    seed = serializers.CharField(help_text="its seed of the day")


class DiceRollSerializer(LabelledModelSerializer[models.RollRecord]):
    """One roll of the day as the verifier replays it."""

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    audience = serializers.CharField(
        source="dice_audience",
        read_only=True,
        help_text="whose seed rolled it: `public` (the document's `seed`), else one of `audiences`",
    )
    faces = serializers.SerializerMethodField(help_text="the faces of each die thrown, as recorded")
    override = serializers.SerializerMethodField(
        help_text="an umpire's recorded override of `override_of`: not replayed"
    )
    override_of = serializers.SlugRelatedField[models.RollRecord](
        slug_field="public_id", read_only=True, allow_null=True, help_text="the id of the roll it overrides"
    )
    hidden = serializers.SerializerMethodField(
        help_text="inputs or result hold strengths hidden from you, so you cannot replay it"
    )
    entered = serializers.CharField(
        source="table_roll",
        read_only=True,
        help_text='"rolled at the table by <member>": its faces were entered, not rolled from the seed; '
        "verify checks the result against them",
    )

    class Meta:
        model = models.RollRecord
        fields = [
            "id",
            "procedure",
            "stream",
            "audience",
            "inputs",
            "result",
            "faces",
            "override",
            "override_of",
            "hidden",
            "entered",
        ]

    @extend_schema_field(serializers.ListField(child=serializers.ListField(child=serializers.IntegerField())))
    def get_faces(self, roll: models.RollRecord) -> list[list[int]]:
        return [list(thrown["faces"]) for thrown in roll.result.get("rolls", [])]

    def get_override(self, roll: models.RollRecord) -> bool:
        return roll.override_of_id is not None

    def get_hidden(self, roll: models.RollRecord) -> bool:
        return access_rules.roll_shown(access_of(self), roll).result is not roll.result

    def to_representation(self, instance: models.RollRecord) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        shown = access_rules.roll_shown(access_of(self), instance)
        data.update(inputs=shown.inputs, result=shown.result)
        if data["hidden"]:
            data["faces"] = []
        return data


class DayDiceSerializer(DiceCommitmentFieldsSerializer):
    """A revealed day's verification document: read by ``python -m rules_engine verify``."""

    campaign = serializers.CharField(source="campaign.slug")
    day = serializers.IntegerField(source="day.number")
    seed = serializers.CharField(source="day.dice_seed", help_text="the day's revealed public seed")
    audiences = DiceDayAudienceSerializer(
        many=True,
        help_text="the day's seeds of the other audiences you are of (your side, your battles; all "
        "for umpires and once the campaign is over), each with its commitment",
    )
    rolls = DiceRollSerializer(many=True, help_text="the day's rolls you may read, in the order rolled")
