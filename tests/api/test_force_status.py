"""Force status: one request for a force's state, cheap to poll with ETag / If-None-Match."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from api.force_statuses import force_status_data, force_statuses_render
from campaign import access as access_rules
from campaign import models, polls
from campaign.audiences import UMPIRE, audience_reader
from campaign.choices import ArrivalStatus, OperationStatus
from campaign.services.api_keys import api_key_revoke
from campaign.services.battle_reports import battle_report
from campaign.services.corrections import object_correct
from campaign.services.days import segment_arrivals_start
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from tests.api.world import ACTOR, Role, World, api_key_client, query_count
from tests.campaign.factories import BattalionFactory, BattlegroupFactory, ForceFactory
from tests.redis_monitor import redis_commands

pytestmark = pytest.mark.django_db


def status_url(world: World, side: models.Side) -> str:
    return world.url("force-force-status", pk=models.Force.objects.get(side=side).public_id)


def destroyed(body: dict[str, Any], code: str) -> int:
    count: int = next(b for b in body["battalions"] if b["code"] == code)["stands"]["destroyed"]
    return count


def test_own_force_status_holds_strength_battalions_pools_and_the_night_report(world):
    body = world.client(Role.AXIS_PLAYER).get(status_url(world, world.axis)).json()

    side = models.Side.objects.get(pk=world.axis.pk)
    assert body["campaign"] == {
        "slug": world.campaign.slug,
        "current_day": 2,
        "current_segment": "early morning",
        "current_segment_label": "Early morning",
    }
    assert body["side"]["activation_points"] == side.activation_points
    assert body["side"]["barrage_rounds"] == side.barrage_rounds
    destroyed = models.Stand.objects.filter(battalion__side=side, status="destroyed").count()
    assert body["strength"]["infantry"]["destroyed"] == destroyed
    assert body["strength"]["hq"] == {"ok": 3, "suppressed": 0, "destroyed": 0}
    battalions = {b["code"]: b for b in body["battalions"]}
    assert set(battalions) == {"A1", "A2", "A3"}
    assert battalions["A1"]["location"] == "battle"
    assert battalions["A1"]["battle"]["sector_name"] == "Mdina"
    assert battalions["A2"]["location"] == "uncommitted"
    assert battalions["A2"]["battle"] is None
    assert battalions["A2"]["supply_situation"] == "OK"
    assert sum(battalions["A2"]["stands"].values()) == 4
    assert body["latest_night_report"]["side"] == world.axis.pk
    assert body["latest_night_report"]["day"] == 1


def test_a_battalion_in_reserve_says_so_once(world):
    """Issue 29: its location reads "In reserve"; its supply ("Reserve") would say it again."""
    models.Battalion.objects.filter(campaign=world.campaign, code="A2").update(
        in_reserve=True, supply_situation="reserve"
    )
    body = world.client(Role.AXIS_PLAYER).get(status_url(world, world.axis)).json()
    a2 = next(b for b in body["battalions"] if b["code"] == "A2")
    assert (a2["location_label"], a2["supply_situation"], a2["supply_situation_label"]) == (
        "In reserve",
        None,
        None,
    )


def test_the_battalions_of_a_force_on_its_way_are_not_on_the_table(world):
    """Issue 33: they read "On the table, in no battle" before their force had landed."""
    force = ForceFactory(side=world.axis, campaign=world.campaign, arrival_status=ArrivalStatus.SCHEDULED)
    BattalionFactory(battlegroup=BattlegroupFactory(force=force), code="R1")
    body = world.client(Role.AXIS_PLAYER).get(world.url("force-force-status", pk=force.public_id)).json()
    assert [(b["code"], b["location"], b["location_label"]) for b in body["battalions"]] == [
        ("R1", "not_arrived", "Not on the table: its force has not arrived")
    ]


def test_an_identified_enemy_force_shows_identified_battalions_and_nothing_hidden(world):
    allied_view = world.client(Role.ALLIED_PLAYER).get(status_url(world, world.axis)).json()
    axis_view = world.client(Role.AXIS_PLAYER).get(status_url(world, world.allied)).json()

    for view in (allied_view, axis_view):
        assert view["side"] is None
        assert view["strength"] is None
        assert view["latest_night_report"] is None
        assert view["force"]["leader_rating"] is None
    assert [b["code"] for b in allied_view["battalions"]] == ["A1"]
    assert allied_view["battalions"][0]["stands"] is not None  # the Axis reveals strengths
    assert allied_view["battalions"][0]["supply_situation"] is None
    assert [b["code"] for b in axis_view["battalions"]] == ["L1"]
    assert axis_view["battalions"][0]["stands"] is None  # the Allies do not


def test_an_unchanged_status_answers_304_and_a_change_a_new_etag(world):
    client = world.client(Role.AXIS_PLAYER)
    url = status_url(world, world.axis)
    first = client.get(url)
    etag = first["ETag"]
    assert etag.startswith('W/"')
    assert "no-cache" in first["Cache-Control"]

    unchanged = client.get(url, headers={"If-None-Match": etag})
    strong_form = client.get(url, headers={"If-None-Match": etag.removeprefix("W/")})
    among_others = client.get(url, headers={"If-None-Match": f'"stale", {etag}'})

    assert unchanged.status_code == strong_form.status_code == among_others.status_code == 304
    assert unchanged.content == b""
    assert unchanged["ETag"] == etag
    battle_report(
        world.planned.campaign_id,
        ACTOR,
        world.planned.pk,
        {"battalions": [{"code": "A1", "destroyed": ["3"]}]},
    )
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert destroyed(changed.json(), "A1") == destroyed(first.json(), "A1") + 1


def test_each_viewer_has_its_own_etag(world):
    axis = world.client(Role.AXIS_PLAYER).get(status_url(world, world.axis))
    allies = world.client(Role.ALLIED_PLAYER).get(status_url(world, world.axis))

    assert axis["ETag"] != allies["ETag"]
    assert (
        world.client(Role.ALLIED_PLAYER)
        .get(status_url(world, world.axis), headers={"If-None-Match": axis["ETag"]})
        .status_code
        == 200
    )


def version(world: World) -> int:
    return models.Campaign.objects.values_list("version", flat=True).get(pk=world.campaign.pk)


def test_a_repeated_poll_is_served_from_the_cache_with_fewer_queries(world):
    client = world.client(Role.AXIS_PLAYER)
    url = status_url(world, world.axis)

    first_queries, first = query_count(client, url)
    second_queries, second = query_count(client, url)

    assert first.status_code == second.status_code == 200
    assert second_queries < first_queries
    assert second.content == first.content
    assert second["ETag"] == first["ETag"]
    assert second["Content-Type"] == first["Content-Type"] == "application/json"
    cached_304 = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert cached_304.status_code == 304
    assert cached_304["ETag"] == first["ETag"]


def test_every_write_bumps_the_version_and_the_next_poll_is_fresh(world):
    client = world.client(Role.UMPIRE)
    url = status_url(world, world.axis)
    polled = client.get(url).json()
    versions = [version(world)]

    battle_report(
        world.planned.campaign_id,
        ACTOR,
        world.planned.pk,
        {"battalions": [{"code": "A1", "destroyed": ["3"]}]},
    )
    versions.append(version(world))
    after_battle = client.get(url).json()
    assert destroyed(after_battle, "A1") == destroyed(polled, "A1") + 1

    object_correct(world.axis, ACTOR, changes={"activation_points": (world.axis.activation_points, 41)})
    versions.append(version(world))
    assert client.get(url).json()["side"]["activation_points"] == 41

    night = night_phase_start(world.campaign.pk, ACTOR)
    versions.append(version(world))
    operation_run(night.pk)
    versions.append(version(world))
    assert versions[-1] - versions[-2] >= 2  # each commit: the stands' steps, then the rest and the finish
    after_night = client.get(url).json()
    assert after_night["latest_night_report"]["day"] == 2

    assert versions == sorted(set(versions))  # strictly increasing


def test_arrival_steps_bump_the_version_and_the_next_poll_is_fresh_and_warm(
    world, django_capture_on_commit_callbacks
):
    force = ForceFactory(
        side=world.axis,
        campaign=world.campaign,
        arrival_status=ArrivalStatus.SCHEDULED,
        arrival_day=world.campaign.current_day,
    )
    client = world.client(Role.UMPIRE)
    url = world.url("force-force-status", pk=force.public_id)
    fields = ("availability", "arrival_status", "arrival_attempts")
    arrivals = segment_arrivals_start(world.campaign.pk, ACTOR)
    assert arrivals.steps == [f"force:{force.pk}"]  # one roll: its commit is the last, with the finish
    rolling = client.get(url).json()["force"]
    assert rolling["arrival_status"] == ArrivalStatus.ROLLING

    before = version(world)
    with django_capture_on_commit_callbacks(execute=True):
        operation_run(arrivals.pk)

    assert version(world) - before >= len(arrivals.steps)  # each force's commit, the last with the finish
    # The last commit stored the status polled before it: as few statements as a warm poll.
    queries, response = query_count(client, url)
    assert queries == query_count(client, url)[0]
    polled = response.json()["force"]
    rolled = models.Force.objects.values(*fields).get(pk=force.pk)
    assert {name: polled[name] for name in fields} == rolled  # not the cached "rolling" status
    assert rolled != {name: rolling[name] for name in fields}


def test_viewers_never_share_a_cached_status(world):
    url = status_url(world, world.axis)
    umpire = world.client(Role.UMPIRE).get(url)
    assert umpire.json()["strength"] is not None  # the umpire warmed the cache with the full status

    allies = world.client(Role.ALLIED_PLAYER).get(url)
    allied_key = world.client(Role.ALLIED_KEY).get(url)

    for masked in (allies, allied_key):
        assert masked.status_code == 200
        body = masked.json()
        assert body["strength"] is None
        assert body["side"] is None
        assert body["latest_night_report"] is None
        assert masked["ETag"] != umpire["ETag"]
    assert allied_key.content == allies.content  # one side's key sees as its players
    assert world.client(Role.OBSERVER).get(url).status_code == 404  # an unidentified force, publicly


def test_the_browsable_api_still_renders_a_cached_status(world):
    client = world.client(Role.AXIS_PLAYER)
    url = status_url(world, world.axis)
    client.get(url)

    html = client.get(url, headers={"Accept": "text/html"})
    indented = client.get(url, headers={"Accept": "application/json; indent=2"})

    assert html.status_code == 200
    assert html["Content-Type"].startswith("text/html")
    assert indented.status_code == 200
    assert indented.content.startswith(b"{\n  ")


def test_withdrawn_access_is_refused_from_the_next_poll_of_a_cached_status(world):
    url = status_url(world, world.axis)
    clients = {role: world.client(role) for role in (Role.AXIS_PLAYER, Role.ALLIED_PLAYER, Role.UMPIRE)}
    allied_key = world.client(Role.ALLIED_KEY)
    for client in (*clients.values(), allied_key):
        assert client.get(url).status_code == 200  # each view now cached

    models.Membership.objects.filter(user=world.users[Role.AXIS_PLAYER]).delete()
    deactivated = world.users[Role.ALLIED_PLAYER]
    deactivated.is_active = False
    deactivated.save()
    umpire = world.users[Role.UMPIRE]
    umpire.set_password("changed elsewhere")  # ends the umpire's other sessions
    umpire.save()
    api_key_revoke(world.campaign.pk, ACTOR, world.keys[Role.ALLIED_KEY].partition(".")[0])

    assert clients[Role.AXIS_PLAYER].get(url).status_code == 404  # no longer a member
    assert clients[Role.ALLIED_PLAYER].get(url).status_code == 401  # signed out
    assert clients[Role.UMPIRE].get(url).status_code == 401
    assert allied_key.get(url).status_code == 401


def test_a_warm_poll_with_an_api_key_sends_no_statement_and_one_redis_command(world, redis_client):
    """Its grant, its rate limit counted and its status: one script, one round trip, which reads
    the body only when neither the client nor this process holds it."""
    client = world.client(Role.ALLIED_KEY)
    url = status_url(world, world.allied)
    first = client.get(url)  # from the database: stores the key's grant, publishes the version
    assert first.status_code == 200

    with CaptureQueriesContext(connection) as queries, redis_commands(redis_client) as unchanged_commands:
        unchanged = client.get(url, headers={"If-None-Match": first["ETag"]})
    with CaptureQueriesContext(connection) as held_queries, redis_commands(redis_client) as held_commands:
        held = client.get(url)
    polls.recent_bodies.clear()  # as another process, which never sent this body
    with CaptureQueriesContext(connection) as body_queries, redis_commands(redis_client) as body_commands:
        again = client.get(url)

    assert unchanged.status_code == 304
    assert unchanged["ETag"] == first["ETag"]
    for answer in (held, again):
        assert answer.status_code == 200
        assert answer.content == first.content
        assert answer["ETag"] == first["ETag"]
    # No statement, so no connection health check either (it runs with a cursor's first statement).
    assert queries.captured_queries == held_queries.captured_queries == body_queries.captured_queries == []
    for commands in (unchanged_commands, held_commands, body_commands):
        assert commands.sent_names == ["EVALSHA"]
    assert not any("body" in command for command in unchanged_commands.scripted)  # a 304 reads no body
    assert not any("body" in command for command in held_commands.scripted)  # nor one this process holds
    assert any("body" in command for command in body_commands.scripted)


# What may differ between two answers a second apart: the count, and the window's seconds left.
RATE_LIMIT_COUNTDOWN = ("RateLimit-Remaining", "RateLimit-Reset")


def test_a_warm_poll_is_answered_before_its_url_is_resolved_as_the_view_answers_it(world, settings):
    key = world.keys[Role.ALLIED_KEY]
    url = status_url(world, world.allied)
    first = api_key_client(key).get(url)  # from the database: stores the key's grant
    early = api_key_client(key).get(url)
    early_unchanged = api_key_client(key).get(url, headers={"If-None-Match": first["ETag"]})
    settings.MIDDLEWARE = [
        name for name in settings.MIDDLEWARE if name != "api.warm_polls.WarmPollMiddleware"
    ]
    by_view = api_key_client(key).get(url)  # a new client loads the middleware anew
    by_view_unchanged = api_key_client(key).get(url, headers={"If-None-Match": first["ETag"]})

    assert first.wsgi_request.resolver_match is not None
    for answer, views_answer in ((early, by_view), (early_unchanged, by_view_unchanged)):
        assert answer.wsgi_request.resolver_match is None  # no URL resolved, no view run
        assert views_answer.wsgi_request.resolver_match is not None
        assert (answer.status_code, answer.content) == (views_answer.status_code, views_answer.content)
        headers = {name: value for name, value in answer.items() if name not in RATE_LIMIT_COUNTDOWN}
        views_headers = {
            name: value for name, value in views_answer.items() if name not in RATE_LIMIT_COUNTDOWN
        }
        assert headers == views_headers
    assert (early.status_code, early_unchanged.status_code) == (200, 304)
    assert early.content == first.content


@pytest.mark.parametrize(
    "request_kwargs",
    [
        {"method": "head"},
        {"query": {"format": "json"}},
        {"headers": {"Accept": "text/html"}},
        {"role": Role.ALLIED_PLAYER},
    ],
    ids=["HEAD", "a query", "another format", "a session"],
)
def test_a_poll_the_middleware_cannot_answer_alone_goes_on_to_the_view(world, request_kwargs):
    url = status_url(world, world.allied)
    assert world.client(Role.ALLIED_KEY).get(url).status_code == 200  # its grant stored, its status cached
    client = world.client(request_kwargs.get("role", Role.ALLIED_KEY))
    method = getattr(client, request_kwargs.get("method", "get"))

    answer = method(url, request_kwargs.get("query"), headers=request_kwargs.get("headers"))

    assert answer.wsgi_request.resolver_match is not None  # the view answered, as before


def test_a_warm_poll_follows_every_write(world):
    client = world.client(Role.ALLIED_KEY)
    url = status_url(world, world.allied)
    first = client.get(url)
    assert query_count(client, url)[0] == 0  # warm

    battle_report(
        world.planned.campaign_id,
        ACTOR,
        world.planned.pk,
        {"battalions": [{"code": "L1", "destroyed": ["3"]}]},  # "2" fell on day 1: its return is the dice's
    )
    changed = client.get(url, headers={"If-None-Match": first["ETag"]})

    assert changed.status_code == 200
    assert destroyed(changed.json(), "L1") == destroyed(first.json(), "L1") + 1


def test_a_revoked_key_is_refused_from_its_next_warm_poll(world):
    client = world.client(Role.ALLIED_KEY)
    url = status_url(world, world.allied)
    client.get(url)
    queries, warm = query_count(client, url)
    assert (queries, warm.status_code) == (0, 200)  # answered from its grant

    api_key_revoke(world.campaign.pk, ACTOR, world.keys[Role.ALLIED_KEY].partition(".")[0])
    refused = client.get(url)

    assert refused.status_code == 401
    assert refused.json()["error"]["code"] == "api_key_invalid"
    assert client.get(url).status_code == 401  # the database's answer is not cached as a grant


def test_a_warm_poll_checks_the_whole_key_and_its_campaign(world):
    key = world.keys[Role.ALLIED_KEY]
    url = status_url(world, world.allied)
    api_key_client(key).get(url)
    assert query_count(api_key_client(key), url)[0] == 0  # warm

    prefix, _, secret = key.partition(".")
    # Its first letter changed to another (a fixed "x" left one secret in 62 unchanged).
    wrong_secret = api_key_client(f"{prefix}.{'y' if secret[0] == 'x' else 'x'}{secret[1:]}")
    other_campaign = world.url("force-force-status", pk=models.Force.objects.get(side=world.allied).public_id)
    other_campaign = other_campaign.replace(world.campaign.slug, "another-campaign")

    assert wrong_secret.get(url).status_code == 401
    assert api_key_client(key).get(other_campaign).status_code == 404


def status_keys(redis_client: Any, world: World) -> list[bytes]:
    """The campaign's stored statuses, at every version and scope."""
    pattern = polls._status_key(world.campaign.pk, "*", "*", "*")  # type: ignore[arg-type]
    return list(redis_client.scan_iter(match=pattern))


def test_a_status_polled_before_a_night_is_rendered_in_its_commits_and_one_never_polled_is_not(
    world, redis_client, django_capture_on_commit_callbacks
):
    battle_report(
        world.planned.campaign_id,
        ACTOR,
        world.planned.pk,
        {"battalions": [{"code": "A1", "destroyed": ["3"]}]},
    )
    client = world.client(Role.ALLIED_KEY)
    url = status_url(world, world.allied)
    before = client.get(url)  # polled before the night; nobody polls the umpires' view nor the Axis'
    assert before.status_code == 200
    audience = str(world.allied.pk)  # the side's players'
    force_id = str(models.Force.objects.get(side=world.allied).public_id)

    def rendered_in(commit: Any) -> Any:
        """Commit: the status is stored only as it commits, and only the polled one; the next
        poll, with the statements it sent."""
        stored_before = set(status_keys(redis_client, world))
        with django_capture_on_commit_callbacks() as callbacks:
            committed = commit()
        key = polls._status_key(world.campaign.pk, force_id, version(world), audience)
        assert not redis_client.exists(key)  # nothing shown of what a rollback would undo
        for callback in callbacks:
            callback()
        assert set(status_keys(redis_client, world)) - stored_before == {key.encode()}
        with redis_commands(redis_client) as finding:
            assert polls.statuses_polled(world.campaign.pk, [version(world)]) == {(force_id, audience)}
        # One round trip, never a SCAN of the keyspace (the test worker's broker calls aside).
        assert [name for name in finding.sent_names if name in ("SUNION", "SCAN", "KEYS")] == ["SUNION"]
        return committed, query_count(client, url)

    def assert_rendered_as_a_poll_would(stored: Any) -> None:
        """What the commit stored is what a poll finding no entry renders after it."""
        redis_client.delete(polls._status_key(world.campaign.pk, force_id, version(world), audience))
        cold_queries, cold = query_count(client, url)
        assert cold_queries > 0
        assert (cold.content, cold["ETag"]) == (stored.content, stored["ETag"])

    night, (during_queries, during) = rendered_in(lambda: night_phase_start(world.campaign.pk, ACTOR))
    assert during_queries == 0
    assert during["ETag"] != before["ETag"]
    assert_rendered_as_a_poll_would(during)
    _, (after_queries, after) = rendered_in(lambda: operation_run(night.pk))
    assert after_queries == 0
    assert after.json()["latest_night_report"]["day"] == night.day.number
    assert_rendered_as_a_poll_would(after)


def test_a_nights_version_is_published_only_once_its_statuses_are_rendered(
    world, redis_client, django_capture_on_commit_callbacks
):
    """Until then a poll finds the version of before, whose statuses are warm, never the new
    version without its statuses (which it would render on the web)."""
    battle_report(world.planned.campaign_id, ACTOR, world.planned.pk, {"battalions": [{"code": "A1"}]})
    assert world.client(Role.ALLIED_KEY).get(status_url(world, world.allied)).status_code == 200
    version_key = cache.make_key(polls.VERSION_KEY.format(campaign_id=world.campaign.pk))
    before = int(redis_client.get(version_key))
    published_as_rendered: list[int] = []

    def watching(sender: Any, **kwargs: Any) -> list[polls.ForceStatusEntry]:
        published_as_rendered.append(int(redis_client.get(version_key)))
        return []

    polls.statuses_outdated.connect(watching)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            night_phase_start(world.campaign.pk, ACTOR)
    finally:
        polls.statuses_outdated.disconnect(watching)
    assert published_as_rendered == [before]
    assert int(redis_client.get(version_key)) == version(world) > before


def test_a_render_reads_each_audience_once_whatever_the_forces_it_polled(world):
    axis, allied = (str(models.Force.objects.get(side=side).public_id) for side in (world.axis, world.allied))
    umpire_access = audience_reader(world.campaign, UMPIRE)
    force = models.Force.objects.get(public_id=axis)
    with CaptureQueriesContext(connection) as status_alone:
        force_status_data(access_rules.contact_read(umpire_access), force, {})

    with CaptureQueriesContext(connection) as one:
        (only,) = force_statuses_render(None, world.campaign.pk, {(axis, UMPIRE)})
    with CaptureQueriesContext(connection) as two:
        both = force_statuses_render(None, world.campaign.pk, {(axis, UMPIRE), (allied, UMPIRE)})

    assert len(two) == len(one) + len(status_alone)  # the reader, its contact and forces read once
    assert {(entry.force_id, entry.scope) for entry in both} == {(axis, UMPIRE), (allied, UMPIRE)}
    assert only in both


def test_a_night_nobody_polled_renders_no_status(world, redis_client, django_capture_on_commit_callbacks):
    battle_report(world.planned.campaign_id, ACTOR, world.planned.pk, {"battalions": [{"code": "A1"}]})
    with django_capture_on_commit_callbacks(execute=True):
        night = night_phase_start(world.campaign.pk, ACTOR)
    with django_capture_on_commit_callbacks(execute=True):
        operation_run(night.pk)
    assert models.Operation.objects.get(pk=night.pk).status == OperationStatus.DONE
    assert status_keys(redis_client, world) == []


def test_a_render_that_fails_leaves_the_night_whole_and_its_poll_renders_the_status(
    world, redis_client, django_capture_on_commit_callbacks, caplog
):
    battle_report(world.planned.campaign_id, ACTOR, world.planned.pk, {"battalions": [{"code": "A1"}]})
    client = world.client(Role.ALLIED_KEY)
    url = status_url(world, world.allied)
    assert client.get(url).status_code == 200

    def failing(sender: Any, **kwargs: Any) -> list[polls.ForceStatusEntry]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 / 0")  # the transaction fails, up to the render's savepoint
        return []

    polls.statuses_outdated.connect(failing)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            night = night_phase_start(world.campaign.pk, ACTOR)
    finally:
        polls.statuses_outdated.disconnect(failing)
    assert models.Operation.objects.get(pk=night.pk).status == OperationStatus.PENDING
    assert "not rendered before its commit" in caplog.text
    queries, during = query_count(client, url)
    assert queries > 0  # cold: rendered by the poll
    assert during.status_code == 200


def test_a_process_keeps_the_bodies_it_sent_within_its_budget_the_least_recently_polled_going_first():
    bodies = polls.RecentBodies(budget=30, per_force=2)
    bodies.keep("a", "W/1", b"a" * 10)
    bodies.keep("a", "W/2", b"b" * 10)
    bodies.keep("a", "W/3", b"c" * 10)  # a force's third audience: its oldest body goes
    assert bodies.of("a") == {"W/2": b"b" * 10, "W/3": b"c" * 10}
    bodies.keep("b", "W/4", b"d" * 10)
    assert bodies.of("a")  # polled again: "b" is now the least recent
    bodies.keep("c", "W/5", b"e" * 10)  # 40 bytes held: "b" goes
    assert (bodies.of("b"), set(bodies.of("c"))) == ({}, {"W/5"})
    assert set(bodies.of("a")) == {"W/2", "W/3"}
    bodies.keep("d", "W/6", b"f" * 31)  # more than the whole budget: never kept, nothing evicted
    assert bodies.of("d") == {}
    assert set(bodies.of("c")) == {"W/5"}
