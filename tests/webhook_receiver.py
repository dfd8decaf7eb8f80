"""A real HTTP server on 127.0.0.1 that receives webhooks and records every request,
and the signature check of docs/api.md, run from the document itself."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.conftest import ROOT

API_DOC = ROOT / "docs" / "api.md"


@dataclass(frozen=True)
class Received:
    headers: Message
    body: bytes

    @property
    def delivery(self) -> str:
        return str(self.headers["X-Campaign-Delivery"])

    def json(self) -> Any:
        return json.loads(self.body)


class Receiver:
    """Answers ``status``, except each delivery's first ``failures`` attempts, which get 500;
    with a ``location``, it sends that Location header (a redirect)."""

    def __init__(self, status: int = 200, failures: int = 0, pause: float = 0, location: str = "") -> None:
        self.status, self.failures, self.pause, self.location = status, failures, pause, location
        self.requests: list[Received] = []
        self._lock = threading.Lock()
        self.url = ""

    def _answer(self, received: Received) -> int:
        with self._lock:
            earlier = sum(1 for r in self.requests if r.delivery == received.delivery)
            self.requests.append(received)
        return 500 if earlier < self.failures else self.status

    def handler(self) -> type[BaseHTTPRequestHandler]:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                status = receiver._answer(Received(self.headers, body))
                threading.Event().wait(receiver.pause)  # a slow receiver, for overlapping attempts
                self.send_response(status)
                self.send_header("Content-Length", "2")
                if receiver.location:
                    self.send_header("Location", receiver.location)
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


@contextmanager
def running(receiver: Receiver) -> Iterator[Receiver]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), receiver.handler())
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/hooks/campaign"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def documented_verify_signature() -> Callable[[str, Mapping[str, str] | Message, bytes], bool]:
    """``verify_signature`` as docs/api.md shows it to receivers, so the document cannot drift."""
    blocks = re.findall(r"```python\n(.*?)```", API_DOC.read_text(), re.DOTALL)
    (source,) = [block for block in blocks if "def verify_signature(" in block]
    namespace: dict[str, Any] = {}
    exec(compile(source, str(API_DOC), "exec"), namespace)  # our own document, under test
    verify: Callable[[str, Mapping[str, str] | Message, bytes], bool] = namespace["verify_signature"]
    return verify
