"""The umpire's back office: every page opens, the audit trail is read-only,
changelists do a constant number of queries, actions run the services."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django import forms
from django.apps import apps
from django.contrib import admin
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth import get_user_model
from django.contrib.messages import constants as message_levels
from django.db import connection
from django.db.models import Model
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import models
from campaign.choices import (
    ArrivalStatus,
    BattleStatus,
    CampaignStatus,
    DayStatus,
    EventVerb,
    MemberRole,
    NightOrderKind,
    NotificationKind,
    OperationKind,
    OperationStatus,
    StandStatus,
    StandType,
)
from campaign.services.api_keys import api_key_create
from campaign.services.audit import Actor
from campaign.services.battle_drafts import battle_draft_save
from campaign.services.battles import battle_create
from campaign.services.campaigns import campaign_start
from campaign.services.days import day_dawn
from campaign.services.dice import dice_commitment_fields
from campaign.services.memberships import invitation_create
from campaign.services.night_orders import night_order_queue
from campaign.services.notifications import notification_send
from campaign.services.overrides import roll_override
from campaign.services.webhook_subscriptions import webhook_subscribe

pytestmark = pytest.mark.django_db
ACTOR = Actor(request_id="admin-test")
CAMPAIGN_MODELS = sorted(model.__name__ for model in apps.get_app_config("campaign").get_models())
READ_ONLY_MODELS = (
    models.RollRecord,
    models.Event,
    models.ActivationSpend,
    models.ArtilleryOrder,
    models.Invitation,
    models.Operation,
    models.NightReport,
    models.NightSnapshot,
    models.MapSnapshot,
    models.ChangeRecord,
    models.SyncCursor,
    models.NightOrder,
    models.SideOrder,
    models.BattleDraft,
    models.SideDayTally,
    models.WebhookDelivery,
    models.CampaignAPIKey,
    models.Notification,
)


# Data -----------------------------------------------------------------------


def build_campaign(*, sides: int = 2, battalions: int = 1, stands: int = 1) -> models.Campaign:
    """A club-profile campaign being set up: ``sides`` sides with a force and a
    battlegroup each; the first side's battlegroup has ``battalions`` battalions
    of ``stands`` stands."""
    campaign = models.Campaign.objects.create(
        name="Sicily 1943",
        slug=f"sicily-{models.Campaign.objects.count()}",
        profile="club",
        theatre="Mediterranean",
        year=1943,
        season="summer",
        start_date=datetime.date(1943, 7, 10),
        **dice_commitment_fields("admin-seed"),
    )
    for name, nation, axis in (("Axis", "German", True), ("Allied", "British", False))[:sides]:
        side = models.Side.objects.create(campaign=campaign, name=name, nations=[nation], is_axis=axis)
        force = models.Force.objects.create(
            campaign=campaign, side=side, name=f"{name} division", nation=nation
        )
        models.Battlegroup.objects.create(force=force, name=f"{name} regiment")
    battalions_add(campaign, battalions, stands)
    return campaign


def battalions_add(campaign: models.Campaign, count: int, stands: int) -> None:
    group = models.Battlegroup.objects.filter(force__campaign=campaign).order_by("pk").first()
    assert group is not None
    first = models.Battalion.objects.filter(campaign=campaign).count()
    for number in range(first + 1, first + count + 1):
        battalion = models.Battalion.objects.create(
            battlegroup=group,
            campaign=campaign,
            side=group.force.side,
            code=f"A{number}",
            quality="Average",
            stands_started=stands,
        )
        models.Stand.objects.bulk_create(
            models.Stand(
                battalion=battalion, campaign=campaign, label=str(label), stand_type=StandType.INFANTRY
            )
            for label in range(1, stands + 1)
        )


@pytest.fixture
def umpire(admin_user: Any) -> Any:
    return admin_user


@pytest.fixture
def client(admin_client: Client) -> Client:
    return admin_client


@pytest.fixture
def full_campaign(umpire: Any) -> models.Campaign:
    """A campaign with a row of every model, written by the services where they exist."""
    campaign = build_campaign(battalions=2, stands=2)
    models.ClubNight.objects.create(campaign=campaign, campaign_day=1, play_date=datetime.date(2025, 3, 4))
    models.Membership.objects.create(user=umpire, campaign=campaign, role=MemberRole.UMPIRE)
    models.Stand.objects.filter(campaign=campaign).update(equipment=models.Equipment.objects.first())
    campaign_start(campaign.pk, ACTOR)
    webhook_subscribe(campaign.pk, ACTOR, url="https://club.example/hooks", events=[EventVerb.DAY_DAWNED])
    api_key_create(campaign.pk, Actor(user=umpire), name="club page")
    invitation_create(campaign.pk, Actor(user=umpire), role=MemberRole.OBSERVER)
    day = day_dawn(campaign.pk, ACTOR)  # delivered to the webhook (never sent: nothing commits)
    axis, allied = campaign.sides.order_by("pk")
    battle = battle_create(
        campaign.pk,
        ACTOR,
        sector_name="Primosole bridge",
        battle_type="Local Attack",
        attacker_id=allied.pk,
        defender_id=axis.pk,
        battalion_codes=["A1"],
    )
    player = get_user_model().objects.create_user("axis-player")
    models.Membership.objects.create(user=player, campaign=campaign, role=MemberRole.PLAYER, side=axis)
    battle_draft_save(campaign.pk, Actor(user=player), battle.pk, {"battalions": [{"code": "A1"}]})
    catania, plain = models.Sector.objects.bulk_create(
        models.Sector(campaign=campaign, key=key, name=key.title(), x=x, y=500)
        for key, x in (("catania", 600), ("plain", 400))
    )
    models.SectorLink.objects.create(campaign=campaign, a=catania, b=plain)
    models.AirborneDrop.objects.create(force=campaign.forces.order_by("pk")[0], day=2, drop_zone=catania)
    spend = models.ActivationSpend.objects.create(side=axis, day=day, turn=1, column="1 Bn", cost=2)
    spend.battalions.set(campaign.battalions.filter(code="A1"))
    models.ArtilleryOrder.objects.create(side=axis, day=day, template=1, mode="on-call")
    night_order_queue(campaign.pk, ACTOR, kind=NightOrderKind.WITHDRAW, battalion_code="A2")
    models.SideOrder.objects.create(
        campaign=campaign, side=axis, day_number=day.number, kind="withdraw", payload={"battalion_code": "A2"}
    )
    operation = models.Operation.objects.create(campaign=campaign, kind=OperationKind.NIGHT_PHASE, day=day)
    models.NightReport.objects.create(operation=operation, side=axis, day=day, body={"replacements": 1})
    models.NightSnapshot.objects.create(operation=operation, values={"side": {str(axis.pk): [0, 0, 0]}})
    models.SyncCursor.objects.create(
        campaign=campaign, kind="force", reader="umpire", change_id=0, fog="", rows={}
    )
    notification_send(
        campaign,
        [campaign.memberships.select_related("user").get(user=player)],
        NotificationKind.ORDERS_DUE,
        "Orders due",
        "",
        f"/campaigns/{campaign.slug}",
        ACTOR,
        side_id=axis.pk,
    )
    return campaign


def admin_url(model: type[Model], view: str, *args: object) -> str:
    return reverse(f"admin:campaign_{model._meta.model_name}_{view}", args=args)


def run_action(client: Client, model: type[Model], action: str, objects: list[Model]) -> Any:
    return client.post(
        admin_url(model, "changelist"),
        {"action": action, ACTION_CHECKBOX_NAME: [obj.pk for obj in objects]},
        follow=True,
    )


def shown_messages(response: Any) -> list[tuple[int, str]]:
    return [(message.level, message.message) for message in response.context["messages"]]


def _field_items(form: Any, name: str) -> list[tuple[str, Any]]:
    bound = form[name]
    value = bound.field.prepare_value(bound.value())
    if isinstance(bound.field, forms.BooleanField):
        return [(bound.html_name, "on")] if value else []
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [(bound.html_name, item) for item in value]
    return [(bound.html_name, value)]


def change_form_data(response: Any) -> dict[str, Any]:
    """What a browser would post back, unchanged, from an admin change page."""
    page_forms = [response.context["adminform"].form]
    data: dict[str, Any] = {}
    for inline in response.context["inline_admin_formsets"]:
        management = inline.formset.management_form
        data.update({management.add_prefix(name): management[name].value() for name in management.fields})
        page_forms += inline.formset.forms
    for form in page_forms:
        for name in form.fields:
            for key, value in _field_items(form, name):
                data.setdefault(key, []).append(value)
    return data


# Pages ----------------------------------------------------------------------


def test_every_campaign_model_is_in_the_back_office():
    registered = {model.__name__ for model in admin.site._registry if model._meta.app_label == "campaign"}
    assert registered == set(CAMPAIGN_MODELS)


def test_the_admin_index_names_each_section_once_in_plain_english(client):
    """Issue 13, point 18: "Side day tallys", "Webhook deliverys" and two "API keys" sections."""
    page = client.get(reverse("admin:index"))
    sections = {app["name"]: [model["name"] for model in app["models"]] for app in page.context["app_list"]}
    names = [name for models in sections.values() for name in models]

    assert page.status_code == 200
    assert {"Side day tallies", "Webhook deliveries"} <= set(sections["Campaigns"])
    assert "API keys" in sections["Campaigns"]
    assert len(names) == len(set(names)), sorted(names)
    assert not {"tallys", "deliverys"} & set(page.content.decode().lower().split())


@pytest.mark.parametrize("model_name", CAMPAIGN_MODELS)
def test_changelist_change_and_add_pages_open_for_a_superuser(client, full_campaign, model_name):
    model = apps.get_model("campaign", model_name)
    obj = model._default_manager.order_by("pk").first()
    assert obj is not None, f"the fixture has no {model_name}"

    assert client.get(admin_url(model, "changelist")).status_code == 200
    assert client.get(admin_url(model, "changelist"), {"q": "a"}).status_code == 200
    assert client.get(admin_url(model, "change", obj.pk)).status_code == 200
    expected_add = 403 if model in READ_ONLY_MODELS else 200
    assert client.get(admin_url(model, "add")).status_code == expected_add


def test_campaign_links_lead_to_its_filtered_order_of_battle(client, full_campaign):
    build_campaign(battalions=3)  # another campaign, filtered out

    response = client.get(
        admin_url(models.Battalion, "changelist"), {"campaign__id__exact": full_campaign.pk}
    )

    assert response.status_code == 200
    assert sorted(b.code for b in response.context["cl"].result_list) == ["A1", "A2"]
    battalion = models.Battalion.objects.get(campaign=full_campaign, code="A1")
    stands_link = f"{admin_url(models.Stand, 'changelist')}?battalion__id__exact={battalion.pk}"
    assert stands_link in response.content.decode()


# The audit trail --------------------------------------------------------------


@pytest.mark.parametrize("model", READ_ONLY_MODELS)
def test_what_services_write_cannot_be_added_changed_or_deleted(client, full_campaign, model, rf, umpire):
    model_admin = admin.site._registry[model]
    request = rf.get("/")
    request.user = umpire
    obj = model._default_manager.first()
    assert obj is not None

    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request, obj)
    assert not model_admin.has_delete_permission(request, obj)
    assert "delete_selected" not in model_admin.get_actions(request)
    assert client.post(admin_url(model, "add"), {}).status_code == 403
    assert client.post(admin_url(model, "delete", obj.pk), {"post": "yes"}).status_code == 403
    before = model_to_values(obj)
    assert (
        client.post(admin_url(model, "change", obj.pk), {"line": "forged", "message": "forged"}).status_code
        == 403
    )
    assert model_to_values(model._default_manager.get(pk=obj.pk)) == before


def model_to_values(obj: Model) -> dict[str, Any]:
    return {field.attname: getattr(obj, field.attname) for field in obj._meta.concrete_fields}


def test_a_roll_record_shows_its_dice_modifiers_rule_and_replays(client, full_campaign):
    record = models.RollRecord.objects.filter(campaign=full_campaign, procedure="gb.weather").get()
    result = record.result
    rule = result["rule"]
    faces = "+".join(str(face) for face in result["rolls"][0]["faces"])

    page = client.get(admin_url(models.RollRecord, "change", record.pk)).content.decode()

    assert record.line in page
    assert f"{result['rolls'][0]['dice']} [{faces}] = {result['rolls'][0]['total']}" in page
    assert f"Great Battles of WWII charts, {rule['section']}" in page
    assert result["outcome_text"] in page
    assert "✔ matches the stored result" in page


def test_a_tampered_roll_record_does_not_replay(client, full_campaign):
    record = models.RollRecord.objects.filter(campaign=full_campaign, procedure="gb.weather").get()
    forged = {**record.result, "outcome_text": "forged"}
    models.RollRecord.objects.filter(pk=record.pk).update(result=forged)

    page = client.get(admin_url(models.RollRecord, "change", record.pk)).content.decode()

    assert "✘ differs from the stored result" in page
    assert record.result["line"] in page  # what the seed really gives


def test_an_override_record_shows_no_dice_and_names_the_roll_it_overrides(client, full_campaign, umpire):
    roll = models.RollRecord.objects.filter(campaign=full_campaign, procedure="gb.weather").get()
    assert roll.day is not None
    weather = next(w for w in "CDOF" if w != roll.day.weather)
    override = roll_override(
        roll.campaign_id,
        Actor(user=umpire, request_id="admin-test"),
        roll.pk,
        changes={"weather": weather},
        reason="misread",
    )

    page = client.get(admin_url(models.RollRecord, "change", override.pk)).content.decode()

    assert override.output is None
    assert override.line in page
    assert f"an umpire&#x27;s override: replay roll {roll.pk} instead" in page


def test_an_event_shows_before_and_after(client, full_campaign):
    event = models.Event.objects.get(campaign=full_campaign, verb=EventVerb.CAMPAIGN_STARTED)

    page = client.get(admin_url(models.Event, "change", event.pk)).content.decode()

    assert "<tr><th>status</th><td>setup</td><td>active</td></tr>" in page


# Query counts -----------------------------------------------------------------


@pytest.mark.parametrize("model", [models.Battalion, models.Stand])
def test_changelist_query_count_does_not_grow_with_rows(client, model):
    campaign = build_campaign(battalions=1, stands=1)
    url = admin_url(model, "changelist")
    client.get(url)  # the session and content types are cached from here on

    with CaptureQueriesContext(connection) as one_row:
        response = client.get(url)
    assert response.context["cl"].result_count == 1
    battalions_add(campaign, 49, 1)
    with CaptureQueriesContext(connection) as fifty_rows:
        response = client.get(url)
    assert response.context["cl"].result_count == 50

    assert len(fifty_rows.captured_queries) == len(one_row.captured_queries)


# Actions ------------------------------------------------------------------------


def test_start_campaign_action_starts_it_and_writes_an_event(client, umpire):
    campaign = build_campaign()

    response = run_action(client, models.Campaign, "start", [campaign])

    campaign.refresh_from_db()
    assert campaign.status == CampaignStatus.ACTIVE
    assert campaign.version == 2
    event = models.Event.objects.get(campaign=campaign)
    assert event.verb == EventVerb.CAMPAIGN_STARTED
    assert event.actor_id == umpire.pk
    assert event.request_id
    assert shown_messages(response) == [(message_levels.SUCCESS, f"{campaign}: started (active)")]


def _one_sided_campaign() -> list[Model]:
    return [build_campaign(sides=1)]


def _campaign_in_setup() -> list[Model]:
    return [build_campaign()]


def _force_on_table() -> list[Model]:
    campaign = build_campaign()
    campaign_start(campaign.pk, ACTOR)
    return list(models.Force.objects.filter(campaign=campaign)[:1])


def _planned_battle() -> list[Model]:
    campaign = build_campaign()
    campaign_start(campaign.pk, ACTOR)
    day_dawn(campaign.pk, ACTOR)
    axis, allied = campaign.sides.order_by("pk")
    battle = battle_create(
        campaign.pk,
        ACTOR,
        sector_name="Catania",
        battle_type="Local Attack",
        attacker_id=allied.pk,
        defender_id=axis.pk,
        battalion_codes=["A1"],
    )
    return [battle]


def _day_with_a_planned_battle() -> list[Model]:
    [battle] = _planned_battle()
    return [models.Campaign.objects.get(battles__pk=battle.pk)]


@pytest.mark.parametrize(
    ("model", "action", "objects", "message"),
    [
        (
            models.Campaign,
            "start",
            _one_sided_campaign,
            "A campaign needs two sides to start. (field: sides)",
        ),
        (models.Campaign, "dawn", _campaign_in_setup, "is setting up, not active. (field: status)"),
        (
            models.Campaign,
            "advance_segment",
            _campaign_in_setup,
            "is setting up, not active. (field: status)",
        ),
        (
            models.Campaign,
            "start_night_phase",
            _day_with_a_planned_battle,
            "Day 1 has battles not yet reported: Catania. (field: battles)",
        ),
        (
            models.Force,
            "schedule_reinforcement",
            _force_on_table,
            "only forces off the table can be scheduled",
        ),
        (models.Battle, "close", _planned_battle, "is planned, not reported. (field: status)"),
    ],
)
def test_a_refused_action_shows_the_error_and_changes_nothing(client, model, action, objects, message):
    selected = objects()
    versions = dict(models.Campaign.objects.values_list("pk", "version"))
    events, rolls = models.Event.objects.count(), models.RollRecord.objects.count()

    response = run_action(client, model, action, selected)

    assert response.status_code == 200
    [(level, text)] = shown_messages(response)
    assert level == message_levels.ERROR
    assert text.startswith(f"{selected[0]}: ")
    assert message in text
    assert dict(models.Campaign.objects.values_list("pk", "version")) == versions
    assert (models.Event.objects.count(), models.RollRecord.objects.count()) == (events, rolls)


def test_dawn_and_advance_actions_open_the_day_and_its_next_segment(client):
    campaign = build_campaign()
    campaign_start(campaign.pk, ACTOR)

    run_action(client, models.Campaign, "dawn", [campaign])
    response = run_action(client, models.Campaign, "advance_segment", [campaign])

    campaign.refresh_from_db()
    assert campaign.current_day == 1
    day = campaign.days.get()
    assert list(day.segments.values_list("order", flat=True)) == [0, 1]
    assert campaign.current_segment == day.segments.get(order=1).segment
    assert shown_messages(response) == [
        (message_levels.SUCCESS, f"{campaign}: now in {campaign.current_segment}")
    ]


def test_start_night_phase_action_starts_the_night_of_the_current_day(
    client, umpire, django_capture_on_commit_callbacks
):
    campaign = build_campaign()
    campaign_start(campaign.pk, ACTOR)
    day = day_dawn(campaign.pk, ACTOR)

    # The worker's task is enqueued on commit: captured here, never sent.
    with django_capture_on_commit_callbacks(execute=False) as enqueued:
        response = run_action(client, models.Campaign, "start_night_phase", [campaign])

    operation = models.Operation.objects.get(campaign=campaign)
    assert (operation.kind, operation.day_id, operation.status, operation.created_by_id) == (
        OperationKind.NIGHT_PHASE,
        day.pk,
        OperationStatus.PENDING,
        umpire.pk,
    )
    assert len(enqueued) == 1  # the night's task (no status was polled: none to store)
    day.refresh_from_db()
    assert day.status == DayStatus.NIGHT
    event = models.Event.objects.filter(campaign=campaign).latest("pk")
    assert (event.verb, event.actor_id) == (EventVerb.NIGHT_PHASE_STARTED, umpire.pk)
    assert shown_messages(response) == [(message_levels.SUCCESS, f"{campaign}: night phase of day 1 started")]


def test_schedule_reinforcement_action_makes_a_reserve_force_due_the_next_day(client):
    campaign = build_campaign()
    campaign_start(campaign.pk, ACTOR)
    force = models.Force.objects.filter(campaign=campaign).first()
    assert force is not None
    models.Force.objects.filter(pk=force.pk).update(
        arrival_status=ArrivalStatus.IN_RESERVE, arrival_zone="Gela"
    )

    run_action(client, models.Force, "schedule_reinforcement", [force])

    force.refresh_from_db()
    assert (force.arrival_status, force.arrival_day, force.arrival_zone) == (
        ArrivalStatus.SCHEDULED,
        1,
        "Gela",
    )
    assert models.Event.objects.filter(campaign=campaign, verb=EventVerb.REINFORCEMENT_SCHEDULED).count() == 1


def test_roll_battle_setup_action_rolls_every_setup_step(client):
    [battle] = _planned_battle()

    refused = run_action(client, models.Battle, "roll_setup", [battle])
    # The club reads the terrain for every table alike; then nothing is missing.
    models.Campaign.objects.filter(pk=battle.campaign_id).update(
        rule_settings={"n43.setup_proximity.terrain": "Open Terrain"}
    )
    run_action(client, models.Battle, "roll_setup", [battle])

    assert shown_messages(refused) == [
        (
            message_levels.ERROR,
            f"{battle}: Set-up proximity: terrain: required. (field: inputs.n43.setup_proximity.terrain)",
        )
    ]
    battle.refresh_from_db()
    assert battle.status == BattleStatus.SET_UP
    assert "n43.troop_reaction@Axis" in battle.setup
    assert models.RollRecord.objects.filter(battle=battle).count() >= 8


# Manual corrections ---------------------------------------------------------------


def test_adding_a_campaign_records_its_creation(client, umpire):
    data = {
        "name": "Kursk",
        "slug": "kursk",
        "description": "",
        "profile": "great-battles",
        "optional_rules": "[]",
        "rule_settings": "{}",
        "theatre": "East",
        "year": "1943",
        "season": "summer",
        "start_date": "1943-07-05",
        "rng_seed": "kursk-seed",
        "orders_lead_hours": "0",
    }
    for prefix in ("sides", "club_nights", "memberships"):
        data |= {f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"}

    response = client.post(admin_url(models.Campaign, "add"), data)

    assert response.status_code == 302
    campaign = models.Campaign.objects.get(slug="kursk")
    event = models.Event.objects.get(campaign=campaign)
    assert (event.verb, event.actor_id, event.before) == (EventVerb.CAMPAIGN_CREATED, umpire.pk, None)
    assert event.after["start_date"] == "1943-07-05"
    assert event.after["profile"] == "great-battles"
    assert "rng_seed" not in event.after
    # The seed posted is no field of the form: the campaign draws a fresh secret one.
    assert campaign.rng_seed != "kursk-seed"
    assert len(campaign.rng_seed) == 64
    assert campaign.dice_commitment == dice_commitment_fields(campaign.rng_seed)["dice_commitment"]
    page = client.get(admin_url(models.Campaign, "change", campaign.pk)).content.decode()
    assert campaign.dice_commitment in page
    assert campaign.rng_seed not in page


def test_correcting_a_rolled_value_is_recorded_as_an_override(client, full_campaign):
    segment = models.DaySegmentRecord.objects.get(day__campaign=full_campaign)
    rolled = segment.wind_direction
    assert models.RollRecord.objects.filter(segment=segment, changes__wind_direction=rolled).exists()
    url = admin_url(models.DaySegmentRecord, "change", segment.pk)
    data = change_form_data(client.get(url))
    corrected = "North" if rolled != "North" else "South"
    data["wind_direction"] = [corrected]
    version = models.Campaign.objects.get(pk=full_campaign.pk).version

    assert client.post(url, data).status_code == 302

    segment.refresh_from_db()
    assert segment.wind_direction == corrected
    assert models.Campaign.objects.get(pk=full_campaign.pk).version == version + 1
    event = models.Event.objects.filter(campaign=full_campaign).latest("pk")
    assert event.verb == EventVerb.ROLL_OVERRIDDEN
    assert (event.before, event.after) == ({"wind_direction": rolled}, {"wind_direction": corrected})
    assert event.object_type == "DaySegmentRecord"


def test_an_edit_writes_only_the_changed_fields_and_records_them(client, full_campaign, umpire):
    stand = models.Stand.objects.filter(campaign=full_campaign).order_by("pk").first()
    assert stand is not None
    url = admin_url(models.Stand, "change", stand.pk)
    data = change_form_data(client.get(url))
    data["status"] = [StandStatus.SUPPRESSED]
    version = models.Campaign.objects.get(pk=full_campaign.pk).version

    with CaptureQueriesContext(connection) as queries:
        assert client.post(url, data).status_code == 302

    stand_table = 'UPDATE "campaign_stand"'
    [stand_update] = [q["sql"] for q in queries.captured_queries if q["sql"].startswith(stand_table)]
    assert (
        stand_update
        == f"""{stand_table} SET "status" = 'suppressed' WHERE "campaign_stand"."id" = {stand.pk}"""
    )
    stand.refresh_from_db()
    assert stand.status == StandStatus.SUPPRESSED
    assert models.Campaign.objects.get(pk=full_campaign.pk).version == version + 1
    event = models.Event.objects.filter(campaign=full_campaign).latest("pk")
    assert (event.verb, event.actor_id, event.object_type, event.object_id) == (
        EventVerb.ADMIN_CORRECTED,
        umpire.pk,
        "Stand",
        stand.pk,
    )
    assert (event.before, event.after) == ({"status": StandStatus.OK}, {"status": StandStatus.SUPPRESSED})
    assert event.message == f"Umpire's correction of stand {stand}: status"


def test_deleting_a_stand_records_its_last_values_and_bumps_the_version(client, full_campaign, umpire):
    stand = models.Stand.objects.filter(campaign=full_campaign).order_by("pk").first()
    assert stand is not None
    version = models.Campaign.objects.get(pk=full_campaign.pk).version

    response = client.post(admin_url(models.Stand, "delete", stand.pk), {"post": "yes"})

    assert response.status_code == 302
    assert not models.Stand.objects.filter(pk=stand.pk).exists()
    assert models.Campaign.objects.get(pk=full_campaign.pk).version == version + 1
    event = models.Event.objects.filter(campaign=full_campaign).latest("pk")
    assert (event.verb, event.actor_id, event.object_id, event.after) == (
        EventVerb.ADMIN_DELETED,
        umpire.pk,
        stand.pk,
        None,
    )
    assert event.before["label"] == stand.label
    assert event.before["status"] == StandStatus.OK
    assert event.before["battalion"] == stand.battalion_id


def test_a_stand_deleted_in_its_battalion_inline_is_recorded(client, full_campaign):
    battalion = models.Battalion.objects.get(campaign=full_campaign, code="A1")
    url = admin_url(models.Battalion, "change", battalion.pk)
    data = change_form_data(client.get(url))
    [stand_id] = data["stands-0-id"]
    data["stands-0-DELETE"] = ["on"]
    version = models.Campaign.objects.get(pk=full_campaign.pk).version

    assert client.post(url, data).status_code == 302

    assert models.Stand.objects.filter(battalion=battalion).count() == 1
    assert not models.Stand.objects.filter(pk=stand_id).exists()
    assert models.Campaign.objects.get(pk=full_campaign.pk).version == version + 1
    event = models.Event.objects.filter(campaign=full_campaign).latest("pk")
    assert (event.verb, event.object_type, event.object_id) == (
        EventVerb.ADMIN_DELETED,
        "Stand",
        int(stand_id),
    )


def _battalion_row(data: dict[str, Any], code: str) -> dict[str, Any]:
    index = int(data["battalions-TOTAL_FORMS"])
    row = {
        "code": code,
        "quality": "Veteran",
        "stands_started": "4",
        "activation": "inactive",
        "supply_situation": "OK",
        "ammo_low_markers": "0",
        "fuel_state": "n/a",
    }
    return (
        data | {f"battalions-{index}-{k}": v for k, v in row.items()} | {"battalions-TOTAL_FORMS": index + 1}
    )


def test_a_battalion_added_under_its_battlegroup_takes_the_campaign_and_side_of_its_force(
    client, full_campaign
):
    group = models.Battlegroup.objects.get(force__campaign=full_campaign, force__side__name="Allied")
    url = admin_url(models.Battlegroup, "change", group.pk)
    data = change_form_data(client.get(url))

    assert client.post(url, _battalion_row(data, "L7")).status_code == 302

    battalion = models.Battalion.objects.get(code="L7")
    assert (battalion.battlegroup, battalion.campaign, battalion.side) == (
        group,
        full_campaign,
        group.force.side,
    )


def test_a_duplicate_battalion_code_is_a_form_error_not_a_crash(client, full_campaign):
    group = models.Battlegroup.objects.get(force__campaign=full_campaign, force__side__name="Allied")
    url = admin_url(models.Battlegroup, "change", group.pk)
    data = change_form_data(client.get(url))

    response = client.post(url, _battalion_row(data, "A1"))

    assert response.status_code == 200
    assert "Battalion with this Campaign and Code already exists." in response.content.decode()
    assert models.Battalion.objects.filter(campaign=full_campaign, code="A1").count() == 1
