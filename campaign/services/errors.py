"""The one domain exception type.  The API maps it to one error body shape."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

# A message that opens on a plain word ("battalion A1 is ...") is capitalised; one that opens
# on a code or a path ("sides[0].name: ...", "gb.weather ...") is left as written.
_PLAIN_FIRST_WORD = re.compile(r"[a-z][a-z'-]*(?=[\s,;:]|$)")


def as_sentence(text: str) -> str:
    """``text`` as a sentence for people: a capital first word and a full stop."""
    text = text.strip()
    if _PLAIN_FIRST_WORD.match(text):
        text = text[0].upper() + text[1:]
    if text and "\n" not in text and text[-1] not in ".!?":
        text += "."
    return text


class DomainError(Exception):
    """A refused operation: bad input or a broken rule.  Nothing was changed.

    The message is for people, made a sentence (:func:`as_sentence`); say it with
    labels, never codes ("in its night phase", not "at night").

    ``field`` names the input at fault (dotted path for nested input), ``rule``
    the rule reference or invariant, ``code`` a stable machine code; ``fields``, when
    several inputs are at fault (a scenario pack's issues), each one's messages by path.
    """

    status = 400

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        rule: str | None = None,
        code: str = "invalid",
        fields: Mapping[str, Sequence[str]] | None = None,
    ):
        message = as_sentence(message)
        super().__init__(message)
        self.message = message
        self.field = field
        self.rule = rule
        self.code = code
        self.fields = {path: [as_sentence(text) for text in texts] for path, texts in (fields or {}).items()}


class ConflictError(DomainError):
    """The operation does not fit the campaign's current state (409)."""

    status = 409

    def __init__(
        self, message: str, *, field: str | None = None, rule: str | None = None, code: str = "conflict"
    ):
        super().__init__(message, field=field, rule=rule, code=code)


class ForbiddenError(DomainError):
    """The caller may not do this (403): the message says who may."""

    status = 403

    def __init__(self, message: str, *, field: str | None = None, code: str = "forbidden"):
        super().__init__(message, field=field, code=code)


class NotFoundError(DomainError):
    status = 404

    def __init__(self, message: str, *, field: str | None = None, code: str = "not_found"):
        super().__init__(message, field=field, code=code)
