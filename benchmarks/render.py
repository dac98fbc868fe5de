"""Render speed: board, hand and duel images, median and p90 of wall time, with sizes;
then boards per second on every core, through the bot's pool of worker processes.

Run by hand:  python -m benchmarks.render [--runs 100] [--split 600] [--boards 1000]
[--workers N]

Static layers, sprites and palettes are built before timing (once per process in the
bot too). Each line gives the median and 90th percentile over ``--runs`` renders (PNG
bytes included) of: wall time; the calling thread's CPU time ("thread"); and the whole
process's CPU time ("cpu", all threads). Then the PNG size. The board lines also split
drawing and mapping onto the palette (``render.pyramids.compose.board_rows``) from deflating.
The same position is rendered again and again, so every cache is warm (text masks, the
panel's parts, lone pieces, the deflated bands): these lines are the best case.

Split: the first ``--split`` distinct positions (below), every other one as one worker
of two sees them, drawn in this process, CPU per board (this thread) of each step a
worker takes: unpickling the job, drawing and mapping (with the caches as a worker has
them), deflating (in bands, reusing those deflated before), pickling the PNG back.

All cores, two workloads, each through :class:`bot.images.Images` with 1 and with N
worker processes (default: one per core), as the bot sends them (each board with its
game's key, so a game's boards go to its home worker):

- *games* (the real one): ``--games`` games (both variants, 3 to 5 players, each
  already 0 to 199 actions in) played at random, the board drawn after every action,
  the games interleaved (one action of each in turn), ``--boards`` boards in all;
- *distinct*: ``--boards`` distinct positions from random playouts (every third action
  of one game after another; the figure of earlier measurements).

Each prints boards/s; CPU per board in the workers (read from /proc: drawing,
encoding, unpickling the views and pickling the PNGs back; its median and p90 per
board from the jobs' own thread time) and in the bot's process (the gate, pickling,
the pipes); and the PNG sizes (median, p90, max). ``--threads`` adds the same through
``Images(workers=0)``: threads in the bot's own process.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pickle
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import render
import rules
from bot.images import Images, cores
from render.pngwrite import write_rows
from render.pyramids import BAND_ROWS, BOARD_LEVEL
from render.pyramids.board import use_arcade
from render.pyramids.compose import board_rows
from render.pyramids.gallery import NAMES, find
from rules import pyramids


def _measure(fn: Callable[[], object], runs: int) -> tuple[list[float], list[float], list[float]]:
    wall, thread, cpu = [], [], []
    for _ in range(runs):
        w0, t0, c0 = time.perf_counter(), time.thread_time(), time.process_time()
        fn()
        cpu.append(time.process_time() - c0)
        thread.append(time.thread_time() - t0)
        wall.append(time.perf_counter() - w0)
    return wall, thread, cpu


def _stats(samples: list[float]) -> str:
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered) * 1000:6.2f} / {p90 * 1000:6.2f}"


def _line(label: str, fn: Callable[[], object], runs: int, size: int | None = None) -> None:
    fn()  # warm up
    wall, thread, cpu = _measure(fn, runs)
    tail = f"  {size / 1024:6.1f} KB" if size is not None else ""
    print(f"{label:<22} wall {_stats(wall)}  thread {_stats(thread)}  cpu {_stats(cpu)}{tail}")


def _mid_game(
    variant: str, players: int, options: pyramids.Options | None = None
) -> tuple[pyramids.View, list[rules.Event]]:
    def want(game: pyramids.GameState, events: list[rules.Event]) -> bool:
        kinds = {e.kind for e in events}
        return game.turn >= 12 and bool({"moved_in", "moved"} & kinds)

    game, events = find(variant, players, want, options=options)
    return pyramids.view_for(game, None), events


def _duel_view() -> pyramids.View:
    def want(game: pyramids.GameState, events: list[rules.Event]) -> bool:
        b = pyramids.view_for(game, None).battle
        return b is not None and b.stage == "duel" and len(b.attacker_cards) >= 2

    game, _ = find("european_war", 4, want)
    return pyramids.view_for(game, None)


Board = tuple[pyramids.View, list[rules.Event], list[str], tuple[int, int]]
"""A board to draw: the view, its last action's public events, the seat names and the
key the bot caches it by (game id, version)."""


def positions(count: int, seed: int = 1) -> list[Board]:
    """``count`` distinct positions of random playouts (every 3rd action), both variants,
    3 to 6 players, each with its last action's events and seat names."""
    out: list[Board] = []
    rng = random.Random(seed)
    game_seed = seed
    while len(out) < count:
        game_seed += 1
        variant = ("european_war", "world_war_5")[game_seed % 2]
        players = 3 + game_seed % 4
        options = pyramids.Options(five_players=players > 4)
        game, events = pyramids.new_game(variant, [None] * players, game_seed, options)
        names = [n for n, _ in zip(NAMES * 2, range(players), strict=False)]
        step = 0
        while not game.over and step < 600 and len(out) < count:
            decision = rng.choice(game.deciders())
            events = game.apply(decision.seat, rng.choice(game.legal_actions(decision.seat)))
            step += 1
            if step % 3 == 0:
                out.append((pyramids.view_for(game, None), list(events), names, (game_seed, step)))
    return out


def interleaved(count: int, games: int, seed: int = 1) -> list[Board]:
    """``count`` boards of ``games`` games played at random, one board after every
    action, the games interleaved (one action of each in turn; a game that ends is
    replaced by a new one). Each game starts 0 to 199 random actions in, so the boards
    come from every stage of a game."""
    rng = random.Random(seed)
    next_seed = seed * 10_000

    def new() -> tuple[pyramids.GameState, list[str], int]:
        nonlocal next_seed
        while True:
            next_seed += 1
            variant = ("european_war", "world_war_5")[next_seed % 2]
            players = 3 + next_seed % 3
            options = pyramids.Options(five_players=players > 4)
            game, _ = pyramids.new_game(variant, [None] * players, next_seed, options)
            # games at every stage, as in a bot that has been running: some way in already
            for _ in range(rng.randrange(200)):
                if game.over:
                    break
                decision = rng.choice(game.deciders())
                game.apply(decision.seat, rng.choice(game.legal_actions(decision.seat)))
            if not game.over:
                return game, list(NAMES[:players]), next_seed

    tables = [new() for _ in range(games)]
    out: list[Board] = []
    while len(out) < count:
        for i, (game, names, game_id) in enumerate(tables):
            if game.over:
                tables[i] = game, names, game_id = new()
            decision = rng.choice(game.deciders())
            events = game.apply(decision.seat, rng.choice(game.legal_actions(decision.seat)))
            public = [e for e in events if e.to is None]
            key = (game_id, len(out))
            out.append((pyramids.view_for(game, None), public, names, key))
            if len(out) == count:
                break
    return out


class _JobTimes:
    """Collects each drawing job's CPU time (the pool reports it to its metrics)."""

    def __init__(self) -> None:
        self.cpu: list[float] = []

    def rendered(self, kind: str, wall: float, cpu: float) -> None:
        self.cpu.append(cpu)

    def error(self, kind: str) -> None:
        pass


def _ticks(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def _all_cores(workers: int, jobs: list[Board]) -> None:
    images = Images(workers=workers)
    times = _JobTimes()
    images.metrics = times  # type: ignore[assignment]  # only rendered() and error() are used
    try:
        w0 = time.perf_counter()
        await images.warm_up()
        warm = time.perf_counter() - w0
        pids = images.worker_pids()
        before = {pid: _ticks(pid) for pid in pids}
        times.cpu.clear()
        c0, j0, w0 = time.process_time(), images.cpu_seconds, time.perf_counter()
        pictures = await asyncio.gather(
            *(images.board(v, n, e, game=v.variant, key=k) for v, e, n, k in jobs)
        )
        wall = time.perf_counter() - w0
        parent = time.process_time() - c0
        jobs_cpu = images.cpu_seconds - j0
        worker_cpu = sum(_ticks(pid) - t for pid, t in before.items()) if pids else None
    finally:
        await images.close()
    sizes = [len(p.data) / 1024 for p in pictures]
    label = f"{workers} worker(s)" if workers else "threads (0 workers)"
    per = worker_cpu if worker_cpu is not None else jobs_cpu
    print(
        f"{label:<20} {len(jobs) / wall:6.1f} boards/s  CPU per board: workers "
        f"{per / len(jobs) * 1000:5.2f} ms (jobs mean {jobs_cpu / len(jobs) * 1000:5.2f},"
        f" median {statistics.median(times.cpu) * 1000:5.2f},"
        f" p90 {_pct(times.cpu, 0.9) * 1000:5.2f})"
        f" + bot {parent / len(jobs) * 1000:5.2f} ms  PNG KB median "
        f"{statistics.median(sizes):5.1f} p90 {_pct(sizes, 0.9):5.1f} max {max(sizes):5.1f}"
        f"  (warm-up {warm:4.1f} s)"
    )


def split(count: int) -> None:
    """Print the CPU per board of each step a worker takes, over distinct positions."""
    jobs = positions(count)[::2]
    steps: dict[str, list[float]] = {
        "unpickle": [],
        "draw + map": [],
        "deflate": [],
        "pickle": [],
        "all": [],
    }
    for view, events, names, _key in jobs:
        blob = pickle.dumps((view, names, events))
        t0 = time.thread_time()
        v, n, e = pickle.loads(blob)
        t1 = time.thread_time()
        rows, (w, h) = board_rows(v, n, e, use_arcade(v, None))
        t2 = time.thread_time()
        data = write_rows(rows, w, h, [0] * 768, BOARD_LEVEL, band_rows=BAND_ROWS)
        t3 = time.thread_time()
        pickle.dumps(data)
        t4 = time.thread_time()
        for key, spent in zip(steps, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0), strict=True):
            steps[key].append(spent)
    print(
        f"\nSplit over {len(jobs)} distinct positions (one worker's share), CPU per board,"
        f" median / p90 ms (load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}):"
    )
    print("  " + "  ".join(f"{k} {_stats(v)}" for k, v in steps.items()))


def all_cores(boards: int, games: int, workers: int, threads: bool) -> None:
    """Print boards/s, CPU per board and PNG sizes through the pool with 1 and N workers,
    for the interleaved games and for the distinct positions."""
    workloads = (
        (f"{games} games interleaved, a board after every action", interleaved(boards, games)),
        ("distinct positions", positions(boards)),
    )
    for title, jobs in workloads:
        print(
            f"\nAll cores: {len(jobs)} boards, {title}, through bot.images.Images "
            f"(load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})"
        )
        counts = [0] if threads else []
        counts += sorted({1, workers})
        for n in counts:
            asyncio.run(_all_cores(n, jobs))
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def main() -> None:
    """Print the timings and sizes of a mid-game board (each variant), a hand, a duel,
    then the all-cores measurement."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--workers", type=int, default=cores())
    parser.add_argument(
        "--threads", action="store_true", help="also measure Images(workers=0), drawing in threads"
    )
    parser.add_argument("--split", type=int, default=600)
    parser.add_argument("--pool-only", action="store_true", help="skip the single-image lines")
    args = parser.parse_args()
    if not args.pool_only:
        single(max(50, args.runs))
        split(args.split)
    all_cores(args.boards, args.games, max(1, args.workers), args.threads)


def single(runs: int) -> None:
    """One image at a time in this process: board (each variant), hand, duel."""
    print(
        f"{runs} renders each; median / p90 in ms: wall time, calling thread's CPU time,"
        " process CPU time; PNG size"
    )
    for variant, players, options in (("european_war", 4, None), ("world_war_5", 4, None)):
        view, events = _mid_game(variant, players, options)
        size = len(render.pyramids.board_png(view, NAMES, events))
        _line(
            f"board {variant}", partial(render.pyramids.board_png, view, NAMES, events), runs, size
        )
        arcade = use_arcade(view, None)
        _line("  draw + map", partial(board_rows, view, NAMES, events, arcade), runs)
        rows, (w, h) = board_rows(view, NAMES, events, arcade)
        deflate = partial(write_rows, rows, w, h, [0] * 768, BOARD_LEVEL, band_rows=BAND_ROWS)
        _line("  deflate + PNG", deflate, runs)
    hand = [pyramids.cards.parse_card(c) for c in ("3♣", "7♦", "10♥", "J♠", "Q♥", "K♣", "A♦")]
    _line(
        "hand (7 cards)",
        lambda: render.pyramids.hand_png(hand, title="Your hand"),
        runs,
        len(render.pyramids.hand_png(hand, title="Your hand")),
    )
    duel = _duel_view()
    _line(
        "duel (in progress)",
        lambda: render.pyramids.duel_png(duel, NAMES),
        runs,
        len(render.pyramids.duel_png(duel, NAMES)),
    )


if __name__ == "__main__":
    main()
