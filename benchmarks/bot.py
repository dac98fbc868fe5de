"""The bot's latency through the real discord.py client and the fake Discord: the time
from a slash command arriving at the fake to the channel message with the board arriving
back (the command's public answer, carrying board.png — under load its words come first
and the board follows by an edit). Also: how long each interaction took to be
acknowledged and answered with words, how many were not acknowledged within Discord's
3 s, the actions per second offered and taken, and the CPU time of the bot's process.

1. Sequential: ``--actions`` actions (default 200), one at a time, in one game.
2. Under load: ``--games`` games (default 100), each taking an action every
   ``--interval`` seconds on average (default 5 s: 20 actions/s in all, exponential
   gaps), for ``--duration`` seconds (default 90). A player waits for its board before
   its next action, so a slow bot is offered its actions late: "offered" counts the
   actions the schedule asked for, "taken" those that were done.

Each action is the current player's ``/arm`` or ``/pass`` (alternating), so every one
ends a turn: one channel message with a fresh board (whose words ping the next player,
which is how the benchmark knows whose turn it is), and DMs: the actor's new cards and
the next player's turn, each with a hand image (through the outbox, so Discord's global
limit applies to them, not to the answers).
Games are two-player tables set up through the service (lobby, start, placements), then
played only through slash commands.

Separate processes, as in a deployment: this one runs the fake Discord and the players;
the bot runs in its own (``benchmarks/bot_side.py``: the real client, the store, and its
pool of render worker processes, one per core unless ``RENDER_WORKERS`` says otherwise).
The bot's CPU time is its process's (all its threads; the render workers are not
counted) and its event loop thread's.

The bot keeps its games in an SQLite file of its own, or on PostgreSQL: ``--database
postgresql://…`` (in a schema of the run's own, dropped after) or ``--postgres`` (a
throwaway server started from this machine's binaries, fsync on; its CPU time is
reported too). On PostgreSQL, ``--processes N`` runs the bot as N processes sharing the
database, each connecting one of N shards, with one server per shard: the games are
spread over them round robin (the sequential game is shard 0's), and the CPU times
are those of all N processes together. ``--profile FILE`` writes cProfile statistics of the bot's
event loop thread during the load phase (profiling slows the loop down); ``--sample
FILE`` writes where each of its threads was, sampled every 5 ms (waits included).

Run by hand:  python -m benchmarks.bot [--actions 200] [--games 100] [--duration 90]
              python -m benchmarks.bot --postgres --processes 2
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import logging
import os
import random
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.postgres import run_schema, server_cpu, throwaway_server
from benchmarks.stats import percentile
from service.store import POSTGRES_SCHEMES
from tests.fake_discord import FakeChannel, FakeDiscord, FakeUser, RecordedRequest

TURN = re.compile(r"<@(\d+)>, your turn")
"""The ping of the player whose turn it is, in an action's channel message."""


@dataclass
class Table:
    """One benchmark game: its channel, its two players, whose turn it is."""

    channel: FakeChannel
    users: list[FakeUser]
    turn: int = 0
    """The user id of the player to act."""
    count: int = 0


@dataclass
class BotProcess:
    """The bot's process (``benchmarks/bot_side.py``) and its request channel."""

    proc: asyncio.subprocess.Process
    cpu: dict[str, float] = field(default_factory=dict)

    async def call(self, op: str, **args: Any) -> dict[str, Any]:
        """Send one request, return its answer."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write((json.dumps({"op": op, **args}) + "\n").encode())
        await self.proc.stdin.drain()
        line = await self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the bot's process ended (exit {await self.proc.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    async def settle(self, wait: bool = True) -> dict[str, float]:
        """Wait until the bot is quiet (unless not ``wait``); the CPU seconds it used
        since the last call."""
        now = await self.call("settle" if wait else "cpu")
        used = {k: v - self.cpu.get(k, 0.0) for k, v in now.items()}
        used["queued"] = now.get("queued", 0.0)  # a level, not a sum
        self.cpu = now
        return used


async def settle(bots: list[BotProcess], wait: bool = True) -> dict[str, float]:
    """:meth:`BotProcess.settle` of every bot process, their figures added up."""
    each = await asyncio.gather(*(b.settle(wait) for b in bots))
    return {k: sum(used.get(k, 0.0) for used in each) for k in each[0]}


ACKS: list[float] = []
"""Seconds from each interaction to its acknowledgement (inf: never, or too late)."""
WORDS: list[float] = []
"""Seconds from each interaction to its answer's words (the board may follow)."""


async def act(fake: FakeDiscord, table: Table) -> float:
    """The current player's /arm or /pass; returns the seconds until the board came."""
    user = next(u for u in table.users if u.id == table.turn)
    name = "arm" if table.count % 2 == 0 else "pass"
    table.count += 1
    start = time.perf_counter()
    res = await fake.slash(user, table.channel, name, timeout=60)
    ACKS.append(float("inf") if res.ack_delay is None or res.expired else res.ack_delay)
    if res.answered_at is not None:
        WORDS.append(res.answered_at - res.created)
    msg = res.answer
    assert msg is not None and not msg.ephemeral, res.content
    turn = TURN.search(msg.content)
    assert turn is not None, msg.content
    table.turn = int(turn[1])
    # woken only by changes to this message: hundreds of waiting players cost nothing
    await fake.wait_until(lambda: bool(msg.attachments), 60, "the board", 1.0, on=msg)
    took = time.perf_counter() - start
    assert msg.attachments[0].filename == "board.png", msg.content
    return took


def report(title: str, values: list[float]) -> None:
    """Median, p90, p99 and max in milliseconds."""
    ms = [v * 1000 for v in values]
    print(
        f"{title}: n={len(ms)}  median {statistics.median(ms):.1f} ms  "
        f"p90 {percentile(ms, 90):.1f} ms  p99 {percentile(ms, 99):.1f} ms  "
        f"max {max(ms):.1f} ms",
        flush=True,
    )


def report_cpu(used: dict[str, float], wall: float, actions: int, processes: int = 1) -> None:
    """The bot processes' CPU time over a phase, and per action."""
    per, wall = 1000 / max(1, actions), max(wall, 1e-6)
    who = "bot process" if processes == 1 else f"{processes} bot processes'"
    print(
        f"  {who} CPU {used['cpu']:.1f} s in {wall:.1f} s "
        f"({used['cpu'] / wall:.0%} of a core; event loop thread {used['loop']:.1f} s, "
        f"{used['loop'] / wall:.0%}); per action {used['cpu'] * per:.1f} ms "
        f"(loop {used['loop'] * per:.1f} ms)   [load average {load()}]",
        flush=True,
    )


def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used, from /proc (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (the bot's render workers), from /proc."""
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            out += [int(c) for c in (task / "children").read_text().split()]
    return out


def others_cpu(bots: list[BotProcess], postmaster: int | None) -> dict[str, float]:
    """CPU seconds so far of this process (the fake and the players), of the bot's
    render workers and of the PostgreSQL server (``postmaster``: its process id, when it
    runs here)."""
    return {
        "fake": time.process_time(),
        "workers": sum(proc_cpu(c) for b in bots for c in children(b.proc.pid)),
        "postgres": server_cpu(postmaster),
    }


def report_others(
    before: dict[str, float], after: dict[str, float], wall: float, actions: int
) -> None:
    """The CPU the fake Discord, the render workers and the PostgreSQL server used over a
    phase."""
    wall = max(wall, 1e-6)
    fake, workers, server = (after[k] - before[k] for k in ("fake", "workers", "postgres"))
    database = (
        f"; PostgreSQL server CPU {server:.1f} s ({server / wall:.0%}, "
        f"{server * 1000 / max(1, actions):.2f} ms per action)"
        if after["postgres"]
        else ""
    )
    print(
        f"  fake Discord + players process CPU {fake:.1f} s ({fake / wall:.0%} of a core); "
        f"render workers CPU {workers:.1f} s ({workers / wall:.0%}){database}",
        flush=True,
    )


def load() -> str:
    """The 1, 5 and 15 minute load averages, as ``uptime`` shows them."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


async def start_bot(
    fake: FakeDiscord,
    guild_id: int,
    max_games: int,
    database_url: str,
    shard: tuple[int, int] | None = None,
) -> BotProcess:
    """Start a bot process against ``fake`` (``shard``: the one it connects, of how many)
    and wait until it has started (connecting is the caller's to wait for)."""
    config = {
        "api_base": fake.api_base,
        "gateway_url": fake.gateway_url,
        "token": fake.token,
        "database_url": database_url,
        "guild": guild_id,
        "max_games": max_games,
    }
    if shard is not None:
        config["shard"], config["shards"] = shard
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "benchmarks.bot_side",
        json.dumps(config),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        limit=2**20,
    )
    bot = BotProcess(proc)
    assert proc.stdout is not None
    ready = await asyncio.wait_for(proc.stdout.readline(), 120)
    if not ready:
        raise RuntimeError(f"the bot's process ended (exit {await proc.wait()})")
    return bot


async def make_tables(
    fake: FakeDiscord, bots: list[BotProcess], guild_ids: list[int], numbers: range
) -> list[Table]:
    """Two-player games set up in the bots, one channel each: game ``n`` in server
    ``n % len(bots)``, set up by the bot process of that server's shard."""
    tables = []
    for n in numbers:
        guild = fake.guilds[guild_ids[n % len(bots)]]
        users = [fake.add_user(f"p{n}a", guild=guild), fake.add_user(f"p{n}b", guild=guild)]
        tables.append(Table(fake.add_text_channel(guild, f"table-{n}"), users))
    await fake.sync()  # the bot knows the channels before their games open
    specs: list[list[dict[str, Any]]] = [[] for _ in bots]
    for n, t in zip(numbers, tables, strict=True):
        spec = {"n": n, "channel": t.channel.id, "users": [u.id for u in t.users]}
        specs[n % len(bots)].append({**spec, "guild": guild_ids[n % len(bots)]})
    made = await asyncio.gather(
        *(b.call("tables", tables=s) for b, s in zip(bots, specs, strict=True))
    )
    turns = {
        spec["n"]: table["turn"]
        for asked, answer in zip(specs, made, strict=True)
        for spec, table in zip(asked, answer["tables"], strict=True)
    }
    for n, t in zip(numbers, tables, strict=True):
        t.turn = turns[n]
    return tables


async def main_async(args: argparse.Namespace) -> None:
    """Set up the database, the fake and the bot's processes, run both phases, print the
    numbers."""
    logging.basicConfig(level=logging.WARNING)
    if args.postgres:
        with throwaway_server() as (url, postmaster):
            await with_database(args, url, postmaster)
    elif args.database:
        url = await run_schema(args.database, create=True)
        try:
            await with_database(args, url, None)
        finally:
            await run_schema(args.database, create=False)
    else:
        folder = Path(tempfile.mkdtemp(prefix="bot-bench-"))
        await with_database(args, f"sqlite:///{folder / 'bench.db'}", None)


async def with_database(args: argparse.Namespace, url: str, postmaster: int | None) -> None:
    """Start the fake and ``--processes`` bot processes on the database at ``url``, run
    both phases, stop them."""
    count = args.processes
    fake = await FakeDiscord().start()
    fake.shard_count = count
    guilds = [
        fake.add_guild(f"Bench {i}", shard=(i, count) if count > 1 else None).id
        for i in range(count)
    ]
    bots: list[BotProcess] = []
    try:
        for i, guild in enumerate(guilds):  # one by one: the first leads and syncs
            shard = (i, count) if count > 1 else None
            bots.append(await start_bot(fake, guild, args.games + 10, url, shard))
        await fake.wait_until(
            lambda: fake.shards_connected() == set(range(count)) and None in fake.commands,
            60,
            "every shard connected and the commands synced",
        )
        print(
            f"{count} bot process(es) on {url.split(':', 1)[0]}   [load average {load()}]",
            flush=True,
        )
        await run(fake, bots, guilds, args, postmaster)
    finally:
        for bot in bots:
            if bot.proc.returncode is None:
                await bot.call("stop")
                await bot.proc.wait()
        await fake.stop()


async def run(
    fake: FakeDiscord,
    bots: list[BotProcess],
    guild_ids: list[int],
    args: argparse.Namespace,
    postmaster: int | None,
) -> None:
    """The two phases."""
    count = len(bots)
    (first,) = await make_tables(fake, bots, guild_ids, range(1))
    for _ in range(10):  # warm every image path (board, hand) and the connection pool
        await act(fake, first)
        await settle(bots)
    ACKS.clear()
    WORDS.clear()
    seq = []
    began = time.perf_counter()
    for _ in range(args.actions):
        seq.append(await act(fake, first))
        await bots[0].call("settle")
    used = await settle(bots)
    report(f"sequential ({args.actions} actions, one at a time)", seq)
    report_acks()
    report_cpu(used, time.perf_counter() - began, args.actions, count)

    tables = await make_tables(fake, bots, guild_ids, range(1, args.games + 1))
    await settle(bots)
    rng = random.Random(1)
    loaded: list[float] = []
    offered = 0
    if args.profile:
        await bots[0].call("profile", start=True)
    if args.sample:
        await bots[0].call("sample", start=True)
    others = others_cpu(bots, postmaster)
    first_request = len(fake.requests)
    began = time.perf_counter()
    stop_at = began + args.duration

    async def player(table: Table) -> None:
        nonlocal offered
        when = time.perf_counter() + rng.uniform(0, args.interval)
        while when < stop_at:
            offered += 1
            await asyncio.sleep(max(0.0, when - time.perf_counter()))
            if time.perf_counter() < stop_at:
                loaded.append(await act(fake, table))
            when += rng.expovariate(1 / args.interval)

    await asyncio.gather(*(player(t) for t in tables))
    during = await settle(bots, wait=False)
    load_wall = time.perf_counter() - began
    load_others = others_cpu(bots, postmaster)
    if args.profile:
        await bots[0].call("profile", start=False, path=str(Path(args.profile).resolve()))
    if args.sample:
        await bots[0].call("sample", start=False, path=str(Path(args.sample).resolve()))
    used = await settle(bots)
    wall = time.perf_counter() - began
    print(
        f"under load ({args.games} games, one action every {args.interval:g} s each on "
        f"average for {args.duration:g} s): offered {args.games / args.interval:.1f} "
        f"actions/s ({offered / args.duration:.1f}/s scheduled), "
        f"taken {len(loaded) / args.duration:.1f} actions/s   [load average {load()}]"
    )
    report("  board (command to channel image)", loaded)
    report_acks()
    print("  while the players played:", end="")
    report_cpu(during, load_wall, len(loaded), count)
    report_others(others, load_others, load_wall, len(loaded))
    print(
        f"  DMs merged into a waiting one {during.get('merged', 0):.0f}, hand images drawn "
        f"{during.get('hands', 0):.0f} ({during.get('hands', 0) / max(1, len(loaded)):.2f} "
        f"per action, {during.get('late', 0):.0f} of them too late to go); outbox items "
        f"waiting at the end {during.get('queued', 0):.0f}"
    )
    print(f"  then until the bot was quiet ({wall - load_wall:.1f} s more: the outbox's backlog):")
    report_cpu(used, wall - load_wall, len(loaded), count)
    report_others(load_others, others_cpu(bots, postmaster), wall - load_wall, len(loaded))
    report_requests(fake.requests[first_request:], len(loaded))


def report_requests(requests: list[RecordedRequest], actions: int) -> None:
    """The bot's requests to Discord per action, by route."""
    routes = collections.Counter(
        f"{r.method} {re.sub(r'/itok-[^/]+', '/:token', re.sub(r'/[0-9]+', '/:id', r.path))}"
        for r in requests
    )
    each = ", ".join(f"{route} {n / max(1, actions):.2f}" for route, n in routes.most_common(8))
    print(f"  requests per action: {len(requests) / max(1, actions):.2f} ({each})", flush=True)


def report_acks() -> None:
    """The acknowledgements since the last report, and how many missed Discord's 3 s."""
    late = sum(1 for a in ACKS if a >= 3.0)
    report(
        f"  acknowledged ({late} of {len(ACKS)} unanswered: not within 3 s)",
        [a for a in ACKS if a != float("inf")] or [0.0],
    )
    report("  answered with words", WORDS or [0.0])
    ACKS.clear()
    WORDS.clear()


def main() -> None:
    """Parse arguments and run."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--interval", type=float, default=5.0)
    parser.add_argument("--duration", type=float, default=90.0)
    parser.add_argument(
        "--profile", help="cProfile the (first) bot's event loop under load into FILE"
    )
    parser.add_argument(
        "--sample", help="sample the (first) bot's threads' stacks under load into FILE (text)"
    )
    parser.add_argument(
        "--database", help="a postgresql:// URL: the bot's games there (a schema of the run's)"
    )
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="start a throwaway PostgreSQL server (fsync on) from this machine's binaries",
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="bot processes, one shard each (PostgreSQL)"
    )
    args = parser.parse_args()
    if args.database and not args.database.startswith(POSTGRES_SCHEMES):
        parser.error("--database takes a postgresql:// URL (without it: an SQLite file)")
    if args.processes < 1 or (args.processes > 1 and not (args.postgres or args.database)):
        parser.error("--processes above 1 needs PostgreSQL (--postgres or --database)")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
