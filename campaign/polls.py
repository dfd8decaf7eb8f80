"""Force status polls answered from Redis: the rendered statuses, and each campaign's version.

A status is stored as rendered (its JSON body and ETag, in a Redis hash) under the campaign's
version shown and the viewer's scope (its audience, ``campaign.audiences``): every committed change
bumps the version, so an entry is never stale, and viewers never share one. Lua scripts read an
entry in one round trip, and its body only when the ETag the client sent does not match: a 304
never reads the body.

The version shown is also published here (:func:`version_publish`), so a poll with an API key can
be answered without PostgreSQL: one script reads the key's grant (``api.authentication``), counts
the poll in the key's rate limit (``api.rate_limits``), reads its campaign's version, then the
entry. The version is published as the write that bumps it runs, before its commit: until then a
poll at the new version finds no entry and renders from the database, which stores what it read
under the version it read, never the new one. A write that rolls back leaves a version no entry
is stored under (polls render from the database until the next write reaches it). A publication
never lowers the version (versions only grow), so writers racing each other, or a poll
publishing the version it read, cannot set it back.

A night's start and its last commit render the statuses polled before them inside their own
transaction, as it will show them, publish its version only then, and store the statuses as it
commits (:func:`statuses_rendered`): the first poll after the commit finds its status warm, where
a render after the commit left every poll until then to render the status on the web.

Each process also keeps the bodies it sent lately (:class:`RecentBodies`), by force and ETag (a
hash of the body: an ETag names one body wherever it was rendered), and sends their ETags with
the client's: an entry whose ETag matches one of them is answered with that body, so a warm
poll reads no body from Redis (45 KB for a division of 1,000 stands), only its ETag.

Everything here is a cache: with Redis down, reads miss and writes are dropped (``campaign.cache``).
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from django.core.cache import cache
from django.db import transaction
from django.dispatch import Signal
from django.utils.http import parse_etags
from redis import Redis
from redis.commands.core import Script

from campaign.cache import SharedClientRedisCacheClient

T = TypeVar("T")
logger = logging.getLogger(__name__)

# Every key of polls starts so (tests delete them between databases that reuse ids).
KEY_PREFIX = "polls:"
STATUS_KEY = KEY_PREFIX + "status:{campaign_id}:{force_id}:{version}:{scope}"
VERSION_KEY = KEY_PREFIX + "version:{campaign_id}"
# The statuses stored at a version, as "<force>:<scope>": what a night's commit renders again,
# found without a SCAN of the whole keyspace (sessions and every campaign's entries).
POLLED_KEY = KEY_PREFIX + "polled:{campaign_id}:{version}"
# Unpolled entries go after this long; a version key after it is published again or read back.
TIMEOUT_SECONDS = 3600
# The versions published inside :func:`statuses_rendered`, held until its end (by campaign).
_held_versions: ContextVar[dict[int, int] | None] = ContextVar("held_versions", default=None)
# Sent inside a write's transaction, once it has made what its commit will show, with
# ``campaign_id`` and ``polled`` (the (force, scope) of the statuses polled before it): a receiver
# returns those statuses rendered as the transaction reads them, a list of
# :class:`ForceStatusEntry` (``api.force_statuses``, as ``campaign`` never imports ``api``).
statuses_outdated = Signal()

# The status entry at KEYS[1]: {etag, body}, the body left out when one of the ETags from
# ARGV[first] on matches ("*" matches any): the client's, then those of the bodies this process
# holds of the force; {} when there is none.
_ENTRY = """
local function entry(key, first)
  local etag = redis.call('HGET', key, 'etag')
  if not etag then return {} end
  for i = first, #ARGV do
    if ARGV[i] == etag or ARGV[i] == '*' then return {etag} end
  end
  return {etag, redis.call('HGET', key, 'body')}
end
"""
_STATUS_READ = Script(None, (_ENTRY + "return entry(KEYS[1], 1)").encode())  # type: ignore[arg-type]
# KEYS[1]: a grant (JSON holding the campaign_id and scope it reads with, the key's hash and
# whether it may write); ARGV: the hash of the key presented, the rate-limit counter and its
# lifetime of a key that may not write, then of one that may, the version keys' and the status
# keys' prefixes, the force's id, then the ETags as above. Nothing when the grant is missing or is
# not the presented key's; else the grant and the key's count in its window (counted here, past
# the hash's check: nobody without the whole key spends its budget), then the entry as above
# when the version and the entry are there.
_GRANTED_STATUS_READ = Script(
    None,  # type: ignore[arg-type]
    (
        _ENTRY
        + """
local grant = redis.call('GET', KEYS[1])
if not grant then return {} end
local ok, access = pcall(cjson.decode, grant)
if not ok or type(access) ~= 'table' or access.campaign_id == nil then return {} end
if access.hashed_key ~= ARGV[1] then return {} end
local counter, lifetime = ARGV[2], ARGV[3]
if access.can_write then counter, lifetime = ARGV[4], ARGV[5] end
local count = redis.call('INCR', counter)
if count == 1 then redis.call('EXPIRE', counter, lifetime) end
local version = redis.call('GET', ARGV[6] .. access.campaign_id)
if not version then return {grant, count} end
local key = ARGV[7] .. access.campaign_id .. ':' .. ARGV[8] .. ':' .. version .. ':' .. access.scope
local found = entry(key, 9)
table.insert(found, 1, count)
table.insert(found, 1, grant)
return found
"""
    ).encode(),
)
# KEYS[1] := ARGV[1] unless it holds a greater version already.
_VERSION_RAISE = Script(
    None,  # type: ignore[arg-type]
    b"""
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) end
""",
)


def _client() -> SharedClientRedisCacheClient:
    return cast(SharedClientRedisCacheClient, cache._cache)  # type: ignore[attr-defined]  # Django's client


def redis_call(operation: Callable[[Redis], T], fallback: T, written: Sequence[str] = ()) -> T:
    """``operation`` on the cache's Redis client: ``fallback`` when Redis fails (``campaign.cache``);
    ``written``: the (full) keys it writes."""
    return _client().call(operation, fallback, written)


@dataclass(frozen=True)
class RenderedForceStatus:
    """A force status as sent: the JSON body and its ETag."""

    body: bytes
    etag: str


@dataclass(frozen=True)
class ForceStatusEntry:
    """A status rendered for the cache: of which force, for which scope, at which version."""

    force_id: str
    scope: str
    version: int
    status: RenderedForceStatus


@dataclass(frozen=True)
class CachedForceStatus:
    """A force status as read for a request: its ETag, and its body unless the client has it."""

    etag: str
    body: bytes | None  # None: an ETag the client sent matches


def etags_sent(if_none_match: str) -> list[str]:
    """The ETags of an If-None-Match header as the scripts compare them: weakly (RFC 9110
    § 13.1.2), every tag in the weak form the entries are stored with; "*" kept."""
    return [tag if tag == "*" else "W/" + tag.removeprefix("W/") for tag in parse_etags(if_none_match)]


def _status_key(campaign_id: int, force_id: int | str, version: int, scope: str) -> str:
    return cache.make_key(
        STATUS_KEY.format(campaign_id=campaign_id, force_id=force_id, version=version, scope=scope)
    )


class RecentBodies:
    """The bodies this process sent lately, by force and ETag: at most ``budget`` bytes, the force
    polled least recently going first, and ``per_force`` bodies a force (one an audience: its
    sides', its umpires', the public's). Threads of one process share it (gunicorn's gthread)."""

    def __init__(self, budget: int, per_force: int) -> None:
        self.budget, self.per_force = budget, per_force
        self._forces: OrderedDict[str, dict[str, bytes]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def of(self, force_id: int | str) -> dict[str, bytes]:
        """The force's bodies held, by ETag (a copy: an eviction meanwhile takes none away)."""
        with self._lock:
            held = self._forces.get(str(force_id))
            if held is None:
                return {}
            self._forces.move_to_end(str(force_id))
            return dict(held)

    def keep(self, force_id: int | str, etag: str, body: bytes) -> None:
        if len(body) > self.budget:
            return
        with self._lock:
            held = self._forces.setdefault(str(force_id), {})
            self._forces.move_to_end(str(force_id))
            if etag in held:
                return
            if len(held) >= self.per_force:  # the oldest of the force's (dicts keep their order)
                self._size -= len(held.pop(next(iter(held))))
            held[etag] = body
            self._size += len(body)
            while self._size > self.budget:
                _, evicted = self._forces.popitem(last=False)
                self._size -= sum(len(old) for old in evicted.values())

    def clear(self) -> None:
        with self._lock:
            self._forces.clear()
            self._size = 0


# A process's share: 16 MB holds 350 divisions of 1,000 stands, thousands of a club's size.
recent_bodies = RecentBodies(budget=16 * 1024 * 1024, per_force=4)


def _polled_key(campaign_id: int, version: int) -> str:
    return cache.make_key(POLLED_KEY.format(campaign_id=campaign_id, version=version))


def _entries_store(campaign_id: int, entries: Sequence[ForceStatusEntry]) -> None:
    """Store ``entries`` (each joins its version's polled statuses), in one round trip."""
    keys = [_status_key(campaign_id, e.force_id, e.version, e.scope) for e in entries]
    polled_keys = [_polled_key(campaign_id, e.version) for e in entries]

    def store(client: Redis) -> None:
        with client.pipeline(transaction=True) as pipe:  # never an entry without its timeout
            for entry, key, polled_key in zip(entries, keys, polled_keys, strict=True):
                pipe.hset(key, mapping={"etag": entry.status.etag, "body": entry.status.body})
                pipe.expire(key, TIMEOUT_SECONDS)
                pipe.sadd(polled_key, f"{entry.force_id}:{entry.scope}")
                pipe.expire(polled_key, TIMEOUT_SECONDS)
            pipe.execute()

    redis_call(store, None, [*keys, *polled_keys])


def _read(
    found: list[bytes], force_id: int | str, sent: Collection[str], held: Mapping[str, bytes]
) -> CachedForceStatus:
    """An entry as a script found it (``sent``: the client's ETags; ``held``: the bodies this
    process holds of the force, whose ETags the script was sent too)."""
    etag = found[0].decode()
    if len(found) > 1:
        recent_bodies.keep(force_id, etag, found[1])
        return CachedForceStatus(etag=etag, body=found[1])
    client_has = etag in sent or "*" in sent
    return CachedForceStatus(etag=etag, body=None if client_has else held[etag])


def force_status_cached(
    campaign_id: int,
    version: int,
    force_id: int | str,
    scope: str,
    if_none_match: str,
    render: Callable[[], RenderedForceStatus],
) -> CachedForceStatus:
    """The force's status as ``scope`` sees it at the campaign's ``version`` (the one shown):
    from the cache, else ``render()``ed and cached; without its body when ``if_none_match``
    names its ETag."""
    key = _status_key(campaign_id, force_id, version, scope)
    sent = etags_sent(if_none_match)
    held = recent_bodies.of(force_id)
    found: list[bytes] = redis_call(
        lambda client: _STATUS_READ(keys=[key], args=[*sent, *held], client=client), []
    )
    if found:
        return _read(found, force_id, sent, held)
    rendered = render()
    _entries_store(campaign_id, [ForceStatusEntry(str(force_id), scope, version, rendered)])
    matched = rendered.etag in sent or "*" in sent
    if not matched:  # sent: kept for this process's next polls ("*": a render, nobody's poll)
        recent_bodies.keep(force_id, rendered.etag, rendered.body)
    return CachedForceStatus(etag=rendered.etag, body=None if matched else rendered.body)


@dataclass(frozen=True)
class RateCounter:
    """A rate-limit window's counter (a full cache key) and how long it lives."""

    key: str
    lifetime: int


@dataclass(frozen=True)
class GrantedPoll:
    """What one round trip found for a poll with a key: the key's grant, its count in its rate
    limit's window, and the status when it is cached at the campaign's published version."""

    grant: bytes
    count: int
    status: CachedForceStatus | None


def force_status_granted(
    grant_key: str,
    hashed_key: str,
    counters: tuple[RateCounter, RateCounter],
    force_id: int | str,
    if_none_match: str,
) -> GrantedPoll | None:
    """In one round trip: the grant stored at ``grant_key`` (a full cache key) if it is the key
    hashed ``hashed_key``, the request counted in the key's rate-limit window (``counters``: a
    key's without writes, then with), and the status it reads of the force at its campaign's
    published version; None when there is no such grant (nothing counted)."""
    read_only, writing = counters
    sent = etags_sent(if_none_match)
    held = recent_bodies.of(force_id)
    args: list[Any] = [
        hashed_key,
        read_only.key,
        read_only.lifetime,
        writing.key,
        writing.lifetime,
        cache.make_key(VERSION_KEY.format(campaign_id="")),
        cache.make_key(STATUS_KEY.partition("{")[0]),
        force_id,
        *sent,
        *held,
    ]
    found: list[Any] = redis_call(
        lambda client: _GRANTED_STATUS_READ(keys=[grant_key], args=args, client=client),
        [],
        [read_only.key, writing.key],
    )
    if not found:
        return None
    grant, count, *entry = found
    return GrantedPoll(grant, int(count), _read(entry, force_id, sent, held) if entry else None)


def version_publish(campaign_id: int, version: int) -> None:
    """Publish ``version`` as the campaign's version shown, unless a later one is published;
    inside :func:`statuses_rendered`, at its end."""
    held = _held_versions.get()
    if held is not None:
        held[campaign_id] = max(version, held.get(campaign_id, version))
        return
    key = cache.make_key(VERSION_KEY.format(campaign_id=campaign_id))
    redis_call(
        lambda client: _VERSION_RAISE(keys=[key], args=[version, TIMEOUT_SECONDS], client=client),
        None,
        [key],
    )


@contextmanager
def statuses_rendered(campaign_id: int) -> Iterator[list[int]]:
    """A block of a write's transaction that outdates the statuses polled at the versions it adds
    to the list yielded. As it ends, still inside the transaction, those statuses are rendered as
    it reads them (:data:`statuses_outdated`), to be stored as it commits; only then are the
    versions published that the block published, so that meanwhile a poll finds the version of
    before and its warm statuses, never the new version without them (which would send it to
    PostgreSQL). A campaign nobody polled costs one round trip of Redis. A render that fails is
    undone (a savepoint) and logged, never the writer's failure: the next poll renders the status
    as a cold poll does."""
    held: dict[int, int] = {}
    token = _held_versions.set(held)
    outdated: list[int] = []
    try:
        yield outdated
    finally:
        _held_versions.reset(token)
    _statuses_render_for_commit(campaign_id, outdated)
    for held_id, version in held.items():
        version_publish(held_id, version)


def _statuses_render_for_commit(campaign_id: int, versions: list[int]) -> None:
    polled = statuses_polled(campaign_id, versions)
    if not polled:
        return
    try:
        with transaction.atomic():
            answers = statuses_outdated.send(None, campaign_id=campaign_id, polled=polled)
    except Exception:
        logger.exception("statuses polled in campaign %s were not rendered before its commit", campaign_id)
        return
    entries = [entry for _, rendered in answers for entry in cast(list[ForceStatusEntry], rendered)]
    if entries:
        transaction.on_commit(lambda: _entries_store(campaign_id, entries), robust=True)


def statuses_polled(campaign_id: int, versions: Collection[int]) -> set[tuple[str, str]]:
    """The (force, scope) of every status of the campaign stored at one of ``versions``: those
    polled at them (and those rendered again for their readers), in one round trip."""
    keys = [_polled_key(campaign_id, v) for v in versions]

    def members(client: Redis) -> set[tuple[str, str]]:
        polled = set()
        for member in client.sunion(keys) if keys else ():
            force_id, _, scope = (member.decode() if isinstance(member, bytes) else member).partition(":")
            polled.add((force_id, scope))
        return polled

    return redis_call(members, set())
