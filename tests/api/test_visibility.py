"""Who reads which rolls, events and reports (rules notes C-13), by every kind of reader.

The world has, for both sides, rolls of every owner: public (weather, wind, initiative),
the two sides of a battle (set-up rolls made once), one side (replacements, carry-over,
arrival rolls, its own set-up rolls) and the umpires alone; events of every owner; and
night and arrival reports of both sides. Each reader gets every list and every detail:
a list holds exactly the rows the reader may read and none of the other side's, and a
detail answers 200 or 404 (never 403: a hidden row does not exist for the reader).
"""

from __future__ import annotations

import base64
import itertools
import uuid
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from rest_framework.test import APIClient

from campaign import models
from campaign.access import EVENT_VISIBILITY
from campaign.choices import (
    ArrivalStatus,
    EventVerb,
    OperationKind,
    SideOrderKind,
    SideOrderStatus,
    Visibility,
)
from campaign.services.orders import side_order_approve
from tests.api.visibility_world import (
    ARRIVAL_PROCEDURES,
    CARRY_OVER,
    Reader,
    VisibilityWorld,
    build_visibility_world,
    event_side_id,
    may_read_event,
    may_read_report,
    may_read_roll,
    roll_side_id,
)
from tests.api.world import ACTOR, MAP_SECTORS, READ, Role, World, build_world

pytestmark = pytest.mark.django_db


EVERYTHING = {"page_size": 500}


@pytest.fixture(scope="module")
def module_rows_build() -> Callable[[], VisibilityWorld]:
    return build_visibility_world


@pytest.fixture
def seen(shared_rows: VisibilityWorld) -> VisibilityWorld:
    return shared_rows


def test_the_world_has_rows_of_every_owner_for_both_sides(seen):
    world = seen.world
    rolls = list(world.campaign.rolls.select_related("battalion", "force"))
    for side in (world.axis, world.allied):
        own = {r.procedure for r in rolls if r.visibility == Visibility.SIDE and r.side_id == side.pk}
        assert {"gb.night_replacements", CARRY_OVER, "n43.air_presence"} <= own, side.name
        assert own & ARRIVAL_PROCEDURES, side.name
        assert all(roll_side_id(r) == side.pk for r in rolls if r.side_id == side.pk)
        events = world.campaign.events.filter(visibility=Visibility.SIDE, side=side)
        assert {EventVerb.BATTLE_REPORTED, EventVerb.ARRIVAL_DUE} <= set(
            events.values_list("verb", flat=True)
        )
        kinds = set(models.NightReport.objects.filter(side=side).values_list("operation__kind", flat=True))
        assert kinds == {OperationKind.NIGHT_PHASE, OperationKind.ARRIVALS}
    public = {r.procedure for r in rolls if r.visibility == Visibility.PUBLIC}
    assert {"gb.weather", "pk.wind", "pk.initiative"} <= public
    assert {r.procedure for r in rolls if r.visibility == Visibility.BATTLE} >= {"n43.air_superiority"}
    assert any(r.visibility == Visibility.UMPIRE for r in rolls)
    event_owners = set(world.campaign.events.values_list("visibility", flat=True))
    assert event_owners == {Visibility.PUBLIC, Visibility.SIDE, Visibility.UMPIRE}
    assert world.campaign.events.filter(
        verb=EventVerb.NIGHT_PHASE_DONE, visibility=Visibility.PUBLIC
    ).exists()


def _listed(client: APIClient, url: str) -> list[dict[str, Any]]:
    response = client.get(url, EVERYTHING)
    assert response.status_code == 200, (url, response.status_code)
    body = response.json()
    assert body.get("next") is None, f"{url} needs a larger page"
    results: list[dict[str, Any]] = body["results"]
    return results


@pytest.mark.parametrize("reader", list(Reader), ids=lambda r: r.name.lower())
def test_each_list_holds_exactly_what_the_reader_may_read_and_nothing_of_the_other_side(seen, reader):
    world, client = seen.world, seen.clients[reader]
    rolls = list(world.campaign.rolls.select_related("battle", "battalion", "force"))
    events = list(world.campaign.events.all())
    reports = list(models.NightReport.objects.filter(operation__campaign=world.campaign))
    lists = {
        "roll-list": {str(r.public_id) for r in rolls if may_read_roll(seen, reader, r)},
        "event-list": {str(e.public_id) for e in events if may_read_event(seen, reader, e)},
        "night-report-list": {str(r.public_id) for r in reports if may_read_report(seen, reader, r)},
    }
    if reader is Reader.ANONYMOUS:
        for name in lists:
            assert client.get(world.url(name)).status_code == READ[Role.ANONYMOUS], name
        return

    side_id = seen.reader_side(reader)
    enemy = {s.pk for s in seen.sides.values()} - {side_id} if side_id is not None else set()
    about = {
        "roll-list": {str(r.public_id): roll_side_id(r) for r in rolls},
        "event-list": {str(e.public_id): event_side_id(e) for e in events},
        "night-report-list": {str(r.public_id): r.side_id for r in reports},
    }
    for name, expected in lists.items():
        listed = _listed(client, world.url(name))
        assert {row["id"] for row in listed} == expected, f"{name} as {reader.value}"
        if reader in (Reader.UMPIRE, Reader.UMPIRE_KEY):
            continue
        other_sides = {row["id"] for row in listed if row["side"] in enemy or about[name][row["id"]] in enemy}
        assert not other_sides, f"{name} as {reader.value} holds the other side's rows {sorted(other_sides)}"
        if side_id is None:  # observers and a key of no side read public rows only
            assert all(row.get("visibility", Visibility.PUBLIC) == Visibility.PUBLIC for row in listed), name


@pytest.mark.parametrize("reader", list(Reader), ids=lambda r: r.name.lower())
def test_each_detail_answers_200_to_who_may_read_it_and_404_to_any_other_member(seen, reader):
    world, client = seen.world, seen.clients[reader]
    details = [
        (world.url("roll-detail", pk=r.public_id), r.procedure, may_read_roll(seen, reader, r))
        for r in world.campaign.rolls.select_related("battle")
    ]
    details += [
        (world.url("event-detail", pk=e.public_id), e.verb, may_read_event(seen, reader, e))
        for e in world.campaign.events.all()
    ]
    details += [
        (
            world.url("night-report-detail", pk=r.public_id),
            f"{r.operation.kind} report",
            may_read_report(seen, reader, r),
        )
        for r in models.NightReport.objects.filter(operation__campaign=world.campaign).select_related(
            "operation"
        )
    ]
    wrong = []
    for url, what, readable in details:
        expected = READ[Role.ANONYMOUS] if reader is Reader.ANONYMOUS else 200 if readable else 404
        status = client.get(url).status_code
        if status != expected:
            wrong.append(f"{what} {url}: {status}, expected {expected}")
    assert not wrong, f"as {reader.value}:\n" + "\n".join(wrong)


FIRE = ("n43.planned_fire", "n43.support_fire")


MEMBERS = [reader for reader in Reader if reader is not Reader.ANONYMOUS]


def _sees_planned_strengths(reader: Reader) -> bool:
    """The planned battle is A1 against L1: the Allies see A1's strengths, the Axis sees L1 without."""
    return reader in (Reader.UMPIRE, Reader.UMPIRE_KEY, Reader.ALLIED_PLAYER, Reader.ALLIED_KEY)


@pytest.mark.parametrize(
    "reader", [r for r in Reader if r is not Reader.ANONYMOUS], ids=lambda r: r.name.lower()
)
def test_roll_inputs_and_set_up_results_count_no_stands_the_reader_may_not_see(seen, reader):
    """Issue 19, point 6: a set-up roll's total_units showed the live stand count of an enemy
    battalion whose strengths are hidden."""
    world, client = seen.world, seen.clients[reader]
    planned = world.planned
    units = {r.pk: r.inputs["total_units"] for r in planned.rolls.filter(procedure__in=FIRE)}
    assert units
    assert all(isinstance(n, int) and n > 0 for n in units.values())

    listed = [r for r in _listed(client, world.url("roll-list")) if r["procedure"] in FIRE]
    battle = client.get(world.url("battle-detail", pk=planned.public_id))
    side_id = seen.reader_side(reader)
    if side_id is None and reader not in (Reader.UMPIRE, Reader.UMPIRE_KEY):
        assert not listed  # neither side of the battle
        assert battle.status_code == 404
        return
    assert listed
    strength = battle.json()["setup"]["n43.field_strength"]
    if _sees_planned_strengths(reader):
        assert {row["inputs"]["total_units"] for row in listed} <= set(units.values())
        assert all(row["line"] and row["output"]["line"] for row in listed)
        assert strength["units"] in units.values()
    else:
        for row in listed:
            assert row["inputs"]["total_units"] is None, row["procedure"]
            assert row["result"]["inputs"]["total_units"] is None
            assert row["result"]["cell"] is row["output"]["cell"] is None
            # The side's own allotment, in words without the units counted (issue 30).
            output = row["output"]
            assert output["outcome"] == row["result"]["outcome"]
            words = row["result"]["outcome_text"]
            assert words == output["outcome_text"]
            assert words.startswith(f"{output['outcome']} ")
            assert "units" not in words
            assert row["line"] == output["line"]
            assert row["line"].endswith(f"→ {words}")
        assert strength["units"] is strength["stands"] is strength["line"] is None


def _is_public_id(value: Any) -> bool:
    try:
        return bool(str(uuid.UUID(str(value))) == value)
    except ValueError:
        return False


@pytest.mark.parametrize(
    "reader", [r for r in Reader if r is not Reader.ANONYMOUS], ids=lambda r: r.name.lower()
)
def test_no_identifier_a_reader_sees_counts_rows_they_may_not_see(seen, reader):
    """Issue 19, point 7: consecutive ids let a player count the enemy's hidden rolls (a gap of
    eight after the Axis replacements is eight Allied replacement rolls)."""
    world, client = seen.world, seen.clients[reader]
    for name in ("roll-list", "event-list", "night-report-list"):
        listed = _listed(client, world.url(name))
        assert all(_is_public_id(row["id"]) for row in listed), name
        assert all(row.get("override_of") is None or _is_public_id(row["override_of"]) for row in listed)
        if name == "night-report-list" or len(listed) < 2:
            continue  # reports are paged by number; their few rows need neither cursor nor after=
        # The cursor to the next page names the last row by its public id, and so does after=.
        page = client.get(world.url(name), {"page_size": 1}).json()
        cursor = parse_qs(urlsplit(page["next"]).query)["cursor"][0]
        position = parse_qs(base64.b64decode(cursor).decode())["p"][0]
        assert position == page["results"][0]["id"], name
        assert client.get(page["next"]).json()["results"][0]["id"] == listed[1]["id"], name
        after = client.get(world.url(name), {"after": listed[0]["id"], **EVERYTHING})
        assert [row["id"] for row in after.json()["results"]] == [row["id"] for row in listed[1:]], name
    for payload in [r["payload"] for r in models.WebhookDelivery.objects.values("payload")]:
        assert _is_public_id(payload["id"])
    operations = _listed(client, world.url("operation-list"))
    assert operations
    campaign_wide = ("steps", "completed_steps", "steps_done", "steps_total", "attempts")
    if reader in (Reader.UMPIRE, Reader.UMPIRE_KEY):
        assert all(row["steps_total"] is not None and row["attempts"] is not None for row in operations)
    else:
        assert all(row[field] is None for row in operations for field in campaign_wide)


@pytest.mark.parametrize("reader", MEMBERS, ids=lambda r: r.name.lower())
def test_orders_spends_and_operations_are_named_by_ids_that_count_nothing(seen, reader):
    """Issue 28, point 7: sealed orders, activation spends and operations came from sequences
    shared by the sides and campaigns, so a side saw its order ids 2, 3, then 10 (the enemy's
    and the drafts in between), and a player the night phases 1 and 36."""
    world, client = seen.world, seen.clients[reader]
    day = world.campaign.days.get(number=world.campaign.current_day)
    for side, code in ((world.axis, "A2"), (world.allied, "L2")):
        for status in (SideOrderStatus.DRAFT, SideOrderStatus.SUBMITTED):
            side_order_create(world, side, code, status)
        models.ActivationSpend.objects.create(side=side, day=day, turn=1, column="1 Bn", cost=1)
    submitted = world.campaign.side_orders.filter(status=SideOrderStatus.SUBMITTED).first()
    assert submitted is not None
    side_order_approve(world.campaign.pk, ACTOR, submitted.pk)  # an event about an order

    named = [row["id"] for row in _listed(client, world.url("side-order-list"))]
    for side in (world.axis, world.allied):
        named += [row["id"] for row in _listed(client, world.url("activation-spend-list", side_pk=side.pk))]
    for operation in _listed(client, world.url("operation-list")):
        named += [operation["id"], operation["url"].rstrip("/").rsplit("/", 1)[-1]]
    named += [report["operation"] for report in _listed(client, world.url("night-report-list"))]
    for event in _listed(client, world.url("event-list")):
        if event["object_type"] in ("Operation", "SideOrder"):
            assert event["object_id"] is None, event
            named.append(event["object_public_id"])

    assert named, "the reader sees some of these rows"
    assert [name for name in named if not _is_public_id(name)] == []
    for payload in models.WebhookDelivery.objects.values_list("payload", flat=True):
        if payload["object"]["type"] in ("Operation", "SideOrder"):
            assert _is_public_id(payload["object"]["id"]), payload
            assert payload["links"]["object"].rstrip("/").endswith(payload["object"]["id"]), payload


def side_order_create(world: World, side: models.Side, code: str, status: str) -> models.SideOrder:
    order: models.SideOrder = models.SideOrder.objects.create(
        campaign=world.campaign,
        side=side,
        day_number=world.campaign.current_day,
        kind=SideOrderKind.WITHDRAW,
        payload={"battalion_code": code},
        status=status,
    )
    return order


def test_an_id_of_no_row_the_reader_sees_is_refused_in_after_and_cursors(seen):
    world, client = seen.world, seen.clients[Reader.AXIS_PLAYER]
    hidden = world.campaign.rolls.exclude(visibility=Visibility.PUBLIC).filter(side=world.allied).first()
    assert hidden is not None

    for after in (hidden.public_id, 12, "x"):
        refused = client.get(world.url("roll-list"), {"after": after})
        assert refused.status_code == 400, after
        assert "after" in refused.json()["error"]["fields"]
    forged = base64.b64encode(urlencode({"p": hidden.public_id}).encode()).decode()
    refused = client.get(world.url("roll-list"), {"cursor": forged})
    assert refused.status_code == 400
    assert "cursor" in refused.json()["error"]["fields"]


def test_a_player_reads_their_sides_rolls_what_both_sides_see_and_that_the_night_is_done():
    """Issue 13, point 8: the own side's carry-over roll, weather, wind and initiative, and
    ``night.done`` were 404 to a player."""
    world = build_world(optional_rules=[CARRY_OVER])
    rolls = world.campaign.rolls
    carry_over = {
        name: rolls.filter(procedure=CARRY_OVER, inputs__side=name).first() for name in ("Axis", "Allied")
    }
    table = [rolls.filter(procedure=p).first() for p in ("gb.weather", "pk.wind", "pk.initiative")]
    night_done = world.campaign.events.get(verb=EventVerb.NIGHT_PHASE_DONE)

    for role, own, enemy in ((Role.AXIS_PLAYER, "Axis", "Allied"), (Role.ALLIED_PLAYER, "Allied", "Axis")):
        client = world.client(role)
        assert client.get(world.url("roll-detail", pk=carry_over[own].public_id)).status_code == 200, role
        assert client.get(world.url("roll-detail", pk=carry_over[enemy].public_id)).status_code == 404, role
        for roll in table:
            assert roll is not None
            assert client.get(world.url("roll-detail", pk=roll.public_id)).status_code == 200, (
                role,
                roll.procedure,
            )
        assert client.get(world.url("event-detail", pk=night_done.public_id)).status_code == 200, role
        assert night_done.after is None or enemy not in night_done.after
    watcher = world.client(Role.OBSERVER)
    assert watcher.get(world.url("event-detail", pk=night_done.public_id)).status_code == 200
    assert watcher.get(world.url("roll-detail", pk=carry_over["Axis"].public_id)).status_code == 404
    assert watcher.get(world.url("roll-detail", pk=table[0].public_id)).status_code == 200


def test_every_event_verb_says_who_reads_it():
    assert set(EVENT_VISIBILITY) == set(EventVerb)
    assert Visibility.BATTLE not in EVENT_VISIBILITY.values()


# --- the map: enemy units only where in contact, or identified (rules notes C-17) ----------


# Where each unit stands for the map's fog test. The Axis stands at the north end, the Allies
# at the south end; they meet between the ridge and the village.
PLACES = {"A1": "north", "A2": "ridge", "A3": "north", "L1": "bridge", "L2": "village", "L3": "south"}


# Forces: C Ops, then FUP (None: with its C Ops).
FORCE_PLACES = {"Axis": ("north", "ridge"), "Allied": ("bridge", "village")}


def _neighbours() -> dict[str, set[str]]:
    near: dict[str, set[str]] = {key: set() for key in MAP_SECTORS}
    for west, east in itertools.pairwise(MAP_SECTORS):
        near[west].add(east)
        near[east].add(west)
    return near


def _contact(side: str) -> set[str]:
    """Where a side sees the enemy: on and next to its battalions' and C Ops' sectors."""
    prefix = "A" if side == "Axis" else "L"
    own = {key for code, key in PLACES.items() if code.startswith(prefix)} | {FORCE_PLACES[side][0]}
    near = _neighbours()
    return own | {other for key in own for other in near[key]}


def _place_the_units(world: World) -> None:
    campaign = world.campaign
    campaign.battalions.update(in_reserve=False)
    campaign.forces.filter(battlegroups__isnull=False).update(arrival_status=ArrivalStatus.ON_TABLE)
    for code, key in PLACES.items():
        campaign.battalions.filter(code=code).update(sector=world.sector(key))
    for side_name, (cops, fup) in FORCE_PLACES.items():
        campaign.forces.filter(side__name=side_name, battlegroups__isnull=False).update(
            sector=world.sector(cops), fup_sector=world.sector(fup)
        )


def _reader_side_name(seen: VisibilityWorld, reader: Reader) -> str | None:
    side_id = seen.reader_side(reader)
    return None if side_id is None else next(n for n, s in seen.sides.items() if s.pk == side_id)


def _expected_enemy(
    seen: VisibilityWorld, reader: Reader
) -> tuple[dict[str, int], dict[str, tuple[Any, Any]]]:
    """What a reader sees of the enemy on the map, worked out here: battalions (code → sector
    id) and forces (public id → C Ops and FUP sector ids, None where unseen)."""
    world = seen.world
    side = _reader_side_name(seen, reader)
    if side is None:
        return {}, {}
    contact = _contact(side)
    enemy = "Allied" if side == "Axis" else "Axis"
    fog = models.Side.objects.get(pk=seen.sides[enemy].pk).fog_of_war
    identified = set(fog.get("identified_units", []))
    sectors = {key: world.sector(key).pk for key in MAP_SECTORS}
    battalions = {
        code: sectors[key]
        for code, key in PLACES.items()
        if code.startswith("A" if enemy == "Axis" else "L") and (code in identified or key in contact)
    }
    cops, fup = FORCE_PLACES[enemy]
    force = world.campaign.forces.get(side__name=enemy, battlegroups__isnull=False)
    forces = {
        str(force.public_id): (
            sectors[cops] if cops in contact else None,
            sectors[fup] if fup in contact else None,
        )
    }
    return battalions, forces


@pytest.mark.parametrize("reader", MEMBERS, ids=lambda r: r.name.lower())
def test_no_reader_receives_an_enemy_units_sector_outside_the_fog_rule(seen, reader):
    world, client = seen.world, seen.clients[reader]
    _place_the_units(world)
    umpire = reader in (Reader.UMPIRE, Reader.UMPIRE_KEY)
    side = _reader_side_name(seen, reader)
    enemy_side = None if side is None else seen.sides["Allied" if side == "Axis" else "Axis"].pk
    battalions, forces = _expected_enemy(seen, reader)
    assert umpire or side is None or battalions, "the test places enemy battalions in contact"

    def enemy_battalion(row: dict[str, Any]) -> bool:
        return not umpire and row["side"] == enemy_side

    def check_battalion(row: dict[str, Any], where: str) -> None:
        if enemy_battalion(row):
            assert row["code"] in battalions, f"{where}: {row['code']} is out of sight"
            assert row.get("sector", battalions[row["code"]]) == battalions[row["code"]], where

    def check_force(row: dict[str, Any], where: str) -> None:
        if not umpire and row["side"] == enemy_side:
            cops, fup = forces[row["id"]]
            assert row["sector"] == cops, f"{where}: force {row['name']}'s C Ops"
            if "fup_sector" in row:
                assert row["fup_sector"] == fup, f"{where}: force {row['name']}'s FUP"

    listed = _listed(client, world.url("battalion-list"))
    for row in listed:
        check_battalion(row, "battalions/")
    seen_enemy = {row["code"]: row["sector"] for row in listed if enemy_battalion(row)}
    assert seen_enemy == battalions, f"battalions/ as {reader.value}"
    for row in _listed(client, world.url("force-list")):
        check_force(row, "forces/")
    for sector in _listed(client, world.url("sector-list")):
        for row in sector["battalions"]:
            check_battalion({**row, "sector": sector["id"]}, f"sectors/ {sector['key']}")
        for row in sector["forces"]:
            check_force({**row, "sector": sector["id"]}, f"sectors/ {sector['key']}")
    document = client.get(world.url("campaign-map")).json()
    for row in document["battalions"]:
        check_battalion(row, "map/")
    assert {r["code"]: r["sector"] for r in document["battalions"] if enemy_battalion(r)} == battalions
    for row in document["forces"]:
        check_force(row, "map/")
        if not umpire and row["side"] == enemy_side:
            assert row["sector"] is not None, "map/ lists an enemy force only where its C Ops is seen"
    for force in client.get(world.url("campaign-oob")).json()["forces"]:
        check_force(force, "oob")
        for group in force["battlegroups"]:
            for row in group["battalions"]:
                check_battalion(row, "oob")
    for battle in _listed(client, world.url("battle-list")):
        for code in battle["battalions"]:
            own = side is not None and code.startswith("A" if side == "Axis" else "L")
            assert umpire or own or code in battalions, f"battles/ names {code}"
    if side is None and not umpire:  # observers and a key of no side: the ground, no units
        assert not document["battalions"]
        assert not document["forces"]


def test_a_side_that_hides_its_units_in_contact_shows_only_its_identified_ones(seen):
    world = seen.world
    _place_the_units(world)
    allied = models.Side.objects.get(pk=seen.sides["Allied"].pk)
    models.Side.objects.filter(pk=allied.pk).update(fog_of_war={**allied.fog_of_war, "in_contact": False})

    document = seen.clients[Reader.AXIS_PLAYER].get(world.url("campaign-map")).json()

    enemy = {row["code"] for row in document["battalions"] if row["side"] == allied.pk}
    assert enemy == {"L1"}  # identified; L2 stands next to the ridge, unseen
    assert all(row["side"] != allied.pk for row in document["forces"])


# Supply situations for the map's field test: a cut-off battalion of each kind on each side,
# the Allied ones among those the Axis sees (L1 identified, L2 in contact).
CUT_OFF_UNITS = {"A1": "separated", "A3": "isolated", "L1": "separated", "L2": "isolated"}


# What the map shows of an enemy battalion the reader sees: where it stands, nothing else.
MAP_ENEMY_BATTALION = frozenset({"id", "code", "name", "side", "side_label", "sector"})


def _expected_map(seen: VisibilityWorld, reader: Reader, umpires: dict[str, Any]) -> dict[str, Any]:
    """The map ``reader`` may read, worked out here from the umpire's: the ground in full,
    the reader's side in full, of the enemy only the units the fog rule shows (where they
    stand, never their reserve or supply), only the battles the reader's side fights, and
    only the reader's own supply lines and cut-off battalions."""
    if reader in (Reader.UMPIRE, Reader.UMPIRE_KEY):
        return umpires
    own = seen.reader_side(reader)
    enemy_battalions, enemy_forces = _expected_enemy(seen, reader)
    battalions = [
        row if row["side"] == own else {k: v if k in MAP_ENEMY_BATTALION else None for k, v in row.items()}
        for row in umpires["battalions"]
        if row["side"] == own or row["code"] in enemy_battalions
    ]
    forces = [
        row if row["side"] == own else {**row, "sector": cops, "fup_sector": fup}
        for row in umpires["forces"]
        for cops, fup in [enemy_forces.get(row["id"], (None, None))]
        if row["side"] == own or cops is not None
    ]
    own_battalion_ids = {row["id"] for row in umpires["battalions"] if row["side"] == own}
    supply = umpires["supply"]
    return {
        # Today's map, and the moments kept for its replay: which moments were kept is public.
        "day": None,
        "moment": None,
        "moment_label": None,
        "moments": umpires["moments"],
        "sectors": umpires["sectors"],
        "links": umpires["links"],
        "labels": umpires["labels"],  # placed round the ground's markers: public, as the ground is
        "forces": forces,
        "battalions": battalions,
        "battles": [row for row in umpires["battles"] if own in (row["attacker"], row["defender"])],
        "supply": {
            "sides": [row if row["side"] == own else {**row, "lines": []} for row in supply["sides"]],
            "isolated": [pk for pk in supply["isolated"] if pk in own_battalion_ids],
            "separated": [pk for pk in supply["separated"] if pk in own_battalion_ids],
        },
    }


@pytest.mark.parametrize("reader", MEMBERS, ids=lambda r: r.name.lower())
def test_every_field_of_the_map_is_what_the_reader_may_read(seen, reader):
    """Issue 28, point 3: the map listed the enemy's battalions cut off from supply, which
    their battalion rows hide."""
    world = seen.world
    _place_the_units(world)
    for code, situation in CUT_OFF_UNITS.items():
        world.campaign.battalions.filter(code=code).update(supply_situation=situation)
    for side, (home, *held) in ((world.axis, ("north", "ridge")), (world.allied, ("south", "bridge"))):
        world.campaign.sectors.filter(key__in=(home, *held)).update(owner=side)
        world.sector(home).supply_source_for.add(side)
    umpires = seen.clients[Reader.UMPIRE].get(world.url("campaign-map")).json()
    cut_off = {str(world.battalion(code).public_id) for code in CUT_OFF_UNITS}
    assert set(umpires["supply"]["isolated"]) | set(umpires["supply"]["separated"]) == cut_off
    assert any(row["lines"] for row in umpires["supply"]["sides"]), "the world draws supply lines"

    document = seen.clients[reader].get(world.url("campaign-map")).json()

    assert document == _expected_map(seen, reader, umpires)


# --- identifiers: every table whose rows a reader may see only some of is named by public ids ---


# Router basenames whose rows keep their numbers, and why: every reader who reads any of a
# campaign's rows reads all of them (or the rows are no campaign's), so a number counts only
# other campaigns' rows. A new route must be listed here or serve public ids.
NUMBERED = {
    "campaign": "named by its slug; its id is a public id",
    "side": "every member reads every side, by a number that counts nothing (campaign/models/ids.py)",
    "sector": "the ground is public, named by a number that counts nothing (campaign/models/ids.py)",
    "day": "named by its number in its campaign; its id and its segments' are public ids",
    "api-key": "umpires in person only, who read every one",
    "invitation-link": "named by its secret token",
    "equipment": "reference data of no campaign",
    "rule": "reference data of no campaign",
}


def test_every_route_of_rows_some_reader_may_not_see_names_them_by_public_ids():
    """Issue 28, point 7: a table the fog or a side's secrecy hides rows of must not serve its
    sequence; a new route fails here until it serves public ids or says why its numbers count
    nothing hidden (NUMBERED)."""
    from api.urls import router

    named = {basename: viewset for _, viewset, basename in router.registry if basename not in NUMBERED}
    assert set(NUMBERED) <= {basename for _, _, basename in router.registry}, "NUMBERED names no route"
    wrong = []
    for basename, viewset in named.items():
        model = getattr(viewset, "model", None) or viewset.serializer_class.Meta.model
        if "public_id" not in {field.name for field in model._meta.get_fields()}:
            wrong.append(f"{basename}: {model.__name__} has no public_id")
        elif getattr(viewset, "lookup_field", "pk") != "public_id":
            wrong.append(f"{basename}: its URLs name rows by {getattr(viewset, 'lookup_field', 'pk')}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("reader", MEMBERS, ids=lambda r: r.name.lower())
def test_a_numbered_list_is_all_or_nothing_of_the_campaigns_rows_for_every_reader(seen, reader):
    """What NUMBERED claims, read: a reader gets every row of such a list or none."""
    world = seen.world
    for name in ("side-list", "sector-list", "day-list"):
        everything = {
            row.get("id", row.get("number")) for row in _listed(seen.clients[Reader.UMPIRE], world.url(name))
        }
        listed = {row.get("id", row.get("number")) for row in _listed(seen.clients[reader], world.url(name))}
        assert listed in (everything, set()), (
            f"{name} as {reader.value}: {sorted(listed)} of {sorted(everything)}"
        )


UNIT_ROWS = frozenset({"battalions", "stands", "forces", "battlegroups", "force"})


UNIT_REFERENCES = frozenset({"battalion", "battlegroup", "force", "isolated", "separated", "night_order"})


def _is_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _numbers_named(value: Any, where: str, unit: bool) -> list[str]:
    """Every integer a read names a unit by (a battalion, stand, battlegroup or force, nested
    anywhere: its row's id, or a reference to it), with where it stands; ``unit``: ``value``
    is a unit's row or a list of them."""
    found: list[str] = []
    if isinstance(value, list):
        for index, inner in enumerate(value):
            found += _numbers_named(inner, f"{where}[{index}]", unit)
        return found
    if not isinstance(value, dict):
        return found
    for key, inner in value.items():
        if (key == "id" and unit and _is_number(inner)) or (
            key in UNIT_REFERENCES
            and (_is_number(inner) or (isinstance(inner, list) and any(map(_is_number, inner))))
        ):
            found.append(f"{where}.{key}={inner}")
        found += _numbers_named(inner, f"{where}.{key}", key in UNIT_ROWS)
    return found


@pytest.mark.parametrize("reader", MEMBERS, ids=lambda r: r.name.lower())
def test_no_read_of_units_names_a_battalion_stand_or_force_by_a_number(seen, reader):
    """Issue 28, point 7: battalions were numbered in sequence, so a player reading their own
    16, 17, 18 and the enemy's 20 and 22 learnt that 19 and 21 were hidden from them (in
    reserve, unspotted); stands and forces the same."""
    world, client = seen.world, seen.clients[reader]
    _place_the_units(world)
    for code in ("A1", "L1"):
        world.campaign.battalions.filter(code=code).update(supply_situation="isolated")
    force = world.campaign.forces.filter(battlegroups__isnull=False).first()
    assert force is not None
    reads = {
        "battalions": _listed(client, world.url("battalion-list")),
        "stands": _listed(client, world.url("stand-list")),
        "forces": _listed(client, world.url("force-list")),
        "sector-list": _listed(client, world.url("sector-list")),
        "map": client.get(world.url("campaign-map")).json(),
        "oob": client.get(world.url("campaign-oob")).json(),
        "force status": client.get(world.url("force-force-status", pk=force.public_id)).json(),
        "rolls": _listed(client, world.url("roll-list")),
        "orders": _listed(client, world.url("side-order-list")) if reader is not Reader.OBSERVER else [],
    }
    side_id = seen.reader_side(reader)
    if side_id is not None or reader in (Reader.UMPIRE, Reader.UMPIRE_KEY):
        assert reads["battalions"], "the reader sees battalions"
        assert reads["map"]["battalions"], "the reader sees battalions on the map"
        assert reads["map"]["supply"]["isolated"], "the reader sees its own cut-off battalions"
    if side_id is not None:
        hidden = world.campaign.battalions.exclude(side_id=side_id).exclude(
            code__in=[row["code"] for row in reads["battalions"]]
        )
        assert hidden.exists(), "the enemy has battalions hidden from the reader"

    assert [
        found for name, read in reads.items() for found in _numbers_named(read, name, name in UNIT_ROWS)
    ] == []
    for row in reads["battalions"]:
        assert all(_is_public_id(row[name]) for name in ("id", "force", "battlegroup")), row
        assert client.get(world.url("battalion-detail", pk=row["id"])).json()["code"] == row["code"]
