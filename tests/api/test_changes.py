"""The changes cursor (api.changes): a client that reads only the changes of the lists it syncs
keeps a copy equal to a fresh full read through a day (dawn, battles created and reported, a
night), deletions and fog of war changes, for each reader; tokens are opaque and signed; an
unchanged list costs the same statements however many rows it has."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core import signing
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaign import models
from campaign.services.battle_reports import battle_report
from campaign.services.battles import battle_create
from campaign.services.corrections import objects_delete, stand_correct
from campaign.services.days import day_dawn
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from campaign.services.sides import side_fog_set
from campaign.services.sync import CURSOR_LIFETIME, change_records_prune
from tests.api.world import ACTOR, Role, World

pytestmark = pytest.mark.django_db

SYNCED = ["force", "battalion", "stand", "battle", "roll", "event", "side-order"]
READERS = [Role.ALLIED_KEY, Role.AXIS_PLAYER, Role.UMPIRE, Role.OBSERVER]


def full_read(client: Any, url: str) -> dict[str, Any]:
    """Every row of a list, page by page, by id."""
    rows: dict[str, Any] = {}
    page: str | None = url + ("&" if "?" in url else "?") + "page_size=500"
    while page:
        response = client.get(page)
        assert response.status_code == 200, (page, response.content)
        rows.update((row["id"], row) for row in response.json()["results"])
        page = response.json()["next"]
    return rows


class Copy:
    """A client's copy of one list, kept by its changes alone."""

    def __init__(self, client: Any, url: str) -> None:
        self.client, self.url = client, url
        self.rows: dict[str, Any] = {}
        self.token: str | None = None
        self.sync()

    def sync(self) -> dict[str, Any]:
        joiner = "&" if "?" in self.url else "?"
        url = self.url if self.token is None else f"{self.url}{joiner}since={self.token}"
        response = self.client.get(url)
        assert response.status_code == 200, (url, response.content)
        answer: dict[str, Any] = response.json()
        if answer["complete"]:
            self.rows = {}
        self.rows.update((row["id"], row) for row in answer["changed"])
        for gone in answer["removed"]:
            self.rows.pop(gone, None)
        self.token = answer["next"]
        return answer


def _changes_url(world: World, name: str, query: str = "") -> str:
    return world.url(f"{name}-changes") + query


def _copies(world: World) -> dict[tuple[Role, str], tuple[Copy, str]]:
    copies = {}
    for role in READERS:
        client = world.client(role)
        for name in SYNCED:
            if role == Role.OBSERVER and name == "side-order":
                continue  # a side's orders are its players' and the umpires'
            copies[role, name] = (Copy(client, _changes_url(world, name)), world.url(f"{name}-list"))
        side = f"?side={world.allied.pk}"
        copies[role, "allied forces"] = (
            Copy(client, _changes_url(world, "force", side)),
            world.url("force-list") + side,
        )
    return copies


def _assert_in_sync(world: World, copies: dict[tuple[Role, str], tuple[Copy, str]], moment: str) -> None:
    for (role, name), (copy, list_url) in copies.items():
        copy.sync()
        full = full_read(world.client(role), list_url)
        assert copy.rows == full, f"{name} as {role.value} after {moment}"


def test_a_copy_kept_by_changes_equals_a_full_read_through_a_day(world):
    copies = _copies(world)
    campaign = world.campaign
    _assert_in_sync(world, copies, "the start")

    # The planned battle reported: stands lost, rolls and events; then the night and a dawn.
    battle_report(
        campaign.pk,
        ACTOR,
        world.planned.pk,
        {"battalions": [{"code": "A1", "destroyed": ["1"]}, {"code": "L1", "destroyed": ["3"]}]},
    )
    _assert_in_sync(world, copies, "a battle reported")
    operation_run(night_phase_start(campaign.pk, ACTOR).pk)
    _assert_in_sync(world, copies, "a night")
    day_dawn(campaign.pk, ACTOR)
    battle_create(
        campaign.pk,
        ACTOR,
        sector_name="Village",
        battle_type="Local Attack",
        attacker_id=world.allied.pk,
        defender_id=world.axis.pk,
        battalion_codes=["L2", "A2"],
    )
    _assert_in_sync(world, copies, "a dawn and a battle created")

    # Fog of war: the Axis now lets the Allies identify A2 (not A1 any more), with strengths.
    side_fog_set(
        campaign.pk, ACTOR, world.axis.pk, identified_units=["A2"], strengths=True, battle_results=True
    )
    _assert_in_sync(world, copies, "the Axis fog of war changed")

    # Deletions: a stand, an identified battalion (with its stands), a battle.
    objects_delete([models.Stand.objects.filter(battalion__code="L1", campaign=campaign).first()], ACTOR)
    objects_delete([world.battalion("A2")], ACTOR)
    objects_delete([models.Battle.objects.get(pk=world.fought.pk)], ACTOR)
    _assert_in_sync(world, copies, "deletions")


def test_a_row_becoming_hidden_is_removed_and_one_becoming_visible_appears(world):
    allied = world.client(Role.ALLIED_PLAYER)
    battalions = Copy(allied, _changes_url(world, "battalion"))
    codes = {row["code"] for row in battalions.rows.values()}
    assert "A1" in codes
    assert "A2" not in codes

    side_fog_set(
        world.campaign.pk, ACTOR, world.axis.pk, identified_units=["A2"], strengths=True, battle_results=False
    )
    answer = battalions.sync()
    a1 = models.Battalion.objects.get(campaign=world.campaign, code="A1").public_id
    assert str(a1) in answer["removed"]
    assert "A2" in {row["code"] for row in answer["changed"]}
    assert battalions.rows == full_read(allied, world.url("battalion-list"))


def test_nothing_changed_answers_the_same_token_in_the_same_statements_however_many_rows(world):
    """An unchanged list: the cursor, the last change; a change of one stand: the same
    statements with 12 stands as with 12 + 200 unchanged ones (no scan of unchanged rows
    beyond the keys the reader sees, read in one statement)."""
    umpire = world.client(Role.UMPIRE)
    stands = Copy(umpire, _changes_url(world, "stand"))
    with CaptureQueriesContext(connection) as unchanged:
        answer = stands.sync()
    assert answer["changed"] == []
    assert answer["removed"] == []
    token = stands.token
    with CaptureQueriesContext(connection):
        assert stands.sync()["next"] == token

    def one_change() -> int:
        stand = models.Stand.objects.filter(campaign=world.campaign, status="ok").first()
        stand_correct(world.campaign.pk, ACTOR, stand.pk, status="suppressed", reason="a test")
        with CaptureQueriesContext(connection) as captured:
            answer = stands.sync()
        assert [row["id"] for row in answer["changed"]] == [str(stand.public_id)]
        return len(captured)

    few = one_change()
    battalion = world.battalion("L2")
    template = models.Stand.objects.filter(battalion=battalion).first()
    models.Stand.objects.bulk_create(
        models.Stand(
            campaign=world.campaign,
            battalion=battalion,
            label=f"extra {n}",
            stand_type=template.stand_type,
            equipment=template.equipment,
        )
        for n in range(200)
    )
    stands.sync()  # the new stands, once
    assert one_change() == few
    # The user, the campaign with the membership, the cursor, the sides' fog, the last change.
    assert len(unchanged) == 5


def test_a_token_altered_or_of_another_reader_or_query_is_a_400_naming_since(world):
    allied = world.client(Role.ALLIED_PLAYER)
    url = _changes_url(world, "force")
    token = allied.get(url).json()["next"]
    for bad in (token[:-2] + "xx", "garbage", signing.Signer(salt="other").sign("0" * 32)):
        refused = allied.get(f"{url}?since={bad}")
        assert refused.status_code == 400, bad
        assert "since" in str(refused.json())
    for client, other in (
        (world.client(Role.AXIS_PLAYER), url),  # another reader
        (allied, f"{url}?side={world.allied.pk}"),  # another query
        (allied, _changes_url(world, "battalion")),  # another list
    ):
        joiner = "&" if "?" in other else "?"
        refused = client.get(f"{other}{joiner}since={token}")
        assert refused.status_code == 400, other
        assert "since" in str(refused.json())


def test_a_statement_records_each_row_once_and_each_battalion_and_force_once(world: World):
    """Issue 34: the records are written a statement at a time (migration 0049), not three a
    stand: one UPDATE of every stand of a battalion records each stand, the battalion once and its
    force once, in one trigger run whatever the number of stands."""
    battalion = models.Battalion.objects.filter(campaign=world.campaign).first()
    stands = models.Stand.objects.filter(battalion=battalion)
    before = models.ChangeRecord.objects.filter(campaign_id=world.campaign.pk).count()
    stands.update(entrenchment_points=1)
    recorded = models.ChangeRecord.objects.filter(campaign_id=world.campaign.pk).order_by("id")[before:]
    kinds = [(record.kind, record.row_id) for record in recorded]
    assert sorted(kinds) == sorted(
        [("stand", pk) for pk in stands.values_list("pk", flat=True)]
        + [("battalion", battalion.pk), ("force", battalion.battlegroup.force_id)]
    )


def test_the_prune_keeps_what_a_live_cursor_will_read_and_deletes_the_rest(world):
    copy = Copy(world.client(Role.ALLIED_KEY), _changes_url(world, "force"))
    stale = Copy(world.client(Role.UMPIRE), _changes_url(world, "battle"))
    models.SyncCursor.objects.filter(campaign_id=world.campaign.pk, kind="battle").update(
        created_at=timezone.now() - CURSOR_LIFETIME - datetime.timedelta(minutes=1)
    )
    live = models.SyncCursor.objects.get(campaign_id=world.campaign.pk, kind="force")
    records = models.ChangeRecord.objects.filter(campaign_id=world.campaign.pk)
    before_copy = records.filter(id__lte=live.change_id).count()
    battle_report(
        world.campaign.pk, ACTOR, world.planned.pk, {"battalions": [{"code": "A1", "destroyed": ["1"]}]}
    )
    after_copy = records.filter(id__gt=live.change_id).count()

    deleted = change_records_prune(timezone.now())

    assert before_copy > 0
    assert after_copy > 0
    assert deleted >= before_copy
    assert records.filter(id__lte=live.change_id).count() == 0  # nobody reads them again
    assert records.filter(id__gt=live.change_id).count() == after_copy  # the live cursor's
    assert not models.SyncCursor.objects.filter(kind="battle", campaign_id=world.campaign.pk).exists()
    copy.sync()
    assert copy.rows == full_read(world.client(Role.ALLIED_KEY), world.url("force-list"))
    refused = world.client(Role.UMPIRE).get(f"{stale.url}?since={stale.token}")
    assert refused.status_code == 400
    assert "since" in refused.json()["error"]["fields"]
