"""Scenario packs in: the writes that make a campaign from one.

:func:`scenario_import` creates a campaign from a pack — a hand-written
scenario (set-up only) or a full export (set-up and ``state``) — once the JSON
Schema and the domain checks pass (:mod:`campaign.scenarios.validation`); the rows are
:mod:`campaign.scenarios.importing`'s to read from the pack.  :func:`campaign_create` is a
member's upload of one.  A campaign is written out by :mod:`campaign.scenarios.exporting`.
See ``docs/scenario-format.md``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import transaction

from campaign import models
from campaign.choices import EventVerb, MemberRole
from campaign.scenarios import YAML_SUFFIXES, pack_parse
from campaign.scenarios.format import (
    CAMPAIGN,
    EXPORT_OMITS,
    STATE,
)
from campaign.scenarios.importing import PackLoader, level_values
from campaign.scenarios.upgrade import pack_upgrade
from campaign.scenarios.validation import MAX_ISSUES_SHOWN, issues_text, scenario_validate
from campaign.services.audit import Actor, event_record
from campaign.services.dice import dice_commitment_fields, dice_seed_fresh
from campaign.services.errors import ConflictError, DomainError, NotFoundError


def _slug_check(slug: str) -> None:
    try:
        validate_slug(slug)
    except ValidationError as exc:
        raise DomainError("; ".join(exc.messages), field="slug") from exc
    if len(slug) > (models.Campaign._meta.get_field("slug").max_length or 0):
        raise DomainError("the slug is too long", field="slug")


@transaction.atomic
def scenario_import(pack: Mapping[str, Any], actor: Actor, *, slug: str | None = None) -> models.Campaign:
    """Create a campaign from ``pack`` (a scenario or a full export), all or nothing.

    ``slug`` imports it under another slug.  Users the pack names (members,
    roll and event actors, operation creators) are created when missing, with
    an unusable password: they log in once an admin sets one.
    """
    issues = scenario_validate(pack)
    if issues:
        by_path: dict[str, list[str]] = defaultdict(list)
        for issue in issues[:MAX_ISSUES_SHOWN]:
            by_path[issue.path].append(issue.message)
        raise DomainError(issues_text(issues), field=issues[0].path, code="invalid_scenario", fields=by_path)
    values = level_values(CAMPAIGN, pack["campaign"])
    if slug is not None:
        _slug_check(slug)
        values["slug"] = slug
    if models.Campaign.objects.filter(slug=values["slug"]).exists():
        raise ConflictError(
            f"a campaign with slug {values['slug']!r} already exists",
            field="campaign.slug",
            code="slug_taken",
        )
    pack = pack_upgrade(pack)
    # A pack without a seed (an export, or a scenario that does not fix one) rolls from a fresh secret one.
    values |= dice_commitment_fields(values.pop("rng_seed", "") or dice_seed_fresh())
    state = level_values(STATE, pack.get("state", {}))
    if "dice_revealed_through" not in state:  # a pack from before day seeds: its nights are over
        done = [
            day.get("number", 0)
            for day in pack.get("state", {}).get("days", [])
            if day.get("status") == "done"
        ]
        state["dice_revealed_through"] = max(done, default=0)
    campaign = models.Campaign.objects.create(**values, **state)
    loader = PackLoader(campaign, pack)
    counts = loader.load()
    winner = pack.get("state", {}).get("winner")
    if winner is not None:
        campaign.winner = loader.sides[winner]
        campaign.save(update_fields=["winner"])
    event_record(
        campaign,
        EventVerb.CAMPAIGN_IMPORTED,
        campaign,
        f"{campaign.name} imported: {counts['sides']} sides, {counts['battalions']} battalions, "
        f"{counts['stands']} stands, {counts['days']} days",
        actor,
        after=counts,
    )
    return campaign


# Where a pack's history names people: the entries of state lists, by list and field.
PEOPLE_FIELDS = {"rolls": ("actor",), "events": ("actor",), "operations": ("created_by",)}


def _entry_without_people(key: str, entry: Any) -> Any:
    if not isinstance(entry, Mapping):
        return entry  # the schema refuses it, by its path
    dropped = set(PEOPLE_FIELDS.get(key, ()))
    if key == "events" and entry.get("object_type") == models.Membership.__name__:
        dropped.add("object_key")  # a membership the pack no longer holds
    return {name: value for name, value in entry.items() if name not in dropped}


def _pack_without_people(pack: Mapping[str, Any]) -> dict[str, Any]:
    """``pack`` without its memberships and the users its history names: a pack uploaded
    through the web neither makes accounts nor gives anybody a role (its rolls and events
    keep what happened, without who did it)."""
    stripped = {**pack, "memberships": []}
    state = pack.get("state")
    if isinstance(state, Mapping):
        stripped["state"] = {
            key: [_entry_without_people(key, entry) for entry in entries]
            if isinstance(entries, list)
            else entries
            for key, entries in state.items()
        }
    return stripped


def _slug_free(base: str) -> str:
    """``base``, or ``base-2``, ``base-3``... whichever no campaign has yet."""
    taken = set(models.Campaign.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    number = 1
    slug = base
    while slug in taken:
        number += 1
        slug = f"{base}-{number}"
    return slug


@transaction.atomic
def campaign_create(
    actor: Actor, pack: Any, *, slug: str | None = None, name: str | None = None
) -> models.Campaign:
    """A new campaign from ``pack`` whose only member is its creator, as umpire, rolling
    from a fresh secret seed (a seed the pack fixes is not used).

    Without ``slug`` it takes the pack's, numbered when taken. A pack's issues are
    refused by their path in the file, each under ``pack.<path>``."""
    user_id = actor.user_id
    if user_id is None:
        raise DomainError("only a signed-in user creates a campaign", code="not_signed_in")
    if not isinstance(pack, Mapping):
        raise DomainError("the file holds no scenario pack (a mapping of campaign, sides...)", field="pack")
    if slug is not None:
        _slug_check(slug)
        if models.Campaign.objects.filter(slug=slug).exists():
            raise ConflictError(
                f"a campaign with slug {slug!r} already exists", field="slug", code="slug_taken"
            )
    stripped = _pack_without_people(pack)
    campaign_values = stripped.get("campaign")
    if isinstance(campaign_values, Mapping):
        if slug is None and isinstance(campaign_values.get("slug"), str):
            slug = _slug_free(campaign_values["slug"])
        # Whoever uploads the pack would know every die of a seed it fixes: a fresh secret one.
        stripped["campaign"] = {
            **{k: v for k, v in campaign_values.items() if k not in EXPORT_OMITS},
            **({"name": name} if name else {}),
        }
    try:
        campaign = scenario_import(stripped, actor, slug=slug)
    except DomainError as refused:
        if refused.code != "invalid_scenario":
            raise
        fields = {f"pack.{path}" if path else "pack": texts for path, texts in refused.fields.items()}
        raise DomainError(
            f"the pack was not imported:\n{refused.message}",
            field="pack",
            code="invalid_scenario",
            fields=fields,
        ) from None
    membership = models.Membership.objects.create(user_id=user_id, campaign=campaign, role=MemberRole.UMPIRE)
    event_record(
        campaign,
        EventVerb.MEMBER_JOINED,
        membership,
        f"{membership.user} created {campaign.name} and umpires it",
        actor,
        after={"role": MemberRole.UMPIRE.value},
    )
    return campaign


def campaign_create_from_file(
    actor: Actor, file_name: str, content: str, *, slug: str | None = None, name: str | None = None
) -> models.Campaign:
    """:func:`campaign_create` from an uploaded file's text: YAML for .yaml/.yml, else JSON."""
    suffix = PurePath(file_name).suffix
    try:
        pack = pack_parse(content, suffix)
    except ValueError as exc:  # JSON and YAML parse errors both say where
        kind = "YAML" if suffix.lower() in YAML_SUFFIXES else "JSON"
        raise DomainError(
            f"{file_name} is not valid {kind}: {exc}", field="pack", code="invalid_scenario"
        ) from None
    return campaign_create(actor, pack, slug=slug, name=name)


def campaign_id_by_slug(slug: str) -> int:
    campaign_id = models.Campaign.objects.filter(slug=slug).values_list("pk", flat=True).first()
    if campaign_id is None:
        raise NotFoundError(f"no campaign with slug {slug!r}", field="slug")
    return campaign_id


def actor_by_username(username: str) -> Actor:
    """The actor a command acts as, named on its command line."""
    user_model = get_user_model()
    user = user_model.objects.filter(**{user_model.USERNAME_FIELD: username}).first()
    if user is None:
        raise NotFoundError(f"no user {username!r}", field="username")
    return Actor(user)
