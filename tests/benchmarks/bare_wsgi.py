"""The HTTP floor of the force-status benchmark: a WSGI app that only returns fixed bytes.

``BENCH_BODY_FILE`` names the file holding the body (the force-status response's
own bytes) and ``BENCH_CONTENT_TYPE`` its type. Imports nothing of the project.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

BODY = Path(os.environ["BENCH_BODY_FILE"]).read_bytes()
HEADERS = [("Content-Type", os.environ["BENCH_CONTENT_TYPE"]), ("Content-Length", str(len(BODY)))]


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    start_response("200 OK", HEADERS)
    return [BODY]
