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
from collections.abc import Mapping
from typing import Any


class InputError(ValueError):
    """A procedure input is missing, unknown or of the wrong kind."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}


def _coerce(field: str, kind: Any, raw: Any) -> Any:
    if type(raw) is kind:  # already the right type (the services pass enum members): nothing to read
        return raw
    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        options = [arg for arg in typing.get_args(kind) if arg is not type(None)]
        if raw is None or (isinstance(raw, str) and raw.lower() in {"", "none", "null"}):
            return None
        return _coerce(field, options[0], raw)
    if origin is tuple:
        item_kind = typing.get_args(kind)[0]
        items = raw.split(",") if isinstance(raw, str) else list(raw)
        return tuple(
            _coerce(field, item_kind, item.strip() if isinstance(item, str) else item)
            for item in items
            if item != ""
        )
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        if isinstance(raw, kind):
            return raw
        for member in kind:
            if str(raw).lower() in {str(member.value).lower(), member.name.lower()}:
                return member
        choices = ", ".join(str(m.value) for m in kind)
        raise InputError(field, f"{raw!r} is not one of {choices}")
    if kind is bool:
        if isinstance(raw, bool):
            return raw
        text = str(raw).lower()
        if text in _TRUE | _FALSE:
            return text in _TRUE
        raise InputError(field, f"{raw!r} is not true or false")
    if kind is int:
        if isinstance(raw, bool):
            raise InputError(field, f"{raw!r} is not a whole number")
        try:
            return int(raw)
        except (TypeError, ValueError):
            raise InputError(field, f"{raw!r} is not a whole number") from None
    if kind is float:
        try:
            return float(raw)
        except (TypeError, ValueError):
            raise InputError(field, f"{raw!r} is not a number") from None
    if kind is str:
        return str(raw)
    raise InputError(field, f"unsupported input type {kind!r}")


@functools.cache
def _shape(input_type: type) -> tuple[dict[str, Any], dict[str, dataclasses.Field[Any]]]:
    """Field types and fields of an input dataclass; resolving hints is slow, so once per type."""
    return typing.get_type_hints(input_type), {f.name: f for f in dataclasses.fields(input_type)}


def build_inputs(input_type: type, values: Mapping[str, Any]) -> Any:
    """An ``input_type`` instance from ``values``; unknown or missing fields are errors."""
    hints, fields = _shape(input_type)
    unknown = sorted(set(values) - set(fields))
    if unknown:
        raise InputError(unknown[0], f"unknown input; expected one of {', '.join(fields)}")
    kwargs = {name: _coerce(name, hints[name], raw) for name, raw in values.items()}
    missing = [
        name
        for name, f in fields.items()
        if name not in kwargs
        and f.default is dataclasses.MISSING
        and f.default_factory is dataclasses.MISSING
    ]
    if missing:
        raise InputError(missing[0], "required")
    try:
        return input_type(**kwargs)
    except (TypeError, ValueError) as exc:
        raise InputError(next(iter(values), "inputs"), str(exc)) from exc


def describe_inputs(input_type: type) -> list[dict[str, Any]]:
    """Field name, type, choices and default of each input, for people and schemas."""
    hints = typing.get_type_hints(input_type)
    described = []
    for f in dataclasses.fields(input_type):
        kind = hints[f.name]
        base = next((a for a in typing.get_args(kind) if a is not type(None)), kind)
        if typing.get_origin(kind) is tuple:
            base = typing.get_args(kind)[0]
        entry: dict[str, Any] = {"name": f.name, "type": getattr(kind, "__name__", str(kind))}
        if isinstance(base, type) and issubclass(base, enum.Enum):
            entry["choices"] = [m.value for m in base]
        if f.default is not dataclasses.MISSING:
            default = f.default
            entry["default"] = default.value if isinstance(default, enum.Enum) else default
        described.append(entry)
    return described
