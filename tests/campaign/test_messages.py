"""What the timeline and refusals say: sentences with labels, never codes or repeated days."""

from __future__ import annotations

import pytest

from campaign import models
from campaign.choices import EventVerb
from campaign.services.audit import Actor
from campaign.services.days import day_dawn, segment_advance
from campaign.services.errors import ConflictError
from campaign.services.night import night_phase_start
from rules_engine.vocab import Weather
from tests.campaign.factories import campaign_with_sides

pytestmark = pytest.mark.django_db
ACTOR = Actor(request_id="test-messages")


@pytest.fixture
def campaign() -> models.Campaign:
    return campaign_with_sides(battalions_per_side=2)


def test_the_dawn_event_names_the_date_and_the_weather_in_words_without_repeating_the_day(campaign):
    day = day_dawn(campaign.pk, ACTOR)

    event = campaign.events.get(verb=EventVerb.DAY_DAWNED)
    weather = Weather(day.weather).name.lower()
    assert event.message == f"Dawn on {day.date.day} {day.date:%B %Y}: the weather is {weather}"
    assert event.day_number == 1  # the timeline shows the day beside the message


def test_a_segment_event_names_the_segment_by_its_label(campaign):
    day_dawn(campaign.pk, ACTOR)
    record = segment_advance(campaign.pk, ACTOR)

    event = campaign.events.filter(verb=EventVerb.SEGMENT_ADVANCED).latest("pk")
    assert event.message.startswith(f"Morning begins: {record.turns} turns, initiative to ")
    assert event.object_repr == "Day 1, morning"


def test_a_second_dawn_is_refused_in_a_sentence_with_the_days_state_in_words(campaign):
    day_dawn(campaign.pk, ACTOR)

    with pytest.raises(ConflictError) as under_way:
        day_dawn(campaign.pk, ACTOR)
    night_phase_start(campaign.pk, ACTOR)
    with pytest.raises(ConflictError) as at_night:
        day_dawn(campaign.pk, ACTOR)

    assert (
        under_way.value.message
        == "Day 1 is not over yet: it is under way; its night phase must finish first."
    )
    assert at_night.value.message == (
        "Day 1 is not over yet: it is in its night phase; its night phase must finish first."
    )
