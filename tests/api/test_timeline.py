"""The campaign's timeline (issue 32): day by day from what was recorded, as the reader's fog allows,
filtered by side, force and kind; and the umpire's journal of each day, which every member reads."""

from __future__ import annotations

from typing import Any

import pytest

from campaign import models, selectors
from campaign.access import CampaignAccess, Owner
from campaign.choices import ArrivalStatus, EventVerb, MemberRole
from campaign.models.days import JOURNAL_MAX_LENGTH
from campaign.services.audit import event_record
from tests.api.test_hostile_input import refused
from tests.api.world import ACTOR, MEMBERS, Role, World, query_count, strings
from tests.campaign.factories import ForceFactory

pytestmark = pytest.mark.django_db


def timeline(world: World, role: Role, **query: Any) -> list[dict[str, Any]]:
    response = world.client(role).get(world.url("campaign-timeline"), query)
    assert response.status_code == 200, response.content[:300]
    days: list[dict[str, Any]] = response.json()["days"]
    return days


def texts(days: list[dict[str, Any]]) -> list[str]:
    return [entry["text"] for day in days for entry in day["entries"]]


def access_of(world: World, role: Role) -> CampaignAccess:
    if role is Role.UMPIRE:
        return CampaignAccess(campaign=world.campaign, role=MemberRole.UMPIRE, side_id=None)
    side = world.axis if role is Role.AXIS_PLAYER else world.allied
    return CampaignAccess.of_side(world.campaign, side.pk)


def allied_secret(world: World) -> models.Event:
    """An event only the Allied side (and the umpires) read."""
    force = models.Force.objects.filter(side=world.allied).first()
    return event_record(
        world.campaign,
        EventVerb.FORCE_MOVED,
        force,
        "Allied force slipped away to the south by night",
        ACTOR,
        owner=Owner.side(world.allied.pk),
    )


def test_the_umpire_reads_each_day_as_it_was_recorded(world):
    days = timeline(world, Role.UMPIRE)

    assert [day["day"]["number"] for day in days] == [1, 2]
    first = days[0]
    assert first["day"]["weather_label"]
    assert first["day"]["segments"][0]["segment_label"]
    kinds = {entry["kind"] for entry in first["entries"]}
    assert {"day", "battle", "losses", "night"} <= kinds
    battle = next(entry for entry in first["entries"] if entry["kind"] == "battle")
    assert battle["kind_label"] == "Battles"
    assert "Ta' Qali" in battle["text"]
    assert battle["sides"] == ["Axis", "Allied"]
    assert [link["text"] for link in battle["links"]] == ["The battle", "Its rolls"]
    assert battle["links"][0]["href"] == f"/campaigns/{world.campaign.slug}/battles/{world.fought.public_id}"
    reports = [entry["text"] for entry in first["entries"] if entry["kind"] == "night"]
    assert "Axis: night of day 1 reported" in reports
    assert "Allied: night of day 1 reported" in reports
    # Each day counts the rolls the roll log shows its reader for that day.
    assert first["rolls"] == selectors.rolls(access_of(world, Role.UMPIRE)).filter(day__number=1).count() > 0
    assert first["links"][0]["href"] == f"/campaigns/{world.campaign.slug}/rolls?day=1"
    assert first["actions"] == ["write_journal"]
    assert first["actions_labels"] == ["Write the day's journal"]


@pytest.mark.parametrize("role", [Role.AXIS_PLAYER, Role.ALLIED_PLAYER])
def test_a_player_reads_only_what_their_fog_allows(world, role):
    allied_secret(world)
    own, enemy = ("Axis", "Allied") if role is Role.AXIS_PLAYER else ("Allied", "Axis")

    days = timeline(world, role)

    told = texts(days)
    assert f"{own}: night of day 1 reported" in told
    assert f"{enemy}: night of day 1 reported" not in told
    assert not any(text.startswith(f"{enemy}:") for text in told)
    secret = "Allied force slipped away to the south by night"
    assert (secret in told) is (role is Role.ALLIED_PLAYER)
    # The rolls counted are those the reader's roll log shows, never the enemy's hidden ones.
    access = access_of(world, role)
    for day in days:
        assert day["rolls"] == selectors.rolls(access).filter(day__number=day["day"]["number"]).count()
    umpire_rolls = sum(day["rolls"] for day in timeline(world, Role.UMPIRE))
    assert sum(day["rolls"] for day in days) < umpire_rolls
    assert days[0]["actions"] == []
    # Nothing shows that the event list does not show the reader.
    readable = set(selectors.events(access).values_list("message", flat=True))
    umpire_only = set(models.Event.objects.filter(campaign=world.campaign).values_list("message", flat=True))
    assert not (set(told) & (umpire_only - readable))


def test_filters_narrow_the_entries_and_keep_the_days(world):
    allied_secret(world)
    allied_force = models.Force.objects.filter(side=world.allied).first()

    battles = timeline(world, Role.UMPIRE, kind="battle")
    allied = timeline(world, Role.UMPIRE, side=world.allied.pk)
    of_force = timeline(world, Role.UMPIRE, force=str(allied_force.public_id))

    assert [day["day"]["number"] for day in battles] == [1, 2]
    assert {entry["kind"] for day in battles for entry in day["entries"]} == {"battle"}
    assert all("Allied" in entry["sides"] for day in allied for entry in day["entries"])
    assert "Allied: night of day 1 reported" in texts(allied)
    assert "Axis: night of day 1 reported" not in texts(allied)
    # The force's own event and the battles its battalions fought.
    assert "Allied force slipped away to the south by night" in texts(of_force)
    assert any("Ta' Qali" in text for text in texts(of_force))
    assert not any(text.startswith("Axis:") for text in texts(of_force))


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"kind": "gossip"}, "kind"),
        ({"side": "axis"}, "side"),
        ({"side": 2**40}, "side"),
        ({"force": "not-an-id"}, "force"),
        ({"force": "00000000-0000-0000-0000-000000000000"}, "force"),
    ],
)
def test_an_unreadable_filter_is_a_400_naming_it(world, query, field):
    response = world.client(Role.AXIS_PLAYER).get(world.url("campaign-timeline"), query)

    error = refused(response, 400, field)
    assert "must" in error["fields"][field][0] or "No " in error["fields"][field][0]


def test_a_player_may_not_filter_by_an_enemy_force_they_do_not_see(world):
    hidden = ForceFactory(side=world.allied, campaign=world.campaign, arrival_status=ArrivalStatus.SCHEDULED)
    assert not selectors.forces(access_of(world, Role.AXIS_PLAYER)).filter(pk=hidden.pk).exists()
    query = {"force": str(hidden.public_id)}

    refused(world.client(Role.AXIS_PLAYER).get(world.url("campaign-timeline"), query), 400, "force")
    assert world.client(Role.ALLIED_PLAYER).get(world.url("campaign-timeline"), query).status_code == 200


def test_the_umpire_writes_the_journal_and_every_member_reads_it(world):
    url = world.url("day-journal", number=1)
    before = world.state()

    response = world.client(Role.UMPIRE).put(url, {"text": "  Rain on Ta' Qali; the Axis pushed on.  "})

    assert response.status_code == 200, response.content
    assert response.json()["journal"] == "Rain on Ta' Qali; the Axis pushed on."
    event = world.campaign.events.get(verb=EventVerb.DAY_JOURNAL_WRITTEN)
    assert event.visibility == "public"
    assert event.after == {"journal": "Rain on Ta' Qali; the Axis pushed on."}
    assert world.state()[0] == before[0] + 1
    for role in MEMBERS:
        days = timeline(world, role)
        assert days[0]["day"]["journal"] == "Rain on Ta' Qali; the Axis pushed on."
        assert days[1]["day"]["journal"] == ""
    chronicle = world.client(Role.AXIS_PLAYER).get(world.url("campaign-chronicle"), {"output": "html"})
    assert "Rain on Ta&#x27; Qali; the Axis pushed on." in chronicle.content.decode()
    # The same text again changes nothing.
    again = world.state()
    world.client(Role.UMPIRE).put(url, {"text": "Rain on Ta' Qali; the Axis pushed on."})
    assert world.state() == again


@pytest.mark.parametrize("role", [Role.AXIS_PLAYER, Role.ALLIED_PLAYER, Role.OBSERVER, Role.ALLIED_KEY])
def test_only_umpires_write_the_journal(world, role):
    before = world.state()

    response = world.client(role).put(world.url("day-journal", number=1), {"text": "We won."})

    assert response.status_code == 403
    assert world.state() == before


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"text": "x" * (JOURNAL_MAX_LENGTH + 1)}, "text", f"Keep the journal to {JOURNAL_MAX_LENGTH}"),
        ({"text": "a\x00b"}, "text", "cannot be stored"),
        ({}, "text", "required"),
        ({"text": "fine", "mood": "grim"}, "mood", "not a field"),
    ],
)
def test_a_journal_refused_says_why_naming_the_field(world, body, field, words):
    before = world.state()

    response = world.client(Role.UMPIRE).put(world.url("day-journal", number=1), body, format="json")

    error = refused(response, 400, field)
    assert words in " ".join(strings(error["fields"]))
    assert world.state() == before


def test_a_day_not_dawned_has_no_journal(world):
    response = world.client(Role.UMPIRE).put(world.url("day-journal", number=9), {"text": "Later."})

    assert response.status_code == 404


def test_the_timeline_answers_304_until_the_campaign_changes(world):
    client = world.client(Role.AXIS_PLAYER)
    first = client.get(world.url("campaign-timeline"))
    etag = first["ETag"]

    assert client.get(world.url("campaign-timeline"), headers={"if-none-match": etag}).status_code == 304
    world.client(Role.UMPIRE).put(world.url("day-journal", number=2), {"text": "Quiet."})
    assert client.get(world.url("campaign-timeline"), headers={"if-none-match": etag}).status_code == 200


@pytest.mark.parametrize("role", [Role.UMPIRE, Role.AXIS_PLAYER])
def test_statements_do_not_grow_with_the_entries(world, role):
    client, url = world.client(role), world.url("campaign-timeline")
    few, _ = query_count(client, url)

    # Many more entries on both days, of every source: events, battles and their reports.
    for number in (1, 2):
        models.Event.objects.bulk_create(
            models.Event(
                campaign=world.campaign,
                verb=EventVerb.SECTOR_CONTROL_CHANGED,
                day_number=number,
                object_type="Sector",
                object_repr="Mdina",
                message=f"Mdina changed hands ({index})",
                visibility="public",
            )
            for index in range(40)
        )
    many, response = query_count(client, url)

    assert len(texts(response.json()["days"])) > 80
    assert many == few
