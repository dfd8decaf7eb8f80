"""Keep a side's forces current with the changes cursor, through a typed client generated from
the API's OpenAPI document (docs/api.md, "Keeping a copy current").

Generate the client once (``openapi-python-client`` is a dev dependency of this project), then
run this with the side's read-only API key::

    openapi-python-client generate --path frontend/openapi.json --meta none --output-path campaign_client
    python docs/examples/side_sync.py --url http://127.0.0.1:8000 --campaign malta-1942 \\
        --key "$SIDE_KEY" --side 2 --every 30

The first read holds every force the side sees; every later one only what changed since the
token of the read before: forces changed or newly seen, and the ids of forces deleted or no
longer seen (fog of war). Each round prints the side's copy as one JSON line.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from pathlib import Path
from typing import Any

# Run from a checkout: the generated package beside the current directory or this file.
sys.path[:0] = [str(Path.cwd()), str(Path(__file__).resolve().parent)]

from campaign_client import AuthenticatedClient  # noqa: E402
from campaign_client.api.orders_of_battle import campaigns_forces_changes_retrieve  # noqa: E402
from campaign_client.models import Force, ForceChanges  # noqa: E402
from campaign_client.types import UNSET  # noqa: E402


class SideForces:
    """A side's copy of the forces it sees, kept by the changes alone."""

    def __init__(self, client: AuthenticatedClient, campaign: str, side: int | None = None) -> None:
        self.client, self.campaign, self.side = client, campaign, side
        self.forces: dict[uuid.UUID, Force] = {}
        self.token: str | None = None

    def sync(self) -> ForceChanges:
        """One changes read applied to the copy; the answer as read."""
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the service, e.g. http://127.0.0.1:8000")
    parser.add_argument("--campaign", required=True, help="the campaign's slug")
    parser.add_argument("--key", required=True, help="the side's API key")
    parser.add_argument("--side", type=int, help="only this side's forces (the list's side filter)")
    parser.add_argument("--rounds", type=int, default=0, help="stop after so many reads (0: never)")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between reads")
    args = parser.parse_args(argv)
    client = AuthenticatedClient(base_url=args.url, token=args.key, prefix="Api-Key")
    copy = SideForces(client, args.campaign, args.side)
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
