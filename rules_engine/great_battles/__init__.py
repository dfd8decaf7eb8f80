"""Great Battles of WWII, charts v4 (seed 004)."""
