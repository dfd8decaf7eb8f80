"""What Redis runs for a piece of code, seen by Redis itself (MONITOR), on the test's database."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field

import redis


@dataclass
class RedisCommands:
    """The commands run on one Redis database: those clients sent (each a round trip unless
    pipelined) and those the Lua scripts they ran issued."""

    sent: list[str] = field(default_factory=list)
    scripted: list[str] = field(default_factory=list)

    @property
    def sent_names(self) -> list[str]:
        return [command.split(" ", 1)[0].upper() for command in self.sent]


@contextlib.contextmanager
def redis_commands(client: redis.Redis) -> Iterator[RedisCommands]:
    """Filled, on leaving, with the commands Redis ran on ``client``'s database meanwhile: MONITOR
    streams every command, so an ECHO of a fresh marker ends the stream read back."""
    database = int(client.connection_pool.connection_kwargs.get("db", 0))
    marker = f"end-of-count-{uuid.uuid4().hex}"
    commands = RedisCommands()
    marking = redis.Redis(connection_pool=client.connection_pool, single_connection_client=True)
    marking.ping()  # connected (and its database selected) before the count
    with marking, client.monitor() as monitor:
        yield commands
        marking.echo(marker)
        while True:
            command = monitor.next_command()
            if marker in command["command"]:
                break
            if int(command["db"]) != database:
                continue
            scripted = command["client_type"] == "lua"
            (commands.scripted if scripted else commands.sent).append(command["command"])
