""" "1943" (battalion-level WWII): set-up page (seeds 000/001) and movement chapter (seed 002).

Importing the package registers every table and procedure of the slice.
"""

from rules_engine.nineteen43 import (
    air,
    artillery,
    battle,
    common,
    defences,
    fuel,
    lulls,
    movement,
    setup,
)

__all__ = ["air", "artillery", "battle", "common", "defences", "fuel", "lulls", "movement", "setup"]
