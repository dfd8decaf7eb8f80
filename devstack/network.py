"""The machine's own names and addresses, for `make run` on a club's network.

Imports no Django: the local settings and the devstack launcher both use it.
"""

from __future__ import annotations

import contextlib
import socket

# Documentation addresses (RFC 5737, RFC 3849): connecting a UDP socket sends nothing,
# it only asks the kernel which local address the default route would use.
_ROUTE_PROBES = ((socket.AF_INET, "198.51.100.1"), (socket.AF_INET6, "2001:db8::1"))


def _host(address: str) -> str:
    """An address as a Host header carries it: IPv6 in brackets."""
    return f"[{address}]" if ":" in address else address


def lan_addresses() -> list[str]:
    """The machine's non-loopback addresses: those of its default routes, then its hostname's."""
    found: list[str] = []
    for family, probe in _ROUTE_PROBES:
        with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as sock:
            sock.connect((probe, 9))
            found.append(str(sock.getsockname()[0]))
    with contextlib.suppress(OSError):
        for *_, sockaddr in socket.getaddrinfo(socket.gethostname(), None):
            found.append(str(sockaddr[0]))
    addresses = [a.split("%")[0] for a in found]  # an IPv6 link-local address's zone is not a host
    return [_host(a) for a in dict.fromkeys(addresses) if not a.startswith(("127.", "::1"))]


def own_hosts() -> list[str]:
    """Every name a browser on this machine or its network may use for it."""
    names = ["localhost", "127.0.0.1", "[::1]", socket.gethostname(), socket.getfqdn()]
    return list(dict.fromkeys([*names, *lan_addresses()]))
