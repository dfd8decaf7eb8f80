"""The supply proposal on Malta's ground, its confirmation with overrides, the night's supply step,
and the map document's supply part (rules notes MS-01 to MS-04); a confirmed battle report's
supply against the proposal (MS-07)."""

from __future__ import annotations

import pytest

from campaign import models, selectors
from campaign.access import CampaignAccess
from campaign.choices import EventVerb, MemberRole
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from campaign.services.battles import battle_create
from campaign.services.campaigns import campaign_start
from campaign.services.day_rules import force_cops_overrun
from campaign.services.days import day_dawn
from campaign.services.errors import DomainError
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from campaign.services.scenario import scenario_import
from campaign.services.supply import (
    supply_confirm,
    supply_cops_isolated,
    supply_kept,
    supply_proposal,
    supply_review,
)
from tests.campaign.factories import malta_pack_without_supply_drop_zones

pytestmark = pytest.mark.django_db

ACTOR = Actor(request_id="supply-test")


@pytest.fixture
def malta() -> models.Campaign:
    return scenario_import(malta_pack_without_supply_drop_zones(), ACTOR)


def held_by(campaign: models.Campaign, owner: str | None, *keys: str) -> None:
    side = campaign.sides.get(name=owner) if owner else None
    campaign.sectors.filter(key__in=keys).update(owner=side)


def proposed(campaign: models.Campaign) -> dict[str, tuple[str, list[str] | None]]:
    keys = dict(campaign.sectors.values_list("pk", "key"))
    return {
        entry.battalion.code: (
            entry.proposed.value,
            [keys[s] for s in entry.path] if entry.path is not None else None,
        )
        for entry in supply_proposal(campaign).battalions
    }


def test_the_proposal_traces_every_battalion_on_the_map_in_five_queries(malta, django_assert_num_queries):
    with django_assert_num_queries(5):
        proposal = supply_proposal(malta)
    by_code = {entry.battalion.code: entry for entry in proposal.battalions}
    # Reserves (E4, E5, T1) and the forces due on day 2 (L1, L2, P1) are off the map.
    assert sorted(by_code) == [f"{kind}{n}" for kind in "EGIW" for n in range(1, 5) if f"{kind}{n}" != "E4"]
    w2 = by_code["W2"]  # with its C Ops at Rabat
    assert (w2.proposed.value, w2.reason, w2.links_to_c_ops) == ("OK", "in supply, with its C Ops", 0)
    keys = dict(malta.sectors.values_list("pk", "key"))
    assert [keys[s] for s in by_code["W1"].path or []] == [
        "mdina",
        "ta-qali",
        "birkirkara",
        "valletta",
        "grand-harbour",
    ]
    assert by_code["E1"].proposed.value == "separated"  # Hal Far, two links from Tarxien
    assert by_code["E1"].reason == "in supply, 2 sectors from its C Ops"
    # The paratroops hold their drop zones only: no beach, no port.
    assert {by_code[f"I{n}"].proposed.value for n in range(1, 5)} == {"isolated"}
    ramcke, folgore = malta.forces.get(name__contains="Ramcke"), malta.forces.get(name__contains="Folgore")
    assert supply_cops_isolated(malta) == {ramcke.pk, folgore.pk}


def test_a_captured_port_supplies_the_axis_and_no_longer_the_garrison(malta):
    held_by(malta, "Axis", "hal-far", "gudja", "marsaxlokk")
    lines = proposed(malta)
    assert lines["I1"] == ("OK", ["dz-hal-far", "hal-far", "gudja", "marsaxlokk"])  # with its C Ops
    # E3 stands on Gudja, now the Axis': it traces back into Tarxien, to the Grand Harbour.
    assert lines["E3"][1] == ["gudja", "tarxien", "grand-harbour"]
    held_by(malta, "Axis", "birzebbuga-beach")  # a beachhead: the nearer source
    assert proposed(malta)["I1"][1] == ["dz-hal-far", "hal-far", "birzebbuga-beach"]
    held_by(malta, "Axis", "grand-harbour")  # both ports lost: the garrison has no source
    assert {situation for code, (situation, _) in proposed(malta).items() if code[0] in "EW"} == {"isolated"}


def test_a_contested_sector_ends_a_line_but_does_not_carry_one(malta):
    held_by(malta, None, "birkirkara", "zebbug")
    lines = proposed(malta)
    # The Western Command's ground connects to the ports only through the two crossroads.
    assert {lines[f"W{n}"] for n in range(1, 5)} == {("isolated", None)}
    w3 = malta.battalions.get(code="W3")
    models.Battalion.objects.filter(pk=w3.pk).update(sector=malta.sectors.get(key="birkirkara"))
    # Standing on the contested crossroads, it traces back both ways: to the port and to Rabat.
    assert proposed(malta)["W3"] == ("separated", ["birkirkara", "valletta", "grand-harbour"])
    w3_entry = next(e for e in supply_proposal(malta).battalions if e.battalion.code == "W3")
    assert w3_entry.reason == "in supply, 3 sectors from its C Ops"
    held_by(malta, "Axis", "ta-qali", "mosta")  # now its C Ops is out of reach over held ground
    w3_entry = next(e for e in supply_proposal(malta).battalions if e.battalion.code == "W3")
    assert (w3_entry.proposed.value, w3_entry.reason) == (
        "isolated",
        "no line over sectors its side holds to its C Ops",
    )


def test_a_club_setting_moves_the_edge_of_ok(malta):
    malta.rule_settings = {"gb.map_supply_situation.ok_within_links": 0}
    malta.save(update_fields=["rule_settings"])
    assert proposed(malta)["W1"][0] == "separated"  # Mdina is next to Rabat: OK by default


def confirmed_day(malta: models.Campaign) -> models.CampaignDay:
    campaign_start(malta.pk, ACTOR)
    return day_dawn(malta.pk, ACTOR)


def test_confirming_writes_the_situations_and_records_each_override(
    malta, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        day = confirmed_day(malta)
    e1 = malta.battalions.get(code="E1")
    version = models.Campaign.objects.get(pk=malta.pk).version

    supply_confirm(
        malta.pk, ACTOR, [{"battalion": e1.public_id, "situation": "OK", "reason": "its C Ops sent a runner"}]
    )

    day.refresh_from_db()
    assert day.supply_confirmed_at is not None
    assert day.supply_overrides == {"E1": "OK"}
    situations = dict(malta.battalions.values_list("code", "supply_situation"))
    assert (situations["E1"], situations["I1"], situations["W1"]) == ("OK", "isolated", "OK")
    assert models.Campaign.objects.get(pk=malta.pk).version == version + 1
    confirmed = malta.events.get(verb=EventVerb.SUPPLY_CONFIRMED)
    assert (
        confirmed.message == "Supply lines confirmed for day 1: 5 OK, 2 separated, 8 isolated (1 overridden)"
    )
    assert confirmed.visibility == "umpire"
    override = malta.events.get(verb=EventVerb.SUPPLY_OVERRIDDEN)
    assert override.object_id == e1.pk
    assert override.message == (
        "Battalion E1: OK, not separated as proposed (in supply, 2 sectors from its C Ops): "
        "its C Ops sent a runner"
    )
    assert override.after == {"situation": "OK", "reason": "its C Ops sent a runner"}


@pytest.mark.parametrize(
    ("override", "field", "words"),
    [
        (
            {"battalion": "E4", "situation": "OK", "reason": "r"},
            "overrides[0].battalion",
            "not on this campaign's map",
        ),
        (
            {"battalion": "E1", "situation": "reserve", "reason": "r"},
            "overrides[0].situation",
            "not a supply situation",
        ),
        (
            {"battalion": "E1", "situation": "isolated", "reason": " "},
            "overrides[0].reason",
            "Say why battalion E1",
        ),
    ],
)
def test_a_bad_override_is_refused_naming_its_field_and_writes_nothing(
    malta, django_capture_on_commit_callbacks, override, field, words
):
    with django_capture_on_commit_callbacks(execute=False):
        confirmed_day(malta)
    override = {**override, "battalion": malta.battalions.get(code=override["battalion"]).public_id}
    before = list(malta.battalions.order_by("pk").values_list("supply_situation", flat=True))

    with pytest.raises(DomainError) as refused:
        supply_confirm(malta.pk, ACTOR, [override])

    assert refused.value.field == field
    assert words in refused.value.message
    assert list(malta.battalions.order_by("pk").values_list("supply_situation", flat=True)) == before
    assert not malta.events.filter(verb=EventVerb.SUPPLY_CONFIRMED).exists()


def test_an_override_twice_is_refused(malta, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        confirmed_day(malta)
    e1 = malta.battalions.get(code="E1").public_id
    twice = [
        {"battalion": e1, "situation": "OK", "reason": "a"},
        {"battalion": e1, "situation": "OK", "reason": "b"},
    ]
    with pytest.raises(DomainError, match="overridden twice"):
        supply_confirm(malta.pk, ACTOR, twice)


def test_the_map_documents_supply_part_follows_the_fog_at_no_query_of_its_own(malta):
    models.Battalion.objects.filter(campaign=malta, code__in=["I1", "W1"]).update(supply_situation="isolated")
    models.Battalion.objects.filter(campaign=malta, code="E1").update(supply_situation="separated")
    models.Battalion.objects.filter(campaign=malta, code="E4").update(supply_situation="isolated")  # reserve
    ids = dict(malta.battalions.values_list("code", "public_id"))
    axis, allied = malta.sides.get(name="Axis"), malta.sides.get(name="Allied")

    part = selectors.map_document(CampaignAccess(malta, MemberRole.UMPIRE, None)).supply

    sources = dict(malta.sectors.values_list("key", "pk"))
    assert [side["sources"] for side in part["sides"]] == [
        [],
        sorted([sources["grand-harbour"], sources["marsaxlokk"]]),
    ]
    assert [sources["valletta"], sources["grand-harbour"]] in part["sides"][1]["lines"]
    assert (part["isolated"], part["separated"]) == (sorted([ids["I1"], ids["W1"]], key=str), [ids["E1"]])

    axis_player = selectors.map_document(CampaignAccess(malta, MemberRole.PLAYER, axis.pk)).supply
    assert axis_player["sides"][1]["lines"] == []  # the enemy's lines are not drawn for a player
    # A side's own cut-off battalions only: E1 at Hal Far is in sight of the Folgore, but its
    # supply is the Allies' secret, as its battalion row keeps it (issue 28).
    assert (axis_player["isolated"], axis_player["separated"]) == ([ids["I1"]], [])
    allied_player = selectors.map_document(CampaignAccess(malta, MemberRole.PLAYER, allied.pk)).supply
    assert (allied_player["isolated"], allied_player["separated"]) == ([ids["W1"]], [ids["E1"]])
    assert allied_player["sides"][0]["lines"] == []


def test_a_c_ops_overrun_keeps_its_division_isolated_at_nightfall(malta, django_capture_on_commit_callbacks):
    eastern = malta.forces.get(name="Eastern Infantry Command")
    with django_capture_on_commit_callbacks(execute=False):
        day = confirmed_day(malta)
        force_cops_overrun(malta.pk, ACTOR, force_id=eastern.pk, turn=3)
        day.refresh_from_db()
        assert supply_kept(day) == dict.fromkeys(["E1", "E2", "E3", "E4", "E5", "T1"], "isolated")
        # The umpire confirms the supply again without naming the division: the overrun is the
        # rule's, not an override of theirs, so it stays (rules notes MS-04).
        supply_confirm(malta.pk, ACTOR, [])
        day.refresh_from_db()
        assert day.supply_overrides == {}
        assert supply_kept(day) == dict.fromkeys(["E1", "E2", "E3", "E4", "E5", "T1"], "isolated")
        division = malta.battalions.filter(battlegroup__force=eastern)
        assert set(division.values_list("supply_situation", flat=True)) == {"isolated"}
        operation = night_phase_start(malta.pk, ACTOR)
    with django_capture_on_commit_callbacks(execute=False):
        operation_run(operation.pk)

    # Its lines to the Grand Harbour are open, but the overrun holds over them for the night.
    situations = dict(
        malta.battalions.filter(battlegroup__force=eastern).values_list("code", "supply_situation")
    )
    assert {situations[code] for code in ("E1", "E2", "E3")} == {"isolated"}
    report = operation.night_reports.get(side__name="Allied").body
    assert report["isolated_battalions"] == ["E1", "E2", "E3"]


def e1_reported_in_supply(malta: models.Campaign) -> models.Battle:
    """E1 (separated on the map's proposal) fights at Hal Far; the confirmed report says OK."""
    battle = battle_create(
        malta.pk,
        ACTOR,
        sector_name="Hal Far",
        battle_type="Local Attack",
        attacker_id=malta.sides.get(name="Axis").pk,
        defender_id=malta.sides.get(name="Allied").pk,
        battalion_codes=["I1", "E1"],
    )
    return battle_report(
        malta.pk, ACTOR, battle.pk, {"battalions": [{"code": "E1", "supply_situation": "OK"}]}
    )


def test_a_confirmed_reports_supply_wins_over_the_proposal_at_nightfall(
    malta, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        confirmed_day(malta)
        e1_reported_in_supply(malta)
        malta.refresh_from_db()
        assert proposed(malta)["E1"][0] == "separated"
        review = {entry.supply.battalion.code: entry for entry in supply_review(malta).battalions}
        assert (review["E1"].applies, review["E1"].applies_because) == (
            "OK",
            "reported after the battle at Hal Far",
        )
        assert (review["I1"].applies, review["I1"].applies_because) == ("isolated", "the map's proposal")
        operation = night_phase_start(malta.pk, ACTOR)  # supply never confirmed
    with django_capture_on_commit_callbacks(execute=False):
        operation_run(operation.pk)

    assert malta.battalions.get(code="E1").supply_situation == "OK"
    assert malta.battalions.get(code="I1").supply_situation == "isolated"  # in the battle, not reported
    applied = malta.events.get(verb=EventVerb.SUPPLY_APPLIED)
    assert "without the umpire's confirmation" in applied.message
    assert "battle reports kept for E1" in applied.message
    assert applied.after["reported"] == {"E1": "OK"}


def test_the_umpires_override_wins_over_a_confirmed_report(malta, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        confirmed_day(malta)
        e1_reported_in_supply(malta)
        malta.refresh_from_db()
        e1 = malta.battalions.get(code="E1")
        supply_confirm(
            malta.pk, ACTOR, [{"battalion": e1.public_id, "situation": "isolated", "reason": "cut at dusk"}]
        )
        assert malta.battalions.get(code="E1").supply_situation == "isolated"
        review = {entry.supply.battalion.code: entry for entry in supply_review(malta).battalions}
        assert (review["E1"].applies, review["E1"].applies_because) == ("isolated", "the umpire's override")
        operation = night_phase_start(malta.pk, ACTOR)
    with django_capture_on_commit_callbacks(execute=False):
        operation_run(operation.pk)

    assert malta.battalions.get(code="E1").supply_situation == "isolated"
