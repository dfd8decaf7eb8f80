"""The umpire's manual corrections: only the changed fields are written, on the
campaign lock, versioned and on the timeline with before and after."""

from __future__ import annotations

import pytest

from campaign import models
from campaign.choices import EventVerb, StandStatus
from campaign.services.audit import Actor
from campaign.services.battles import battle_create
from campaign.services.corrections import object_correct, objects_delete
from campaign.services.days import day_dawn
from campaign.services.errors import DomainError
from tests.campaign.factories import campaign_with_sides

pytestmark = pytest.mark.django_db
ACTOR = Actor(request_id="corrections-test")


def version_of(campaign: models.Campaign) -> int:
    return models.Campaign.objects.values_list("version", flat=True).get(pk=campaign.pk)


def first_stand(campaign: models.Campaign) -> models.Stand:
    stand = campaign.stands.order_by("pk").first()
    assert stand is not None
    return stand


def test_a_correction_writes_only_its_fields_and_records_before_and_after():
    campaign = campaign_with_sides()
    stand = first_stand(campaign)
    models.Stand.objects.filter(pk=stand.pk).update(grade="Veteran")  # unseen by the stale copy
    version = version_of(campaign)

    object_correct(stand, ACTOR, changes={"status": (StandStatus.OK, StandStatus.DESTROYED)})

    stand.refresh_from_db()
    assert (stand.status, stand.grade) == (StandStatus.DESTROYED, "Veteran")
    assert version_of(campaign) == version + 1
    event = models.Event.objects.get(campaign=campaign)
    assert (event.verb, event.object_type, event.object_id, event.request_id) == (
        EventVerb.ADMIN_CORRECTED,
        "Stand",
        stand.pk,
        "corrections-test",
    )
    assert (event.before, event.after) == ({"status": "ok"}, {"status": "destroyed"})


def test_a_many_to_many_correction_is_written_and_recorded_as_ids():
    campaign = campaign_with_sides()
    day_dawn(campaign.pk, ACTOR)
    axis, allied = campaign.sides.get(name="Axis"), campaign.sides.get(name="Allied")
    battle = battle_create(
        campaign.pk,
        ACTOR,
        sector_name="Gela",
        battle_type="Local Attack",
        attacker_id=allied.pk,
        defender_id=axis.pk,
        battalion_codes=["A1"],
    )
    a1, l1 = (campaign.battalions.get(code=code).pk for code in ("A1", "L1"))

    object_correct(battle, ACTOR, changes={"battalions": ([a1], [a1, l1])})

    assert sorted(battle.battalions.values_list("pk", flat=True)) == [a1, l1]
    event = models.Event.objects.filter(campaign=campaign).latest("pk")
    assert (event.verb, event.before, event.after) == (
        EventVerb.ADMIN_CORRECTED,
        {"battalions": [a1]},
        {"battalions": [a1, l1]},
    )


def test_no_change_writes_nothing():
    campaign = campaign_with_sides()
    version = version_of(campaign)

    object_correct(first_stand(campaign), ACTOR, changes={})

    assert version_of(campaign) == version
    assert not models.Event.objects.filter(campaign=campaign).exists()


def test_the_seed_cannot_be_corrected():
    campaign = campaign_with_sides()
    seed, version = campaign.rng_seed, version_of(campaign)

    with pytest.raises(DomainError) as refused:
        object_correct(campaign, ACTOR, changes={"rng_seed": (seed, "foreseen")})

    assert refused.value.field == "rng_seed"
    assert models.Campaign.objects.get(pk=campaign.pk).rng_seed == seed
    assert version_of(campaign) == version
    assert not models.Event.objects.filter(campaign=campaign).exists()


def test_deleting_across_campaigns_bumps_each_once_and_records_each_object():
    first, second = campaign_with_sides(), campaign_with_sides()
    doomed = [*first.stands.order_by("pk")[:2], first_stand(second)]
    doomed_ids = [stand.pk for stand in doomed]
    versions = {first.pk: version_of(first), second.pk: version_of(second)}

    objects_delete(doomed, ACTOR)

    assert not models.Stand.objects.filter(pk__in=doomed_ids).exists()
    assert {first.pk: version_of(first), second.pk: version_of(second)} == {
        first.pk: versions[first.pk] + 1,
        second.pk: versions[second.pk] + 1,
    }
    events = models.Event.objects.filter(verb=EventVerb.ADMIN_DELETED).order_by("pk")
    assert [(e.campaign_id, e.object_type, e.object_id, e.before["label"], e.after) for e in events] == [
        (first.pk, "Stand", doomed_ids[0], "1", None),
        (first.pk, "Stand", doomed_ids[1], "2", None),
        (second.pk, "Stand", doomed_ids[2], "1", None),
    ]
