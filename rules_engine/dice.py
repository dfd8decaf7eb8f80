"""Dice sources and dice kinds.

Every procedure takes a :class:`DiceSource` argument; nothing here touches the
global :mod:`random` state.  :class:`SeededDice` derives an independent,
reproducible stream per (campaign seed, labels...) from SHA-256 in counter
mode, so the n-th face of a stream can be re-derived at any time (replay) and
does not depend on the Python version's ``random`` implementation.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable


class DiceError(ValueError):
    """A dice source was asked for something it cannot give."""


@runtime_checkable
class DiceSource(Protocol):
    """Gives one face of one die with ``sides`` faces, in 1..sides."""

    def face(self, sides: int) -> int: ...


class SeededDice:
    """Deterministic dice stream derived from a seed and stream labels.

    ``SeededDice("campaign-seed", "day", 3, "night", "replacements")`` always
    produces the same faces in the same order.  ``derive`` opens a sub-stream
    without consuming faces from this one.
    """

    def __init__(self, seed: str | int, *labels: str | int) -> None:
        self.seed = str(seed)
        self.labels: tuple[str, ...] = tuple(str(label) for label in labels)
        self._key = "|".join((self.seed, *self.labels)).encode()
        self.position = 0

    @property
    def stream(self) -> str:
        return "/".join(self.labels)

    def derive(self, *labels: str | int) -> SeededDice:
        return SeededDice(self.seed, *self.labels, *labels)

    def _block(self, counter: int) -> int:
        digest = hashlib.sha256(self._key + b"#" + str(counter).encode()).digest()
        return int.from_bytes(digest[:8], "big")

    def face(self, sides: int) -> int:
        if sides < 1:
            raise DiceError(f"a die needs at least one side, got {sides}")
        # Rejection sampling over 64-bit blocks keeps every face equally likely.
        limit = (1 << 64) - ((1 << 64) % sides)
        while True:
            value = self._block(self.position)
            self.position += 1
            if value < limit:
                return value % sides + 1


class ScriptedDice:
    """Returns the given faces in order; for tests and for umpire re-entry."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        self.used = 0

    @property
    def remaining(self) -> int:
        return len(self._faces) - self.used

    def face(self, sides: int) -> int:
        if self.used >= len(self._faces):
            raise DiceError(f"scripted dice exhausted after {self.used} faces")
        value = self._faces[self.used]
        if not 1 <= value <= sides:
            raise DiceError(f"face {value} is not on a d{sides}")
        self.used += 1
        return value


class DiceKind(enum.Enum):
    """The dice the three rule systems use, and how their faces are read.

    ``value`` is the notation shown to people.
    """

    D4 = "d4"
    D6 = "d6"
    D8 = "d8"
    D10 = "d10"  # faces 1..10; the printed "0" face counts as 10
    D12 = "d12"
    D20 = "d20"
    HALF_D6 = "½d6"  # d6 halved, rounded up: 1-2 → 1, 3-4 → 2, 5-6 → 3 (rules notes R-01)
    TWO_D6 = "2d6"
    THREE_D6 = "3d6"
    FOUR_D6 = "4d6"
    FIVE_D6 = "5d6"
    SIX_D6 = "6d6"
    TWO_D10 = "2d10"  # summed, 2..20
    PERCENTILE = "d100"  # 01..00 with 00 read as 100: one face in 1..100
    AVERAGE_D6 = "avg d6"  # a d6 reading 1 as 3 and 6 as 4 (Malta reserves)


_DIE_SHAPE: dict[DiceKind, tuple[int, int]] = {
    DiceKind.D4: (1, 4),
    DiceKind.D6: (1, 6),
    DiceKind.D8: (1, 8),
    DiceKind.D10: (1, 10),
    DiceKind.D12: (1, 12),
    DiceKind.D20: (1, 20),
    DiceKind.HALF_D6: (1, 6),
    DiceKind.TWO_D6: (2, 6),
    DiceKind.THREE_D6: (3, 6),
    DiceKind.FOUR_D6: (4, 6),
    DiceKind.FIVE_D6: (5, 6),
    DiceKind.SIX_D6: (6, 6),
    DiceKind.TWO_D10: (2, 10),
    DiceKind.PERCENTILE: (1, 100),
    DiceKind.AVERAGE_D6: (1, 6),
}

_AVERAGE_DIE_READING = {1: 3, 2: 2, 3: 3, 4: 4, 5: 5, 6: 4}


def nd6(count: int) -> DiceKind:
    """The DiceKind for ``count`` six-sided dice summed (1..6)."""
    for kind, (dice, sides) in _DIE_SHAPE.items():
        if sides == 6 and dice == count and kind not in (DiceKind.HALF_D6, DiceKind.AVERAGE_D6):
            return kind
    raise DiceError(f"no dice kind for {count}d6")


@dataclass(frozen=True)
class DiceRoll:
    """One throw of a dice kind: the faces as thrown and the total as read."""

    kind: DiceKind
    faces: tuple[int, ...]
    total: int

    def text(self) -> str:
        """The one way a throw is written, wherever people read it (a roll's line, its card, the
        papers, the admin): ``"2d6 [5+1] = 6"``, faces apart so "51" never reads as a number."""
        return f"{self.kind.value} [{'+'.join(str(face) for face in self.faces)}] = {self.total}"

    def to_dict(self) -> dict[str, object]:
        return {"dice": self.kind.value, "faces": list(self.faces), "total": self.total}


def read_faces(kind: DiceKind, faces: Sequence[int]) -> int:
    """The total the rules read from ``faces`` thrown for ``kind``."""
    count, sides = _DIE_SHAPE[kind]
    if len(faces) != count or not all(1 <= face <= sides for face in faces):
        raise DiceError(f"faces {list(faces)} are not a throw of {kind.value}")
    if kind is DiceKind.HALF_D6:
        return (faces[0] + 1) // 2
    if kind is DiceKind.AVERAGE_D6:
        return _AVERAGE_DIE_READING[faces[0]]
    return sum(faces)


def total_range(kind: DiceKind) -> tuple[int, int]:
    """Lowest and highest total ``kind`` can read."""
    count, sides = _DIE_SHAPE[kind]
    if kind is DiceKind.HALF_D6:
        return 1, 3
    if kind is DiceKind.AVERAGE_D6:
        return 2, 5
    return count, count * sides


def roll(kind: DiceKind, dice: DiceSource) -> DiceRoll:
    count, sides = _DIE_SHAPE[kind]
    faces = tuple(dice.face(sides) for _ in range(count))
    return DiceRoll(kind=kind, faces=faces, total=read_faces(kind, faces))
