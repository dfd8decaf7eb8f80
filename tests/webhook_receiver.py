"""A real HTTP server on 127.0.0.1 that receives webhooks and records every request,
and the signature check of docs/api.md, run from the document itself."""

from __future__ import annotations

import json
import re
import threading
import time
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


# Discord's documented limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits).
DISCORD_LIMITS = {"content": 2000, "title": 256, "description": 4096, "fields": 25, "field_name": 256}
DISCORD_LIMITS |= {"field_value": 1024, "footer": 2048, "embeds_total": 6000, "embeds": 10}


def discord_problems(message: Any) -> list[str]:
    """What in ``message`` Discord's documented schema and limits refuse (empty: a valid one)."""
    if not isinstance(message, dict) or not (message.get("content") or message.get("embeds")):
        return ["a message needs content or embeds"]
    problems = []
    if len(message.get("content", "")) > DISCORD_LIMITS["content"]:
        problems.append("content over 2000 characters")
    embeds = message.get("embeds", [])
    if len(embeds) > DISCORD_LIMITS["embeds"]:
        problems.append("more than 10 embeds")
    total = 0
    for embed in embeds:
        fields = embed.get("fields", [])
        sizes = {
            "title": len(embed.get("title", "")),
            "description": len(embed.get("description", "")),
            "footer": len(embed.get("footer", {}).get("text", "")),
            "fields": len(fields),
        }
        problems += [
            f"embed {name} over {DISCORD_LIMITS[name]}"
            for name, n in sizes.items()
            if n > DISCORD_LIMITS[name]
        ]
        for field in fields:
            if not field.get("name") or not field.get("value"):
                problems.append("an embed field needs a name and a value")
            if len(field.get("name", "")) > DISCORD_LIMITS["field_name"]:
                problems.append("field name over 256")
            if len(field.get("value", "")) > DISCORD_LIMITS["field_value"]:
                problems.append("field value over 1024")
        total += sizes["title"] + sizes["description"] + sizes["footer"]
        total += sum(len(f.get("name", "")) + len(f.get("value", "")) for f in fields)
        if embed.get("url") and not str(embed["url"]).startswith(("http://", "https://")):
            problems.append("embed url is no absolute address")
    if total > DISCORD_LIMITS["embeds_total"]:
        problems.append("embeds over 6000 characters in all")
    return problems


class Receiver:
    """Answers ``status``, except each delivery's first ``failures`` attempts, which get 500,
    and its first ``rate_limited`` ones, which get Discord's 429 asking to wait ``retry_after``
    seconds; with a ``location``, it sends that Location header (a redirect). As a Discord
    channel (``discord``), it answers 400 to a message Discord's schema and limits refuse."""

    def __init__(
        self,
        status: int = 200,
        failures: int = 0,
        pause: float = 0,
        location: str = "",
        rate_limited: int = 0,
        retry_after: float = 0,
        discord: bool = False,
    ) -> None:
        self.status, self.failures, self.pause, self.location = status, failures, pause, location
        self.rate_limited, self.retry_after, self.discord = rate_limited, retry_after, discord
        self.requests: list[Received] = []
        self.times: list[float] = []
        self.problems: list[str] = []
        self._lock = threading.Lock()
        self.url = ""

    def _answer(self, received: Received) -> int:
        with self._lock:
            earlier = sum(1 for r in self.requests if r.delivery == received.delivery)
            self.requests.append(received)
            self.times.append(time.monotonic())
            if self.discord and (problems := discord_problems(received.json())):
                self.problems += problems
                return 400
        if earlier < self.rate_limited:
            return 429
        return 500 if earlier < self.failures else self.status

    def handler(self) -> type[BaseHTTPRequestHandler]:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                status = receiver._answer(Received(self.headers, body))
                threading.Event().wait(receiver.pause)  # a slow receiver, for overlapping attempts
                answer = b"ok"
                self.send_response(status)
                if status == 429:  # as Discord answers it
                    wait = receiver.retry_after
                    answer = json.dumps(
                        {"message": "You are being rate limited.", "retry_after": wait, "global": False}
                    ).encode()
                    self.send_header("Retry-After", str(max(1, round(wait))))
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                if receiver.location:
                    self.send_header("Location", receiver.location)
                self.end_headers()
                self.wfile.write(answer)

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
