"""Build a procedure's frozen input dataclass from plain values.

The umpire's CLI passes ``field=value`` strings and the service passes stored
JSON; both go through :func:`build_inputs` so a bad value is refused the same
way everywhere, naming the field.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any


class InputError(ValueError):
    """A procedure input is missing, unknown or of the wrong kind."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}


Coercer = Callable[[str, Any], Any]


def _coerce(field: str, kind: Any, raw: Any) -> Any:
    if type(raw) is kind:  # already the right type (the services pass enum members): nothing to read
        return raw
    return _coercer(kind)(field, raw)


@functools.cache
def _coercer(kind: Any) -> Coercer:
    """How to read a value as ``kind``, worked out once per type: the night phase builds
    inputs for thousands of battalions, and type introspection is slow."""
    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        option = next(arg for arg in typing.get_args(kind) if arg is not type(None))

        def optional(field: str, raw: Any) -> Any:
            if raw is None or (isinstance(raw, str) and raw.lower() in {"", "none", "null"}):
                return None
            return _coerce(field, option, raw)

        return optional
    if origin is tuple:
        item_kind = typing.get_args(kind)[0]

        def items(field: str, raw: Any) -> tuple[Any, ...]:
            values = raw.split(",") if isinstance(raw, str) else raw
            return tuple(
                _coerce(field, item_kind, item.strip() if isinstance(item, str) else item)
                for item in values
                if item != ""
            )

        return items
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return functools.partial(_enum_member, kind)
    readers: dict[Any, Coercer] = {bool: _boolean, int: _whole, float: _number, str: lambda _, raw: str(raw)}
    if kind in readers:
        return readers[kind]

    def unsupported(field: str, raw: Any) -> Any:
        raise InputError(field, f"unsupported input type {kind!r}")

    return unsupported


def _enum_member(kind: type[enum.Enum], field: str, raw: Any) -> enum.Enum:
    if isinstance(raw, kind):
        return raw
    if isinstance(raw, str | int) and raw in kind._value2member_map_:  # a stored value, as services pass
        return kind._value2member_map_[raw]
    for member in kind:  # else the value or the name, in any case, as people type them
        if str(raw).lower() in {str(member.value).lower(), member.name.lower()}:
            return member
    choices = ", ".join(str(m.value) for m in kind)
    raise InputError(field, f"{raw!r} is not one of {choices}")


def _boolean(field: str, raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    text = str(raw).lower()
    if text in _TRUE | _FALSE:
        return text in _TRUE
    raise InputError(field, f"{raw!r} is not true or false")


def _whole(field: str, raw: Any) -> int:
    if isinstance(raw, bool):
        raise InputError(field, f"{raw!r} is not a whole number")
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise InputError(field, f"{raw!r} is not a whole number") from None


def _number(field: str, raw: Any) -> float:
    try:
        return float(raw)
    except (TypeError, ValueError):
        raise InputError(field, f"{raw!r} is not a number") from None


@functools.cache
def _shape(input_type: type) -> tuple[dict[str, Any], dict[str, dataclasses.Field[Any]], tuple[str, ...]]:
    """Field types, fields and required fields of an input dataclass; resolving hints is slow,
    so once per type."""
    fields = {f.name: f for f in dataclasses.fields(input_type)}
    required = tuple(
        name
        for name, f in fields.items()
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    )
    return typing.get_type_hints(input_type), fields, required


def input_readers_prepare(input_types: Iterable[type]) -> None:
    """Work out now, once, what :func:`build_inputs` works out at each type's first use (a
    worker's warm-up, so that its first night costs no more than the next)."""
    for input_type in input_types:
        hints, _, _ = _shape(input_type)
        for kind in hints.values():
            _coercer(kind)


def build_inputs(input_type: type, values: Mapping[str, Any]) -> Any:
    """An ``input_type`` instance from ``values``; unknown or missing fields are errors."""
    hints, fields, required = _shape(input_type)
    unknown = sorted(set(values) - fields.keys())
    if unknown:
        raise InputError(unknown[0], f"unknown input; expected one of {', '.join(fields)}")
    kwargs = {name: _coerce(name, hints[name], raw) for name, raw in values.items()}
    missing = [name for name in required if name not in kwargs]
    if missing:
        raise InputError(missing[0], "required")
    try:
        return input_type(**kwargs)
    except (TypeError, ValueError) as exc:
        raise InputError(next(iter(values), "inputs"), str(exc)) from exc


def read_input(input_type: type, name: str, raw: Any) -> Any:
    """One field of ``input_type`` read from ``raw``, as :func:`build_inputs` reads it: a
    club setting is checked when it is stored, not when a roll first needs it."""
    hints, fields, _ = _shape(input_type)
    if name not in fields:
        raise InputError(name, f"unknown input; expected one of {', '.join(fields)}")
    return _coerce(name, hints[name], raw)


# The inputs' names in the umpire's words where the name alone says too little.
INPUT_LABELS = {
    "terrain": "Terrain between the forces",
    "scale": "Table size",
    "front": "Front (air superiority row)",
    "either_or_pick": "Counterbattery category where the chart gives a choice",
    "category": "Counterbattery category (instead of the chart's)",
    "use_suggested_attacker_bonus": "Give the attacker the suggested bonus",
    "unprinted_year_modifier": "Year modifier the chart does not print",
    "amphibious_shore_defender": "Defending a shore against a landing",
    "long_lull_reroll": "Rerolled after a long lull",
    "commonwealth_as_british": "Commonwealth rolls as British",
    "recce_counts": "Recce stands count",
}


def input_label(name: str) -> str:
    """What a person reads for the input ``name``: its words, else the name with spaces."""
    words = INPUT_LABELS.get(name) or name.replace("_", " ")
    return words[:1].upper() + words[1:]


def describe_inputs(input_type: type) -> list[dict[str, Any]]:
    """Field name, label, type, choices and default of each input, for people and schemas."""
    hints = typing.get_type_hints(input_type)
    described = []
    for f in dataclasses.fields(input_type):
        kind = hints[f.name]
        base = next((a for a in typing.get_args(kind) if a is not type(None)), kind)
        if typing.get_origin(kind) is tuple:
            base = typing.get_args(kind)[0]
        entry: dict[str, Any] = {
            "name": f.name,
            "label": input_label(f.name),
            "type": getattr(kind, "__name__", str(kind)),
        }
        if isinstance(base, type) and issubclass(base, enum.Enum):
            entry["choices"] = [m.value for m in base]
        if f.default is not dataclasses.MISSING:
            default = f.default
            entry["default"] = default.value if isinstance(default, enum.Enum) else default
        described.append(entry)
    return described
