"""Deadline timers on an injectable clock.

A :class:`Clock` gives wall time (seconds since the epoch, so deadlines stored by one
process mean the same instant to the next) and sleeps until a given instant. Production
uses :class:`RealClock`; tests use :class:`FakeClock`, whose time moves only when the test
calls :meth:`FakeClock.advance` — no sleep-and-hope.

The :class:`Scheduler` runs one small task per timer, keyed by a tuple whose first item is
its *group* (the service uses the game id). Re-scheduling a key replaces its timer; a
timer whose callback has started is never interrupted by a re-schedule or a cancel (only
by :meth:`Scheduler.close`). :meth:`Scheduler.busy` tells whether a group has a timer that
is running or already due, which is what lets the service's ``idle()`` be event-driven.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Protocol

log = logging.getLogger(__name__)

Callback = Callable[[], Awaitable[None]]


class Clock(Protocol):
    """Wall time and sleeping, injectable for tests."""

    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    async def sleep_until(self, when: float) -> None:
        """Return once ``now() >= when`` (at once if it already is)."""
        ...


class RealClock:
    """The system clock. Long sleeps wake every few minutes to re-check the wall time,
    so a clock adjustment never makes a deadline fire hours late."""

    max_nap = 300.0

    def now(self) -> float:
        """Seconds since the epoch (``time.time()``)."""
        return time.time()

    async def sleep_until(self, when: float) -> None:
        """Sleep until the wall clock reaches ``when``."""
        while True:
            delay = when - time.time()
            if delay <= 0:
                return
            await asyncio.sleep(min(delay, self.max_nap))


class FakeClock:
    """A clock that moves only when told to (:meth:`advance`, :meth:`set`)."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        """The fake time."""
        return self._now

    async def sleep_until(self, when: float) -> None:
        """Wait until the fake time reaches ``when`` (yields once if it already has)."""
        if when <= self._now:
            await asyncio.sleep(0)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (when, next(self._order), fut))
        await fut

    def advance(self, seconds: float) -> None:
        """Move time forward and wake every sleeper whose instant has come.

        Raises:
            ValueError: ``seconds`` is negative (time never runs backwards).
        """
        if seconds < 0:
            raise ValueError("time never runs backwards")
        self.set(self._now + seconds)

    def set(self, when: float) -> None:
        """Jump to ``when`` (not earlier than now) and wake the sleepers that are due.

        Raises:
            ValueError: ``when`` is earlier than the current fake time.
        """
        if when < self._now:
            raise ValueError("time never runs backwards")
        self._now = when
        while self._sleepers and self._sleepers[0][0] <= when:
            _, _, fut = heapq.heappop(self._sleepers)
            if not fut.done():
                fut.set_result(None)


class _Timer:
    __slots__ = ("callback", "key", "running", "task", "when")

    def __init__(self, key: tuple[Hashable, ...], when: float, callback: Callback) -> None:
        self.key = key
        self.when = when
        self.callback = callback
        self.running = False
        self.task: asyncio.Task[None] | None = None


class Scheduler:
    """Named one-shot timers on a :class:`Clock`."""

    def __init__(self, clock: Clock, on_change: Callable[[], None] | None = None) -> None:
        self.clock = clock
        self._groups: dict[Hashable, dict[tuple[Hashable, ...], _Timer]] = {}
        self._running: set[_Timer] = set()
        self._on_change = on_change or (lambda: None)
        self._closed = False

    def schedule(self, key: tuple[Hashable, ...], when: float, callback: Callback) -> None:
        """Run ``callback`` at ``when`` under ``key`` (group ``key[0]``), replacing the
        key's sleeping timer. A timer at the same instant is left as it is.

        Raises:
            RuntimeError: the scheduler is closed.
        """
        if self._closed:
            raise RuntimeError("scheduler closed")
        group = self._groups.setdefault(key[0], {})
        old = group.get(key)
        if old is not None:
            if old.when == when and not old.running:
                return
            if not old.running and old.task is not None:
                old.task.cancel()
        timer = _Timer(key, when, callback)
        group[key] = timer
        timer.task = asyncio.get_running_loop().create_task(self._run(timer))

    def cancel(self, key: tuple[Hashable, ...]) -> None:
        """Drop ``key``'s timer unless its callback already runs."""
        group = self._groups.get(key[0])
        timer = group.pop(key, None) if group else None
        if timer is not None and not timer.running and timer.task is not None:
            timer.task.cancel()
        if group is not None and not group:
            del self._groups[key[0]]

    def cancel_group(self, group: Hashable) -> None:
        """Drop every sleeping timer of ``group``."""
        for key in list(self._groups.get(group, {})):
            self.cancel(key)

    def keys(self, group: Hashable) -> list[tuple[Hashable, ...]]:
        """The keys of ``group``'s timers."""
        return list(self._groups.get(group, {}))

    def when(self, key: tuple[Hashable, ...]) -> float | None:
        """When ``key``'s timer fires, or None."""
        timer = self._groups.get(key[0], {}).get(key)
        return timer.when if timer is not None else None

    def busy(self, group: Hashable | None = None) -> bool:
        """True while a timer (of ``group``, or any) runs or is already due."""
        now = self.clock.now()
        if any(group is None or t.key[0] == group for t in self._running):
            return True
        groups = self._groups.values() if group is None else [self._groups.get(group, {})]
        return any(t.when <= now for g in groups for t in g.values())

    async def close(self) -> None:
        """Cancel every timer, running callbacks included, and wait for them to end."""
        self._closed = True
        tasks = [t.task for g in self._groups.values() for t in g.values() if t.task]
        tasks += [t.task for t in self._running if t.task]
        self._groups.clear()
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, timer: _Timer) -> None:
        await self.clock.sleep_until(timer.when)
        timer.running = True
        self._running.add(timer)
        try:
            await timer.callback()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("timer %r failed", timer.key)
        finally:
            self._running.discard(timer)
            group = self._groups.get(timer.key[0])
            if group is not None and group.get(timer.key) is timer:
                del group[timer.key]
                if not group:
                    del self._groups[timer.key[0]]
            self._on_change()
