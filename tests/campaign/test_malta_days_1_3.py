"""Issue 15's acceptance: the Malta pack, every variant on, plays days 1-3 through the services only —
the day-1 drop, division pools from turn 2, a day cut short by the day-end roll, an Axis artillery
mode refused on day 1, a postponed arrival, an objective award, an isolated battalion's
replacements and a C Ops overrun, each checked against its roll records (procedure, rule reference)
and the state they changed.

The dice come from the campaign's seed; nothing here pins a face. Outcomes the test needs are driven
through inputs (battle reports, supply), and every roll is read back: the state must follow the
faces recorded, whatever they were."""

from __future__ import annotations

import json
from typing import Any

import pytest

from campaign import models
from campaign.choices import DayStatus, EventVerb, StandStatus
from campaign.scenarios import MALTA_PACK_PATH, pack_read
from campaign.services.activation import activation_spend
from campaign.services.campaigns import campaign_start
from campaign.services.day_rules import (
    arrival_postpone,
    artillery_order_set,
    day_end_roll,
    force_cops_action_points,
    force_cops_overrun,
)
from campaign.services.days import segment_advance
from campaign.services.errors import ConflictError, DomainError
from campaign.services.rules import roll_replay
from campaign.services.supply import supply_cops_isolated, supply_proposal
from rules_engine.great_battles.campaign_pools import C_OPS_OVERRUN_POINTS_LOST
from tests.campaign.test_malta_map_campaign import Malta

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("equipment_reference")]

HOUSE_RULE = "FAQ 44, House Rules/Clarifications for Malta"
SEVERITY = {"NE": 0, "S": 1, "D": 2}
STATUS = {0: StandStatus.OK, 1: StandStatus.SUPPRESSED, 2: StandStatus.DESTROYED}
AVERAGE_D6 = {1: 3, 2: 2, 3: 3, 4: 4, 5: 5, 6: 4}


def cites(record: models.RollRecord, section: str) -> bool:
    """The roll's recorded result names the rule it was read under."""
    return section in json.dumps(record.result)


def faces(record: models.RollRecord) -> list[int]:
    return [face for roll in record.result["rolls"] for face in roll["faces"]]


class Play(Malta):
    """The whole Malta pack (its drop zones supply the paratroops), played by the umpire."""

    def __init__(self, capture: Any) -> None:
        super().__init__(capture, pack_read(MALTA_PACK_PATH))

    def force(self, fragment: str) -> models.Force:
        return self.campaign.forces.get(name__contains=fragment)

    def points(self, pool: models.Force | models.Side) -> int:
        pool.refresh_from_db()
        return pool.activation_points

    def day_end_rolls(self, day: models.CampaignDay) -> list[models.RollRecord]:
        """Play the day's segments to turn 10, rolling after Allied turns 7-10 until one ends it."""
        while sum(s.turns or 0 for s in day.segments.all()) < 10:
            try:
                segment_advance(self.campaign.pk, self.actor)
            except ConflictError:
                break
        made = []
        for turn in range(7, 11):
            record = day_end_roll(self.campaign.pk, self.actor, allied_turn=turn)
            made.append(record)
            # The state follows the face: a d10 at or above the turn ends the day.
            assert record.procedure == "gb.malta.day_end"
            assert cites(record, HOUSE_RULE)
            assert record.result["outcome"] is (faces(record)[0] >= turn)
            assert record.changes.get("ended_after_turn") == (turn if record.result["outcome"] else None)
            if record.result["outcome"]:
                with pytest.raises(ConflictError) as over:  # no later segment opens
                    segment_advance(self.campaign.pk, self.actor)
                assert over.value.code == "day_over"
                break
        return made


def assert_the_drop_landed(malta: Play) -> None:
    """Day 1's dawn: every dropping stand rolled approach, drift and landing (or died on the
    approach), each roll citing the drop zone rules, and took its worst effect."""
    drops = models.AirborneDrop.objects.filter(force__campaign=malta.campaign)
    assert drops.count() == 2
    assert all(drop.dropped and drop.day == 1 for drop in drops)
    rolls: dict[str, list[models.RollRecord]] = {}
    for roll in malta.campaign.rolls.filter(procedure__startswith="gb.airborne.").order_by("pk"):
        rolls.setdefault(roll.changes["stand"], []).append(roll)
    stands = models.Stand.objects.filter(battalion__battlegroup__force__in=drops.values("force"))
    assert len(rolls) == stands.count() > 0
    for stand in stands.select_related("battalion"):
        own = rolls[f"{stand.battalion.code}/{stand.label}"]
        effects = [SEVERITY[r.result["outcome"]] for r in own if r.procedure != "gb.airborne.drift"]
        if [r.procedure for r in own] != ["gb.airborne.approach"]:
            assert [r.procedure for r in own] == [
                "gb.airborne.approach",
                "gb.airborne.drift",
                "gb.airborne.landing",
            ]
        else:
            assert effects == [2]  # destroyed on the approach rolls nothing more
        assert stand.status == STATUS[max(effects)]
        assert all(r.result["rule"]["section"].startswith("Drop Zone") and r.day.number == 1 for r in own)
    landed = malta.campaign.events.filter(verb=EventVerb.AIRBORNE_LANDED)
    assert landed.count() == 2
    assert {e.visibility for e in landed} == {"side"}


def test_malta_days_one_to_three_with_every_variant_on(django_capture_on_commit_callbacks: Any) -> None:
    malta = Play(django_capture_on_commit_callbacks)
    campaign, axis, allied = malta.campaign, malta.axis, malta.allied
    folgore, eastern = malta.force("Folgore"), malta.force("Eastern")
    livorno = malta.force("Livorno")
    assert {"gb.malta.division_pools", "gb.variant.cops_action_points", "gb.malta.day_end"} <= set(
        campaign.optional_rules
    )
    ends: dict[int, list[models.RollRecord]] = {}

    # ---- Day 1 ------------------------------------------------------------------------------
    with django_capture_on_commit_callbacks(execute=False):  # arrival rolls would go to a worker
        campaign_start(campaign.pk, malta.actor)
        malta.dawn()
        day1 = campaign.days.get(number=1)
        assert_the_drop_landed(malta)

        # Turn 1 pays from the side's starting points (Axis 8); from turn 2 each division pays.
        first = activation_spend(
            campaign.pk,
            malta.actor,
            side_id=axis.pk,
            column="1 Bg",
            turn=1,
            battalion_codes=["G1", "G2", "G3", "G4"],
        )
        assert (first.force_id, first.cost, malta.points(axis)) == (None, 4, 4)
        with pytest.raises(DomainError) as overspent:
            activation_spend(
                campaign.pk, malta.actor, side_id=axis.pk, column="1 Bn", turn=2, battalion_codes=["I2"]
            )
        assert overspent.value.code == "pool_overspent"
        assert folgore.name in overspent.value.message

        # A battle report awards the Folgore's division pool the points it names, at the turn given.
        malta.move("I1", "hal-far")
        malta.battle(
            "hal-far",
            ["I1"],
            ["E1"],
            turn=2,
            winner=axis.pk,
            sector_owner=axis.pk,
            losses={"I1": {"objectives": [{"name": "Hal Far airfield", "activation_points": 3}]}},
        )
        assert (malta.points(folgore), malta.points(axis)) == (3, 4)  # hal-far is no port: no award
        spend = activation_spend(
            campaign.pk, malta.actor, side_id=axis.pk, column="1 Bn", turn=3, battalion_codes=["I2"]
        )
        assert (spend.force_id, malta.points(folgore)) == (folgore.pk, 3 - spend.cost)

        # An objective: a port taken in battle is worth 2 activation points at once (FAQ 44),
        # into the pool that pays at the report's turn: the taking division's (MS-05).
        folgore_before = malta.points(folgore)
        malta.move("I1", "birzebbuga-beach", "marsaxlokk")
        malta.battle("marsaxlokk", ["I1"], [], turn=4, winner=axis.pk, sector_owner=axis.pk)
        award = campaign.events.get(verb=EventVerb.OBJECTIVE_AWARDED)
        after, before = award.after or {}, award.before or {}
        assert (after["awarded"], after["pool"], before["activation_points"]) == (
            2,
            folgore.name,
            folgore_before,
        )
        assert (malta.points(folgore), malta.points(axis)) == (folgore_before + 2, 4)
        assert "FAQ 44" in after["rule"]

        # Variant 1: the Folgore's C Ops rolls its action points; its isolation is the supply
        # service's reading, recorded on the roll (its drop zone supplies it: not isolated).
        isolated = supply_cops_isolated(campaign)
        assert folgore.pk not in isolated
        before = malta.points(folgore)
        cops = force_cops_action_points(
            campaign.pk, malta.actor, force_id=folgore.pk, turn=5, quality="Veteran"
        )
        assert cops.procedure == "gb.variant.cops_action_points"
        assert cites(cops, "FAQ 45")
        assert cops.inputs["isolated_from_source"] is False
        assert cops.changes["action_points"] == cops.result["outcome"]
        assert malta.points(folgore) == min(before + cops.result["outcome"], 20)
        folgore_at_nightfall = malta.points(folgore)

        # House rule 7: the Axis orders only on-call artillery on day 1.
        with pytest.raises(DomainError) as refused:
            artillery_order_set(campaign.pk, malta.actor, side_id=axis.pk, template=1, mode="pre-planned")
        assert (refused.value.field, refused.value.code) == ("mode", "mode_not_allowed")
        assert HOUSE_RULE in (refused.value.rule or "")
        assert not models.ArtilleryOrder.objects.filter(side=axis).exists()  # nothing half-written
        artillery_order_set(campaign.pk, malta.actor, side_id=axis.pk, template=1, mode="on-call")

        # House rule 5: Livorno's planned landing postponed 4-10 turns on two average dice.
        postponed = arrival_postpone(
            campaign.pk, malta.actor, force_id=livorno.pk, entry_point="St Paul's Bay"
        )
        livorno.refresh_from_db()
        assert postponed.procedure == "gb.malta.reserve_delay"
        assert cites(postponed, HOUSE_RULE)
        assert postponed.result["outcome"] == sum(AVERAGE_D6[face] for face in faces(postponed))
        assert (livorno.arrival_turns_left, livorno.arrival_zone) == (
            postponed.result["outcome"],
            "St Paul's Bay",
        )
        assert postponed.changes == {
            "arrival_zone": "St Paul's Bay",
            "arrival_turns_left": livorno.arrival_turns_left,
        }
        assert roll_replay(postponed) == [postponed.result]

        ends[1] = malta.day_end_rolls(day1)

    night_one = malta.night()
    assert night_one.status == "done"
    # The Folgore's pool carries over point by point (FAQ 44: 8 - day for the Axis).
    carried = list(campaign.rolls.filter(procedure="gb.activation_carry_over", force=folgore))
    assert len(carried) == folgore_at_nightfall
    kept = sum(1 for roll in carried if roll.result["outcome"])  # each point: its d10
    assert malta.points(folgore) == kept
    assert all(cites(roll, "FAQ 44 Malta Scenario") for roll in carried)
    assert malta.points(axis) == 0  # the side's starting points were day 1's first turn's only

    # ---- Day 2 ------------------------------------------------------------------------------
    with django_capture_on_commit_callbacks(execute=False):
        malta.dawn()
        assert campaign.days.get(number=2).side_tallies.get(side=axis).division_activation_points[
            folgore.name
        ] == malta.points(folgore)
        artillery_order_set(campaign.pk, malta.actor, side_id=axis.pk, template=1, mode="pre-planned")

        # E2 loses a company at Luqa; the report credits the Eastern Command's pool at turn 3.
        e2 = campaign.battalions.get(code="E2")
        e2_standing = e2.stands.exclude(status=StandStatus.DESTROYED).count()
        eastern_before = malta.points(eastern)
        malta.move("G1", "luqa")
        malta.battle(
            "luqa",
            ["G1"],
            ["E2"],
            turn=3,
            losses={
                "E2": {
                    "destroyed": ["A Coy"],
                    "objectives": [{"name": "Luqa runway held", "activation_points": 12}],
                }
            },
        )
        assert malta.points(eastern) == min(eastern_before + 12, 20)

        # C Ops overrun: the division's pool loses 10 and its battalions are isolated tonight.
        pool = malta.points(eastern)
        force_cops_overrun(campaign.pk, malta.actor, force_id=eastern.pk, turn=4)
        assert malta.points(eastern) == max(pool - C_OPS_OVERRUN_POINTS_LOST, 0)
        overrun = campaign.events.filter(verb=EventVerb.RULE_APPLIED, object_id=str(eastern.pk)).latest("pk")
        assert overrun.before == {"activation_points": pool}
        on_table = campaign.battalions.filter(battlegroup__force=eastern, in_reserve=False)
        assert set(on_table.values_list("supply_situation", flat=True)) == {"isolated"}
        assert campaign.days.get(number=2).supply_overrun_isolated == sorted(
            campaign.battalions.filter(battlegroup__force=eastern).values_list("code", flat=True)
        )

        # Its C Ops still traces a line to the Grand Harbour, but the division is cut off as
        # supply stands today: its action-point roll takes the isolation penalty, no flag asked.
        (tarxien,) = [f for f in supply_proposal(campaign).forces if f.force.id == eastern.pk]
        assert tarxien.path is not None
        cut_off = force_cops_action_points(
            campaign.pk, malta.actor, force_id=eastern.pk, turn=5, quality="Experienced", convert=False
        )
        assert cut_off.inputs["isolated_from_source"] is True
        assert cites(cut_off, "FAQ 45")

        ends[2] = malta.day_end_rolls(campaign.days.get(number=2))

    night_two = malta.night()
    e2.refresh_from_db()
    assert e2.supply_situation == "isolated"
    allied_report = night_two.night_reports.get(side=allied).body
    assert "E2" in allied_report["isolated_battalions"]
    # An isolated battalion rolls no replacement and loses one stand more (GB-B-04).
    replacements = {entry["code"]: entry for entry in allied_report["battalions"]}
    assert replacements["E2"]["text"] == "0 of 1 destroyed stands replaced, 1 more stand lost"
    assert not campaign.rolls.filter(procedure="gb.night_replacements", battalion=e2).exists()
    assert e2.stands.exclude(status=StandStatus.DESTROYED).count() == e2_standing - 2

    # ---- Day 3 ------------------------------------------------------------------------------
    with django_capture_on_commit_callbacks(execute=False):
        malta.dawn()
        ends[3] = malta.day_end_rolls(campaign.days.get(number=3))
    malta.night()

    # A day cut short: the roll that ended it, its turn kept on the day, its segment's turns cut.
    ended = [roll for rolls in ends.values() for roll in rolls if roll.result["outcome"]]
    assert ended, f"no day-end roll ended days 1-3: faces {[faces(r) for rs in ends.values() for r in rs]}"
    for roll in ended:
        roll.day.refresh_from_db()
        assert roll.day.ended_after_turn == roll.changes["ended_after_turn"]
        assert roll.day.status == DayStatus.DONE
        assert roll.visibility == "public"
        if "segment_turns" in roll.changes:  # the roll fell inside a segment: its last turns are cut
            assert roll.segment.turns == roll.changes["segment_turns"]
    for rolls in ends.values():
        for roll in rolls:
            assert roll_replay(roll) == [roll.result]
