"""Great Battles of WWII, charts v4 (seed 004)."""

# Importing a module registers its tables and procedures.  Part A: dawn to
# morale; part B: night phase, campaign pools, variants, airborne, equipment;
# part C: movement and air attacks.
from rules_engine.great_battles import (  # noqa: F401
    action_points,
    activation,
    air_attack,
    airborne,
    barrage,
    campaign_pools,
    combat,
    dawn,
    equipment,
    fieldworks,
    morale,
    movement,
    night,
    reserves,
    variants,
    weather,
)
