"""The bot's one door to the renderer: every image is drawn and encoded in worker
processes, one per core, so a board never holds the event loop's interpreter lock
(ARCHITECTURE rule 7) and a 2-core machine draws twice what one core does.

- The workers are started lazily (by :meth:`Images.warm_up` at start-up, else by the
  first image) and never block the event loop: they are *spawned* (nothing of the bot
  is inherited), each in a pool of its own, and each warms the renderer's caches in its
  initializer.
- A gate keeps at most two jobs per worker in flight and serves channel images (boards,
  contests) before hands.
- A game's boards go to one worker (its *home*, chosen when the game's first board is
  drawn: the worker with the fewest games), so that worker's caches hold the game's
  panel parts and deflated bands; a job goes to another worker only when nothing
  waiting is for that one (see :class:`_Gate`).
- A worker that dies (a crash, the OOM killer) does not stop games: it is started anew
  and the image tried once more; if that fails too, or drawing raises (a renderer
  bug), a small plain placeholder is sent instead and the fault is logged.
- ``workers=0`` draws in threads of the bot's own process instead (``RENDER_WORKERS=0``:
  one core, no extra processes; the tests use it for bots they start by the dozen).
- The board of a game version is cached (per language), so ``/board`` right after an
  action costs nothing.
- Every job is drawn in the language of the context that asked for it
  (:func:`i18n.current`: the delivery draws a channel's pictures in the game's language
  and a hand in its holder's; a command's answer is in the caller's); the job carries it
  to the worker (see :mod:`bot.render_worker`).
- A replay (seconds of work, where a board takes milliseconds) goes to a worker of its
  own, started at the first replay and run below the others' priority, one replay at a
  time (see :class:`_Background`), so it never holds up a channel's board.
- Every image names its game: the pictures come from the render registry
  (:func:`render.images_for`, by the game's registry name). A game that registered none
  has none (:meth:`Images.draws` is False; asking raises :class:`NoImages`): the front
  end shows it in words.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import multiprocessing
import os
import time
from collections import OrderedDict, deque
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
from render.chart import Series, rating_chart_text
from render.replay import Animation, Frame
from rules import i18n

from . import render_worker
from .catalogue import _
from .config import render_workers
from .metrics import OFF, Metrics
from .render_worker import NoImages

__all__ = ["BOARD_FILE", "CHART_FILE", "HAND_FILE", "Images", "NoImages", "Picture", "cores"]

log = logging.getLogger("bot.images")

BOARD_FILE = "board.png"
HAND_FILE = "hand.png"
CHART_FILE = "rating.png"
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

HOMES_KEPT = 10_000
"""Games whose home worker is remembered (the least recently drawn are forgotten)."""


class _Gate:
    """Job slots: ``per_worker`` jobs at once on each of ``workers`` workers; channel
    images (urgent) go before hands.

    A job may name the worker it prefers (its game's home). A slot that frees up on a
    worker goes to the oldest waiting job of the highest urgency that prefers that
    worker or none; only when no such job waits does it go to the oldest job of that
    urgency preferring another worker (a busy home must not leave a worker idle). With
    worker processes, a job waiting here rather than in a worker's queue can still be
    overtaken by a more urgent one; with threads (one worker, several slots), drawing
    holds the GIL much of the time, so more threads than cores only slow every drawing
    down and starve the event loop."""

    def __init__(self, workers: int, per_worker: int) -> None:
        self.free = [per_worker] * workers
        """Free slots of each worker."""
        self.order = 0
        self.waiting: tuple[dict[int | None, deque[tuple[int, asyncio.Future[int]]]], ...] = (
            {},
            {},
        )
        """Per urgency (0: urgent, 1: not), the waiting jobs by the worker they prefer
        (``None``: any), each as (arrival order, the future that gets its worker)."""

    def __len__(self) -> int:
        """Jobs waiting for a slot (some may have been cancelled meanwhile)."""
        return sum(len(q) for by in self.waiting for q in by.values())

    def pending(self) -> list[tuple[int, int | None]]:
        """(urgency, preferred worker) of every job still waiting: urgent ones first,
        each urgency oldest first."""
        out = [
            (urgency, order, prefer)
            for urgency, by in enumerate(self.waiting)
            for prefer, q in by.items()
            for order, fut in q
            if not fut.done()
        ]
        return [(urgency, prefer) for urgency, _, prefer in sorted(out)]

    async def acquire(self, urgent: bool, prefer: int | None = None) -> int:
        """Wait for a slot and return its worker: ``prefer`` if it has one free, else
        the worker with the most free slots; once all are taken, see the class doc."""
        if prefer is not None and self.free[prefer] > 0:
            self.free[prefer] -= 1
            return prefer
        best = max(range(len(self.free)), key=lambda i: self.free[i])
        if self.free[best] > 0:  # a free slot: nobody is waiting (release hands slots on)
            self.free[best] -= 1
            return best
        fut: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.order += 1
        self.waiting[0 if urgent else 1].setdefault(prefer, deque()).append((self.order, fut))
        try:
            return await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self.release(fut.result())
            raise

    def _next(self, worker: int) -> asyncio.Future[int] | None:
        """Take the waiting job that gets a slot freed on ``worker`` (see the class doc)."""
        for by in self.waiting:
            while True:
                own = [q for q in (by.get(worker), by.get(None)) if q]
                queues = own or [q for q in by.values() if q]
                if not queues:
                    break
                q = min(queues, key=lambda q: q[0][0])
                _, fut = q.popleft()
                if not fut.done():
                    return fut
        return None

    def release(self, worker: int) -> None:
        """Give a slot of ``worker`` back (to the next waiting job, if any)."""
        fut = self._next(worker)
        if fut is None:
            self.free[worker] += 1
        else:
            fut.set_result(worker)

    async def __call__(self, urgent: bool, fn: Any, *args: Any) -> Any:
        """Run ``fn(*args)`` in a thread once a slot is free."""
        worker = await self.acquire(urgent)
        try:
            return await asyncio.to_thread(fn, *args)
        finally:
            self.release(worker)


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
        self._boards: OrderedDict[tuple[int, int, str], tuple[bytes, str]] = OrderedDict()
        """Recent boards by (game id, version, language)."""
        self._size = cache_size
        # two jobs in flight per worker: the next job is already in the worker's pipe
        # when one ends (one per worker left each idle for the round trip: 30 boards/s
        # with one worker, 65 with two in flight); more would only delay urgent images
        if self.workers:
            self._gate = _Gate(self.workers, IN_FLIGHT_PER_WORKER)
        else:
            self._gate = _Gate(1, max(1, min(MAX_THREADS, cores())))
        self._homes: OrderedDict[Any, int] = OrderedDict()
        """The home worker of each game drawn lately (see :meth:`_home`)."""
        self._home_counts = [0] * max(1, self.workers)
        self._warm = warm
        self._pools: list[ProcessPoolExecutor | None] | None = None
        """One pool of one worker process per worker (None: not started; a pool whose
        worker died is None until started anew)."""
        self._starting: dict[int | None, asyncio.Future[None]] = {}
        """Starts under way: of every worker (key None), or of one worker anew."""
        self._ready: list[Future[int]] = []
        self._processes: dict[int, list[BaseProcess]] = {}
        """The worker process of each pool started (by the pool's id)."""
        self._closed = False
        self._background = _Background(processes=self.workers > 0)
        self.pools_started = 0
        """Times workers were started: the first start of them all, then each worker
        started anew after one died."""
        self.rendered = 0
        """Images drawn (placeholders not counted)."""
        self.cpu_seconds = 0.0
        """CPU time the drawn images took, summed over workers (or threads)."""
        self.metrics: Metrics = OFF
        """Where render times and placeholders are counted (the bot sets its own)."""

    @property
    def queued(self) -> int:
        """Images waiting for a free worker (or thread)."""
        return len(self._gate)

    def _home(self, game: Any) -> int | None:
        """The worker that draws ``game``'s boards (a game id; ``None``: any worker). A
        game drawn for the first time (or not lately) gets the worker with the fewest
        games."""
        if game is None or self.workers < 2:
            return None
        home = self._homes.get(game)
        if home is None:
            home = min(range(self.workers), key=lambda i: self._home_counts[i])
            self._homes[game] = home
            self._home_counts[home] += 1
            if len(self._homes) > HOMES_KEPT:
                _, gone = self._homes.popitem(last=False)
                self._home_counts[gone] -= 1
        else:
            self._homes.move_to_end(game)
        return home

    # ------------------------------------------------------------------ the pool
    async def _executor(self, worker: int) -> ProcessPoolExecutor | None:
        """The running pool of ``worker``, started if there is none (once, however many
        ask): every worker's at the first call, else that one anew; None once closed."""
        while not self._closed:
            pools = self._pools
            if pools is not None and pools[worker] is not None:
                return pools[worker]
            which = None if pools is None else worker
            if which not in self._starting:
                self._starting[which] = asyncio.ensure_future(self._start(which))
            await asyncio.shield(self._starting[which])
        return None

    async def _start(self, which: int | None) -> None:
        try:
            # spawning a process takes ~15 ms: done in a thread, all of them now, so no
            # later submit spawns one on the event loop
            count = self.workers if which is None else 1
            started = await asyncio.to_thread(self._spawn, count)
            self.pools_started += 1
            if which is None:
                self._pools = [pool for pool, _ in started]
                self._ready = [ready for _, ready in started]
            else:
                # set: a worker is started anew only once all were, and close() waits
                # for every start before it drops them
                assert self._pools is not None
                self._pools[which] = started[0][0]
        finally:
            del self._starting[which]

    def _spawn(self, count: int) -> list[tuple[ProcessPoolExecutor, Future[int]]]:
        ctx = multiprocessing.get_context("spawn")
        out = []
        for _n in range(count):
            pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=ctx,
                initializer=render_worker.start,
                initargs=(self._warm,),
            )
            # a first job: the worker starts now (no later submit spawns one on the
            # event loop), and the job ends once the worker is warm
            ready = pool.submit(render_worker.ready)
            # remembered here: the pool forgets its process once it is shut down
            self._processes[id(pool)] = list((getattr(pool, "_processes", None) or {}).values())
            out.append((pool, ready))
        return out

    def _discard(self, worker: int, pool: ProcessPoolExecutor) -> None:
        """Drop a broken pool (if it is still the worker's) and end its process."""
        if self._pools is not None and self._pools[worker] is pool:
            self._pools[worker] = None
        _stop(pool, self._processes.pop(id(pool), []))

    def worker_pids(self) -> list[int]:
        """Process ids of the running workers (none before they start)."""
        pids = []
        for pool in self._pools or []:
            procs = getattr(pool, "_processes", None) or {}
            pids += [p.pid for p in procs.values() if p.is_alive() and p.pid]
        return sorted(pids)

    async def _run(
        self,
        urgent: bool,
        fn: Callable[..., Any],
        *args: Any,
        kind: str | None = None,
        home: int | None = None,
    ) -> Any:
        """``fn(*args)`` in a worker (or a thread), once the gate lets it through (to
        the ``home`` worker if it can). With a ``kind`` (board, hand, an extra image), its
        wall time from then on goes to the metrics with the CPU time the job reports (the
        last item of its result).

        A worker that died is started anew and the job sent again, once; after
        :meth:`close` the job is done in a thread.

        Raises:
            BrokenProcessPool: the worker died twice in a row.
            Exception: whatever ``fn`` raised.
        """
        worker = await self._gate.acquire(urgent, home)
        try:
            started = time.perf_counter()
            result = await self._draw(worker, fn, *args)
            if kind is not None:
                self.metrics.rendered(kind, time.perf_counter() - started, result[-1])
            return result
        finally:
            self._gate.release(worker)

    async def _draw(self, worker: int, fn: Callable[..., Any], *args: Any) -> Any:
        broken = 0
        while True:
            if self.workers == 0 or self._closed:
                return await asyncio.to_thread(fn, *args)
            pool = await self._executor(worker)
            if pool is None:
                continue
            try:
                job = pool.submit(fn, *args)
                return await asyncio.wrap_future(job)
            except BrokenProcessPool:
                self._discard(worker, pool)
                if self._closed:  # ended by close(): drawn in a thread instead
                    continue
                self.metrics.error("render_worker_died")
                broken += 1
                if broken == 2:
                    raise
                log.warning("a render worker died; starting it anew and drawing the image again")
            except asyncio.CancelledError:
                if not (self._closed and job.cancelled() and not _cancelling()):
                    raise

    async def close(self) -> None:
        """Stop the worker processes at once, without waiting for a warm-up to end. An
        image in flight, or asked for later, is drawn in a thread of this process."""
        self._closed = True
        await self._background.close()
        for starting in list(self._starting.values()):
            with contextlib.suppress(Exception):
                await asyncio.shield(starting)
        pools, self._pools = self._pools or [], None
        procs = []
        for pool in pools:
            if pool is not None:
                procs += _stop(pool, self._processes.pop(id(pool), []))
        if procs:
            await asyncio.to_thread(_join, procs)

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
        """The board PNG of ``game`` with its text summary as alt text, in the current
        language. ``key`` (game id, version) caches it with the language (a cached board
        is reused only when no events are to be drawn), and its game id sends it to that
        game's home worker.

        Raises:
            NoImages: the game has no images (see :meth:`draws`).
        """
        render_worker.images(game)
        language = i18n.current()
        kept = (*key, language) if key is not None else None
        cached = self._boards.get(kept) if kept is not None else None
        if cached is not None and not events:
            data, alt = cached
        else:
            home = self._home(key[0] if key is not None else None)
            data, alt = await self._draw_board(
                language, game, view, tuple(names), tuple(events), home
            )
            if kept is not None:
                self._boards[kept] = (data, alt)
                self._boards.move_to_end(kept)
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
        self,
        language: str,
        game: str,
        view: Any,
        names: tuple[str, ...],
        events: tuple[rules.Event, ...],
        home: int | None,
    ) -> tuple[bytes, str]:
        try:
            data, summary, fault, cpu = await self._run(
                True,
                render_worker.board_job,
                language,
                game,
                view,
                names,
                events,
                kind="board",
                home=home,
            )
        except Exception:
            log.exception("board image failed")
            self.metrics.error("render_placeholder")
            drawn = _placeholder(_("The board image could not be drawn; see /status."))
            return drawn, _("The board.")
        self._count(cpu)
        if fault is not None:
            log.error("board summary failed:\n%s", fault)
        return data, summary or _("The board.")

    async def hand(self, holding: Any, title: str = "", *, game: str) -> Picture:
        """What one seat of ``game`` holds (a hand of cards: ``view.hand``, see
        :meth:`render.GameImages.holding`).

        Raises:
            NoImages: the game has no images, or shows what a seat holds in words only.
        """
        drawer = render_worker.images(game)
        try:
            data, cpu = await self._run(
                False,
                render_worker.private_job,
                i18n.current(),
                game,
                holding,
                title,
                kind="hand",
            )
            if data is None:
                raise NoImages(f"the game {game!r} shows what a seat holds in words")
            self._count(cpu)
        except NoImages:
            raise
        except Exception:
            log.exception("hand image failed")
            self.metrics.error("render_placeholder")
            data = _placeholder(_("Your cards are listed in the message."))
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
                i18n.current(),
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
            data = _placeholder(_("This picture is described in the message."))
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

    async def chart(self, name: str, series: Sequence[Series]) -> Picture:
        """``name``'s rating over time, a line per game kind (see
        :func:`render.chart.rating_chart`), with its words as alt text. A chart that
        could not be drawn is a placeholder pointing at the message's words."""
        try:
            data, cpu = await self._run(
                False, render_worker.chart_job, i18n.current(), name, tuple(series), kind="chart"
            )
            self._count(cpu)
        except Exception:
            log.exception("rating chart failed")
            self.metrics.error("render_placeholder")
            data = _placeholder(_("The ratings are listed in the message."))
        return Picture(data, CHART_FILE, rating_chart_text(name, series)[:ALT_LIMIT])

    async def replay(
        self, frames: Sequence[Frame], names: Sequence[str], *, game: str, limit: int
    ) -> Animation:
        """The replay of ``frames`` (of ``game``) as an animated GIF of at most ``limit``
        bytes (see :func:`render.replay.animate`), drawn by the replay worker.

        Raises:
            NoImages: the game has no images (see :meth:`draws`).
            render.replay.TooLarge: not even its smallest form fits in ``limit``.
            RuntimeError: the images are closed (the bot is stopping).
            BrokenProcessPool: the replay worker died twice in a row.
        """
        render_worker.images(game)
        started = time.perf_counter()
        animation, cpu = await self._background.run(
            render_worker.replay_job, i18n.current(), game, tuple(frames), tuple(names), limit
        )
        self.metrics.rendered("replay", time.perf_counter() - started, cpu)
        self._count(cpu)
        return animation

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
            if await self._executor(0) is None:
                return
        except Exception:
            log.exception("the render workers could not be started")
            return
        for worker, (pool, ready) in enumerate(zip(self._pools or [], self._ready, strict=False)):
            try:
                await asyncio.wrap_future(ready)
            except BrokenProcessPool:
                if pool is not None:
                    self._discard(worker, pool)
                if not self._closed:
                    log.warning(
                        "a render worker died while warming up; it starts anew with its next image"
                    )
            except asyncio.CancelledError:
                if not self._closed or _cancelling():
                    raise
                return


class _Background:
    """One worker process for long jobs (replays), below the drawing workers' priority:
    started at its first job (in a thread: spawning must not stall the event loop), one
    job at a time, started anew once if it dies. Without worker processes
    (``processes=False``: ``RENDER_WORKERS=0``) the jobs run in a thread."""

    def __init__(self, processes: bool) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._procs: list[BaseProcess] = []
        self._lock = asyncio.Lock()
        self._closed = False

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in the worker, after the jobs before it.

        Raises:
            RuntimeError: closed (a job in flight when it closes raises this too).
            BrokenProcessPool: the worker died twice in a row.
            Exception: whatever ``fn`` raised.
        """
        async with self._lock:
            for attempt in (1, 2):
                if self._closed:
                    raise RuntimeError("the replay worker is closed")
                if not self.processes:
                    return await asyncio.to_thread(fn, *args)
                pool = self._pool or await self._start()
                try:
                    return await asyncio.wrap_future(pool.submit(fn, *args))
                except BrokenProcessPool:
                    if self._pool is pool:
                        self._pool = None
                        _stop(pool, self._procs)
                    if self._closed:
                        raise RuntimeError("the replay worker is closed") from None
                    if attempt == 2:
                        raise
                    log.warning("the replay worker died; starting it anew for the same job")
        raise AssertionError("unreachable")

    async def _start(self) -> ProcessPoolExecutor:
        """Start the worker.

        Raises:
            RuntimeError: closed while it started (it is ended again).
        """
        pool, procs = await asyncio.to_thread(self._spawn)
        if self._closed:
            await asyncio.to_thread(_join, _stop(pool, procs))
            raise RuntimeError("the replay worker is closed")
        self._pool, self._procs = pool, procs
        return pool

    @staticmethod
    def _spawn() -> tuple[ProcessPoolExecutor, list[BaseProcess]]:
        pool = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=render_worker.start_background,
        )
        pool.submit(render_worker.ready)  # the process starts now, in this thread
        return pool, list((getattr(pool, "_processes", None) or {}).values())

    def pid(self) -> int | None:
        """The worker's process id, while it runs."""
        alive = [p.pid for p in self._procs if p.is_alive()] if self._pool is not None else []
        return alive[0] if alive else None

    async def close(self) -> None:
        """End the worker at once (a job in flight raises :class:`RuntimeError`)."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(_join, _stop(pool, self._procs))


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
