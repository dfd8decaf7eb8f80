"""Finding row numbers in what a reader reads (issue 28, point 7).

Every sequence of the test database jumps to 7,100,001 before a world is built, so a row still
named by its row number has a number in 7,100,001..7,199,999 and stands out in any read."""

from __future__ import annotations

import re
from typing import Any

from django.db import connection

from tests.api.world import World, build_world

SEQUENCES_FROM = 7_100_001
SEQUENCES_TO = 7_199_999
A_ROW_NUMBER = re.compile(r"\b71\d{5}\b")


def world_after_every_sequence_jumps() -> World:
    with connection.cursor() as cursor:
        # Never back: a sequence already past (a reused test database) stays where it is.
        cursor.execute(
            "SELECT setval(format('%%I.%%I', schemaname, sequencename)::regclass, "
            "GREATEST(%s, COALESCE(last_value, 0))) FROM pg_sequences WHERE max_value > %s",
            [SEQUENCES_FROM - 1, SEQUENCES_TO],
        )
    return build_world()


def row_numbers(value: Any, where: str = "") -> list[str]:
    """Every number of the jumped sequences in a read, or a text naming one, with where it stands."""
    if isinstance(value, dict):
        return [found for key, inner in value.items() for found in row_numbers(inner, f"{where}.{key}")]
    if isinstance(value, list):
        return [
            found for index, inner in enumerate(value) for found in row_numbers(inner, f"{where}[{index}]")
        ]
    if isinstance(value, bool):
        return []
    if isinstance(value, int) and SEQUENCES_FROM <= value <= SEQUENCES_TO:
        return [f"{where}={value}"]
    if isinstance(value, str) and A_ROW_NUMBER.search(value):
        return [f"{where}={value!r}"]
    return []
