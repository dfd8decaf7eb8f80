"""A roll's output (rules_engine.results.RollOutput) and die text (presenters): one output per
roll, the same read fresh or from what a campaign stored."""

import json

from rules_engine.dice import DiceKind, DiceRoll, ScriptedDice
from rules_engine.panzer_korps.night import NightCommandInput, roll_night_command
from rules_engine.results import Applies, Comparison, Modifier, RollOutput
from rules_engine.vocab import LeaderRating

LINE = (
    "Night command roll, KG, leader Inspirational (rating C): d10 [4] = 4 +1 out of supply "
    "+1 fog/visibility problems = 6 ≤ 7 → passed"
)


def night_command() -> RollOutput:
    inputs = NightCommandInput(leader=LeaderRating.C, force="KG", out_of_supply=True)
    return RollOutput.of(roll_night_command(inputs, ScriptedDice([4])))


def test_a_roll_presents_its_dice_modifiers_threshold_outcome_and_rule():
    output = night_command()

    assert output.dice == (DiceRoll(DiceKind.D10, (4,), 4),)
    assert output.modifiers == (Modifier("out of supply", 1), Modifier("fog/visibility problems", 1))
    assert (output.natural, output.score, output.comparison, output.threshold) == (
        4,
        6,
        Comparison.AT_MOST,
        7,
    )
    assert (output.outcome, output.outcome_text) == ("passed", "passed")
    assert output.rule.text() == "Panzer Korps charts, CO/Kampfgruppe/Front/Division leader rating"
    assert output.line == LINE


def test_the_stored_form_is_the_one_campaigns_have_kept():
    inputs = NightCommandInput(leader=LeaderRating.C, force="KG", out_of_supply=True)
    stored = roll_night_command(inputs, ScriptedDice([4])).to_dict()

    assert stored == {
        "procedure": "pk.night_command",
        "title": "Night command roll",
        "subject": "KG, leader Inspirational (rating C)",
        "rule": {
            "system": "Panzer Korps",
            "seed_file": "003_87cc295bdca6f18c.txt",
            "section": "CO/Kampfgruppe/Front/Division leader rating",
        },
        "inputs": {
            "leader": "C",
            "out_of_supply": True,
            "conditions": [],
            "visibility_problems": True,
            "unwilling": False,
            "segment": "night segment",
            "surrounded": False,
            "die": "d10",
        },
        "rolls": [{"dice": "d10", "faces": [4], "total": 4}],
        "natural": 4,
        "modifiers": [
            {"name": "out of supply", "value": 1, "applies_to": "roll"},
            {"name": "fog/visibility problems", "value": 1, "applies_to": "roll"},
        ],
        "score": 6,
        "threshold_base": 7,
        "threshold": 7,
        "comparison": "≤",
        "cell": None,
        "outcome": "passed",
        "outcome_text": "passed",
        "line": LINE,
    }


def test_a_stored_roll_presents_as_it_did_when_read():
    output = night_command()

    assert RollOutput.from_dict(json.loads(json.dumps(output.to_dict()))) == output


def test_a_threshold_modifier_is_read_back_as_one():
    output = night_command()
    stored = {**output.to_dict(), "modifiers": [{"name": "on-call", "value": 1, "applies_to": "threshold"}]}

    assert RollOutput.from_dict(stored).modifiers == (Modifier("on-call", 1, Applies.THRESHOLD),)


def test_a_die_reads_as_dice_faces_and_total():
    assert DiceRoll(DiceKind.TWO_D6, (3, 4), 7).text() == "2d6 [3+4] = 7"
    assert DiceRoll(DiceKind.HALF_D6, (5,), 3).text() == "½d6 [5] = 3"
