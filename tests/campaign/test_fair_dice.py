"""Provably fair dice: day 1's seed is revealed after night 1 and every roll of day 1 verifies
with ``python -m rules_engine verify``; a changed face fails, naming the roll (issue 17)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from campaign import models
from campaign.access import CampaignAccess, rolls_readable
from campaign.choices import EventVerb, OperationStatus
from campaign.scenarios import MALTA_PACK_PATH, pack_read
from campaign.scenarios.exporting import campaign_export
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from campaign.services.corrections import object_correct
from campaign.services.days import day_dawn
from campaign.services.dice import dice_day_seed
from campaign.services.errors import DomainError
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from campaign.services.rules import roll_replay
from campaign.services.scenario import campaign_create, scenario_import
from rules_engine import fairness
from rules_engine.dice import SeededDice
from rules_engine.verify import report_lines, verify
from tests.campaign.factories import UserFactory
from tests.campaign.night_setup import ACTOR, campaign_after_day_one
from tests.e2e.demo import malta_day_one

pytestmark = pytest.mark.django_db

SEED = "acceptance-master-seed-7d41"


def _night(campaign: models.Campaign, capture: Any) -> None:
    with capture(execute=False):  # the worker's enqueue: the night runs here, in process
        operation = night_phase_start(campaign.pk, ACTOR)
    with capture(execute=False):
        operation_run(operation.pk)


def _client(campaign: models.Campaign, role: str, side: models.Side | None = None) -> APIClient:
    user: Any = UserFactory()
    models.Membership.objects.create(user=user, campaign=campaign, role=role, side=side)
    client = APIClient()
    client.force_login(user)
    return client


def _verify(document: dict[str, Any], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    path = tmp_path / f"day-{document['day']}-dice.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "rules_engine", "verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
    )


@pytest.mark.process
def test_day_one_verifies_after_night_one_and_a_changed_face_is_named(
    django_capture_on_commit_callbacks, tmp_path
):
    campaign = campaign_after_day_one(seed=SEED)
    umpire = _client(campaign, "umpire")
    url = f"/api/v1/campaigns/{campaign.slug}/days/1/dice/"
    assert campaign.dice_commitment == fairness.commitment(SEED, campaign.dice_chain_length)

    refused = umpire.get(url)
    assert refused.status_code == 409
    assert refused.json()["error"]["message"].startswith("Day 1's dice seed is not revealed yet")

    _night(campaign, django_capture_on_commit_callbacks)
    campaign.refresh_from_db()
    assert campaign.dice_revealed_through == 1
    revealed = models.Event.objects.get(campaign=campaign, verb=EventVerb.NIGHT_PHASE_DONE)
    assert (revealed.visibility, revealed.after["day"]) == ("public", 1)
    assert revealed.after["dice_seed"] == fairness.day_seed(SEED, 1000, 1)

    document = umpire.get(url).json()
    day_one_rolls = campaign.rolls.filter(dice_day=1)
    # Set-up, dawn, the day's battle and the night: every roll so far used day 1's seed.
    assert day_one_rolls.count() == campaign.rolls.count()
    assert day_one_rolls.filter(procedure="gb.night_replacements").exists()
    assert [roll["id"] for roll in document["rolls"]] == [str(r.public_id) for r in day_one_rolls]
    assert fairness.seed_proves(document["seed"], 1, document["commitment"])

    run = _verify(document, tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"verified: {day_one_rolls.count()} rolls replayed, 0 mismatches" in run.stdout

    altered = day_one_rolls.filter(procedure="gb.night_replacements").first()
    assert altered is not None
    result = altered.result
    face = result["rolls"][0]["faces"][0]
    result["rolls"][0]["faces"][0] = face % 6 + 1
    models.RollRecord.objects.filter(pk=altered.pk).update(result=result)

    run = _verify(umpire.get(url).json(), tmp_path)
    assert run.returncode == 1
    mismatches = [line for line in run.stdout.splitlines() if line.startswith("MISMATCH")]
    assert len(mismatches) == 1
    assert str(altered.public_id) in mismatches[0]
    assert "gb.night_replacements" in mismatches[0]
    assert f"stored faces [[{face % 6 + 1}]], the seed gives [[{face}]]" in mismatches[0]


@pytest.mark.process
def test_the_next_dawn_rolls_with_the_next_days_seed_and_players_verify_what_they_read(
    django_capture_on_commit_callbacks, tmp_path
):
    campaign = campaign_after_day_one(seed=SEED)
    _night(campaign, django_capture_on_commit_callbacks)
    day_dawn(campaign.pk, ACTOR)

    dawn = campaign.rolls.filter(day__number=2)
    assert dawn.exists()
    assert set(dawn.values_list("dice_day", flat=True)) == {2}
    player = _client(campaign, "player", campaign.sides.get(name="Allied"))
    assert player.get(f"/api/v1/campaigns/{campaign.slug}/days/2/dice/").status_code == 409

    document = player.get(f"/api/v1/campaigns/{campaign.slug}/days/1/dice/").json()
    readable = campaign.rolls.filter(dice_day=1).exclude(visibility="umpire")
    assert 0 < len(document["rolls"]) < campaign.rolls.filter(dice_day=1).count()
    assert len(document["rolls"]) <= readable.count()
    run = _verify(document, tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr

    summary = player.get(f"/api/v1/campaigns/{campaign.slug}/dice/").json()
    assert summary["revealed"] == [{"day": 1, "seed": fairness.day_seed(SEED, 1000, 1)}]
    assert (summary["rolling_day"], summary["algorithm"]) == (2, fairness.ALGORITHM)
    assert summary["algorithm_label"] == fairness.ALGORITHM_TEXT


def test_no_endpoint_or_export_serves_the_master_seed(django_capture_on_commit_callbacks):
    campaign = campaign_after_day_one(seed=SEED)
    _night(campaign, django_capture_on_commit_callbacks)
    umpire = _client(campaign, "umpire")
    base = f"/api/v1/campaigns/{campaign.slug}"
    for path in ("/", "/dice/", "/days/", "/days/1/", "/days/1/dice/", "/events/", "/rolls/"):
        response = umpire.get(base + path)
        assert response.status_code == 200, path
        assert SEED not in response.content.decode(), path
    assert SEED not in json.dumps(campaign_export(campaign.pk))


def test_the_day_document_reads_in_a_fixed_number_of_queries(django_capture_on_commit_callbacks):
    campaign = campaign_after_day_one(seed=SEED)
    umpire = _client(campaign, "umpire")
    _night(campaign, django_capture_on_commit_callbacks)
    url = f"/api/v1/campaigns/{campaign.slug}/days/1/dice/"
    with CaptureQueriesContext(connection) as few:
        assert umpire.get(url).status_code == 200
    rolls = list(campaign.rolls.filter(dice_day=1))
    copied = (
        "day_id",
        "battle_id",
        "procedure",
        "stream",
        "dice_day",
        "inputs",
        "result",
        "line",
        "visibility",
    )
    models.RollRecord.objects.bulk_create(  # twice the rolls
        models.RollRecord(campaign=campaign, side_id=r.side_id, **{name: getattr(r, name) for name in copied})
        for r in rolls
    )
    with CaptureQueriesContext(connection) as many:
        document = umpire.get(url).json()
    assert len(document["rolls"]) == 2 * len(rolls)
    assert len(many) == len(few)


def test_a_pack_may_fix_the_seed_but_an_export_or_a_web_upload_never_carries_it():
    pack = pack_read(MALTA_PACK_PATH)
    fixed = scenario_import(pack, ACTOR, slug="fixed")
    assert fixed.dice_commitment == fairness.commitment(pack["campaign"]["rng_seed"], 1000)

    exported = campaign_export(fixed.pk)
    assert "rng_seed" not in exported["campaign"]
    reimported = scenario_import(exported, ACTOR, slug="reimported")
    assert len(reimported.rng_seed) == 64
    assert reimported.rng_seed != fixed.rng_seed
    assert reimported.dice_commitment == fairness.commitment(reimported.rng_seed, 1000)

    creator = UserFactory()
    uploaded = campaign_create(Actor(creator), pack, slug="uploaded")
    assert uploaded.rng_seed not in (pack["campaign"]["rng_seed"], reimported.rng_seed)
    assert uploaded.dice_commitment == fairness.commitment(uploaded.rng_seed, 1000)


def test_the_seed_and_its_commitment_are_never_corrected():
    campaign = campaign_after_day_one(seed=SEED)
    for name, value in (("dice_commitment", "0" * 64), ("dice_revealed_through", 5)):
        with pytest.raises(DomainError) as refused:
            object_correct(campaign, ACTOR, changes={name: (getattr(campaign, name), value)})
        assert refused.value.field == name
    campaign.refresh_from_db()
    assert (campaign.dice_revealed_through, campaign.rng_seed) == (0, SEED)


# Issue 31: revealing a day never reveals the fog ------------------------------------------------

HEX_SEED = re.compile(r"\b[0-9a-f]{64}\b")


def _fingerprint(seed: str, stream: str) -> tuple[int, ...]:
    """The dice stream itself: its first three draws of 2^32 faces (no two streams share them)."""
    dice = SeededDice(seed, *stream.split("/"))
    return tuple(dice.face(1 << 32) for _ in range(3))


def _demo_after_night_one(capture: Any) -> models.Campaign:
    """The Malta demo's day 1 as the README's club night plays it (a battle set up and reported,
    both sides losing stands), then the arrival rolls and the night, in process."""
    campaign = malta_day_one()
    battle = campaign.battles.get()
    actor = Actor(user=get_user_model().objects.get(username="umpire"), request_id="club-night-1")
    lost = [
        {"code": code, "destroyed": [s.label for s in campaign.stands.filter(battalion__code=code)[:2]]}
        for code in ("G1", "W1")
    ]
    battle_report(campaign.pk, actor, battle.pk, {"battalions": lost})
    for pending in models.Operation.objects.filter(campaign=campaign, status=OperationStatus.PENDING):
        with capture(execute=False):
            operation_run(pending.pk)
    with capture(execute=False):
        night = night_phase_start(campaign.pk, actor)
    with capture(execute=False):
        operation_run(night.pk)
    campaign.refresh_from_db()
    assert campaign.dice_revealed_through == 1
    return campaign


def _everything_read(client: APIClient, campaign: models.Campaign) -> str:
    """Every document a member reads that could carry a seed: the dice, the day, the roll log
    (every page), the timeline and the campaign."""
    base = f"/api/v1/campaigns/{campaign.slug}"
    texts = []
    for path in ("/", "/dice/", "/days/", "/days/1/", "/days/1/dice/", "/events/?page_size=500"):
        response = client.get(base + path)
        assert response.status_code == 200, path
        texts.append(response.content.decode())
    url: str | None = base + "/rolls/?page_size=500"
    while url:
        page = client.get(url)
        assert page.status_code == 200
        texts.append(page.content.decode())
        url = page.json().get("next")
    return "\n".join(texts)


def test_after_night_one_no_seed_a_player_holds_rolls_the_other_sides_hidden_dice(
    django_capture_on_commit_callbacks,
):
    campaign = _demo_after_night_one(django_capture_on_commit_callbacks)
    day_one = list(campaign.rolls.filter(dice_day=1, override_of__isnull=True))
    streams = {roll.stream for roll in day_one}  # every stream name used that day
    rolled = [roll for roll in day_one if _faces_of(roll)]
    for roll in rolled:  # the stream fingerprinted below is the one each roll's faces came from
        assert roll.result in roll_replay(roll), roll.line
    for username in ("axis", "allied"):
        user = get_user_model().objects.get(username=username)
        membership = models.Membership.objects.get(campaign=campaign, user=user)
        access = CampaignAccess.of_member(campaign, membership)
        readable = set(
            models.RollRecord.objects.filter(campaign=campaign)
            .filter(rolls_readable(access))
            .values_list("pk", flat=True)
        )
        hidden = [roll for roll in rolled if roll.pk not in readable]
        # The other side's own rolls of the day: set-up allotments, airborne landings, the night.
        assert {r.visibility for r in hidden} >= {"side"}, username
        assert any(r.battle_id for r in hidden)
        assert any(r.procedure == "gb.night_replacements" for r in hidden)
        client = APIClient()
        client.force_login(user)
        held = set(HEX_SEED.findall(_everything_read(client, campaign)))
        held |= {fairness.sha256_hex(seed) for seed in held}  # and the earlier days' they give
        assert fairness.day_seed(campaign.rng_seed, campaign.dice_chain_length, 1) in held
        secret = {
            _fingerprint(dice_day_seed(campaign, 1, roll.dice_audience), roll.stream): roll for roll in hidden
        }
        reproduced = {
            secret[print_].line
            for seed in held
            for stream in streams
            if (print_ := _fingerprint(seed, stream)) in secret
        }
        assert not reproduced, f"{username} computes: {sorted(reproduced)[:3]}"

        # ... while the player's own rolls, those hidden from the other side too, verify.
        report = verify(client.get(f"/api/v1/campaigns/{campaign.slug}/days/1/dice/").json())
        assert report.ok, report_lines(report)
        own = f"side {access.own_side.name}" if access.own_side else ""
        assert own in report.audiences
        own_rolls = [r for r in rolled if r.dice_audience == own and r.pk in readable]
        assert own_rolls
        assert report.replayed >= len(own_rolls)
        assert not report.hidden or all("strengths" in line for line in report.hidden)


def _faces_of(roll: models.RollRecord) -> list[list[int]]:
    return [list(thrown["faces"]) for thrown in roll.result.get("rolls", [])]
