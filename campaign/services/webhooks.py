"""Webhooks: umpires subscribe a URL to some of a campaign's events; each such
event becomes one delivery per subscription, sent by a worker.

Fan-out happens in the transaction that records the event (one INSERT … SELECT),
and the delivery tasks are enqueued when it commits, so a rolled-back event is
never announced. A delivery is one signed POST per attempt, made under a row
lock on the delivery: a second run of its task waits, then finds it delivered.
A receiver may still see an attempt twice when a worker dies between its POST
and the commit, so receivers deduplicate by ``X-Campaign-Delivery``.

The delivery row is the outbox, with the lifecycle of all background work
(``background``: attempts, one backoff, giving up): when its task is lost (the broker was
down as the event committed, or the worker holding a retry died),
``webhook_deliveries_resend`` (the sweeper, on beat) sends it again once its next attempt
is a lease overdue; a run that finds the next attempt not yet due leaves it to the run that
made the last one.

Payloads go to third parties: they carry what a public observer sees (the
event's kind, day, object and a message without numbers) and ids to fetch the
rest with the receiver's own key, never strengths, rolls or pools.

A webhook URL is a request the service makes on a third party's behalf, so it
may never reach the service's own network (docs/security.md, Hostile input): a
subscription refuses credentials in the URL, internal names and every
non-public address literal; a delivery resolves the name again, refuses it when
any address is not public, and connects to the address it checked (a second
lookup could answer otherwise); redirects are failed attempts, not followed.
``WEBHOOK_ALLOW_LOOPBACK`` lets loopback through, for local development and tests.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import http.client
import ipaddress
import json
import re
import socket
import ssl
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from psycopg.types.json import Jsonb

from campaign import models
from campaign.access import (
    CampaignAccess,
    announced,
    event_readable,
    webhook_object_readable,
    webhook_reader,
)
from campaign.choices import WEBHOOK_EVENTS, DeliveryStatus, EventVerb, MemberRole, WebhookKind
from campaign.services.background import (
    attempt_due,
    gave_up,
    lease_cutoff,
    next_attempt_at,
    next_attempt_due,
    rows_resend,
)
from campaign.services.broker import tasks_send_on_commit
from campaign.services.discord import discord_message
from campaign.services.night_words import night_report_lines

# The task that makes one attempt at a delivery, sent by name: the tasks module imports the services.
WEBHOOK_DELIVER_TASK = "campaign.tasks.webhook_deliver_task"
URL_SCHEMES = ("http", "https")
USER_AGENT = "campaign-service-webhooks/1"
# What a receiver's answer may say about it in the delivery log.
ERROR_MAX_LENGTH = 500
TOO_MANY_REQUESTS = 429
# How much of a 429's body is read for its retry_after, and the longest wait honoured.
RESPONSE_READ_MAX = 4096
RETRY_AFTER_MAX_SECONDS = 3600.0

# The message a third party reads: nothing a public observer would not see.
PUBLIC_MESSAGES: Mapping[str, str] = {
    EventVerb.DAY_DAWNED: "Day {day} dawns",
    EventVerb.NIGHT_PHASE_DONE: "Night phase of day {day} done",
    EventVerb.ARRIVALS_RESOLVED: "Arrival rolls resolved on day {day}",
    EventVerb.BATTLE_CREATED: "Battle created: {repr}",
    EventVerb.BATTLE_REPORTED: "Battle reported: {repr}",
    EventVerb.SECTOR_CONTROL_CHANGED: "Control of {repr} changed",
    EventVerb.CAMPAIGN_FINISHED: "{repr} finished on day {day}",
    # Sealed: neither the side nor what is ordered, only that an order waits for the umpire.
    EventVerb.ORDERS_SUBMITTED: "An order was submitted on day {day}",
    EventVerb.ORDERS_DUE: "Orders for day {orders_day} close on {closes}",
}
# API detail routes of the objects webhook events are about, by model name.
OBJECT_ROUTES: Mapping[str, str] = {
    models.Battle.__name__: "api:battle-detail",
    models.Operation.__name__: "api:operation-detail",
    models.Sector.__name__: "api:sector-detail",
    # Read with the receiver's own key: only its side's and the umpires' keys find it.
    models.SideOrder.__name__: "api:side-order-detail",
}


# Subscriptions --------------------------------------------------------------


IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
# Names that only ever mean a machine of the service's own network (cloud metadata,
# mDNS, home routers); a name without a dot is resolved in the service's own domain.
INTERNAL_NAME_SUFFIXES = (".localhost", ".internal", ".local", ".localdomain", ".home.arpa", ".lan")
LOOPBACK_NAME = "localhost"
HOST_NAME = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*")
# IPv6 prefixes that carry an IPv4 address to connect to (NAT64); mapped, 6to4 and Teredo
# addresses are read by the ipaddress module.
NAT64 = ipaddress.ip_network("64:ff9b::/96")


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    if address in NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def address_refusal(address: IPAddress) -> str | None:
    """Why ``address`` may not receive webhooks (what kind of address it is), or None."""
    if isinstance(address, ipaddress.IPv6Address) and (embedded := _embedded_ipv4(address)):
        return address_refusal(embedded)
    if address.is_loopback:
        return None if settings.WEBHOOK_ALLOW_LOOPBACK else "a loopback address"
    for kind, test in (
        ("an unspecified address", address.is_unspecified),
        ("a link-local address", address.is_link_local),
        ("a multicast address", address.is_multicast),
        ("a private address", address.is_private),
        ("a reserved address", address.is_reserved),
        ("not a public address", not address.is_global),
    ):
        if test:
            return kind
    return None


def _address_literal(host: str) -> IPAddress | None:
    """The address ``host`` names without a lookup, in every form a resolver reads as one:
    ``::1``, ``::ffff:169.254.169.254``, and IPv4's ``0``, ``2130706433``, ``0x7f000001``, ``127.1``."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None


def _resolver_form(host: str) -> str | None:
    """``host`` as the resolver reads it, or None if it cannot: the ``idna`` codec (which the
    worker's ``socket.getaddrinfo`` applies too) maps full-width and circled digits and the
    ideographic and full-width dots to ASCII, and a trailing dot only roots the name."""
    try:
        name = host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return None
    return name.removesuffix(".")


def _host_refusal(host: str) -> str | None:
    """Why the URL's host may not receive webhooks, judged without a lookup, or None."""
    name = _resolver_form(host)
    if not name:
        return f"{host!r} is not a host name"
    address = _address_literal(name)
    if address is not None:
        refusal = address_refusal(address)
        return f"{host} is {refusal} ({address})" if refusal else None
    if not HOST_NAME.fullmatch(name):
        return f"{host!r} is not a host name"
    if name == LOOPBACK_NAME and settings.WEBHOOK_ALLOW_LOOPBACK:
        return None
    if "." not in name or name == LOOPBACK_NAME or name.endswith(INTERNAL_NAME_SUFFIXES):
        return f"{host} names a machine of a local network"
    return None


def _url_form_refusal(url: str) -> str | None:
    """Why ``url`` is no webhook URL whatever its host is, or None."""
    parts = urlsplit(url)
    try:
        host, port = parts.hostname, parts.port
    except ValueError:  # a port that is no number or out of range
        return f"{url!r} has an invalid port"
    if parts.scheme not in URL_SCHEMES or not host:
        return f"{url!r} is not an http:// or https:// URL with a host"
    if parts.username is not None or parts.password is not None:
        return "the URL may not carry a user name or password; authenticate with the signature"
    if port == 0:
        return f"{url!r} has an invalid port"
    return None


def url_refusal(url: str) -> str | None:
    """Why ``url`` may not be subscribed, or None; judged without a lookup, so a web
    request never waits on a name server (each delivery resolves the name)."""
    if refusal := _url_form_refusal(url):
        return refusal
    refusal = _host_refusal(str(urlsplit(url).hostname))
    return f"{refusal}: webhooks only go to public internet addresses" if refusal else None


# Fan-out --------------------------------------------------------------------


def _links(event: models.Event, slug: str, reader: CampaignAccess, object_readable: bool) -> dict[str, str]:
    """API paths (positional arguments: the campaign's slug first) to fetch more with: only
    what the subscription's audience may read (each answers 200 to its key)."""
    links = {"campaign": reverse("api:campaign-detail", args=[slug])}
    if event_readable(reader, event):
        links["event"] = reverse("api:event-detail", args=[slug, event.public_id])
    if event.day_number:
        links["day"] = reverse("api:day-detail", args=[slug, event.day_number])
    if event.verb == EventVerb.NIGHT_PHASE_DONE and event.day_number:  # the day's seed is revealed
        links["dice"] = reverse("api:day-dice", args=[slug, event.day_number])
        report = _night_report(event, reader)
        if report is not None:  # a side's own report of the night
            links["report"] = reverse("api:night-report-detail", args=[slug, report.public_id])
    route = OBJECT_ROUTES.get(event.object_type)
    if route and event.object_id is not None and object_readable:
        links["object"] = reverse(route, args=[slug, _object_named(event)])
    return links


def _night_report(event: models.Event, reader: CampaignAccess) -> models.NightReport | None:
    """A side audience's report of the night ``event`` finished (umpires read every side's)."""
    side_id = reader.player_side_id
    if side_id is None or event.object_type != models.Operation.__name__ or event.object_id is None:
        return None
    return models.NightReport.objects.filter(operation_id=event.object_id, side_id=side_id).first()


def _object_named(event: models.Event) -> int | str | None:
    """The event's object's id as the API names it: its public id when it has one."""
    return str(event.object_public_id) if event.object_public_id is not None else event.object_id


def _public_message(event: models.Event) -> str:
    """The event's message for third parties: its words may name what the event's ``after``
    records (an orders deadline), never more than the template asks for."""
    words = {**(event.after or {}), "day": event.day_number, "repr": event.object_repr}
    return PUBLIC_MESSAGES[event.verb].format_map(words)


def webhook_payload(
    event: models.Event, slug: str, reader: CampaignAccess | None = None
) -> dict[str, Any] | None:
    """What every subscriber to ``event`` of one audience (``reader``, the umpires by default)
    receives (the body of each attempt); None when that audience may read neither the event
    nor what it is about (the other side's battle, its sealed orders)."""
    reader = reader or CampaignAccess(event.campaign, MemberRole.UMPIRE, None, in_person=False)
    readable = event_readable(reader, event)
    object_readable = webhook_object_readable(reader, event)
    if not (readable or object_readable):
        return None
    return {
        # As the API names it (rules notes C-14); null when the audience may not read the event
        # itself (a battle's report, whose entry is the umpires'): its object link is the way in.
        "id": str(event.public_id) if readable else None,
        "event": event.verb,
        "campaign": slug,
        "day": event.day_number,
        "object": {"type": event.object_type, "id": _object_named(event), "repr": event.object_repr},
        "message": _public_message(event),
        "created_at": event.created_at.isoformat(),
        "links": _links(event, slug, reader, object_readable),
    }


def _discord_details(event: models.Event, reader: CampaignAccess) -> list[tuple[str, str]]:
    """A Discord embed's fields: a reported battle's result, a side's own night-report figures."""
    if event.verb == EventVerb.BATTLE_REPORTED and event.object_type == models.Battle.__name__:
        return _battle_result(event, reader)
    report = _night_report(event, reader) if event.verb == EventVerb.NIGHT_PHASE_DONE else None
    if report is None:
        return []
    lines = night_report_lines(report)
    return [(name, value) for name, _, value in (line.partition(": ") for line in lines[1:])]


def _battle_result(event: models.Event, reader: CampaignAccess) -> list[tuple[str, str]]:
    """A reported battle's result in words (who won) and, for each side the audience reads in
    full, its stands lost: the enemy's losses stay behind its fog of war."""
    if event.object_id is None:
        return []
    battle = models.Battle.objects.select_related("winner").filter(pk=event.object_id).first()
    if battle is None or not battle.report:
        return []
    result = f"{battle.winner.name} won" if battle.winner else "Nobody won"
    details = [("Result", result)]
    lines = battle.report.get("battalions", [])
    sides = dict(
        models.Battalion.objects.filter(
            campaign_id=event.campaign_id, code__in=[line["code"] for line in lines]
        ).values_list("code", "side_id")
    )
    for side in models.Side.objects.filter(pk__in=set(sides.values())).order_by("pk"):
        if not reader.sees_in_full(side.pk):
            continue
        own = [line for line in lines if sides.get(line["code"]) == side.pk]
        destroyed = sum(len(line.get("destroyed", [])) for line in own)
        suppressed = sum(len(line.get("suppressed", [])) for line in own)
        details.append((f"{side.name}'s losses", f"{destroyed} stands destroyed, {suppressed} suppressed"))
    return details


def delivery_sending(delivery: models.WebhookDelivery) -> bool:
    """Whether a worker is still to send ``delivery`` (or send it again after a failed attempt)."""
    return delivery.status == DeliveryStatus.PENDING


def _subscribed(event: models.Event) -> list[models.WebhookSubscription]:
    """The campaign's active subscriptions to ``event``'s verb, but none that a side's key made
    once that key is revoked or expired. Written in SQL: every night records an event, and the
    ORM took longer to compile this lookup than the database to answer it (issue 34)."""
    quote = connection.ops.quote_name
    subscriptions = quote(models.WebhookSubscription._meta.db_table)
    keys = quote(models.CampaignAPIKey._meta.db_table)
    return list(
        models.WebhookSubscription.objects.raw(
            f"SELECT subscription.* FROM {subscriptions} subscription "
            f"LEFT JOIN {keys} api_key ON api_key.id = subscription.api_key_id "
            "WHERE subscription.campaign_id = %s AND subscription.active AND subscription.events @> %s "
            "AND (subscription.api_key_id IS NULL OR NOT api_key.revoked "
            "AND (api_key.expiry_date IS NULL OR api_key.expiry_date > %s)) "
            "ORDER BY subscription.id",
            [event.campaign_id, Jsonb([event.verb]), timezone.now()],
        )
    )


def webhook_deliveries_create(event: models.Event) -> None:
    """One pending delivery per active subscription to ``event``'s verb whose audience may read
    it (none for other verbs, nor for per-side entries: a battle is announced once), each with
    its audience's payload (computed once per audience); their tasks are enqueued when the
    transaction commits."""
    if event.verb not in WEBHOOK_EVENTS or not announced(event):
        return
    subscriptions = _subscribed(event)
    payloads: dict[tuple[str, int | None, str], dict[str, Any] | None] = {}
    deliveries = []
    for subscription in subscriptions:
        subscription.campaign = event.campaign
        audience = (subscription.audience, subscription.side_id, subscription.kind)
        if audience not in payloads:
            reader = webhook_reader(subscription)
            payload = webhook_payload(event, event.campaign.slug, reader)
            if payload is not None and subscription.kind == WebhookKind.DISCORD:
                payload["discord"] = discord_message(payload, _discord_details(event, reader))
            payloads[audience] = payload
        payload = payloads[audience]
        if payload is not None:
            status = DeliveryStatus.HELD if subscription.hold_for_approval else DeliveryStatus.PENDING
            deliveries.append(
                models.WebhookDelivery(subscription=subscription, event=event, payload=payload, status=status)
            )
    if deliveries:
        created = models.WebhookDelivery.objects.bulk_create(deliveries)
        # Held posts wait for an umpire (webhook_subscriptions.webhook_delivery_publish).
        sent = [delivery.pk for delivery in created if delivery.status == DeliveryStatus.PENDING]
        if sent:
            tasks_send_on_commit(WEBHOOK_DELIVER_TASK, sent)


def webhook_deliveries_resend(now: datetime) -> list[int]:
    """The sweeper: send again each pending delivery whose next attempt is overdue by more than
    a lease (its task was lost); rows being sent (locked) are skipped. Nothing to renew: the
    send runs the attempt due, which moves the next one."""
    pending = models.WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING).annotate(
        due=next_attempt_due("attempts", "last_attempt_at", "created_at", "next_attempt_at")
    )
    return rows_resend(pending, Q(due__lt=lease_cutoff(now)), WEBHOOK_DELIVER_TASK)


# Sending --------------------------------------------------------------------


def webhook_signature(secret: str, timestamp: str, body: bytes) -> str:
    """One signature: hex HMAC-SHA256 of ``"{timestamp}.{body}"`` under the secret."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def previous_secret_signs(subscription: models.WebhookSubscription) -> bool:
    """Whether a renewed secret's old one still signs beside the new (its overlap is not over)."""
    until = subscription.previous_secret_until
    return bool(subscription.previous_secret) and until is not None and timezone.now() < until


def webhook_signatures(subscription: models.WebhookSubscription, timestamp: str, body: bytes) -> str:
    """``X-Campaign-Signature``: the signature under the secret, then, while a renewed secret's
    old one is still valid, under that one too (comma-separated, as Stripe's header lists them)."""
    signatures = [webhook_signature(subscription.secret, timestamp, body)]
    if previous_secret_signs(subscription):
        signatures.append(webhook_signature(subscription.previous_secret, timestamp, body))
    return ", ".join(signatures)


@dataclass(frozen=True)
class Attempt:
    """One POST's outcome: the receiver's HTTP status (None if it never answered) and why it
    failed; ``refused`` when the target may not receive webhooks at all (no retry)."""

    response_status: int | None
    error: str
    refused: bool = False
    # Seconds the receiver asked to wait before the next attempt (a 429's retry_after).
    wait_seconds: float = 0

    @property
    def delivered(self) -> bool:
        return self.response_status is not None and 200 <= self.response_status < 300


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Connects to the address that was checked, whatever a new lookup of the host would say."""

    def __init__(self, host: str, port: int | None, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def _socket(self) -> socket.socket:
        return socket.create_connection((self.address, self.port), self.timeout)

    def connect(self) -> None:
        self.sock = self._socket()


class _PinnedHTTPSConnection(_PinnedHTTPConnection):
    default_port = http.client.HTTPS_PORT
    tls = ssl.create_default_context()

    def connect(self) -> None:
        # The certificate is checked against the URL's host name, not the address.
        self.sock = self.tls.wrap_socket(self._socket(), server_hostname=self.host)


def _resolved(host: str, port: int) -> list[IPAddress]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    # A scoped IPv6 address ("fe80::1%eth0") is read without its scope.
    return list(dict.fromkeys(ipaddress.ip_address(str(info[4][0]).partition("%")[0]) for info in infos))


def _wait_asked(response: http.client.HTTPResponse) -> float:
    """Seconds a 429 asks to wait: Discord's JSON ``retry_after`` or the Retry-After header
    (seconds), whichever is longer; 0 when it says nothing readable."""
    waits = [0.0]
    with contextlib.suppress(ValueError):
        waits.append(float(response.getheader("Retry-After") or 0))
    try:
        body = json.loads(response.read(RESPONSE_READ_MAX) or b"{}")
        waits.append(float(body.get("retry_after") or 0) if isinstance(body, dict) else 0)
    except (ValueError, TypeError, OSError, http.client.HTTPException):
        pass
    return min(max(waits), RETRY_AFTER_MAX_SECONDS)


def _post(subscription: models.WebhookSubscription, event: str, delivery: str, payload: Any) -> Attempt:
    """One signed POST, made only to a public address the URL's host resolves to now (a
    literal address resolves to itself, in any of its forms)."""
    if refusal := _url_form_refusal(subscription.url):  # a subscription older than the rules
        return Attempt(None, refusal[:ERROR_MAX_LENGTH], refused=True)
    parts = urlsplit(subscription.url)
    host = str(parts.hostname)
    connection_class = _PinnedHTTPSConnection if parts.scheme == "https" else _PinnedHTTPConnection
    port = parts.port or connection_class.default_port
    try:
        addresses = _resolved(host, port)
    except (OSError, UnicodeError) as exc:
        return Attempt(None, f"{host} does not resolve: {exc}"[:ERROR_MAX_LENGTH])
    for address in addresses:
        if refusal := address_refusal(address):
            error = f"{host} resolves to {refusal} ({address}): webhooks only go to public internet addresses"
            return Attempt(None, error[:ERROR_MAX_LENGTH], refused=True)
    if subscription.kind == WebhookKind.DISCORD:  # Discord's own message, not the service's JSON
        payload = payload.get("discord") or discord_message(payload)
    body = json.dumps(payload, cls=DjangoJSONEncoder, separators=(",", ":")).encode()
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-Campaign-Event": event,
        "X-Campaign-Delivery": delivery,
        "X-Campaign-Timestamp": timestamp,
        "X-Campaign-Signature": webhook_signatures(subscription, timestamp, body),
    }
    target = parts.path or "/"
    if parts.query:
        target += f"?{parts.query}"
    connection = connection_class(host, parts.port, str(addresses[0]), settings.WEBHOOK_TIMEOUT_SECONDS)
    try:
        connection.request("POST", target, body=body, headers=headers)
        # Only the status is read (and a 429's wait): a redirect (3xx) is a failed attempt, never followed.
        response = connection.getresponse()
        wait = _wait_asked(response) if response.status == TOO_MANY_REQUESTS else 0
    except (OSError, http.client.HTTPException) as exc:  # unreachable, timed out, garbled
        return Attempt(None, f"{type(exc).__name__}: {exc}"[:ERROR_MAX_LENGTH])
    finally:
        connection.close()
    if 200 <= response.status < 300:
        return Attempt(response.status, "")
    error = f"HTTP {response.status} {response.reason}"
    if wait:
        error += f": asked to wait {wait:g} seconds"
    return Attempt(response.status, error[:ERROR_MAX_LENGTH], wait_seconds=wait)


def webhook_deliver(delivery_id: int) -> models.WebhookDelivery | None:
    """One attempt at a pending delivery; None when it no longer exists, or when its next
    attempt is not due yet (a run sent again by the sweeper found the retry had made it).

    Delivered on a 2xx answer; failed once the attempts run out (``background.gave_up``), at
    once when the target may not receive webhooks, or when the subscription was deactivated;
    else still pending.
    """
    with transaction.atomic():
        delivery = (
            models.WebhookDelivery.objects.select_for_update(of=("self",))
            .select_related("subscription")
            .filter(pk=delivery_id)
            .first()
        )
        if delivery is None or not delivery_sending(delivery):
            return delivery
        subscription = delivery.subscription
        now = timezone.now()
        if not attempt_due(delivery.attempts, delivery.last_attempt_at, now, delivery.next_attempt_at):
            return None
        if not subscription.active:
            delivery.status, delivery.error = DeliveryStatus.FAILED, "the subscription was deactivated"
        else:
            attempt = _post(
                subscription, delivery.payload["event"], str(delivery.public_id), delivery.payload
            )
            delivery.attempts += 1
            delivery.last_attempt_at = now
            delivery.response_status, delivery.error = attempt.response_status, attempt.error
            delivery.next_attempt_at = None
            if attempt.delivered:
                delivery.status, delivery.delivered_at = DeliveryStatus.DELIVERED, now
            elif attempt.refused or gave_up(delivery.attempts):
                delivery.status = DeliveryStatus.FAILED
            else:
                delivery.next_attempt_at = next_attempt_at(delivery.attempts, now, attempt.wait_seconds)
        delivery.save()
    return delivery
