"""Processes a test started, directly or not, read from /proc: to prove none is left behind."""

from __future__ import annotations

from pathlib import Path


def process_table() -> dict[int, tuple[int, str, str]]:
    """Every live process: pid -> (parent pid, start time, state), from /proc."""
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # exited meanwhile
            continue
        fields = stat.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
        table[int(entry.name)] = (int(fields[1]), fields[19], fields[0])
    return table


def tree(roots: list[int]) -> set[tuple[int, str]]:
    """The roots and all their descendants, as (pid, start time): a reused pid is another process."""
    table = process_table()
    found: set[tuple[int, str]] = set()
    pending = [pid for pid in roots if pid in table]
    while pending:
        pid = pending.pop()
        found.add((pid, table[pid][1]))
        pending.extend(child for child, (parent, _, _) in table.items() if parent == pid)
    return found


def alive(processes: set[tuple[int, str]]) -> set[tuple[int, str]]:
    table = process_table()
    # A zombie has stopped: only its parent (maybe a container's init) has not collected it.
    return {
        (pid, start)
        for pid, start in processes
        if pid in table and table[pid][1] == start and table[pid][2] != "Z"
    }
