"""The one domain exception type.  The API maps it to one error body shape."""

from __future__ import annotations


class DomainError(Exception):
    """A refused operation: bad input or a broken rule.  Nothing was changed.

    ``field`` names the input at fault (dotted path for nested input), ``rule``
    the rule reference or invariant, ``code`` a stable machine code.
    """

    status = 400

    def __init__(
        self, message: str, *, field: str | None = None, rule: str | None = None, code: str = "invalid"
    ):
        super().__init__(message)
        self.message = message
        self.field = field
        self.rule = rule
        self.code = code


class ConflictError(DomainError):
    """The operation does not fit the campaign's current state (409)."""

    status = 409

    def __init__(
        self, message: str, *, field: str | None = None, rule: str | None = None, code: str = "conflict"
    ):
        super().__init__(message, field=field, rule=rule, code=code)


class NotFoundError(DomainError):
    status = 404

    def __init__(self, message: str, *, field: str | None = None, code: str = "not_found"):
        super().__init__(message, field=field, code=code)
