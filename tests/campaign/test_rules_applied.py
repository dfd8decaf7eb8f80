"""The guard of issue 15: every procedure of the rules catalogue is either called by a campaign
service or marked as an umpire aid with its reason (``rules_engine.catalog.UMPIRE_AIDS``); the
campaign-level ones still waiting are listed with the part of the issue that applies them.

"Called" is read from the services' source: a procedure key written there, or a campaign step
(``CampaignStep.X``) a service asks the profile for, whose procedures every profile names."""

from __future__ import annotations

import ast
from pathlib import Path

from campaign.services.rules import APPLIED_OPTIONAL_RULES
from rules_engine import catalog
from rules_engine.profiles import PROFILES, CampaignStep

SERVICES = Path(__file__).resolve().parents[2] / "campaign" / "services"


def _called_by_services() -> set[str]:
    keys = {p.key for p in catalog.procedures()}
    called: set[str] = set()
    steps: set[CampaignStep] = set()
    for path in SERVICES.glob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        # A table read (``TABLES["gb.activation_cost"]``) is no call of the procedure of that key.
        table_reads = {
            id(node.slice)
            for node in ast.walk(tree)
            if isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and node.value.id == "TABLES"
        }
        for node in ast.walk(tree):
            key = node.value if isinstance(node, ast.Constant) else None
            if isinstance(key, str) and key in keys and id(node) not in table_reads:
                called.add(key)
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "CampaignStep"
            ):
                steps.add(CampaignStep[node.attr])
    for profile in PROFILES.values():
        for step in steps:
            called.update(profile.procedures_for(step))
    return called


def test_every_procedure_is_applied_by_a_service_or_marked_an_umpire_aid():
    called = _called_by_services()
    aids = dict(catalog.UMPIRE_AIDS)
    unaccounted = sorted(p.key for p in catalog.procedures() if p.key not in called | aids.keys())
    assert not unaccounted, f"called by no service and not marked an umpire aid: {unaccounted}"
    assert not aids.keys() & called, "a service calls these: they are no mere aids"
    for key, reason in aids.items():
        catalog.get_procedure(key)  # a mark names a real procedure
        assert reason.strip(), f"{key}: give a reason"
        assert "\n" not in reason, f"{key}: give a one-line reason"


def test_every_switch_a_campaign_may_turn_on_is_applied_by_a_service():
    # Scenario validation accepts exactly these (rule_switch_issues): each must be called.
    assert sorted(APPLIED_OPTIONAL_RULES - _called_by_services()) == []
