"""The bot's one door to the renderer: every image is drawn and encoded in a pool of worker
processes, one per core, so a board never holds the event loop's interpreter lock
(ARCHITECTURE rule 7) and a 2-core machine draws twice what one core does.

- The pool is started lazily (by :meth:`Images.warm_up` at start-up, else by the first
  image) and never blocks the event loop: worker processes are *spawned* (nothing of the
  bot is inherited) and each warms the renderer's caches in its initializer.
- A gate keeps at most one job per worker in flight and serves channel images (boards,
  contests) before hands.
- A worker that dies (a crash, the OOM killer) does not stop games: the pool is started
  anew and the image tried once more; if that fails too, or drawing raises (a renderer
  bug), a small plain placeholder is sent instead and the fault is logged.
- ``workers=0`` draws in threads of the bot's own process instead (``RENDER_WORKERS=0``:
  one core, no extra processes; the tests use it for bots they start by the dozen).
- The board of a game version is cached, so ``/board`` right after an action costs
  nothing.
- Every image names its game: the pictures come from the render registry
  (:func:`render.images_for`, by the game's registry name). A game that registered none
  has none (:meth:`Images.draws` is False; asking raises :class:`NoImages`): the front
  end shows it in words.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import io
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.connection import wait as mp_wait
from multiprocessing.process import BaseProcess
from typing import Any

import discord
from PIL import Image, ImageDraw

import render
import rules

from . import render_worker
from .config import render_workers
from .metrics import OFF, Metrics
from .render_worker import NoImages

__all__ = ["BOARD_FILE", "HAND_FILE", "Images", "NoImages", "Picture", "cores"]

log = logging.getLogger("bot.images")

BOARD_FILE = "board.png"
HAND_FILE = "hand.png"
ALT_LIMIT = 1024
MAX_THREADS = 4
"""Drawing threads at most when ``workers=0``."""


@dataclass(frozen=True, slots=True)
class Picture:
    """PNG bytes with a file name and alt text (the attachment's description)."""

    data: bytes
    filename: str
    description: str

    def file(self) -> discord.File:
        """A fresh upload of this picture (a ``discord.File`` is consumed when sent)."""
        return discord.File(io.BytesIO(self.data), self.filename, description=self.description)


def cores() -> int:
    """The CPUs this process may run on (its affinity, else the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _placeholder(text: str) -> bytes:
    image = Image.new("RGB", (480, 120), (236, 232, 220))
    ImageDraw.Draw(image).text((12, 50), text[:70], fill=(40, 40, 40))
    buf = io.BytesIO()
    image.save(buf, "PNG")
    return buf.getvalue()


def _extra_file(name: str) -> str:
    """The file name of the extra image ``name``."""
    return f"{name}.png"


IN_FLIGHT_PER_WORKER = 2
"""Jobs handed to each worker process at once (see :class:`Images`)."""


class _Gate:
    """At most ``slots`` drawings at once; channel images (urgent) go before hands.

    With worker processes, a job waiting here rather than in the pool's queue can still
    be overtaken by a more urgent one; with threads, drawing holds the GIL much of the
    time, so more threads than cores only slow every drawing down and starve the event
    loop."""

    def __init__(self, slots: int) -> None:
        self.free = slots
        self.waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self.order = 0

    async def acquire(self, urgent: bool) -> None:
        """Wait for a slot (urgent first, then in arrival order)."""
        if self.free > 0 and not self.waiting:
            self.free -= 1
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.order += 1
        heapq.heappush(self.waiting, (0 if urgent else 1, self.order, fut))
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self.release()
            raise

    def release(self) -> None:
        """Give a slot back (to the first waiter, if any)."""
        while self.waiting:
            _, _, fut = heapq.heappop(self.waiting)
            if not fut.done():
                fut.set_result(None)
                return
        self.free += 1

    async def __call__(self, urgent: bool, fn: Any, *args: Any) -> Any:
        """Run ``fn(*args)`` in a thread once a slot is free."""
        await self.acquire(urgent)
        try:
            return await asyncio.to_thread(fn, *args)
        finally:
            self.release()


class Images:
    """Renders off the event loop, in worker processes (or threads), with a small cache
    of recent boards.

    Args:
        cache_size: boards kept by (game id, version).
        workers: worker processes; None reads ``RENDER_WORKERS`` from the environment
            (empty: one per core, see :func:`cores`); 0 draws in threads of this
            process instead.
        warm: each worker builds every cache as it starts (a few seconds of CPU);
            False leaves them to the first images that need them (tests).
    """

    def __init__(
        self, cache_size: int = 64, workers: int | None = None, *, warm: bool = True
    ) -> None:
        if workers is None:
            workers = render_workers(os.environ.get("RENDER_WORKERS"))
        self.workers = cores() if workers is None else max(0, workers)
        self._boards: OrderedDict[tuple[int, int], tuple[bytes, str]] = OrderedDict()
        self._size = cache_size
        # two jobs in flight per worker: the next job is already in the worker's pipe
        # when one ends (one per worker left each idle for the round trip: 30 boards/s
        # with one worker, 65 with two in flight); more would only delay urgent images
        slots = IN_FLIGHT_PER_WORKER * self.workers or max(1, min(MAX_THREADS, cores()))
        self._gate = _Gate(slots)
        self._warm = warm
        self._pool: ProcessPoolExecutor | None = None
        self._starting: asyncio.Future[None] | None = None
        self._ready: list[Future[int]] = []
        self._processes: dict[int, list[BaseProcess]] = {}
        """The worker processes of each pool started (by the pool's id)."""
        self._closed = False
        self.pools_started = 0
        """Pools started so far (more than one means a worker died and was replaced)."""
        self.rendered = 0
        """Images drawn (placeholders not counted)."""
        self.cpu_seconds = 0.0
        """CPU time the drawn images took, summed over workers (or threads)."""
        self.metrics: Metrics = OFF
        """Where render times and placeholders are counted (the bot sets its own)."""

    @property
    def queued(self) -> int:
        """Images waiting for a free worker (or thread)."""
        return len(self._gate.waiting)

    # ------------------------------------------------------------------ the pool
    async def _executor(self) -> ProcessPoolExecutor | None:
        """The running pool, started if there is none (once, however many ask); None
        once closed."""
        while self._pool is None and not self._closed:
            if self._starting is None:
                self._starting = asyncio.ensure_future(self._start())
            await asyncio.shield(self._starting)
        return None if self._closed else self._pool

    async def _start(self) -> None:
        try:
            # spawning a process takes ~15 ms: done in a thread, all of them now, so no
            # later submit spawns one on the event loop
            pool, ready = await asyncio.to_thread(self._spawn)
            self.pools_started += 1
            self._pool, self._ready = pool, ready
        finally:
            self._starting = None

    def _spawn(self) -> tuple[ProcessPoolExecutor, list[Future[int]]]:
        ctx = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=ctx,
            initializer=render_worker.start,
            initargs=(self._warm, ctx.Barrier(self.workers)),
        )
        # the roll call, one job per worker: every worker starts now (no later submit
        # spawns one on the event loop), and the jobs end when all are warm
        ready = [pool.submit(render_worker.ready) for _ in range(self.workers)]
        # remembered here: the pool forgets its processes once it is shut down
        self._processes[id(pool)] = list((getattr(pool, "_processes", None) or {}).values())
        return pool, ready

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        """Drop a broken pool (if it is still the current one) and end its workers."""
        if self._pool is pool:
            self._pool, self._ready = None, []
        _stop(pool, self._processes.pop(id(pool), []))

    def worker_pids(self) -> list[int]:
        """Process ids of the running workers (none before the pool starts)."""
        procs = getattr(self._pool, "_processes", None) or {}
        return sorted(p.pid for p in procs.values() if p.is_alive() and p.pid)

    async def _run(
        self, urgent: bool, fn: Callable[..., Any], *args: Any, kind: str | None = None
    ) -> Any:
        """``fn(*args)`` in a worker (or a thread), once the gate lets it through. With a
        ``kind`` (board, hand, an extra image), its wall time from then on goes to the metrics with
        the CPU time the job reports (the last item of its result).

        A pool whose worker died is replaced and the job sent again, once; after
        :meth:`close` the job is done in a thread.

        Raises:
            BrokenProcessPool: a worker died in two pools in a row.
            Exception: whatever ``fn`` raised.
        """
        await self._gate.acquire(urgent)
        try:
            started = time.perf_counter()
            result = await self._draw(fn, *args)
            if kind is not None:
                self.metrics.rendered(kind, time.perf_counter() - started, result[-1])
            return result
        finally:
            self._gate.release()

    async def _draw(self, fn: Callable[..., Any], *args: Any) -> Any:
        broken = 0
        while True:
            if self.workers == 0 or self._closed:
                return await asyncio.to_thread(fn, *args)
            pool = await self._executor()
            if pool is None:
                continue
            try:
                job = pool.submit(fn, *args)
                return await asyncio.wrap_future(job)
            except BrokenProcessPool:
                self._discard(pool)
                if self._closed:  # ended by close(): drawn in a thread instead
                    continue
                self.metrics.error("render_worker_died")
                broken += 1
                if broken == 2:
                    raise
                log.warning(
                    "a render worker died; starting new workers and drawing the image again"
                )
            except asyncio.CancelledError:
                if not (self._closed and job.cancelled() and not _cancelling()):
                    raise

    async def close(self) -> None:
        """Stop the worker processes at once, without waiting for a warm-up to end. An
        image in flight, or asked for later, is drawn in a thread of this process."""
        self._closed = True
        if self._starting is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._starting)
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(_join, _stop(pool, self._processes.pop(id(pool), [])))

    # ------------------------------------------------------------------ images
    @staticmethod
    def draws(game: str) -> bool:
        """Whether the game registered as ``game`` has images (else: words only)."""
        return render.images_for(game) is not None

    @staticmethod
    def channel_files(game: str) -> frozenset[str]:
        """The file names of ``game``'s channel pictures: its board and extra images."""
        drawer = render.images_for(game)
        extras = drawer.extras if drawer is not None else ()
        return frozenset({BOARD_FILE, *(_extra_file(name) for name in extras)})

    @staticmethod
    def holding(view: Any, game: str) -> Any:
        """What the seat of ``view`` holds privately, as ``game``'s images keep it (see
        :meth:`render.GameImages.holding`), or ``None``: a spectator, nothing held, or a
        game without images (its hand is told in words)."""
        drawer = render.images_for(game)
        return None if drawer is None or view is None else drawer.holding(view)

    async def board(
        self,
        view: Any,
        names: Sequence[str],
        events: Sequence[rules.Event] = (),
        *,
        game: str,
        key: tuple[int, int] | None = None,
    ) -> Picture:
        """The board PNG of ``game`` with its text summary as alt text. ``key`` (game id,
        version) caches it; a cached board is reused only when no events are to be drawn.

        Raises:
            NoImages: the game has no images (see :meth:`draws`).
        """
        render_worker.images(game)
        cached = self._boards.get(key) if key is not None else None
        if cached is not None and not events:
            data, alt = cached
        else:
            data, alt = await self._draw_board(game, view, tuple(names), tuple(events))
            if key is not None:
                self._boards[key] = (data, alt)
                self._boards.move_to_end(key)
                while len(self._boards) > self._size:
                    self._boards.popitem(last=False)
        return Picture(data, BOARD_FILE, alt[:ALT_LIMIT])

    def board_text(self, view: Any, names: Sequence[str], *, game: str) -> str:
        """The board of ``game`` in words (drawn here: it is cheap).

        Raises:
            NoImages: the game has no images (see :meth:`draws`).
        """
        return render_worker.images(game).board_text(view, names)

    async def _draw_board(
        self, game: str, view: Any, names: tuple[str, ...], events: tuple[rules.Event, ...]
    ) -> tuple[bytes, str]:
        try:
            data, summary, fault, cpu = await self._run(
                True, render_worker.board_job, game, view, names, events, kind="board"
            )
        except Exception:
            log.exception("board image failed")
            self.metrics.error("render_placeholder")
            return _placeholder("The board image could not be drawn; see /status."), "The board."
        self._count(cpu)
        if fault is not None:
            log.error("board summary failed:\n%s", fault)
        return data, summary or "The board."

    async def hand(self, holding: Any, title: str = "", *, game: str) -> Picture:
        """What one seat of ``game`` holds (a hand of cards: ``view.hand``, see
        :meth:`render.GameImages.holding`).

        Raises:
            NoImages: the game has no images, or shows what a seat holds in words only.
        """
        drawer = render_worker.images(game)
        try:
            data, cpu = await self._run(
                False, render_worker.private_job, game, holding, title, kind="hand"
            )
            if data is None:
                raise NoImages(f"the game {game!r} shows what a seat holds in words")
            self._count(cpu)
        except NoImages:
            raise
        except Exception:
            log.exception("hand image failed")
            self.metrics.error("render_placeholder")
            data = _placeholder("Your cards are listed in the message.")
        return Picture(data, HAND_FILE, drawer.private_text(holding)[:ALT_LIMIT])

    async def extra(
        self,
        name: str,
        view: Any,
        names: Sequence[str],
        result: rules.Event | None = None,
        events: Sequence[rules.Event] = (),
        *,
        game: str,
    ) -> Picture:
        """The extra image ``name`` of ``game`` (see :attr:`render.GameImages.extras`).

        Raises:
            NoImages: the game has no such image.
        """
        drawer = render_worker.images(game)
        if name not in drawer.extras:
            raise NoImages(f"the game {game!r} has no {name!r} image")
        try:
            data, cpu = await self._run(
                True,
                render_worker.extra_job,
                game,
                name,
                view,
                tuple(names),
                result,
                tuple(events),
                kind=name,
            )
            self._count(cpu)
        except Exception:
            log.exception("%s image failed", name)
            self.metrics.error("render_placeholder")
            data = _placeholder(f"The {name} is described in the message.")
        return Picture(data, _extra_file(name), drawer.extra_text(name)[:ALT_LIMIT])

    async def contest(
        self,
        view: Any,
        names: Sequence[str],
        result: rules.Event | None = None,
        events: Sequence[rules.Event] = (),
        *,
        game: str,
    ) -> Picture | None:
        """The contest under way in ``view``, or how one ended (``result``): the game's
        extra image for it (:attr:`render.GameImages.contest`); None if it has none."""
        drawer = render.images_for(game)
        name = drawer.contest if drawer is not None else None
        if name is None:
            return None
        return await self.extra(name, view, names, result, events, game=game)

    def _count(self, cpu: float) -> None:
        self.rendered += 1
        self.cpu_seconds += cpu

    async def warm_up(self) -> None:
        """Start the workers now (each warms every registered game's images: static
        layers, palettes, sprites, one sample board) and wait until all are ready, so
        the first real image is fast. Without workers, warm this process in a thread."""
        if self._closed:
            return
        if self.workers == 0:
            await asyncio.to_thread(render_worker.warm)
            return
        try:
            pool = await self._executor()
        except Exception:
            log.exception("the render workers could not be started")
            return
        if pool is None:
            return
        try:
            await asyncio.gather(*(asyncio.wrap_future(f) for f in self._ready))
        except BrokenProcessPool:
            self._discard(pool)
            if not self._closed:
                log.warning(
                    "a render worker died while warming up; new ones start with the next image"
                )
        except threading.BrokenBarrierError:
            log.warning(
                "the render workers were not all warm after %.0f s", render_worker.ROLL_CALL_TIMEOUT
            )
        except asyncio.CancelledError:
            if not self._closed or _cancelling():
                raise


def _cancelling() -> bool:
    """Whether the running task itself is being cancelled (not just a job it awaits)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _stop(pool: ProcessPoolExecutor, known: list[BaseProcess]) -> list[BaseProcess]:
    """Cancel a pool's queued jobs and end its workers (SIGTERM) without waiting for them:
    a worker may be in its seconds-long warm-up, and shutting down must not wait for it.
    ``known``: the workers listed when the pool started (a pool already shut down lists
    none). Returns the worker processes, to join."""
    procs = list(known)
    procs += [p for p in (getattr(pool, "_processes", None) or {}).values() if p not in procs]
    pool.shutdown(wait=False, cancel_futures=True)  # forgets its processes: listed first
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    return procs


def _join(procs: list[BaseProcess], timeout: float = 0.5) -> None:
    """Wait up to ``timeout`` seconds in all for ended workers to exit, then kill any
    still there (a stop must not wait on them) and wait for those."""
    for proc in running(procs, timeout):
        proc.kill()
    running(procs, 5.0)  # killed: gone at once


def running(procs: Sequence[BaseProcess], timeout: float = 0.0) -> list[BaseProcess]:
    """The processes of ``procs`` still running after up to ``timeout`` seconds. Read from
    their sentinels, not ``is_alive()``: the pool's own thread may be reaping them at the
    same moment, and a process reaped by another thread can look alive for a while."""
    left: dict[Any, BaseProcess] = {proc.sentinel: proc for proc in procs}
    until = time.monotonic() + timeout
    while left:
        ended = mp_wait(list(left), max(0.0, until - time.monotonic()))
        if not ended:
            break
        for sentinel in ended:
            left.pop(sentinel)
    return list(left.values())
