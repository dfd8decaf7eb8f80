"""rules_engine.catalog: every table and procedure, cited and flagged as the seeds have them."""

from __future__ import annotations

from rules_engine import catalog
from rules_engine.registry import PROCEDURES, TABLES
from rules_engine.results import RuleSystem

SEEDS = {
    RuleSystem.GREAT_BATTLES: {"004_44df3cc44dc4327c.txt"},
    RuleSystem.PANZER_KORPS: {"003_87cc295bdca6f18c.txt"},
    RuleSystem.NINETEEN_43: {
        "000_37d048cd6b3f801d.txt",
        "001_4904e0ac25f7d35e.txt",
        "002_aa433387fee19918.txt",
    },
}


def test_every_entry_cites_a_seed_of_its_own_system():
    entries = [*catalog.tables(), *catalog.procedures()]
    assert len(entries) > 150
    for entry in entries:
        assert entry.rule.seed_file in SEEDS[entry.rule.system], entry.key
        assert entry.rule.section.strip(), entry.key


def test_each_system_has_procedures_and_tables():
    for system in RuleSystem:
        assert catalog.procedures(system)
        assert catalog.tables(system)


def test_optional_items_are_registered_optional():
    for key in (
        "n43.defensive_works",
        "n43.attacker_defensive_works",
        "n43.fuel_turns",
        "n43.refuel_delay",
        "n43.refuel_rate",
    ):
        assert TABLES[key].optional
    assert PROCEDURES["n43.defensive_works"].optional
    assert PROCEDURES["n43.fuel_supply"].optional
