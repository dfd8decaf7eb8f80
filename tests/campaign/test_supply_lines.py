"""Supply lines traced over a map, no database (campaign.supply_lines; rules notes MS-01, MS-02).

The ground (sector ids), two sides (1 and 2):

    10(source of 1) - 11 - 12 - 13 - 14
                       |         |
                      15 ------ 16 - 17(source of 2, and listed for 1)
"""

from __future__ import annotations

from campaign.supply_lines import Ground, SideLines

LINKS = ((10, 11), (11, 12), (12, 13), (13, 14), (11, 15), (15, 16), (13, 16), (16, 17))


def ground(**owners: int | None) -> Ground:
    held: dict[int, int | None] = {10: 1, 11: 1, 12: 1, 13: 1, 14: 1, 15: 1, 16: 2, 17: 2}
    held.update({int(key.removeprefix("s")): owner for key, owner in owners.items()})
    return Ground(held, LINKS, {1: frozenset({10, 17}), 2: frozenset({17})})


def test_each_held_sector_traces_its_shortest_path_to_a_source():
    lines = SideLines(ground(), 1)
    assert lines.path_to_source(14) == [14, 13, 12, 11, 10]
    assert lines.path_to_source(10) == [10]
    assert lines.lines() == [(11, 10), (12, 11), (13, 12), (14, 13), (15, 11)]


def test_a_listed_source_supplies_only_the_side_holding_it():
    assert SideLines(ground(), 1).ground.sources(1) == frozenset({10})
    captured = SideLines(ground(s17=1, s16=1), 1)  # side 1 takes the enemy's port: its source now
    assert captured.path_to_source(16) == [16, 17]
    lost = SideLines(ground(s17=1, s16=1), 2)
    assert lost.ground.sources(2) == frozenset()
    assert lost.path_to_source(16) is None


def test_a_contested_sector_ends_a_line_but_never_carries_one():
    lines = SideLines(ground(s12=None, s15=None), 1)
    # A unit on the contested sector traces back through its held neighbour...
    assert lines.path_to_source(12) == [12, 11, 10]
    # ...but the sectors beyond it have no line: 13 and 14 are cut off.
    assert lines.path_to_source(13) is None
    assert lines.path_to_source(14) is None


def test_a_unit_on_an_enemy_sector_traces_back_through_its_own_ground():
    lines = SideLines(ground(), 1)
    assert lines.path_to_source(16) == [16, 15, 11, 10]
    assert lines.path_to_source(17) is None  # nothing of its own next to it


def test_distances_from_a_c_ops_run_over_held_ground_only():
    lines = SideLines(ground(s12=None), 1)
    distances = lines.distances_from(14)
    assert distances[14] == 0
    assert distances[13] == 1
    assert distances[16] == 2  # the enemy's sector a unit stands on, next to 13
    # Held 15 is out of reach: one way runs through contested 12, the other through the enemy's 16.
    assert {10, 11, 15}.isdisjoint(distances)


def test_a_c_ops_on_a_contested_sector_is_reached_from_next_to_it():
    lines = SideLines(ground(s13=None), 1)
    distances = lines.distances_from(13)
    assert (distances[13], distances[12], distances[14], distances[11]) == (0, 1, 1, 2)
