"""The Situation rows read on the campaign map (rules notes MS-01, MS-02)."""

from __future__ import annotations

import pytest

from rules_engine import catalog
from rules_engine.great_battles.night import MapSupplyInput, map_supply_situation
from rules_engine.vocab import SupplySituation

OK, SEPARATED, ISOLATED = SupplySituation.OK, SupplySituation.SEPARATED, SupplySituation.ISOLATED


@pytest.mark.parametrize(
    ("links", "expected"),
    [(0, OK), (1, OK), (2, SEPARATED), (3, SEPARATED), (4, ISOLATED), (None, ISOLATED)],
)
def test_links_to_the_c_ops_read_as_the_charts_12_and_36_inches(links, expected):
    reading = map_supply_situation(MapSupplyInput(line_to_source=True, links_to_c_ops=links))
    assert reading.situation is expected


def test_no_line_to_a_source_is_isolated_whatever_the_c_ops():
    reading = map_supply_situation(MapSupplyInput(line_to_source=False, links_to_c_ops=0))
    assert reading == (
        reading.__class__(ISOLATED, "no line over sectors its side holds to a source of supply")
    )


def test_a_c_ops_off_the_map_leaves_a_supplied_battalion_separated():
    reading = map_supply_situation(MapSupplyInput(line_to_source=True, c_ops_on_map=False))
    assert reading.situation is SEPARATED
    assert "off the map" in reading.reason


def test_the_club_settings_move_the_edges():
    strict = MapSupplyInput(line_to_source=True, links_to_c_ops=1, ok_within_links=0)
    assert map_supply_situation(strict).situation is SEPARATED
    unlimited = MapSupplyInput(line_to_source=True, links_to_c_ops=9, isolated_beyond_links=None)
    assert map_supply_situation(unlimited).situation is SEPARATED
    assert map_supply_situation(unlimited).reason == "in supply, 9 sectors from its C Ops"


def test_it_is_in_the_catalogue_as_a_lookup_with_its_settings():
    entry = catalog.get_procedure("gb.map_supply_situation")
    assert not entry.rolls
    assert "FAQ 44 Malta" in entry.rule.text()
