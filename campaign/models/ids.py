"""Row numbers that count nothing, for the rows every member of a campaign reads by number.

Sides and sectors are named by their number in bodies, filters and URLs (``sides/{id}/``), and
a shared sequence would count other campaigns' sides and sectors (issue 28, point 7). Their
numbers are the milliseconds since :data:`EPOCH_MS` followed by 12 random bits instead: 53 bits
in all, so JavaScript reads them exactly. They rise in each process, by a random step where the
clock has not moved on, so rows made one after another keep their order: ``order_by("pk")``
stays the order of creation (a pack's first side is still the first), and a new row's number
is above every sequential one made before.
"""

from __future__ import annotations

import secrets
import threading
import time

EPOCH_MS = 1_767_225_600_000  # 2026-01-01 UTC: 41 bits of milliseconds last until 2095
RANDOM_BITS = 12
UNSEQUENCED_ID_HELP = "its number in URLs and bodies: not in sequence, so it counts nothing"

_lock = threading.Lock()
_last = 0


def unsequenced_id() -> int:
    """A new row's number: when it was made, to the millisecond, then random bits; above the
    last one this process made by a random step when the clock has not moved past it (two in
    one millisecond, or a clock set back), so rows keep their order and still count nothing."""
    global _last
    with _lock:
        made = (time.time_ns() // 1_000_000 - EPOCH_MS) << RANDOM_BITS | secrets.randbits(RANDOM_BITS)
        _last = made if made > _last else _last + 1 + secrets.randbits(RANDOM_BITS)
        return _last
