"""Members' notifications: each member's inbox in the web app, and its e-mails.

``notification_send`` is the one way in: the caller (a battle created, a night finished, a
sweep reminding of orders due) says what to tell which members; each recipient gets a row in
their inbox, and an e-mail unless they turned e-mails off or have no address. A notification
about a side's affairs names that side, and is refused for any recipient who does not see the
side in full (``campaign.access.notification_refused``): a side's news never reaches the other.

A subject key makes a send idempotent: a recipient already told of (kind, key) in the campaign
is not told again (a unique constraint; sends of the same key take turns under an advisory
lock), so a periodic sweep may run twice, or a task be delivered twice, and notify once.
Reminders (orders due before a deadline) are such sweeps: a source registers with
``reminder_register`` and beat calls every source every ``NOTIFICATION_REMINDER_INTERVAL``.

E-mails are sent by a task per notification (``NOTIFICATION_MAIL_TASK``, on the mail queue)
once the send commits. The notification row is the outbox and its ``email`` state the guard:
the task sends under the row's lock and marks it sent in the same transaction, so a second run
of the task finds it sent. A worker that dies between the SMTP hand-over and the commit sends
again on redelivery (no mail server takes part in our transaction). A task lost on the way
(the broker down at the commit), or an e-mail the mail server refused, is sent again by the
sweeper a lease later (``background``: e-mails take a lease, but count no attempts and so never
give up: a member's news waits for the mail server).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from datetime import datetime
from smtplib import SMTPException

from django.core.mail import send_mail
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from campaign import models
from campaign.access import notification_refused
from campaign.choices import EventVerb, NotificationEmail, NotificationKind
from campaign.links import web_app_url
from campaign.services.audit import Actor, event_record
from campaign.services.background import gave_up, lease_cutoff, next_attempt_due, rows_resend
from campaign.services.broker import tasks_send_on_commit
from campaign.services.errors import DomainError, NotFoundError
from rules_engine.vocab import counted

# Sent by name: the tasks module imports the services, never the reverse.
NOTIFICATION_MAIL_TASK = "campaign.tasks.notification_mail_task"
TITLE_MAX, LINK_MAX, KEY_MAX = (
    models.NOTIFICATION_TITLE_MAX,
    models.NOTIFICATION_LINK_MAX,
    models.NOTIFICATION_KEY_MAX,
)


def _email_state(membership: models.Membership) -> NotificationEmail:
    if not membership.notification_emails:
        return NotificationEmail.OFF
    return NotificationEmail.PENDING if membership.user.email else NotificationEmail.NO_ADDRESS


def _subject_lock(campaign: models.Campaign, kind: NotificationKind, key: str) -> None:
    """Sends of one subject take turns, so the second finds what the first wrote (an advisory
    lock held until the transaction ends: no row exists yet to lock)."""
    digest = hashlib.sha256(f"notification:{campaign.pk}:{kind}:{key}".encode()).digest()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest[:8], "big", signed=True)])


@transaction.atomic
def notification_send(
    campaign: models.Campaign,
    recipients: Iterable[models.Membership],
    kind: NotificationKind | str,
    title: str,
    body: str,
    link: str,
    actor: Actor,
    *,
    side_id: int | None = None,
    key: str = "",
    recorded: bool = True,
) -> list[models.Notification]:
    """Tell ``recipients`` (memberships of ``campaign``, their users loaded) of something: a
    row in each one's inbox, e-mailed on commit where they take e-mails. ``link`` is the web
    app's page, from the site's root (``/campaigns/<slug>/battles/3``). ``side_id``: the side
    whose affairs it tells, refused for any recipient who does not see it in full. ``key``: the
    subject (``battle:3``); a recipient already told of this kind and key is skipped. The
    notifications written (none: nobody new to tell)."""
    kind = NotificationKind(kind)
    if not title.strip() or len(title) > TITLE_MAX:
        raise DomainError(f"a notification needs a title of 1 to {TITLE_MAX} characters", field="title")
    if not link.startswith("/") or link.startswith("//") or len(link) > LINK_MAX:
        raise DomainError(
            "a notification's link is a page of the web app, from the site's root", field="link"
        )
    if len(key) > KEY_MAX:
        raise DomainError(f"a notification's key is at most {KEY_MAX} characters", field="key")
    members: dict[int, models.Membership] = {}
    for membership in recipients:
        if membership.campaign_id != campaign.pk:
            raise DomainError(f"{membership.user} is not in {campaign.name}", field="recipients")
        refused = notification_refused(campaign, membership, side_id)
        if refused is not None:
            raise DomainError(refused, field="recipients")
        members.setdefault(membership.user_id, membership)
    if key and members:
        _subject_lock(campaign, kind, key)
        told = models.Notification.objects.filter(
            campaign=campaign, kind=kind, dedupe_key=key, recipient_id__in=list(members)
        ).values_list("recipient_id", flat=True)
        for user_id in told:
            del members[user_id]
    if not members:
        return []
    notifications = models.Notification.objects.bulk_create(
        models.Notification(
            recipient=membership.user,  # loaded: the event names them
            campaign=campaign,
            kind=kind,
            title=title,
            body=body,
            link=link,
            dedupe_key=key,
            email=_email_state(membership),
        )
        for membership in members.values()
    )
    if recorded:
        notifications_recorded(
            campaign,
            notifications,
            f"{kind.label}: {title}, {counted(len(notifications), 'member')} told",
            actor,
        )
    tasks_send_on_commit(
        NOTIFICATION_MAIL_TASK, [n.pk for n in notifications if n.email == NotificationEmail.PENDING]
    )
    return notifications


def notifications_recorded(
    campaign: models.Campaign, notifications: list[models.Notification], text: str, actor: Actor
) -> None:
    """One event for the umpires of one subject told to ``notifications``' recipients (the caller
    that sends a subject in several groups records it once, with every member it told)."""
    first = notifications[0]
    event_record(
        campaign,
        EventVerb.NOTIFICATIONS_SENT,
        first,
        text,
        actor,
        # Who was told by name: user numbers and the de-duplication key (a battle's number) would
        # count other campaigns' rows (issue 28, point 7).
        after={"kind": first.kind, "recipients": sorted(n.recipient.get_username() for n in notifications)},
    )


def _mail_text(notification: models.Notification) -> str:
    url = web_app_url(notification.link)
    return (
        f"{notification.body}\n\nIn the web app: {url}\n" if notification.body else f"In the web app: {url}\n"
    )


@transaction.atomic
def notification_mail(notification_id: int) -> models.Notification | None:
    """One attempt at e-mailing a notification unless it was (its state is the guard, read under
    its row lock). A mail server's refusal is counted with its answer: the row stays pending for
    the next attempt (``retry_delay`` later), and is given up as failed after the last."""
    notification = (
        models.Notification.objects.select_for_update(of=("self",))
        .select_related("campaign", "recipient")
        .filter(pk=notification_id)
        .first()
    )
    if notification is None or notification.email != NotificationEmail.PENDING:
        return notification
    address = notification.recipient.email
    if not address:  # the address was removed since
        notification.email = NotificationEmail.NO_ADDRESS
        notification.save(update_fields=["email"])
        return notification
    notification.email_attempts += 1
    notification.email_tried_at = timezone.now()
    try:
        send_mail(
            f"{notification.campaign.name}: {notification.title}", _mail_text(notification), None, [address]
        )
    except (SMTPException, OSError) as refused:  # OSError: no connection to the mail server
        notification.email_error = (str(refused) or type(refused).__name__)[:500]
        if gave_up(notification.email_attempts):
            notification.email = NotificationEmail.FAILED
    else:
        notification.email, notification.emailed_at = NotificationEmail.SENT, timezone.now()
    notification.save(
        update_fields=["email", "emailed_at", "email_attempts", "email_tried_at", "email_error"]
    )
    return notification


def notification_mails_resend(now: datetime) -> list[int]:
    """The sweeper: send again each pending e-mail whose next attempt is overdue by more than a
    lease (its task lost), taking a new lease on it so the next sweep leaves it alone; rows being
    sent (locked) are skipped."""
    pending = models.Notification.objects.filter(email=NotificationEmail.PENDING).annotate(
        due=next_attempt_due("email_attempts", "email_tried_at", "created_at")
    )
    return rows_resend(
        pending, Q(due__lt=lease_cutoff(now)), NOTIFICATION_MAIL_TASK, renew={"email_tried_at": now}
    )


@transaction.atomic
def notification_read(actor: Actor, public_id: str) -> models.Notification:
    """Mark one of the caller's notifications read (again: unchanged). The inbox's state is the
    member's own, not the campaign's: it is its own record (``read_at``), no timeline event."""
    notification = (
        models.Notification.objects.select_for_update()
        .filter(public_id=public_id, recipient_id=actor.user_id)
        .first()
    )
    if notification is None:
        raise NotFoundError("you have no such notification", field="notification")
    if notification.read_at is None:
        notification.read_at = timezone.now()
        notification.save(update_fields=["read_at"])
    return notification


@transaction.atomic
def notifications_read_all(actor: Actor, campaign_id: int | None = None) -> int:
    """Mark every unread notification of the caller read (of one campaign, if given); how many."""
    unread = models.Notification.objects.filter(recipient_id=actor.user_id, read_at__isnull=True)
    if campaign_id is not None:
        unread = unread.filter(campaign_id=campaign_id)
    return unread.update(read_at=timezone.now())


def notifications_done(
    campaign: models.Campaign, kind: NotificationKind, key: str, recipients: Iterable[int] | None = None
) -> int:
    """Inside the caller's write: what ``kind`` and ``key`` told (``recipients``: those user ids
    only) is done (a draft asked for is filed, an order to decide decided), so it is news no
    more: marked read where unread. How many. Like a read, the member's own record: no event."""
    unread = models.Notification.objects.filter(
        campaign=campaign, kind=kind, dedupe_key=key, read_at__isnull=True
    )
    if recipients is not None:
        unread = unread.filter(recipient_id__in=list(recipients))
    return unread.update(read_at=timezone.now())


# Reminders ---------------------------------------------------------------------------------

# A reminder source: given the moment, it sends what is due through notification_send with a
# subject key (so a second sweep tells nobody again) and answers how many it told.
Reminder = Callable[[datetime], int]
REMINDERS: dict[str, Reminder] = {}


def reminder_register(name: str, reminder: Reminder) -> None:
    """Have the reminder sweep call ``reminder`` (e.g. orders due before a side's deadline)."""
    REMINDERS[name] = reminder


def reminders_run(now: datetime) -> dict[str, int]:
    """Beat's reminder sweep: every registered source; how many members each told. Each send
    commits on its own; a source that raises ends this sweep, and the next one tries again,
    telling nobody twice."""
    return {name: reminder(now) for name, reminder in sorted(REMINDERS.items())}
