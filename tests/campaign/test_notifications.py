"""Members' notifications: who is told what (fog of war), once per subject, e-mailed once."""

from __future__ import annotations

import datetime
import socket
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaign import models
from campaign.choices import EventVerb, MemberRole, NotificationEmail, NotificationKind
from campaign.services.audit import Actor
from campaign.services.background import retry_delay
from campaign.services.battles import battle_create
from campaign.services.broker import tasks_send
from campaign.services.days import day_dawn
from campaign.services.errors import DomainError, NotFoundError
from campaign.services.memberships import membership_notification_emails_set
from campaign.services.notifications import (
    NOTIFICATION_MAIL_TASK,
    REMINDERS,
    notification_mail,
    notification_mails_resend,
    notification_read,
    notification_send,
    notifications_read_all,
    reminder_register,
    reminders_run,
)
from campaign.services.sweep import work_sweep
from tests.campaign.factories import UserFactory, campaign_with_sides
from tests.campaign.test_night_worker import wait_for
from tests.conftest import WorkerProcess, worker_database_url
from tests.tiers import needs

pytestmark = pytest.mark.django_db

ACTOR = Actor(request_id="notifications-test")


def members(campaign: models.Campaign) -> dict[str, models.Membership]:
    """The umpire (no address), a player of each side and an observer, with addresses."""
    axis, allied = campaign.sides.get(name="Axis"), campaign.sides.get(name="Allied")
    made = {"umpire": campaign.memberships.select_related("user").get(role=MemberRole.UMPIRE)}
    for name, role, side in (
        ("axis", MemberRole.PLAYER, axis),
        ("allied", MemberRole.PLAYER, allied),
        ("observer", MemberRole.OBSERVER, None),
    ):
        user: Any = UserFactory(username=f"{name}-{campaign.slug}", email=f"{name}@example.org")
        made[name] = models.Membership.objects.create(user=user, campaign=campaign, role=role, side=side)
    return made


def inbox(membership: models.Membership) -> list[models.Notification]:
    return list(models.Notification.objects.filter(recipient=membership.user).order_by("pk"))


def battle(campaign: models.Campaign) -> models.Battle:
    return battle_create(
        campaign.pk,
        ACTOR,
        sector_name="Ta' Qali",
        battle_type="Local Attack",
        attacker_id=campaign.sides.get(name="Axis").pk,
        defender_id=campaign.sides.get(name="Allied").pk,
        battalion_codes=["A1", "A2", "L1"],
    )


def test_a_new_battle_tells_each_sides_players_of_their_own_battalions_only(
    django_capture_on_commit_callbacks,
):
    campaign = campaign_with_sides(battalions_per_side=2)
    who = members(campaign)
    day_dawn(campaign.pk, ACTOR)

    with django_capture_on_commit_callbacks(execute=False) as sent:
        fought = battle(campaign)

    [axis_note], [allied_note] = inbox(who["axis"]), inbox(who["allied"])
    assert inbox(who["umpire"]) == inbox(who["observer"]) == []
    for note in (axis_note, allied_note):
        assert note.kind == NotificationKind.BATTLE_ASSIGNED
        assert note.title == "Battle at Ta' Qali on day 1"
        assert note.link == f"/campaigns/{campaign.slug}/battles/{fought.public_id}"
        assert (note.email, note.read_at, note.dedupe_key) == (
            NotificationEmail.PENDING,
            None,
            f"battle:{fought.pk}",
        )
    assert axis_note.body == "Axis attack Allied at Ta' Qali (Local attack). Your battalions: A1, A2."
    assert allied_note.body == "Allied defend against Axis at Ta' Qali (Local attack). Your battalions: L1."
    # The fog of war: neither side reads the other's battalions.
    assert "L1" not in axis_note.body
    assert "A1" not in allied_note.body
    # Recorded for the umpires, one event per side told; e-mails wait for the commit.
    events = campaign.events.filter(verb=EventVerb.NOTIFICATIONS_SENT)
    assert [e.visibility for e in events] == ["umpire", "umpire"]
    assert len(sent) == 2  # the mail task, sent for each side's notification once the battle commits
    assert mail.outbox == []


def test_a_sides_notification_never_reaches_the_other_side_nor_an_observer():
    campaign = campaign_with_sides()
    who = members(campaign)
    axis = campaign.sides.get(name="Axis")

    for intruder in ("allied", "observer"):
        with pytest.raises(DomainError) as refused:
            notification_send(
                campaign,
                [who["axis"], who[intruder]],
                NotificationKind.ORDERS_SENT_BACK,
                "Orders sent back",
                "Axis orders: withdraw A1",
                f"/campaigns/{campaign.slug}",
                ACTOR,
                side_id=axis.pk,
            )
        assert refused.value.field == "recipients"
    assert not models.Notification.objects.exists()  # nothing half-written

    sent = notification_send(
        campaign,
        [who["axis"], who["umpire"]],  # the umpire sees every side in full
        NotificationKind.ORDERS_SENT_BACK,
        "Orders sent back",
        "Axis orders: withdraw A1",
        f"/campaigns/{campaign.slug}",
        ACTOR,
        side_id=axis.pk,
    )
    assert {n.recipient_id for n in sent} == {who["axis"].user_id, who["umpire"].user_id}
    # The umpire has no address: the inbox only.
    assert {n.recipient_id: n.email for n in sent}[who["umpire"].user_id] == NotificationEmail.NO_ADDRESS


def test_bad_input_is_refused_naming_the_field():
    campaign = campaign_with_sides()
    who = members(campaign)
    other = campaign_with_sides()
    cases = [
        ({"title": " "}, "title"),
        ({"link": "https://elsewhere.example/"}, "link"),
        ({"key": "k" * 101}, "key"),
        ({"recipients": [other.memberships.get()]}, "recipients"),
    ]
    for change, field in cases:
        arguments = {
            "campaign": campaign,
            "recipients": [who["axis"]],
            "kind": NotificationKind.ORDERS_DUE,
            "title": "Orders due",
            "body": "",
            "link": "/",
            "actor": ACTOR,
            **change,
        }
        with pytest.raises(DomainError) as refused:
            notification_send(**arguments)
        assert refused.value.field == field
    with pytest.raises(ValueError, match="orders_lost"):
        notification_send(campaign, [who["axis"]], "orders_lost", "Orders", "", "/", ACTOR)
    assert not models.Notification.objects.exists()


def test_a_sweep_sending_the_same_reminder_twice_tells_each_member_once():
    campaign = campaign_with_sides()
    who = members(campaign)

    def remind(recipients: list[models.Membership]) -> list[models.Notification]:
        return notification_send(
            campaign,
            recipients,
            NotificationKind.ORDERS_DUE,
            "Orders due tomorrow",
            "",
            f"/campaigns/{campaign.slug}",
            ACTOR,
            key="orders:day-2",
        )

    assert len(remind([who["axis"]])) == 1
    assert remind([who["axis"]]) == []  # the second sweep: told already
    assert [n.recipient_id for n in remind([who["axis"], who["allied"]])] == [who["allied"].user_id]
    assert models.Notification.objects.count() == 2
    assert (
        campaign.events.filter(verb=EventVerb.NOTIFICATIONS_SENT).count() == 2
    )  # nothing told, nothing recorded
    # Without a key a send is never deduplicated; another key is another subject.
    other = notification_send(
        campaign,
        [who["axis"]],
        NotificationKind.ORDERS_DUE,
        "Orders due tomorrow",
        "",
        "/",
        ACTOR,
        key="orders:day-3",
    )
    assert len(other) == 1


def test_an_email_is_sent_once_and_a_member_may_turn_emails_off():
    campaign = campaign_with_sides()
    who = members(campaign)
    who["allied"] = membership_notification_emails_set(
        campaign.pk, Actor(user=who["allied"].user), enabled=False
    )

    sent = notification_send(
        campaign,
        [who["axis"], who["allied"]],
        NotificationKind.NIGHT_REPORT_READY,
        "Night report, day 1",
        "Replacements: 2 of 3 returned",
        f"/campaigns/{campaign.slug}/night",
        ACTOR,
    )
    states = {n.recipient_id: n.email for n in sent}
    assert states[who["allied"].user_id] == NotificationEmail.OFF  # still in the inbox
    axis_note = next(n for n in sent if n.recipient_id == who["axis"].user_id)

    for _ in range(2):  # the task delivered twice
        notification_mail(axis_note.pk)
        notification_mail(next(n.pk for n in sent if n.recipient_id == who["allied"].user_id))

    assert [m.to for m in mail.outbox] == [["axis@example.org"]]
    message = mail.outbox[0]
    assert message.subject == f"{campaign.name}: Night report, day 1"
    assert message.body.startswith("Replacements: 2 of 3 returned\n\nIn the web app: http://localhost:8000/")
    axis_note.refresh_from_db()
    assert axis_note.email == NotificationEmail.SENT
    assert axis_note.emailed_at is not None
    event = campaign.events.get(verb=EventVerb.NOTIFICATION_EMAIL_SET)
    assert (event.before, event.after) == ({"notification_emails": True}, {"notification_emails": False})


def test_the_sweeper_sends_again_an_email_whose_task_was_lost_once_a_lease(settings):
    campaign = campaign_with_sides()
    who = members(campaign)
    [note] = notification_send(
        campaign, [who["axis"]], NotificationKind.ORDERS_DUE, "Orders due", "", "/", ACTOR
    )
    lease = datetime.timedelta(seconds=settings.WORK_LEASE_SECONDS + 1)
    now = timezone.now()

    assert notification_mails_resend(now) == []  # not a lease old yet
    assert notification_mails_resend(now + lease) == [note.pk]
    assert notification_mails_resend(now + lease) == []  # leased by that sweep
    assert notification_mails_resend(now + 2 * lease + lease) == [note.pk]
    notification_mail(note.pk)
    assert notification_mails_resend(now + 10 * lease) == []  # sent: done
    assert "notification_mails" in work_sweep(now)


def test_an_email_the_mail_server_refuses_is_tried_again_with_backoff_then_given_up(settings):
    """A real refusal: the SMTP backend pointed at a loopback port nobody listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", closed_port, 2
    campaign = campaign_with_sides()
    who = members(campaign)
    [note] = notification_send(
        campaign, [who["axis"]], NotificationKind.ORDERS_DUE, "Orders due", "", "/", ACTOR
    )
    for attempt in range(1, settings.WORK_MAX_ATTEMPTS + 1):
        note = notification_mail(note.pk)
        assert note.email_attempts == attempt
        assert note.email_error  # the server's answer, kept for the umpire
        # Not sent again before its backoff is over (a lease late: its task was lost).
        due = note.email_tried_at + datetime.timedelta(seconds=retry_delay(attempt))
        assert notification_mails_resend(due) == []
        if attempt < settings.WORK_MAX_ATTEMPTS:
            assert note.email == NotificationEmail.PENDING
            late = due + datetime.timedelta(seconds=settings.WORK_LEASE_SECONDS + 1)
            assert notification_mails_resend(late) == [note.pk]
    assert note.email == NotificationEmail.FAILED
    assert note.get_email_display() == "Not e-mailed: the mail server refused it every time"
    assert notification_mail(note.pk).email_attempts == settings.WORK_MAX_ATTEMPTS  # given up: no more
    assert not mail.outbox


def test_reading_marks_only_the_callers_own():
    campaign = campaign_with_sides()
    who = members(campaign)
    sent = notification_send(
        campaign, [who["axis"], who["allied"]], NotificationKind.ORDERS_DUE, "Orders due", "", "/", ACTOR
    )
    axis_note = next(n for n in sent if n.recipient_id == who["axis"].user_id)
    allied = Actor(user=who["allied"].user)

    with pytest.raises(NotFoundError):
        notification_read(allied, str(axis_note.public_id))
    read = notification_read(Actor(user=who["axis"].user), str(axis_note.public_id))
    first_read = read.read_at
    assert first_read is not None
    assert notification_read(Actor(user=who["axis"].user), str(axis_note.public_id)).read_at == first_read

    assert notifications_read_all(allied, campaign_with_sides().pk) == 0  # another campaign's: none
    assert notifications_read_all(allied) == 1
    assert notifications_read_all(allied) == 0


def test_a_night_reports_notifications_reach_each_member_their_sides_report_once(
    django_capture_on_commit_callbacks,
):
    from campaign.services.night import night_phase_start
    from campaign.services.night_report import night_reports_notify
    from campaign.services.operations import operation_run

    campaign = campaign_with_sides()
    who = members(campaign)
    day_dawn(campaign.pk, ACTOR)
    with django_capture_on_commit_callbacks(execute=False):
        operation = night_phase_start(campaign.pk, ACTOR)
    with django_capture_on_commit_callbacks(execute=False) as finished:
        operation_run(operation.pk)
    assert len(finished) >= 1  # the notifying task, once the night commits
    assert not models.Notification.objects.exists()  # the night's own commits tell nobody

    with django_capture_on_commit_callbacks(execute=False), CaptureQueriesContext(connection) as queries:
        sent = night_reports_notify(operation.pk)
    assert night_reports_notify(operation.pk) == []  # the task delivered twice tells nobody again

    by_member = {name: inbox(m) for name, m in who.items()}
    assert by_member["observer"] == []
    for side, other in (("axis", "Allied"), ("allied", "Axis")):
        [note] = by_member[side]
        assert note.kind == NotificationKind.NIGHT_REPORT_READY
        assert note.link == f"/campaigns/{campaign.slug}/night"
        assert note.body.startswith(f"{side.capitalize()} — night of day 1")
        assert other not in note.body
    [umpire_note] = by_member["umpire"]
    assert "Axis — night of day 1" in umpire_note.body
    assert "Allied — night of day 1" in umpire_note.body
    assert len(sent) == 3
    # Issue 29: one line on the umpires' timeline for the night, not one per group of readers.
    [event] = campaign.events.filter(verb=EventVerb.NOTIFICATIONS_SENT)
    assert event.message == "Night report of day 1 ready: 3 members told"
    # A send per group of members reading the same reports, whatever the number of members.
    # The operation, its reports and the members; then per group two savepoints and three
    # statements; then the night's one event.
    assert len(queries) == 2 + 3 + 3 * 5 + 1, [q["sql"] for q in queries]


@pytest.fixture(scope="module")
@needs("worker")
def mail_worker(django_db_setup, redis_client, tmp_path_factory) -> Iterator[tuple[WorkerProcess, Path]]:
    """A worker writing its e-mails to files, so the test reads what it sent."""
    directory = tmp_path_factory.mktemp("mail")
    worker = WorkerProcess(
        worker_database_url(),
        {
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "EMAIL_FILE_PATH": str(directory),
        },
    )
    try:
        worker.wait_ready()
        yield worker, directory
    finally:
        worker.stop()


def subjects(directory: Path) -> list[str]:
    return [
        line.removeprefix("Subject: ")
        for path in sorted(directory.iterdir())
        for line in path.read_text().splitlines()
        if line.startswith("Subject: ")
    ]


@pytest.mark.django_db(transaction=True)
def test_a_worker_emails_a_notification_once_however_often_its_task_comes(mail_worker):
    _, directory = mail_worker
    campaign = campaign_with_sides()
    who = members(campaign)
    [note] = notification_send(
        campaign, [who["axis"]], NotificationKind.ORDERS_DUE, "Orders due", "", "/", ACTOR
    )  # committed at once (no transaction here): its task is on its way

    def emailed() -> bool:
        note.refresh_from_db()
        return bool(note.email == NotificationEmail.SENT)

    wait_for(emailed, timeout=60, what="the worker to e-mail the notification")
    assert tasks_send(NOTIFICATION_MAIL_TASK, [note.pk, note.pk]) == [
        note.pk,
        note.pk,
    ]  # a lost task's resends
    [_other] = notification_send(
        campaign, [who["allied"]], NotificationKind.ORDERS_DUE, "Orders due soon", "", "/", ACTOR
    )
    wait_for(lambda: len(subjects(directory)) >= 2, timeout=60, what="the second e-mail")
    # The queue is worked in order: the resends came before the second e-mail, and sent nothing.
    # (Compared as a multiset: the file backend names files by the second and a random id, so two
    # e-mails of one second list in either order.)
    assert Counter(subjects(directory)) == Counter(
        [f"{campaign.name}: Orders due", f"{campaign.name}: Orders due soon"]
    )


def test_a_reminder_source_swept_twice_tells_each_member_once():
    campaign = campaign_with_sides()
    who = members(campaign)

    def orders_due(now: datetime.datetime) -> int:
        return len(
            notification_send(
                campaign,
                [who["axis"], who["allied"]],
                NotificationKind.ORDERS_DUE,
                "Orders due before the club night",
                "",
                f"/campaigns/{campaign.slug}",
                ACTOR,
                key=f"orders:{now.date().isoformat()}",
            )
        )

    reminder_register("test-orders-due", orders_due)
    try:
        now = timezone.now()
        assert reminders_run(now)["test-orders-due"] == 2
        assert reminders_run(now)["test-orders-due"] == 0  # beat ran late, or twice
        assert models.Notification.objects.filter(kind=NotificationKind.ORDERS_DUE).count() == 2
    finally:
        REMINDERS.pop("test-orders-due")
