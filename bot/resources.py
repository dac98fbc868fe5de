"""What the bot runs on, opened by ``python -m bot`` before it meets Discord and closed
after it has left: the store, the game service on it, the render pool, the metrics
(served when ``METRICS_PORT`` is set) and, on PostgreSQL, the process's leases
(:mod:`bot.leases`). The bot is handed them, as discord.py's ``advanced_startup``
example hands its bot a database pool and a web client, and adds only what Discord
needs (:class:`bot.client.GameBot`).

The service hosts the games of the servers on this process's shards (all of them when
unsharded; never the console's, in the same database) and may act on any other server's
game through the database (a DM's panel, which Discord sends to shard 0's process).

One step of their closing belongs to the bot's stop: the games stop, the outbox sends
what it can and the leases are given up before the store closes, all before the bot
disconnects (:meth:`Resources.close_service`). Whatever the bot did not close (a stop
before it started) is closed on leaving :func:`open_resources`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from service import GameService, server_games
from service.store import Store, open_store

from .config import Settings
from .images import Images
from .leases import Leases
from .legacy import import_legacy_files
from .metrics import OFF, Metrics

log = logging.getLogger("bot")


@dataclass
class Resources:
    """The store, the service hosting the games of servers on it, the images, the
    metrics and the leases (PostgreSQL; None on SQLite) of one bot (see the module
    docstring)."""

    store: Store
    service: GameService
    images: Images
    metrics: Metrics
    leases: Leases | None = None
    service_closed: bool = False

    async def close_service(
        self, before_store: Callable[[], Awaitable[None]] | None = None
    ) -> None:
        """Stop the games (timers, computer players), run ``before_store``, give up the
        leases, then close the store (see :meth:`service.GameService.close`); the first
        call only."""
        if self.service_closed:
            return
        self.service_closed = True

        async def last() -> None:
            if before_store is not None:
                await before_store()
            if self.leases is not None:
                await self.leases.release()

        await self.service.close(before_store=last)


@contextlib.asynccontextmanager
async def open_resources(
    settings: Settings,
    *,
    store: Store | None = None,
    service_options: dict[str, Any] | None = None,
) -> AsyncIterator[Resources]:
    """Open what the bot runs on (see the module docstring); close it on leaving.

    Args:
        settings: the database, the render workers and the metrics' address.
        store: the store, already opened and checked (``python -m bot`` opens it before
            anything else, see :mod:`bot.preflight`); else it is opened here.
        service_options: keyword arguments for :class:`service.GameService` (tests pass a
            fake clock, no computer pacing and fixed seeds); ``hosts`` and ``visits``
            default as the module docstring says.
    """
    async with contextlib.AsyncExitStack() as stack:
        if store is None:
            store = await open_store(settings.database)
        hosting = {"hosts": _hosts(settings), "visits": server_games}
        service = GameService(store, **{**hosting, **(service_options or {})})
        metrics = OFF if settings.metrics_port is None else Metrics()
        resources = Resources(store, service, Images(workers=settings.render_workers), metrics)
        if settings.postgres:
            resources.leases = Leases(store, settings.shard_leases, settings.lease_seconds)
        stack.push_async_callback(resources.close_service)
        stack.push_async_callback(resources.images.close)
        stack.push_async_callback(metrics.stop)
        store.metrics = resources.images.metrics = metrics
        service.on_applied = metrics.action
        service.announces = True  # each action's message is owed until kept or sent
        await import_legacy_files(service.front_store, settings.state_dir, service.clock.now())
        await _serve_metrics(metrics, settings)
        yield resources


def _hosts(settings: Settings) -> Callable[[int | None, int], bool]:
    """Whether a game is this process's, by (guild id, channel id): one of a server on
    its shards."""

    def hosts(guild_id: int | None, channel_id: int) -> bool:
        return settings.hosts(guild_id)

    return hosts


async def _serve_metrics(metrics: Metrics, settings: Settings) -> None:
    """Serve the metrics if ``METRICS_PORT`` is set. A port that cannot be bound is logged
    and the bot plays on without it (the games matter more)."""
    if settings.metrics_port is None:
        return
    try:
        await metrics.start(settings.metrics_host, settings.metrics_port)
    except OSError as exc:
        log.error(
            "metrics: cannot listen on %s:%s (%s); going on without metrics",
            settings.metrics_host,
            settings.metrics_port,
            exc,
        )
