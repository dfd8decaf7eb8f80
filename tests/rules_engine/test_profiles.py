"""rules_engine.profiles: the ruleset profiles and how their layers compose."""

from __future__ import annotations

import pytest

from rules_engine import profiles
from rules_engine.registry import CatalogError


@pytest.mark.parametrize("profile", list(profiles.PROFILES.values()), ids=lambda p: p.key)
def test_profiles_name_registered_procedures(profile):
    profiles.validate(profile)
    assert profile.quality_scale is not None


def test_the_club_profile_composes_the_three_systems():
    club = profiles.get_profile("club")
    step = profiles.CampaignStep
    assert club.procedure_for(step.WEATHER) == "gb.weather"
    assert club.procedure_for(step.SEGMENT_TURNS) == "pk.segment_turns"
    assert club.procedures_for(step.BATTLE_SETUP)[:2] == ("n43.attacker_decision", "n43.air_superiority")
    assert club.quality_scale is profiles.QualityScale.GREAT_BATTLES


def test_a_later_layer_wins_and_optional_rules_union():
    base = profiles.RulesetProfile(
        "a",
        "A",
        None,
        {profiles.CampaignStep.WEATHER: ("gb.weather",)},
        frozenset({"gb.reactivation"}),
        {"x.y": 1},
    )
    top = profiles.RulesetProfile(
        "b",
        "B",
        None,
        {profiles.CampaignStep.WEATHER: ("pk.wind",)},
        frozenset({"gb.variant.ammo_low_marker"}),
        {"x.y": 2},
    )
    composed = profiles.compose("c", "C", base, top)
    assert composed.procedure_for(profiles.CampaignStep.WEATHER) == "pk.wind"
    assert composed.optional_rules == {"gb.reactivation", "gb.variant.ammo_low_marker"}
    assert composed.settings == {"x.y": 2}


def test_an_unknown_profile_or_a_non_optional_rule_is_refused():
    with pytest.raises(CatalogError):
        profiles.get_profile("chess")
    with pytest.raises(CatalogError, match="not an optional rule"):
        profiles.validate(profiles.RulesetProfile("x", "X", optional_rules=frozenset({"gb.weather"})))
