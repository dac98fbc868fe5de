"""What the bot is doing, for Prometheus: ``METRICS_PORT`` set serves ``/metrics``.

One :class:`Metrics` per bot owns its own ``CollectorRegistry`` (never the global one, so
two bots in a process, or the tests, do not collide). The parts of the bot call its small
methods (:meth:`Metrics.action`, :meth:`Metrics.error`, …); :data:`OFF`, the instance
they hold when no port is set, returns from each at once, so nothing is recorded and
nothing listens (prometheus-client is not even imported: the console and the tests
that build a store or an outbox alone pay nothing).

The endpoint is prometheus-client's aiohttp handler on the bot's own event loop: a
scrape reads the gauges (games running, queue lengths, gateway latency) on the loop that
owns them, and :meth:`Metrics.stop` closes the listener in a fraction of a second.

No label ever carries a card, a name or other user content: labels are fixed words
(``source``, ``kind``, ``stage``).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from aiohttp import web

log = logging.getLogger("bot.metrics")

PREFIX = "european_war"
LATENCY_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0)
"""Seconds; dense below Discord's 3 s deadline."""
RENDER_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0, 2.0, 5.0)
DB_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
SOURCES = ("player", "computer", "timeout", "system")
ERROR_KINDS = (
    "interaction",
    "interaction_expired",
    "delivery",
    "outbox_refused",
    "outbox_retry",
    "permission_lost",
    "store",
    "render_placeholder",
    "render_worker_died",
)
"""Every ``kind`` :meth:`Metrics.error` takes (each is exported from the start, at 0)."""
STOP_BUDGET = 0.25
"""Seconds a stop waits for a scrape in progress."""


class Metrics:
    """The bot's metrics; ``enabled=False`` records nothing (see :data:`OFF`)."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        """The port listened on (after :meth:`start`), None otherwise."""
        self.registry: Any = None
        """This bot's own ``CollectorRegistry`` (None when disabled)."""
        if not enabled:
            return
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        self.registry = CollectorRegistry()
        r = self.registry
        self.actions = Counter(
            f"{PREFIX}_actions",
            "Actions applied to games, by who made them (rate() is actions per second).",
            ["source"],
            registry=r,
        )
        self.errors = Counter(f"{PREFIX}_errors", "Errors, by kind.", ["kind"], registry=r)
        self.interaction_latency = Histogram(
            f"{PREFIX}_interaction_latency_seconds",
            "From an interaction's creation to its acknowledgement (stage=ack) and to its "
            "first real answer (stage=answer).",
            ["stage"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.render_seconds = Histogram(
            f"{PREFIX}_render_seconds",
            "Wall time of an image from leaving the render queue to its PNG in the bot "
            "(kind: board, hand, an extra image, or replay; a worker may have one job ahead "
            "of it).",
            ["kind"],
            buckets=RENDER_BUCKETS,
            registry=r,
        )
        self.render_cpu_seconds = Histogram(
            f"{PREFIX}_render_cpu_seconds",
            "CPU time a worker spent drawing an image.",
            ["kind"],
            buckets=RENDER_BUCKETS,
            registry=r,
        )
        self.db_write_seconds = Histogram(
            f"{PREFIX}_db_write_seconds",
            "Time of one group commit of the store (every action queued meanwhile).",
            buckets=DB_BUCKETS,
            registry=r,
        )
        self.games_running = Gauge(f"{PREFIX}_games_running", "Games being played.", registry=r)
        self.render_queue = Gauge(
            f"{PREFIX}_render_queue", "Images waiting for a render worker.", registry=r
        )
        self.outbox_queue = Gauge(
            f"{PREFIX}_outbox_queue", "Messages waiting in the outbox to be sent.", registry=r
        )
        self.gateway_latency = Gauge(
            f"{PREFIX}_gateway_latency_seconds",
            "Discord gateway heartbeat latency (NaN before the first heartbeat).",
            registry=r,
        )
        for source in SOURCES:
            self.actions.labels(source)
        for kind in ERROR_KINDS:
            self.errors.labels(kind)

    # ------------------------------------------------------------------ call sites
    def action(self, source: str) -> None:
        """An action was applied (``source``: player, computer, timeout or system)."""
        if self.enabled:
            self.actions.labels(source if source in SOURCES else "system").inc()

    def error(self, kind: str) -> None:
        """An error of ``kind`` (one of :data:`ERROR_KINDS`) happened."""
        if self.enabled:
            self.errors.labels(kind).inc()

    def interaction(self, stage: str, seconds: float) -> None:
        """An interaction reached ``stage`` (``ack`` or ``answer``) ``seconds`` after its
        creation."""
        if self.enabled:
            self.interaction_latency.labels(stage).observe(max(0.0, seconds))

    def rendered(self, kind: str, wall: float, cpu: float) -> None:
        """An image of ``kind`` was drawn in ``wall`` seconds using ``cpu`` seconds."""
        if self.enabled:
            self.render_seconds.labels(kind).observe(wall)
            self.render_cpu_seconds.labels(kind).observe(cpu)

    def db_write(self, seconds: float) -> None:
        """The store committed a batch of writes in ``seconds``."""
        if self.enabled:
            self.db_write_seconds.observe(seconds)

    def watch(
        self,
        *,
        games: Callable[[], float],
        render_queue: Callable[[], float],
        outbox_queue: Callable[[], float],
        gateway_latency: Callable[[], float],
    ) -> None:
        """The gauges read at each scrape (on the event loop, see the module docstring)."""
        if not self.enabled:
            return
        self.games_running.set_function(games)
        self.render_queue.set_function(render_queue)
        self.outbox_queue.set_function(outbox_queue)
        self.gateway_latency.set_function(lambda: _finite_or_nan(gateway_latency()))

    # ------------------------------------------------------------------ the endpoint
    async def start(self, host: str, port: int) -> None:
        """Serve ``/metrics`` on ``host:port`` (port 0: a free one, see :attr:`port`).

        Raises:
            OSError: the address cannot be bound (in use, not permitted).
        """
        if not self.enabled or self._runner is not None:
            return
        from aiohttp import web
        from prometheus_client.aiohttp import make_aiohttp_handler

        app = web.Application()
        app.router.add_get("/metrics", make_aiohttp_handler(self.registry))
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=STOP_BUDGET)
        await runner.setup()
        try:
            site = web.TCPSite(runner, host, port)
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else port
        log.info("metrics: serving http://%s:%s/metrics", host, self.port)

    async def stop(self) -> None:
        """Stop listening (safe to call twice, or without a start)."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
        self.port = None


def _finite_or_nan(value: float) -> float:
    return value if isinstance(value, float) and math.isfinite(value) else math.nan


OFF = Metrics(enabled=False)
"""The metrics of a bot without ``METRICS_PORT``: every call returns at once."""
