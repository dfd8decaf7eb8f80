"""rules_engine.inputs: a procedure's inputs built from plain values, the bad field named."""

from __future__ import annotations

import pytest

from rules_engine import catalog
from rules_engine.inputs import InputError, build_inputs


def test_build_inputs_refuses_unknown_and_missing_fields():
    entry = catalog.get_procedure("gb.barrage_delay")
    with pytest.raises(InputError) as unknown:
        build_inputs(entry.input_type, {"artillery_quality": "Raw", "colour": "red"})
    assert unknown.value.field == "colour"
    with pytest.raises(InputError) as missing:
        build_inputs(entry.input_type, {})
    assert missing.value.field == "artillery_quality"
