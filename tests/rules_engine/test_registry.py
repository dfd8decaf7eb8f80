"""rules_engine.registry: a procedure stamps every roll read while it runs with its key."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.panzer_korps.terrain import CountReading, TerrainGeneratorInput, Theatre, roll_battlefield
from rules_engine.registry import PROCEDURES
from rules_engine.results import RollResult, RuleRef, RuleSystem

RULE = RuleRef(RuleSystem.PANZER_KORPS, "003_87cc295bdca6f18c.txt", "Terrain")
# Eastern front, sum of dice: six count rolls, then eight feature rolls.
FACES = [1, 3, 1, 4, 1, 5, 1, 1, 6, 1, 1, 1, 1, 2, 1, 4]


def a_roll() -> RollResult:
    return RollResult(title="A roll", rule=RULE, rolls=(), outcome=None, outcome_text="nothing")


@pytest.mark.parametrize("through_the_catalog", [False, True])
def test_a_procedure_stamps_its_rolls_and_one_it_calls_stamps_its_own(through_the_catalog):
    inputs = TerrainGeneratorInput(Theatre.EASTERN_FRONT, CountReading.SUM_OF_DICE)
    run = PROCEDURES["pk.terrain_generator"].func if through_the_catalog else roll_battlefield
    result = run(inputs, ScriptedDice(FACES))
    assert [r.procedure for r in result.roll_results()] == ["pk.terrain_generator"] * 6 + [
        "pk.terrain_feature"
    ] * 8


def test_a_roll_read_outside_any_procedure_is_refused():
    with pytest.raises(RuntimeError, match="outside any registered procedure"):
        a_roll()


def test_the_stamp_ends_with_the_procedure():
    roll_battlefield(
        TerrainGeneratorInput(Theatre.EASTERN_FRONT, CountReading.SUM_OF_DICE), ScriptedDice(FACES)
    )
    with pytest.raises(RuntimeError, match="outside any registered procedure"):
        a_roll()


def test_the_stamp_ends_when_the_procedure_fails():
    with pytest.raises(Exception, match="exhausted"):
        roll_battlefield(TerrainGeneratorInput(Theatre.EASTERN_FRONT), ScriptedDice([]))
    with pytest.raises(RuntimeError, match="outside any registered procedure"):
        a_roll()
