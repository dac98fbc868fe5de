"""The bot's latency through the real discord.py client and the fake Discord: the time
from a slash command arriving at the fake to the channel message with the board arriving
back (the command's public answer, carrying board.png — under load its words come first
and the board follows by an edit). Also: how long each interaction took to be
acknowledged, and how many were not acknowledged within Discord's 3 s.

1. Sequential: ``--actions`` actions (default 200), one at a time, in one game.
2. Under load: ``--games`` games (default 100), each taking an action every
   ``--interval`` seconds on average (default 5 s: 20 actions/s in all, exponential
   gaps), for ``--duration`` seconds (default 90).

Each action is the current player's ``/arm`` or ``/pass`` (alternating), so every one
ends a turn: one channel message with a fresh board, and a DM with the next player's hand.
Games are two-player tables set up through the service (lobby, start, placements), then
played only through slash commands. The fake and the bot share one process and event
loop, as in the tests; images are drawn in worker threads.

Run by hand:  python -m benchmarks.bot [--actions 200] [--games 100] [--duration 90]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import tempfile
import time
from pathlib import Path

import discord

from benchmarks.stats import percentile
from bot.client import GameBot
from bot.config import Settings
from bot.endpoints import point_discord_at
from bot.scheduler import FakeClock
from tests.fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeUser
from tests.fake_discord.fixtures import running_bot


class Table:
    """One benchmark game: its channel, its two players, its id."""

    def __init__(self, channel: FakeChannel, users: list[FakeUser], gid: int) -> None:
        self.channel, self.users, self.gid = channel, users, gid
        self.count = 0


async def make_table(fake: FakeDiscord, bot: GameBot, guild: FakeGuild, n: int) -> Table:
    """A started two-player game whose pieces are placed (through the service)."""
    channel = fake.add_text_channel(guild, f"table-{n}")
    users = [fake.add_user(f"p{n}a", guild=guild), fake.add_user(f"p{n}b", guild=guild)]
    svc = bot.service
    out = await svc.open_lobby(
        channel_id=channel.id, host_id=users[0].id, host_name="A", guild_id=guild.id, max_players=2
    )
    assert out.ok, out.error
    gid = out.game_id
    assert gid is not None
    assert (await svc.join(gid, users[1].id, "B")).ok
    started = await svc.start_game(gid, users[0].id, seed=n)
    assert started.ok
    for p in started.prompts:
        assert p.user_id is not None
        assert (await svc.answer(gid, p.user_id, p.version, p.choices[0])).ok
    return Table(channel, users, gid)


ACKS: list[float] = []
"""Seconds from each interaction to its acknowledgement (inf: never, or too late)."""
WORDS: list[float] = []
"""Seconds from each interaction to its answer's words (the board may follow)."""


async def act(fake: FakeDiscord, bot: GameBot, table: Table) -> float:
    """The current player's /arm or /pass; returns the seconds until the board came."""
    st = await bot.service.status(table.gid)
    turn = next(d for d in st.decisions if d.kind == "turn")
    user = next(u for u in table.users if u.id == turn.user_id)
    name = "arm" if table.count % 2 == 0 else "pass"
    table.count += 1
    start = time.perf_counter()
    res = await fake.slash(user, table.channel, name, timeout=30)
    ACKS.append(float("inf") if res.ack_delay is None or res.expired else res.ack_delay)
    if res.answered_at is not None:
        WORDS.append(res.answered_at - res.created)
    msg = res.answer
    assert msg is not None and not msg.ephemeral, res.content
    await fake.wait_until(lambda: bool(msg.attachments), 60, "the board")
    took = time.perf_counter() - start
    assert msg.attachments[0].filename == "board.png", msg.content
    return took


def report(title: str, values: list[float]) -> None:
    """Median, p90, p99 and max in milliseconds."""
    ms = [v * 1000 for v in values]
    print(
        f"{title}: n={len(ms)}  median {statistics.median(ms):.1f} ms  "
        f"p90 {percentile(ms, 90):.1f} ms  p99 {percentile(ms, 99):.1f} ms  "
        f"max {max(ms):.1f} ms"
    )


async def main_async(args: argparse.Namespace) -> None:
    """Set up the fake and the bot, run both phases, print the numbers."""
    logging.basicConfig(level=logging.WARNING)
    fake = await FakeDiscord().start()
    point_discord_at(fake.api_base, fake.gateway_url)
    guild = fake.add_guild("Bench")
    tmp = Path(tempfile.mkdtemp(prefix="bot-bench-"))
    settings = Settings(
        discord_token=fake.token,
        database_url=f"sqlite:///{tmp}/bench.db",
        dev_guild_id=None,
        log_level="WARNING",
        discord_api_base=None,
        discord_gateway_url=None,
    )
    bot = GameBot(
        settings,
        service_options={"clock": FakeClock(), "computer_pacing": 0},
        warm_up=False,
        guild_ready_timeout=0.05,
    )
    async with running_bot(fake, bot, sync_commands=False, allow_errors=False):
        await bot.delivery.images.warm_up()
        await bot.service.update_guild_settings(guild.id, max_games=args.games + 10)
        first = await make_table(fake, bot, guild, 0)
        for _ in range(10):  # warm every image path (board, hand) and the connection pool
            await act(fake, bot, first)
            await bot.settle()
        ACKS.clear()
        WORDS.clear()
        seq = []
        for _ in range(args.actions):
            seq.append(await act(fake, bot, first))
            await bot.settle()
        report(f"sequential ({args.actions} actions, one at a time)", seq)
        report_acks()

        tables = [await make_table(fake, bot, guild, n) for n in range(1, args.games + 1)]
        await bot.settle()
        rng = random.Random(1)
        loaded: list[float] = []
        stop_at = time.perf_counter() + args.duration

        async def player(table: Table) -> None:
            when = time.perf_counter() + rng.uniform(0, args.interval)
            while True:
                await asyncio.sleep(max(0.0, when - time.perf_counter()))
                if time.perf_counter() >= stop_at:
                    return
                loaded.append(await act(fake, bot, table))
                when += rng.expovariate(1 / args.interval)

        await asyncio.gather(*(player(t) for t in tables))
        await bot.settle()
        report(
            f"under load ({args.games} games, one action every {args.interval:g} s each "
            f"on average: {len(loaded) / args.duration:.1f} actions/s for "
            f"{args.duration:g} s)",
            loaded,
        )
        report_acks()
    await fake.stop()


def report_acks() -> None:
    """The acknowledgements since the last report, and how many missed Discord's 3 s."""
    late = sum(1 for a in ACKS if a >= 3.0)
    report(
        f"  acknowledged ({late} of {len(ACKS)} not within 3 s)",
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
    args = parser.parse_args()
    discord.utils.setup_logging(level=logging.WARNING)
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
