"""Deadline timers on an injectable clock.

A :class:`Clock` gives wall time (seconds since the epoch, so deadlines stored by one
process mean the same instant to the next) and sleeps until a given instant. Production
uses :class:`RealClock`; tests use :class:`FakeClock`, whose time moves only when the test
calls :meth:`FakeClock.advance` — no sleep-and-hope.

The :class:`Scheduler` keeps timers keyed by a tuple whose first item is its *group* (the
service uses the game id) in a heap watched by one runner task. Re-scheduling a key
replaces its timer; a timer whose callback has started is never interrupted by a
re-schedule or a cancel (only by :meth:`Scheduler.close`). :meth:`Scheduler.busy` tells
whether a group has a timer that is running or already due, which is what lets the
service's ``idle()`` be event-driven.
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
    __slots__ = ("callback", "key", "seq", "task", "when")

    def __init__(
        self, key: tuple[Hashable, ...], when: float, callback: Callback, seq: int
    ) -> None:
        self.key = key
        self.when = when
        self.callback = callback
        self.seq = seq
        self.task: asyncio.Task[None] | None = None
        """Set once the callback runs."""


class Scheduler:
    """Named one-shot timers on a :class:`Clock`.

    One runner task sleeps until the earliest timer (a heap; re-scheduled and cancelled
    timers are dropped lazily), so a thousand games' deadlines cost a thousand heap
    entries, not a thousand sleeping tasks, and re-arming a deadline costs a push.
    Each due callback runs in its own task.
    """

    def __init__(self, clock: Clock, on_change: Callable[[], None] | None = None) -> None:
        self.clock = clock
        self._timers: dict[tuple[Hashable, ...], _Timer] = {}
        self._groups: dict[Hashable, set[tuple[Hashable, ...]]] = {}
        self._heap: list[tuple[float, int, tuple[Hashable, ...]]] = []
        self._running: set[_Timer] = set()
        self._order = itertools.count()
        self._wake: asyncio.Event | None = None
        self._runner: asyncio.Task[None] | None = None
        self._on_change = on_change or (lambda: None)
        self._closed = False

    @property
    def closed(self) -> bool:
        """True once :meth:`close` began: nothing more may be scheduled."""
        return self._closed

    def schedule(self, key: tuple[Hashable, ...], when: float, callback: Callback) -> None:
        """Run ``callback`` at ``when`` under ``key`` (group ``key[0]``), replacing the
        key's waiting timer. A timer at the same instant is left as it is.

        Raises:
            RuntimeError: the scheduler is closed.
        """
        if self._closed:
            raise RuntimeError("scheduler closed")
        old = self._timers.get(key)
        if old is not None and old.when == when:
            return
        timer = _Timer(key, when, callback, next(self._order))
        self._timers[key] = timer
        self._groups.setdefault(key[0], set()).add(key)
        earliest = self._heap[0][0] if self._heap else None
        heapq.heappush(self._heap, (when, timer.seq, key))
        if self._runner is None or self._runner.done():
            self._wake = asyncio.Event()
            self._runner = asyncio.get_running_loop().create_task(self._run())
        elif earliest is None or when < earliest:
            assert self._wake is not None
            self._wake.set()

    def cancel(self, key: tuple[Hashable, ...]) -> None:
        """Drop ``key``'s waiting timer (a callback already running goes on)."""
        if self._timers.pop(key, None) is not None:
            group = self._groups.get(key[0])
            if group is not None:
                group.discard(key)
                if not group:
                    del self._groups[key[0]]

    def cancel_group(self, group: Hashable) -> None:
        """Drop every waiting timer of ``group``."""
        for key in list(self._groups.get(group, ())):
            self.cancel(key)

    def keys(self, group: Hashable) -> list[tuple[Hashable, ...]]:
        """The keys of ``group``'s waiting timers."""
        return list(self._groups.get(group, ()))

    def when(self, key: tuple[Hashable, ...]) -> float | None:
        """When ``key``'s waiting timer fires, or None."""
        timer = self._timers.get(key)
        return timer.when if timer is not None else None

    def busy(self, group: Hashable | None = None) -> bool:
        """True while a timer (of ``group``, or any) runs or is already due."""
        now = self.clock.now()
        if any(group is None or t.key[0] == group for t in self._running):
            return True
        if group is None:
            return bool(self._heap) and any(t.when <= now for t in self._timers.values())
        return any(self._timers[k].when <= now for k in self._groups.get(group, ()))

    async def close(self) -> None:
        """Drop every timer, cancel running callbacks and wait for them to end."""
        self._closed = True
        self._timers.clear()
        self._groups.clear()
        self._heap.clear()
        tasks = [t.task for t in self._running if t.task is not None]
        if self._runner is not None:
            tasks.append(self._runner)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self) -> None:
        """Sleep until the earliest timer (or an earlier one arrives); start what is due."""
        assert self._wake is not None
        wake = self._wake
        while not self._closed:
            heap = self._heap
            while heap and (
                heap[0][2] not in self._timers or self._timers[heap[0][2]].seq != heap[0][1]
            ):
                heapq.heappop(heap)  # cancelled or re-scheduled: drop lazily
            if not heap:
                wake.clear()
                await wake.wait()
                continue
            when, _, key = heap[0]
            if when > self.clock.now():
                wake.clear()
                sleeper = asyncio.ensure_future(self.clock.sleep_until(when))
                waker = asyncio.ensure_future(wake.wait())
                try:
                    await asyncio.wait((sleeper, waker), return_when=asyncio.FIRST_COMPLETED)
                finally:
                    sleeper.cancel()
                    waker.cancel()
                continue
            heapq.heappop(heap)
            timer = self._timers.pop(key)
            group = self._groups.get(key[0])
            if group is not None:
                group.discard(key)
                if not group:
                    del self._groups[key[0]]
            self._running.add(timer)
            timer.task = asyncio.get_running_loop().create_task(self._fire(timer))

    async def _fire(self, timer: _Timer) -> None:
        try:
            await timer.callback()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("timer %r failed", timer.key)
        finally:
            self._running.discard(timer)
            self._on_change()
