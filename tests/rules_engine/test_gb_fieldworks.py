"""004 § Entrenchments, FAQ 3 (barrage spotting), FAQ 6 (withdraw to reserve),
§ Airborne Supply; 002 § 2.5 (vehicles dig in at double trench usage)."""

import pytest

from rules_engine.great_battles.airborne import AirborneSupplyInput, read_airborne_supply
from rules_engine.great_battles.common import Cover
from rules_engine.great_battles.fieldworks import (
    ENTRENCHMENTS,
    BarrageCall,
    BarrageSpottingInput,
    EntrenchmentKind,
    read_barrage_spotting,
)
from rules_engine.great_battles.reserves import WithdrawToReserveInput, check_withdraw_to_reserve
from rules_engine.nineteen43.movement import VehicleDigInInput, lookup_vehicle_dig_in
from rules_engine.vocab import SupplySituation


def test_entrenchments_as_printed() -> None:
    soft, works = ENTRENCHMENTS[EntrenchmentKind.ENTRENCHMENT], ENTRENCHMENTS[EntrenchmentKind.FIELD_WORKS]
    assert (soft.cover, soft.actions, soft.days) == (Cover.SOFT, 4, None)
    assert (works.cover, works.actions, works.days) == (Cover.HARD, None, 2)


@pytest.mark.parametrize(
    ("call", "distance", "in_cover", "spotted"),
    [
        (BarrageCall.PRE_PLANNED, 40, True, True),
        (BarrageCall.REGISTERED, 1, True, True),
        (BarrageCall.REGISTERED, 1.5, True, False),
        (BarrageCall.ON_CALL, 12, False, True),
        (BarrageCall.ON_CALL, 12.5, False, False),
        (BarrageCall.INFANTRY_INDIRECT, 8, True, True),
        (BarrageCall.INFANTRY_INDIRECT, 9, False, False),
    ],
)
def test_barrage_spotting(call: BarrageCall, distance: float, in_cover: bool, spotted: bool) -> None:
    assert read_barrage_spotting(BarrageSpottingInput(call, distance, in_cover)).spotted is spotted


def test_withdraw_to_reserve_variant_refuses_a_surrounded_battalion() -> None:
    assert check_withdraw_to_reserve(WithdrawToReserveInput("A1", 0)).allowed
    refused = check_withdraw_to_reserve(WithdrawToReserveInput("A1", 2))
    assert not refused.allowed
    assert "2 stand(s) surrounded" in refused.reason


def test_airborne_supply_from_a_drop_zone() -> None:
    fed = read_airborne_supply(AirborneSupplyInput(True, road_trace_to_drop_zone_inches=12))
    assert fed.situation is SupplySituation.OK
    assert fed.may_withdraw_at_night
    cut = read_airborne_supply(AirborneSupplyInput(False, road_trace_to_drop_zone_inches=13))
    assert cut.situation is SupplySituation.ISOLATED
    assert not cut.may_withdraw_at_night
    assert not cut.loses_extra_stand


def test_vehicles_dig_in_at_double_trench_usage() -> None:
    dug = lookup_vehicle_dig_in(VehicleDigInInput(frontage_yards=100, vehicles=3, trench_yards_available=500))
    assert (dug.trench_yards_needed, dug.vehicles_entrenched) == (600, 2)
    with pytest.raises(ValueError, match="frontage"):
        lookup_vehicle_dig_in(VehicleDigInInput(frontage_yards=0))
