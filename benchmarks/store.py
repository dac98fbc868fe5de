"""Benchmark of the store and service: per-action latency and throughput.

Run: ``.venv/bin/python -m benchmarks.store [--games 1000] [--actions 5]`` (or
``.venv/bin/python benchmarks/store.py``)

- *latency*: one game, one action at a time, timed around ``GameService.answer`` — the
  per-game lock, load (cached copy; or, ``cold``, read and validated from the file every
  time), the engine's check and apply, the outcome, and the one-transaction persist
  (``synchronous=FULL``, WAL) — median and p99;
- *throughput*: ``--games`` games in one process, each a task taking ``--actions`` actions
  concurrently with all the others, driven the way a front end would be (from the
  prompts each outcome returns); actions per second (the latency of that burst is
  queueing: a thousand games submitting at the same instant);
- *latency under load*: the same games, each acting after a random (exponential) think
  time so that about ``--rate`` actions per second arrive in all.

Aim (ISSUE): median <= 2 ms, p99 <= 10 ms, >= 1,000 actions/s on these machines.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a file: benchmarks/bot.py must not shadow the package
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bot.service import GameService, Outcome, Prompt
from bot.store import Store

USERS = (1, 2, 3)
SYNC = ["FULL"]
CPU = [0.0]
"""CPU seconds (all threads of this process) of the last throughput run."""
"""The store's ``synchronous`` level for this run (``--synchronous``)."""


def pct(samples: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) in milliseconds."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000


async def new_game(svc: GameService, channel: int, seed: int) -> tuple[int, list[Prompt]]:
    out = await svc.open_lobby(channel_id=channel, host_id=USERS[0], host_name="A")
    gid = out.game_id
    assert gid is not None, out.error
    for u in USERS[1:]:
        await svc.join(gid, u, f"P{u}")
    started = await svc.start_game(gid, USERS[0], seed=seed)
    assert started.ok, started.error
    return gid, list(started.prompts)


def track(open_prompts: list[Prompt], out: Outcome) -> list[Prompt]:
    """The open prompts after ``out``, as a front end keeps them."""
    deciding = {(d.seat, d.kind) for d in out.decisions}
    fresh = {p.seat for p in out.prompts}
    kept = [p for p in open_prompts if (p.seat, p.kind) in deciding and p.seat not in fresh]
    return kept + list(out.prompts)


async def play(svc: GameService, gid: int, prompts: list[Prompt], count: int,
               rng: random.Random, samples: list[float], cold: bool = False) -> list[Prompt]:
    """Take ``count`` random legal actions in one game; time each answer."""
    done = 0
    while done < count and prompts:
        p = rng.choice(prompts)
        for action in rng.sample(p.choices, len(p.choices)):
            if cold:
                svc._forget(gid)  # measure a load from the file too
            t0 = time.perf_counter()
            out = await svc.answer(gid, p.user_id or 0, p.version, action)
            samples.append(time.perf_counter() - t0)
            if out.ok:
                prompts = track(prompts, out)
                done += 1
                break
        if svc._games.get(gid) is None and not cold:
            break  # the game ended
    return prompts


async def latency(path: Path, actions: int, cold: bool) -> list[float]:
    svc = GameService(await Store.open(path, synchronous=SYNC[0]), computer_pacing=0)
    await svc.start()
    rng = random.Random(1)
    samples: list[float] = []
    channel = 10_000_000 + (1 if cold else 0) * 100_000
    while len(samples) < actions:
        channel += 1
        gid, prompts = await new_game(svc, channel, rng.randrange(1 << 30))
        while prompts and len(samples) < actions:
            prompts = await play(svc, gid, prompts, 50, rng, samples, cold)
            if (await svc.status(gid)).status != "running":
                break
    await svc.close()
    return samples


async def paced(svc: GameService, gid: int, prompts: list[Prompt], count: int,
                rng: random.Random, samples: list[float], mean_gap: float) -> None:
    """Like :func:`play`, with a random think time before each action (open loop)."""
    for _ in range(count):
        await asyncio.sleep(rng.expovariate(1 / mean_gap))
        prompts = await play(svc, gid, prompts, 1, rng, samples)
        if not prompts:
            return


async def throughput(path: Path, games: int, per_game: int, rate: float | None = None,
                     ) -> tuple[float, int, list[float]]:
    """All ``games`` take ``per_game`` actions each at once (``rate`` None: as fast as
    they can), or spread at about ``rate`` actions per second in all."""
    svc = GameService(await Store.open(path, synchronous=SYNC[0]), computer_pacing=0)
    await svc.start()
    rng = random.Random(2)
    sem = asyncio.Semaphore(50)

    async def setup(i: int) -> tuple[int, list[Prompt]]:
        async with sem:
            return await new_game(svc, i + 1, rng.randrange(1 << 30))

    tables = await asyncio.gather(*(setup(i) for i in range(games)))
    # play past setup first so the timed actions are ordinary turns
    warm: list[float] = []
    tables = [(gid, await play(svc, gid, prompts, 3, random.Random(gid), warm))
              for gid, prompts in tables]
    samples: list[float] = []
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    if rate is None:
        await asyncio.gather(*(play(svc, gid, prompts, per_game, random.Random(gid), samples)
                               for gid, prompts in tables))
    else:
        await asyncio.gather(*(paced(svc, gid, prompts, per_game, random.Random(gid), samples,
                                     games / rate) for gid, prompts in tables))
    elapsed = time.perf_counter() - t0
    CPU[0] = time.process_time() - cpu0
    await svc.close()
    return elapsed, len(samples), samples


def report(name: str, samples: list[float]) -> None:
    print(f"{name:<34} n={len(samples):>6}  median {statistics.median(samples) * 1000:6.2f} ms"
          f"  p99 {pct(samples, 99):6.2f} ms  max {max(samples) * 1000:6.2f} ms")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=5, help="actions per game (throughput)")
    parser.add_argument("--latency-actions", type=int, default=2000)
    parser.add_argument("--synchronous", default="FULL", choices=("FULL", "NORMAL"),
                        help="FULL: every commit is fsynced (the store's default); NORMAL: "
                             "WAL without fsync per commit (safe against a crash of the "
                             "process, not of the machine)")
    parser.add_argument("--rate", type=float, default=500.0,
                        help="offered load (actions/s) for the open-loop latency run")
    args = parser.parse_args()
    SYNC[0] = args.synchronous
    print(f"synchronous={args.synchronous}, load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        warm = await latency(Path(tmp) / "latency.db", args.latency_actions, cold=False)
        report("latency, cached game", warm)
        cold = await latency(Path(tmp) / "cold.db", args.latency_actions // 2, cold=True)
        report("latency, loaded from file each time", cold)
        elapsed, n, under_load = await throughput(Path(tmp) / "throughput.db", args.games,
                                                  args.actions)
        report(f"latency under load ({args.games} games)", under_load)
        print(f"throughput: {n} actions in {elapsed:.2f} s across {args.games} concurrent "
              f"games = {n / elapsed:,.0f} actions/s  (latency above is mostly queueing: "
              f"every game submits at the same instant)")
        print(f"CPU per action (event loop + SQLite thread): {CPU[0] / n * 1000:.2f} ms, "
              f"so one free core carries ~{n / CPU[0]:,.0f} actions/s")
        elapsed, n, paced_samples = await throughput(
            Path(tmp) / "paced.db", args.games, args.actions, args.rate)
        report(f"latency at {args.rate:,.0f} actions/s offered", paced_samples)


if __name__ == "__main__":
    asyncio.run(main())
