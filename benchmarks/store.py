"""Benchmark of the store: persisted actions per second, write latency, CPU, cold loads.

Run: ``.venv/bin/python -m benchmarks.store [--synchronous NORMAL|FULL] [--service]``, or
on PostgreSQL: ``.venv/bin/python -m benchmarks.store --database postgresql://…`` (or
``--postgres``: a throwaway server started from this machine's binaries, fsync on).

- *store, burst*: ``--games`` games each append ``--actions`` real actions (payloads of a
  real European War game: action, events, snapshot, decisions) at once through
  ``SqliteStore.record_action`` — actions persisted per second, latency (mostly queueing),
  CPU per action (event loop and SQLite thread);
- *store, open loop*: five times as many games append at ``--rate`` actions per second
  in all for ``--seconds``, each at the times of a Poisson process drawn in advance (the
  arrivals do not wait for the answers): median, p90, p99 of one write counted from its
  arrival, the rate offered and the rate persisted, CPU, the garbage collector's pauses
  and the size of the WAL at the end;
- *cold load*: what a start-up reads (``load_active`` and each game's ``load_game``)
  with 10, 1,000, 10,000 and 100,000 finished games in the file beside the same
  unfinished ones: median time and SQLite VM steps (the steps must not grow);
- ``--service``: also per-action latency and throughput through ``GameService.answer``
  (engine, outcome building and persist; CPU-bound by the engine, not the store).

Aim (issue 13): >= 2,000 actions/s, p99 <= 10 ms; a cold load flat from 10 to 100k games.

On PostgreSQL (``--database postgresql://…``) the store runs are shared by ``--processes``
processes (default 2), as several bots share one database: ``--games`` games in all
(default there 1,000), split between them; each process has its own connection pool. The
burst and the open loop start in every process at once (this process says when), and the
latencies of all processes are reported together, the throughput as all actions over the
longest process's time. Aim (issue 16): median <= 3 ms, p99 <= 15 ms, >= 2,000 actions/s
over two processes.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):  # run as a file: benchmarks/bot.py must not shadow the package
    sys.path[0] = str(Path(__file__).resolve().parents[1])


from benchmarks.postgres import run_schema, server_cpu, throwaway_server
from rules import pyramids
from service import GameService, Outcome, Prompt
from service.models import DecisionRecord, GameSettings
from service.sqlite_store import SqliteStore
from service.store import POSTGRES_SCHEMES, NewSeat, Store, open_store
from tests.bot.history import fill_history

USERS = (1, 2, 3)
SYNC = ["NORMAL"]
"""The store's ``synchronous`` level for this run (``--synchronous``)."""
CPU = [0.0]
"""CPU seconds (all threads of this process) of the last throughput run."""
Payload = tuple[int, dict, list, dict, list[tuple[int, str]]]


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


async def play(
    svc: GameService,
    gid: int,
    prompts: list[Prompt],
    count: int,
    rng: random.Random,
    samples: list[float],
    cold: bool = False,
) -> list[Prompt]:
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
    svc = GameService(await SqliteStore.open(path, synchronous=SYNC[0]), computer_pacing=0)
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


async def paced(
    svc: GameService,
    gid: int,
    prompts: list[Prompt],
    count: int,
    rng: random.Random,
    samples: list[float],
    mean_gap: float,
) -> None:
    """Like :func:`play`, with a random think time before each action (open loop)."""
    for _ in range(count):
        await asyncio.sleep(rng.expovariate(1 / mean_gap))
        prompts = await play(svc, gid, prompts, 1, rng, samples)
        if not prompts:
            return


async def throughput(
    path: Path,
    games: int,
    per_game: int,
    rate: float | None = None,
) -> tuple[float, int, list[float]]:
    """All ``games`` take ``per_game`` actions each at once (``rate`` None: as fast as
    they can), or spread at about ``rate`` actions per second in all."""
    svc = GameService(await SqliteStore.open(path, synchronous=SYNC[0]), computer_pacing=0)
    await svc.start()
    rng = random.Random(2)
    sem = asyncio.Semaphore(50)

    async def setup(i: int) -> tuple[int, list[Prompt]]:
        async with sem:
            return await new_game(svc, i + 1, rng.randrange(1 << 30))

    tables = await asyncio.gather(*(setup(i) for i in range(games)))
    # play past setup first so the timed actions are ordinary turns
    warm: list[float] = []
    tables = [
        (gid, await play(svc, gid, prompts, 3, random.Random(gid), warm)) for gid, prompts in tables
    ]
    samples: list[float] = []
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    if rate is None:
        await asyncio.gather(
            *(
                play(svc, gid, prompts, per_game, random.Random(gid), samples)
                for gid, prompts in tables
            )
        )
    else:
        await asyncio.gather(
            *(
                paced(svc, gid, prompts, per_game, random.Random(gid), samples, games / rate)
                for gid, prompts in tables
            )
        )
    elapsed = time.perf_counter() - t0
    CPU[0] = time.process_time() - cpu0
    await svc.close()
    return elapsed, len(samples), samples


def payloads(count: int = 60, seed: int = 1) -> list[Payload]:
    """(seat, action, events, snapshot, open decisions) of ``count`` real actions."""
    game, _ = pyramids.new_game("european_war", [None, None, None], seed=seed)
    rng = random.Random(seed)
    out: list[Payload] = []
    while len(out) < count and not game.over:
        d = rng.choice(game.deciders())
        action = rng.choice(game.legal_actions(d.seat))
        events = game.apply(d.seat, action)
        out.append(
            (
                d.seat,
                action.to_dict(),
                [e.to_dict() for e in events],
                game.to_dict(),
                [(x.seat, x.kind) for x in game.deciders()],
            )
        )
    return out


async def running_games(store: Store, count: int, first_channel: int = 1) -> list[int]:
    """``count`` running games at version 0 (revision 1), straight through the store."""
    ids = []
    for i in range(count):
        gid = await store.create_lobby(
            guild_id=1,
            channel_id=first_channel + i,
            host_id=1,
            variant="european_war",
            settings=GameSettings(),
            host_seat=NewSeat(1, None, "A", None, 0.0),
            expiry=None,
            max_games=None,
            now=0.0,
        )
        await store.start_game(
            gid, 0, creation={}, start_events=[], state={}, seats=[], decisions=[], now=1.0
        )
        ids.append(gid)
    return ids


def arrivals(gid: int, start: float, seconds: float, gap: float) -> list[float]:
    """When one game's actions arrive in an open-loop run: a Poisson process of mean
    ``gap`` from ``start`` for ``seconds``, drawn in advance (independent of how fast
    the store answers)."""
    rng = random.Random(gid)
    times: list[float] = []
    t = start
    while True:
        t += rng.expovariate(1 / gap)
        if t >= start + seconds:
            return times
        times.append(t)


async def writer(
    store: Store,
    gid: int,
    moves: list[Payload],
    samples: list[float],
    *,
    count: int | None = None,
    at: list[float] | None = None,
    version: int = 0,
) -> None:
    """Append actions to one game at ``version`` (its revision is one more): ``count``
    of them at once, or one at each time of ``at`` (open loop). A write's time runs from
    its arrival: in the open loop, a write that arrives while the game's previous one is
    still being written waits for it, and that wait counts."""
    previous = moves[(version - 1) % len(moves)][4] if version else []
    revision = version + 1
    for arrival in at if at is not None else [None] * (count or 0):
        if arrival is not None:
            await asyncio.sleep(arrival - time.perf_counter())
        seat, action, events, state, deciders = moves[version % len(moves)]
        t0 = time.perf_counter() if arrival is None else arrival
        await store.record_action(
            gid,
            revision,
            version,
            seat=seat,
            user_id=None,
            source="player",
            action=action,
            events=events,
            state=state,
            removed=previous,
            result=None,
            now=2.0,
            upserted=[DecisionRecord(s, k, version + 1, 600.0, 1e10, None) for s, k in deciders],
        )
        samples.append(time.perf_counter() - t0)
        revision, version, previous = revision + 1, version + 1, deciders


async def store_runs(
    path: Path,
    games: int,
    actions: int,
    rate: float,
    seconds: float,
) -> None:
    """The store-level burst and open-loop runs (see the module docstring)."""
    store = await SqliteStore.open(path, synchronous=SYNC[0])
    moves = payloads()
    ids = await running_games(store, games)
    samples: list[float] = []
    t0, cpu0 = time.perf_counter(), time.process_time()
    await asyncio.gather(*(writer(store, g, moves, samples, count=actions) for g in ids))
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    report(f"store, burst ({games} games)", samples)
    n = len(samples)
    print(
        f"  {n / elapsed:,.0f} actions/s persisted; CPU {cpu / n * 1000:.3f} ms per action "
        f"(so one free core persists ~{n / cpu:,.0f}/s)"
    )
    ids = await running_games(store, games * 5, first_channel=games + 1)
    samples = []
    pauses = Pauses()
    t0 = time.perf_counter() + 0.1
    plan = {g: arrivals(g, t0, seconds, len(ids) / rate) for g in ids}
    offered = sum(len(times) for times in plan.values())
    cpu0 = time.process_time()
    with pauses:
        await asyncio.gather(*(writer(store, g, moves, samples, at=plan[g]) for g in ids))
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    report(f"store, {rate:,.0f}/s offered", samples)
    print(
        f"  offered {offered / seconds:,.0f} actions/s ({offered} in {seconds:g} s, open loop); "
        f"persisted {len(samples)} in {elapsed:.2f} s = {len(samples) / elapsed:,.0f}/s; "
        f"CPU {cpu / len(samples) * 1000:.3f} ms per action"
    )
    wal = store.path.with_name(store.path.name + "-wal").stat().st_size / 1e6
    print(
        f"  garbage collections: {pauses.count}, longest {pauses.longest * 1000:.1f} ms; "
        f"WAL file {wal:.1f} MB, database {store.path.stat().st_size / 1e6:.1f} MB"
    )
    await store.close()


class Pauses:
    """Counts the garbage collector's runs inside a ``with`` and the longest one (it
    stops the event loop, so it shows in the tail of the latencies)."""

    def __init__(self) -> None:
        self.count = 0
        self.longest = 0.0
        self._started = 0.0

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.count += 1
            self.longest = max(self.longest, time.perf_counter() - self._started)

    def __enter__(self) -> Pauses:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)


def _counter(steps: list[int]) -> Callable[[], int]:
    """A progress handler counting SQLite VM steps into ``steps[0]``."""

    def tick() -> int:
        steps[0] += 1
        return 0

    return tick


async def cold_loads(
    root: Path, sizes: tuple[int, ...] = (10, 1_000, 10_000, 100_000), repeat: int = 20
) -> None:
    """A start-up's reads beside ``sizes`` finished games: median time and VM steps."""
    for size in sizes:
        path = root / f"cold{size}.db"
        store = await SqliteStore.open(path)
        moves = payloads()
        for gid in await running_games(store, 20):
            await writer(store, gid, moves, [], count=10)
        await store.close()
        fill_history(path, size)
        store = await SqliteStore.open(path)
        steps = [0]
        tick = _counter(steps)
        times = []
        for i in range(repeat):
            if i == repeat - 1:
                await store._conn.set_progress_handler(tick, 1)
            t0 = time.perf_counter()
            for game in await store.load_active():
                await store.load_game(game.id)
            times.append(time.perf_counter() - t0)
        # None removes the handler: sqlite3 allows it, aiosqlite's annotation does not say so
        await store._conn.set_progress_handler(None, 1)  # type: ignore[arg-type]  # see above
        await store.close()
        print(
            f"cold load, 20 unfinished + {size:>7,} finished games: median "
            f"{statistics.median(times) * 1000:6.2f} ms, {steps[0]:,} SQLite steps"
        )


# ---------------------------------------------------------------------- PostgreSQL


async def _go() -> None:
    """Wait for the word to start the next phase (a line on standard input)."""
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    if line.strip() != "go":
        raise SystemExit(0)


async def pg_worker(
    url: str, games: int, first_channel: int, actions: int, rate: float, seconds: float
) -> None:
    """One process of the PostgreSQL runs: its ``games`` games, a burst of ``actions``
    each, then the open loop at ``rate``; after each phase one JSON line (its latencies,
    wall and CPU time), each phase started by a ``go`` line from the parent."""
    store = await open_store(url)
    moves = payloads()
    ids = await running_games(store, games, first_channel)
    print("ready", flush=True)
    for phase in ("burst", "open"):
        await _go()
        samples: list[float] = []
        t0, cpu0 = time.perf_counter(), time.process_time()
        if phase == "burst":
            await asyncio.gather(*(writer(store, g, moves, samples, count=actions) for g in ids))
        else:
            start = t0 + 0.05
            plan = {g: arrivals(g, start, seconds, len(ids) / rate) for g in ids}
            await asyncio.gather(
                *(writer(store, g, moves, samples, at=plan[g], version=actions) for g in ids)
            )
        elapsed, cpu = time.perf_counter() - t0, time.process_time() - cpu0
        print(json.dumps({"samples": samples, "elapsed": elapsed, "cpu": cpu}), flush=True)
    await store.close()


def pg_runs(
    url: str,
    processes: int,
    games: int,
    actions: int,
    rate: float,
    seconds: float,
    postmaster: int | None = None,
) -> None:
    """The burst and the open loop on PostgreSQL, shared by ``processes`` processes
    (``postmaster``: the server's process id, to count its CPU time too)."""
    root = Path(__file__).resolve().parents[1]
    mine = asyncio.run(run_schema(url, create=True))
    share = games // processes
    workers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "benchmarks.store",
                "--worker",
                "--database",
                mine,
                "--games",
                str(share),
                "--first-channel",
                str(1 + i * share),
                "--actions",
                str(actions),
                "--rate",
                str(rate / processes),
                "--seconds",
                str(seconds),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=root,
        )
        for i in range(processes)
    ]
    try:
        for w in workers:
            assert w.stdout is not None
            if w.stdout.readline().strip() != "ready":
                raise SystemExit("a worker did not start")
        for phase in ("burst", "open"):
            server0 = server_cpu(postmaster)
            for w in workers:
                assert w.stdin is not None
                w.stdin.write("go\n")
                w.stdin.flush()
            results = [json.loads(w.stdout.readline()) for w in workers if w.stdout]
            samples = [x for r in results for x in r["samples"]]
            longest = max(r["elapsed"] for r in results)
            cpu = sum(r["cpu"] for r in results)
            server = server_cpu(postmaster) - server0
            label = (
                f"{games} games, burst of {actions} each"
                if phase == "burst"
                else f"{rate:,.0f}/s offered for {seconds:g} s"
            )
            report(f"postgres x{processes}, {label}", samples)
            print(
                f"  {len(samples) / longest:,.0f} actions/s persisted over {processes} "
                f"processes; CPU per action: theirs {cpu / len(samples) * 1000:.3f} ms, "
                + (
                    f"the server's {server / len(samples) * 1000:.3f} ms"
                    if postmaster is not None
                    else "the server's not known"
                )
                + f"; load average {os.getloadavg()[0]:.2f}"
            )
    finally:
        for w in workers:
            if w.stdin:
                w.stdin.close()
            w.wait()
        asyncio.run(run_schema(url, create=False))


def report(name: str, samples: list[float]) -> None:
    print(
        f"{name:<34} n={len(samples):>6}  median {statistics.median(samples) * 1000:6.2f} ms"
        f"  p90 {pct(samples, 90):6.2f} ms  p99 {pct(samples, 99):6.2f} ms"
        f"  max {max(samples) * 1000:6.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None, help="200 (SQLite), 1,000 (PostgreSQL)")
    parser.add_argument("--actions", type=int, default=20, help="actions per game (burst)")
    parser.add_argument(
        "--rate", type=float, default=2000.0, help="offered load (actions/s) for the open-loop run"
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="open-loop duration")
    parser.add_argument(
        "--synchronous",
        default="NORMAL",
        choices=("FULL", "NORMAL"),
        help="NORMAL (the store's default): WAL, no fsync per commit — "
        "durable against a crash of the process, not a power cut; "
        "FULL: every commit is fsynced",
    )
    parser.add_argument(
        "--service",
        action="store_true",
        help="also time actions through GameService (engine included)",
    )
    parser.add_argument("--no-cold", action="store_true", help="skip the cold-load lines")
    parser.add_argument("--latency-actions", type=int, default=2000)
    parser.add_argument(
        "--database", help="a postgresql:// URL: run the store runs there (a schema of their own)"
    )
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="start a throwaway PostgreSQL server (fsync on) from this machine's binaries",
    )
    parser.add_argument("--processes", type=int, default=2, help="PostgreSQL: writer processes")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--first-channel", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        asyncio.run(
            pg_worker(
                args.database, args.games, args.first_channel, args.actions, args.rate, args.seconds
            )
        )
        return
    if args.postgres or (args.database or "").startswith(POSTGRES_SCHEMES):
        games = args.games or 1000
        print(f"PostgreSQL, load average {os.getloadavg()[0]:.2f}")
        if args.postgres:
            with throwaway_server() as (url, postmaster):
                pg_runs(
                    url, args.processes, games, args.actions, args.rate, args.seconds, postmaster
                )
        else:
            pg_runs(args.database, args.processes, games, args.actions, args.rate, args.seconds)
        return
    asyncio.run(sqlite_main(args, args.games or 200))


async def sqlite_main(args: argparse.Namespace, games: int) -> None:
    """The SQLite runs (see the module docstring)."""
    SYNC[0] = args.synchronous
    print(f"synchronous={args.synchronous}, load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        await store_runs(Path(tmp) / "store.db", games, args.actions, args.rate, args.seconds)
        if not args.no_cold:
            await cold_loads(Path(tmp))
        if args.service:
            warm = await latency(Path(tmp) / "latency.db", args.latency_actions, cold=False)
            report("service, cached game", warm)
            cold = await latency(Path(tmp) / "cold.db", args.latency_actions // 2, cold=True)
            report("service, loaded from file each time", cold)
            elapsed, n, under_load = await throughput(Path(tmp) / "throughput.db", games * 5, 5)
            report(f"service, burst ({games * 5} games)", under_load)
            print(
                f"  {n / elapsed:,.0f} actions/s; CPU {CPU[0] / n * 1000:.2f} ms per action "
                "(engine, outcome and persist)"
            )
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
