"""The registry behind :mod:`rules_engine.catalog`.

Tables register themselves with :func:`table` where they are defined and
procedures with the :func:`procedure` decorator, so the catalog can never
list something that does not exist or miss something that does.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from rules_engine.results import RUNNING_PROCEDURE, RuleRef

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


class CatalogError(KeyError):
    """Unknown or duplicate catalog key."""


@dataclass(frozen=True)
class TableEntry:
    key: str
    title: str
    rule: RuleRef
    data: Any
    optional: bool = False


@dataclass(frozen=True)
class ProcedureEntry:
    """A procedure: ``func(inputs, dice)`` where ``inputs`` is ``input_type``."""

    key: str
    title: str
    rule: RuleRef
    func: Callable[..., Any]
    input_type: type | None
    optional: bool = False
    rolls: bool = True


TABLES: dict[str, TableEntry] = {}
PROCEDURES: dict[str, ProcedureEntry] = {}


def table(key: str, title: str, rule: RuleRef, data: T, *, optional: bool = False) -> T:
    """Register ``data`` as the table ``key`` and return it unchanged."""
    if key in TABLES:
        raise CatalogError(f"table {key!r} registered twice")
    TABLES[key] = TableEntry(key=key, title=title, rule=rule, data=data, optional=optional)
    return data


def procedure(
    key: str, title: str, rule: RuleRef, *, optional: bool = False, rolls: bool = True
) -> Callable[[F], F]:
    """Register a procedure.  Its first parameter is a frozen input dataclass;
    a rolling procedure's second parameter is the dice source.

    Every roll read while it runs (called from the catalog or directly) is stamped
    with ``key``: a roll of a procedure it calls carries that one's key."""

    def register(func: F) -> F:
        if key in PROCEDURES:
            raise CatalogError(f"procedure {key!r} registered twice")
        params = list(inspect.signature(func).parameters.values())
        hints = typing.get_type_hints(func)
        input_type = hints.get(params[0].name) if params else None

        @functools.wraps(func)
        def run(*args: Any, **kwargs: Any) -> Any:
            token = RUNNING_PROCEDURE.set(key)
            try:
                return func(*args, **kwargs)
            finally:
                RUNNING_PROCEDURE.reset(token)

        PROCEDURES[key] = ProcedureEntry(
            key=key,
            title=title,
            rule=rule,
            func=run,
            input_type=input_type if isinstance(input_type, type) else None,
            optional=optional,
            rolls=rolls,
        )
        return cast(F, run)

    return register
