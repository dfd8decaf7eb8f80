"""Keep a side's forces current with the changes cursor, and hear of the side's news by its
webhooks, through a typed client generated from the API's OpenAPI document (docs/api.md,
"Keeping a copy current" and "Webhooks").

Generate the client once (``openapi-python-client`` is a dev dependency of this project), then
run this with the side's API key::

    openapi-python-client generate --path frontend/openapi.json --meta none --output-path campaign_client
    python docs/examples/side_sync.py --url http://127.0.0.1:8000 --campaign malta-1942 \\
        --key "$SIDE_KEY" --side 2 --every 30

The first read holds every force the side sees; every later one only what changed since the
token of the read before: forces changed or newly seen, and the ids of forces deleted or no
longer seen (fog of war). Each round prints the side's copy as one JSON line.

With ``--listen 8765`` (the key granted writes, which a side's key uses for its own side's
webhooks only) it also subscribes a receiver on that port to its side's news: each request
whose signature checks out reads the changes at once, rather than at the next round. The
service must reach the address (``--hook-url`` when it is not this machine's loopback, which
only a development server lets through).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import sys
import threading
import time
import uuid
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

# Run from a checkout: the generated package beside the current directory or this file.
sys.path[:0] = [str(Path.cwd()), str(Path(__file__).resolve().parent)]

from campaign_client import AuthenticatedClient  # noqa: E402
from campaign_client.api.orders_of_battle import campaigns_forces_changes_retrieve  # noqa: E402
from campaign_client.api.webhooks import campaigns_webhooks_create  # noqa: E402
from campaign_client.models import (  # noqa: E402
    Force,
    ForceChanges,
    WebhookCreated,
    WebhookEventEnum,
    WebhookInputRequest,
)
from campaign_client.types import UNSET  # noqa: E402


class SideForces:
    """A side's copy of the forces it sees, kept by the changes alone."""

    def __init__(self, client: AuthenticatedClient, campaign: str, side: int | None = None) -> None:
        self.client, self.campaign, self.side = client, campaign, side
        self.forces: dict[uuid.UUID, Force] = {}
        self.token: str | None = None
        self._reading = threading.Lock()  # a webhook and the rounds read in turn

    def sync(self) -> ForceChanges:
        """One changes read applied to the copy; the answer as read."""
        with self._reading:
            return self._sync()

    def _sync(self) -> ForceChanges:
        answer = campaigns_forces_changes_retrieve.sync(
            self.campaign,
            client=self.client,
            side=UNSET if self.side is None else self.side,
            since=UNSET if self.token is None else self.token,
        )
        if not isinstance(answer, ForceChanges):
            raise RuntimeError(f"the API refused the changes read: {answer}")
        if answer.complete:  # a start, or the fog of war's settings changed: every row again
            self.forces.clear()
        for force in answer.changed:
            self.forces[force.id] = force
        for gone in answer.removed:
            self.forces.pop(gone, None)
        self.token = answer.next_
        return answer

    def as_json(self) -> dict[str, Any]:
        """The copy as the list answers its rows, by id."""
        return {str(key): force.to_dict() for key, force in self.forces.items()}


# As docs/api.md, "Verifying the signature", shows it (the suite checks they are the same).
def verify_signature(secret: str, headers: Mapping[str, str], body: bytes, tolerance: int = 300) -> bool:
    """True if ``body`` (bytes, as received) was signed with ``secret`` in the last ``tolerance`` seconds."""
    timestamp = headers["X-Campaign-Timestamp"]
    signed = f"{timestamp}.".encode() + body
    expected = "sha256=" + hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    fresh = abs(time.time() - int(timestamp)) <= tolerance
    # While a renewed secret's old one is still valid, the header holds a signature by each.
    signatures = headers["X-Campaign-Signature"].split(",")
    return fresh and any(hmac.compare_digest(expected, s.strip()) for s in signatures)


def subscribe(client: AuthenticatedClient, campaign: str, url: str) -> str:
    """Subscribe ``url`` to every event the key's side may hear of; the secret it signs with.
    A side's key makes its own side's subscription whatever it asks."""
    made = campaigns_webhooks_create.sync(
        campaign,
        client=client,
        body=WebhookInputRequest(url=url, events=list(WebhookEventEnum)),
        idempotency_key=str(uuid.uuid4()),
    )
    if not isinstance(made, WebhookCreated) or not made.secret:
        raise RuntimeError(f"the API refused the subscription: {made}")
    return str(made.secret)


class SideWebhooks:
    """A receiver of the side's webhooks: a request is applied only when its signature checks
    out, by reading the changes at once (a webhook says what happened, the changes what it
    changed in the side's view); a retried delivery is applied once."""

    def __init__(self, copy: SideForces, host: str = "127.0.0.1", port: int = 0) -> None:
        self.copy, self.secret = copy, ""
        self.received: list[dict[str, Any]] = []
        self.refused = 0
        self._deliveries: set[str] = set()
        self._lock = threading.Lock()
        self.server = ThreadingHTTPServer((host, port), self._handler())
        self.url = f"http://{host}:{self.server.server_address[1]}/hooks/campaign"

    def receive(self, headers: Mapping[str, str], body: bytes) -> int:
        """The HTTP status to answer one request with."""
        try:
            signed = verify_signature(self.secret, headers, body)
        except (KeyError, ValueError):  # a header missing or no timestamp
            signed = False
        if not signed:
            self.refused += 1
            return 401
        with self._lock:
            first = headers["X-Campaign-Delivery"] not in self._deliveries
            self._deliveries.add(headers["X-Campaign-Delivery"])
        if first:
            self.received.append(json.loads(body))
            self.copy.sync()  # quick; slow work would be queued and answered at once
        return 204

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                self.send_response(receiver.receive(dict(self.headers.items()), body))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler

    def start(self) -> None:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the service, e.g. http://127.0.0.1:8000")
    parser.add_argument("--campaign", required=True, help="the campaign's slug")
    parser.add_argument("--key", required=True, help="the side's API key")
    parser.add_argument("--side", type=int, help="only this side's forces (the list's side filter)")
    parser.add_argument("--rounds", type=int, default=0, help="stop after so many reads (0: never)")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between reads")
    parser.add_argument("--listen", type=int, help="receive the side's webhooks on this port")
    parser.add_argument("--hook-url", help="where the service posts (default: this port on 127.0.0.1)")
    args = parser.parse_args(argv)
    client = AuthenticatedClient(base_url=args.url, token=args.key, prefix="Api-Key")
    copy = SideForces(client, args.campaign, args.side)
    if args.listen is not None:
        hooks = SideWebhooks(copy, port=args.listen)
        hooks.secret = subscribe(client, args.campaign, args.hook_url or hooks.url)
        hooks.start()
    done = 0
    while True:
        answer = copy.sync()
        print(
            json.dumps(
                {"changed": len(answer.changed), "removed": len(answer.removed), "forces": copy.as_json()}
            )
        )
        sys.stdout.flush()
        done += 1
        if args.rounds and done >= args.rounds:
            return 0
        time.sleep(args.every)


if __name__ == "__main__":
    sys.exit(main())
