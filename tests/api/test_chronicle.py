"""The chronicle (issue 32): the campaign so far as a PDF, a page per day with the map kept after
its night, its weather and its battles with their results, printed for its reader through the
fog of war: a player's copy names none of the enemy's stands their fog hides."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from campaign import models
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from campaign.services.days import day_dawn
from campaign.services.map_snapshots import map_snapshot_after_night
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from tests.api.test_papers import mentions, page_text, pdf_text, signed_in, stand_labels
from tests.e2e.demo import SECTOR, malta_day_one

pytestmark = pytest.mark.django_db

# The Axis hides G1's strength and its lines of battle reports; the Allies show W1 in full.
AXIS_FOG = {"identified_units": ["G1"], "battle_results": False, "strengths": False}
ALLIED_FOG = {"identified_units": ["W1"], "battle_results": True, "strengths": True}


@pytest.fixture
def campaign(django_capture_on_commit_callbacks) -> models.Campaign:
    """Two days: the battle at Gudja reported (the Axis won, each side lost a stand), a night
    run (its map kept, as the night's task does) and day 2 dawned."""
    campaign = malta_day_one()
    models.Side.objects.filter(campaign=campaign, is_axis=True).update(fog_of_war=AXIS_FOG)
    models.Side.objects.filter(campaign=campaign, is_axis=False).update(fog_of_war=ALLIED_FOG)
    actor = Actor(user=get_user_model().objects.get(username="umpire"), request_id="chronicle")
    battle = models.Battle.objects.get(campaign=campaign, sector__name=SECTOR)
    lost = {code: sorted(stand_labels(campaign, code))[0] for code in ("G1", "W1")}
    report = {"battalions": [{"code": code, "destroyed": [label]} for code, label in lost.items()]}
    battle_report(campaign.pk, actor, battle.pk, {**report, "winner": campaign.sides.get(is_axis=True).pk})
    with django_capture_on_commit_callbacks(execute=False):
        night = night_phase_start(campaign.pk, actor)
        operation_run(night.pk)
    map_snapshot_after_night(night.pk)
    day_dawn(campaign.pk, actor)
    campaign.refresh_from_db()
    return campaign


def chronicle(campaign: models.Campaign, username: str, output: str = "pdf") -> str:
    response = signed_in(username).get(f"/api/v1/campaigns/{campaign.slug}/chronicle/?output={output}")
    assert response.status_code == 200, response.content[:500]
    named = f"malta-1942-chronicle-{username if username != 'umpire' else 'umpire'}.{output}"
    assert response["Content-Disposition"] == f'inline; filename="{named}"'
    if output == "html":
        return page_text(response.content.decode())
    assert response["Content-Type"] == "application/pdf"
    return pdf_text(response.content, f"chronicle-{username}")


def test_the_chronicle_has_each_days_map_weather_and_battles(campaign: models.Campaign):
    text = chronicle(campaign, "umpire")

    assert f"{campaign.name}: the chronicle" in text
    assert "the umpires' copy" in text
    for day in campaign.days.order_by("number"):
        assert f"Day {day.number}:" in text
        assert day.get_weather_display() in text
    assert "Map: after the night" in text  # day 1's, kept by the night's task
    assert "Map: at dawn" in text  # day 2's, its night still to come
    battle = models.Battle.objects.select_related("attacker", "defender").get(campaign=campaign)
    assert f"{SECTOR}: {battle.get_battle_type_display()} (Reported)" in text
    assert f"{battle.attacker.name} attacked {battle.defender.name}. Axis won." in text
    assert "G1: lost" in text
    assert "W1: lost" in text


def test_a_players_copy_names_none_of_the_enemys_hidden_stands(campaign: models.Campaign):
    g1_labels, w1_labels = stand_labels(campaign, "G1"), stand_labels(campaign, "W1")
    umpires = chronicle(campaign, "umpire")
    allied = chronicle(campaign, "allied")
    axis = chronicle(campaign, "axis")

    assert "Allied's copy" in allied
    assert "Axis's copy" in axis
    # The Axis hides G1's report lines and strength: the Allies read the result, not its losses.
    assert "Axis won." in allied
    assert "G1: lost" not in allied
    assert not {label for label in g1_labels if mentions(allied, label)}
    assert "W1: lost" in allied
    # The Allies reveal their lines: the Axis reads both, as the umpires do.
    assert "G1: lost" in axis
    assert "W1: lost" in axis
    assert {label for label in w1_labels if mentions(umpires, label)} <= {
        label for label in w1_labels if mentions(axis, label)
    }


def test_the_chronicle_as_a_web_page_and_a_bad_format(campaign: models.Campaign):
    page = chronicle(campaign, "allied", output="html")
    refused = signed_in("allied").get(f"/api/v1/campaigns/{campaign.slug}/chronicle/?output=docx")

    assert "Allied's copy" in page
    assert "G1: lost" not in page
    assert refused.status_code == 400
    assert "output" in refused.json()["error"]["fields"]


def test_each_days_figures_are_the_statistics_as_the_reader_may_read_them(campaign: models.Campaign):
    umpires = chronicle(campaign, "umpire", output="html")
    allied = chronicle(campaign, "allied", output="html")
    sides = " ".join(campaign.sides.order_by("pk").values_list("name", flat=True))

    assert umpires.count(f"Figures of the day Figure {sides}") == 2
    # Day 1: each side lost a stand at Gudja; day 2's night is to come.
    assert "Stands lost 1 1" in umpires
    assert "Barrage rounds replenished after the night after the night" in umpires
    # The Axis hides its strengths from the Allies: their losses read hidden, the Allies' own do not.
    axis_first = sides.startswith("Axis")
    assert ("Stands lost hidden 1" if axis_first else "Stands lost 1 hidden") in allied
