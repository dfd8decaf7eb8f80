"""No secret reaches a log line: the filter every handler of ``settings.LOGGING`` runs.

Secrets travel in URLs the service logs (Django's "Not Found: <path>" warning, the development
server's request lines): a member's calendar feed and an invitation link (the API's and the web
app's ``/join/``) carry their token in the path. An API key travels in a header no log line
holds, but a client may paste it anywhere, so its shape is masked wherever it appears.
Imported while logging is configured, before Django's apps load: the standard library only.
"""

from __future__ import annotations

import logging
import re

MASK = "[secret]"
# The path segment after a secret-bearing prefix, also percent-encoded in a ?next= parameter.
SECRET_PATH = re.compile(r"((?:/|%2F)(?:calendar|invitations|join)(?:/|%2F))[^/\s?#&\"']+", re.IGNORECASE)
# "Api-Key <key>" as sent, and a bare key: rest_framework_api_key's 8-letter prefix, a dot and
# its 32-letter secret.
API_KEY = re.compile(r"(Api-Key\s+)\S+|\b[A-Za-z0-9]{8}\.[A-Za-z0-9]{32}\b")


def secrets_masked(text: str) -> str:
    text = SECRET_PATH.sub(rf"\g<1>{MASK}", text)
    return API_KEY.sub(lambda match: (match.group(1) or "") + MASK, text)


class SecretsRedacted(logging.Filter):
    """Masks secrets in a record's message and in its traceback's text, which handlers print."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = secrets_masked(message)
        if masked != message:
            record.msg, record.args = masked, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = secrets_masked(record.exc_text)
        return True
