"""Issue 16's acceptance (and issue 15's supply and objective points): the Malta pack plays days 1-3
through the services on its map: movement, a battle won on a port (control changes, 2 activation
points awarded at once), a battalion cut off (proposed isolated, its replacements follow), the
supply proposal confirmed with an override, and the victory check ending the campaign, read-only."""

from __future__ import annotations

from typing import Any

import pytest

from campaign import models
from campaign.choices import CampaignStatus, EventVerb, StandStatus
from campaign.scenarios.exporting import campaign_export
from campaign.services.api_keys import api_key_create
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from campaign.services.battles import battle_create
from campaign.services.campaigns import campaign_start
from campaign.services.days import day_dawn
from campaign.services.errors import ConflictError
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from campaign.services.scenario import scenario_import
from campaign.services.sectors import battalion_move, sector_control_set
from campaign.services.supply import supply_confirm, supply_proposal
from campaign.services.webhook_subscriptions import webhook_subscribe
from tests.campaign.factories import UserFactory, malta_pack_without_supply_drop_zones

pytestmark = pytest.mark.django_db

HOOK = "https://club.example/hooks/malta"


class Malta:
    """The Malta campaign and short ways to play it through the services."""

    def __init__(self, capture: Any, pack: dict[str, Any] | None = None) -> None:
        self.capture = capture
        umpire: Any = UserFactory(username="malta-umpire")
        self.actor = Actor(user=umpire, request_id="malta-map")
        self.campaign = scenario_import(pack or malta_pack_without_supply_drop_zones(), self.actor)
        self.axis = self.campaign.sides.get(is_axis=True)
        self.allied = self.campaign.sides.get(is_axis=False)
        self.sectors = dict(self.campaign.sectors.values_list("key", "pk"))

    def battalion(self, code: str) -> models.Battalion:
        return self.campaign.battalions.select_related("sector").get(code=code)

    def move(self, code: str, *keys: str) -> None:
        for key in keys:
            battalion_move(self.campaign.pk, self.actor, self.battalion(code).pk, sector_id=self.sectors[key])

    def dawn(self) -> None:
        with self.capture(execute=False):  # arrival rolls would go to a worker
            day_dawn(self.campaign.pk, self.actor)

    def battle(self, key: str, attackers: list[str], defenders: list[str], **report: Any) -> models.Battle:
        battle = battle_create(
            self.campaign.pk,
            self.actor,
            sector_id=self.sectors[key],
            battle_type="Local Attack",
            attacker_id=self.axis.pk,
            defender_id=self.allied.pk,
            battalion_codes=attackers + defenders,
        )
        losses = report.pop("losses", {})
        entries = [{"code": code, **losses.get(code, {})} for code in attackers + defenders]
        with self.capture(execute=False):  # webhooks
            return battle_report(self.campaign.pk, self.actor, battle.pk, {"battalions": entries, **report})

    def night(self) -> models.Operation:
        with self.capture(execute=False):
            operation = night_phase_start(self.campaign.pk, self.actor)
        with self.capture(execute=False):
            return operation_run(operation.pk)

    def report(self, operation: models.Operation, side: models.Side) -> dict[str, Any]:
        body: dict[str, Any] = operation.night_reports.get(side=side).body
        return body


def test_malta_days_one_to_three_on_the_map(django_capture_on_commit_callbacks):
    malta = Malta(django_capture_on_commit_callbacks)
    campaign, axis, allied = malta.campaign, malta.axis, malta.allied
    with django_capture_on_commit_callbacks(execute=False):
        campaign_start(campaign.pk, malta.actor)

    # Day 1: the Folgore takes Hal Far from its drop zone; the garrison's E2 steps out to Zurrieq.
    malta.dawn()
    malta.move("I1", "hal-far")
    malta.move("E2", "zurrieq")
    malta.battle("hal-far", ["I1"], ["E1"], winner=axis.pk, sector_owner=axis.pk)
    malta.move("E1", "gudja")
    proposal = {entry.battalion.code: entry for entry in supply_proposal(campaign).battalions}
    # The paratroops hold no beach or port yet: no source of supply.
    assert proposal["I1"].proposed.value == "isolated"
    assert proposal["I1"].reason == "no line over sectors its side holds to a source of supply"
    night_one = malta.night()
    assert (night_one.steps[0], night_one.steps[-1]) == ("supply", "victory")
    assert malta.report(night_one, axis)["battalions_isolated"] == 8  # Ramcke's and the Folgore's
    assert malta.battalion("I1").supply_situation == "isolated"
    campaign.refresh_from_db()
    assert campaign.status == CampaignStatus.ACTIVE

    # Day 2: a beachhead, then the port of Marsaxlokk (2 activation points at once); Luqa and Qrendi
    # fall around E2, which also loses a stand at Zurrieq: cut off.
    malta.dawn()
    malta.move("I1", "birzebbuga-beach")
    malta.battle("birzebbuga-beach", ["I1"], [], winner=axis.pk, sector_owner=axis.pk)
    # From day 1 turn 2 Malta's divisions keep their own pools: the taking division is paid (MS-05).
    division = malta.battalion("I2").battlegroup.force
    points_before = models.Force.objects.get(pk=division.pk).activation_points
    malta.move("I2", "hal-far", "birzebbuga-beach", "marsaxlokk")
    malta.battle("marsaxlokk", ["I2"], [], winner=axis.pk, sector_owner=axis.pk)
    assert models.Force.objects.get(pk=division.pk).activation_points == points_before + 2
    award = campaign.events.get(verb=EventVerb.OBJECTIVE_AWARDED)
    assert (award.side_id, award.after["awarded"], award.after["pool"]) == (axis.pk, 2, division.name)
    assert "FAQ 44" in award.after["rule"]
    assert award.message.startswith("Axis took Marsaxlokk Bay (port) in battle: 2 activation points")

    malta.move("G1", "luqa")
    malta.battle("luqa", ["G1"], ["E3"], winner=axis.pk, sector_owner=axis.pk)
    sector_control_set(
        campaign.pk, malta.actor, malta.sectors["qrendi"], owner_id=axis.pk, reason="Ramcke's patrols hold it"
    )
    malta.move("G2", "qrendi", "zurrieq")
    e2_stands = malta.battalion("E2").stands.filter(status=StandStatus.OK).count()
    malta.battle("zurrieq", ["G2"], ["E2"], winner=allied.pk, losses={"E2": {"destroyed": ["A Coy"]}})

    proposal = {entry.battalion.code: entry for entry in supply_proposal(campaign).battalions}
    assert proposal["E2"].proposed.value == "isolated"
    assert proposal["E2"].path is None
    # The beach is the Folgore's beachhead and Marsaxlokk a captured port: both sources now.
    assert proposal["I1"].proposed.value != "isolated"
    assert proposal["I2"].path == [malta.sectors["marsaxlokk"]]
    supply_confirm(
        campaign.pk,
        malta.actor,
        [
            {
                "battalion": malta.battalion("E1").public_id,
                "situation": "isolated",
                "reason": "the Gudja road is shelled",
            }
        ],
    )
    overridden = campaign.events.get(verb=EventVerb.SUPPLY_OVERRIDDEN)
    assert overridden.message.endswith("the Gudja road is shelled")
    assert overridden.visibility == "umpire"

    night_two = malta.night()
    e2 = malta.battalion("E2")
    assert (e2.supply_situation, malta.battalion("E1").supply_situation) == ("isolated", "isolated")
    assert malta.report(night_two, allied)["isolated_battalions"] == ["E1", "E2"]
    # Its replacements follow: no roll for the stand it lost, and one stand more lost (GB-B-04).
    replacements = {entry["code"]: entry for entry in malta.report(night_two, allied)["battalions"]}
    assert replacements["E2"] == {
        "code": "E2",
        "text": "0 of 1 destroyed stands replaced, 1 more stand lost",
        "lines": [],
    }
    assert not campaign.rolls.filter(procedure="gb.night_replacements", battalion=e2).exists()
    assert e2.stands.filter(status=StandStatus.OK).count() == e2_stands - 2
    campaign.refresh_from_db()
    assert campaign.status == CampaignStatus.ACTIVE

    # Day 3: the Grand Harbour (2 points more) and Valletta fall: the first condition is met.
    malta.dawn()
    malta.move("I2", "zabbar", "grand-harbour")
    malta.battle("grand-harbour", ["I2"], [], winner=axis.pk, sector_owner=axis.pk)
    malta.move("I2", "valletta")
    malta.battle("valletta", ["I2"], [], winner=axis.pk, sector_owner=axis.pk)
    assert campaign.events.filter(verb=EventVerb.OBJECTIVE_AWARDED).count() == 2  # ports only

    webhook_subscribe(campaign.pk, malta.actor, url=HOOK, events=[EventVerb.CAMPAIGN_FINISHED])
    night_three = malta.night()
    campaign.refresh_from_db()
    assert (campaign.status, campaign.winner_id, campaign.finished_day) == (
        CampaignStatus.FINISHED,
        axis.pk,
        3,
    )
    assert campaign.result == "Malta falls: the Axis holds Valletta and the Grand Harbour"
    for side in (axis, allied):
        assert malta.report(night_three, side)["campaign_result"] == f"Axis victory: {campaign.result}"
    finished = campaign.events.get(verb=EventVerb.CAMPAIGN_FINISHED)
    assert finished.visibility == "public"
    delivery = models.WebhookDelivery.objects.get(event=finished)
    assert delivery.payload["message"] == f"{campaign.name} finished on day 3"

    # Read-only from now on: every write is refused with the result.
    for write in (
        lambda: day_dawn(campaign.pk, malta.actor),
        lambda: malta.move("W1", "ta-qali"),
        lambda: supply_confirm(campaign.pk, malta.actor),
        lambda: sector_control_set(
            campaign.pk, malta.actor, malta.sectors["mdina"], owner_id=axis.pk, reason="late news"
        ),
    ):
        with pytest.raises(ConflictError) as refused:
            write()
        assert refused.value.code == "campaign_finished"
        assert refused.value.message == (
            "Campaign malta-1942 finished on day 3 (Malta falls: the Axis holds Valletta and the Grand "
            "Harbour): it is read-only."
        )
    # Who reads it is still the umpire's to manage: a key to show the result to another club.
    api_key, _ = api_key_create(campaign.pk, malta.actor, name="Result board")
    assert api_key.campaign_id == campaign.pk

    # The end survives the pack's round trip: export, import under another slug, export again.
    exported = campaign_export(campaign.pk)
    assert (exported["state"]["winner"], exported["state"]["finished_day"]) == ("Axis", 3)
    again = scenario_import(exported, malta.actor, slug="malta-again")
    renamed = [
        {**event, "object_key": "malta-again"} if event["object_type"] == "Campaign" else event
        for event in exported["state"]["events"]
    ]
    assert campaign_export(again.pk) == {
        **exported,
        "campaign": {**exported["campaign"], "slug": "malta-again"},
        "state": {**exported["state"], "events": renamed},
    }
