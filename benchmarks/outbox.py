"""Computer-only games playing themselves under Discord's global rate limit, through
the real discord.py client and the fake Discord enforcing the limit.

Prints: messages lost (an action's words that never reached its channel), the 429s the
fake answered (global and per-route), the requests it counted, and for each game the
longest time its latest board waited to be shown (sampled every 0.25 s: from the moment
the service made the outcome until the channel's newest board message carries its
words) as median, p90 and max; wall and CPU time.

Run by hand:  python -m benchmarks.outbox [--games 100] [--limit 50]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.stats import percentile
from bot.client import GameBot
from bot.config import Settings
from bot.endpoints import point_discord_at
from bot.resources import open_resources
from service.scheduler import FakeClock, RealClock
from tests.bot.e2e.selfplay import Recorder, latest_board_shown, lost_lines, open_table
from tests.fake_discord import FakeDiscord
from tests.fake_discord.fixtures import running_bot


async def main_async(args: argparse.Namespace) -> None:
    """Start the fake Discord and the bot (as ``python -m bot`` does), then run the games."""
    logging.basicConfig(level=logging.ERROR)
    fake = await FakeDiscord().start()
    point_discord_at(fake.api_base, fake.gateway_url)
    fake.set_rate_limits(per_second=args.limit)
    guild = fake.add_guild("Bench")
    tmp = Path(tempfile.mkdtemp(prefix="outbox-bench-"))
    settings = Settings(
        discord_token=fake.token,
        database_url=f"sqlite:///{tmp}/bench.db",
        dev_guild_id=None,
        log_level="ERROR",
        discord_api_base=None,
        discord_gateway_url=None,
    )
    # with pacing the computers sleep on the real clock (a fake one would never move)
    clock = FakeClock() if args.pacing == 0 else RealClock()
    service_options = {"clock": clock, "computer_pacing": args.pacing}
    cpu0, wall0 = time.process_time(), time.perf_counter()
    async with open_resources(settings, service_options=service_options) as resources:
        bot = GameBot(
            settings,
            resources,
            outbox_options={"rate": args.limit * 0.9},
            backlog=args.backlog,
            warm_up=False,
            guild_ready_timeout=0.05,
        )
        await run_games(args, fake, guild, bot, (cpu0, wall0))


async def run_games(
    args: argparse.Namespace,
    fake: FakeDiscord,
    guild: Any,
    bot: GameBot,
    started: tuple[float, float],
) -> None:
    """Run the games on ``bot``, sampling how far each channel lags; print."""
    cpu0, wall0 = started
    async with running_bot(fake, bot, sync_commands=False, allow_errors=True):
        await bot.delivery.images.warm_up()
        await bot.service.update_guild_settings(guild.id, max_games=args.games + 1)
        recorder = Recorder()
        recorder.attach(bot)
        tables = list(
            await asyncio.gather(
                *(open_table(fake, bot, guild, n, recorder) for n in range(args.games))
            )
        )
        worst = {t.gid: 0.0 for t in tables}
        done = asyncio.ensure_future(bot.settle())
        while not done.done():
            now = time.monotonic()
            for t in tables:
                since = latest_board_shown(fake, t, recorder)
                if since is not None:
                    worst[t.gid] = max(worst[t.gid], now - since)
            await asyncio.wait({done}, timeout=0.25)
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        finished = sum([(await bot.service.status(t.gid)).status == "finished" for t in tables])
        lost = lost_lines(fake, tables, recorder)
        kept = len(await bot.db.outbox_items())
        outcomes = sum(len(v) for v in recorder.outcomes.values())
        messages = sum(len(fake.messages(t.channel)) for t in tables)
    await fake.stop()
    lags = sorted(worst.values())
    print(
        f"{args.games} computer-only games, global limit {args.limit}/s "
        f"(outbox paced at {args.limit * 0.9:.0f}/s), backlog {args.backlog}, "
        f"computer pacing {args.pacing} s"
    )
    print(
        f"finished {finished}/{args.games}; outcomes {outcomes}; channel messages "
        f"{messages}; requests counted {fake.limits.counted}"
    )
    print(
        f"messages lost: {len(lost)}; outbox items left: {kept}; 429s: "
        f"{fake.limits.global_429s} global, {fake.limits.route_429s} per-route; "
        f"outbox retries {bot.delivery.outbox.retries}"
    )
    print(
        f"latest board shown within: median {statistics.median(lags):.2f} s  "
        f"p90 {percentile(lags, 90):.2f} s  max {max(lags):.2f} s"
    )
    print(f"wall {wall:.1f} s, CPU {cpu:.1f} s")
    for line in lost[:10]:
        print("  lost:", line)


def main() -> None:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument(
        "--limit", type=float, default=50.0, help="the fake's global limit, requests per second"
    )
    parser.add_argument(
        "--backlog",
        type=int,
        default=0,
        help="outstanding deliveries a game's computers wait behind",
    )
    parser.add_argument(
        "--pacing",
        type=float,
        default=0.0,
        help="the service's computer pacing in seconds (production: 1.5)",
    )
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
