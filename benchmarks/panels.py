"""How many clicks, and how much of the bot's time, a turn takes when it is played by
clicking: whole three-player games (two people, one computer) played only on the panels,
through the real discord.py client and the fake Discord, in this process.

For each kind of action and each place it was taken (the DM's panel, or the channel's
ephemeral one opened by *Your turn* / *Open my panel*): how many decisions, their clicks
(median, min, max), and the bot's answer time per click (from the interaction reaching
the fake to the bot's answer: the ephemeral panel shown, the panel edited) and per
decision (all its clicks). The person's own reading and clicking time is not in these
numbers: a turn takes that plus the bot's part. Also the process's CPU time, and the
machine's load.

With ``--variant europe_at_war``: two people on the compact map, each making the game's
own computer player's choices, for the first ``--decisions`` decisions of each game
(setup, plans, windows, battles, and the counts panels of casualties, recruits, upkeep
and savings).

Run by hand:  python -m benchmarks.panels [--games 3] [--dms-closed]
              python -m benchmarks.panels --variant europe_at_war [--decisions 400]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import discord.gateway
import discord.http

from benchmarks.stats import percentile
from bot.endpoints import point_discord_at
from tests.bot.e2e.clicks import Clicker, Decided
from tests.bot.e2e.harness import make_world
from tests.bot.e2e.policy import Policy, aggressive_computer
from tests.bot.e2e.test_europe_at_war import Heuristic, _two_on_compact
from tests.fake_discord import FakeDiscord

SEEDS = (113, 197, 7, 29, 31, 41, 53, 61)


async def play(
    seed: int, dms_closed: bool, tmp: Path, variant: str = "", decisions: int = 400
) -> list[Decided]:
    """One game by clicks (of ``variant``: Europe at War's first ``decisions``); its
    decisions."""
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    fake = await FakeDiscord().start()
    point_discord_at(fake.api_base, fake.gateway_url)
    try:
        closed = ("ann", "bob") if dms_closed else ()
        world = await make_world(fake, tmp, start=False, dms_closed=closed)
        world.seed = seed
        await world.start(service_options={"chooser": aggressive_computer})
        try:
            if variant == "europe_at_war":
                gid = await _two_on_compact(world)
                clicker = Clicker(world, channel_every=2)
                policy = Heuristic()
                for _n in range(decisions):
                    if not await clicker.step(policy):
                        break
                return clicker.log
            await world.slash("ann", "newgame")
            gid = await world.gid()
            lobby = world.lobby_message()
            await world.click("bob", lobby, f"ew:l:{gid}:join")
            await world.click("ann", lobby, f"ew:l:{gid}:bot")
            await world.click("ann", lobby, f"ew:l:{gid}:start")
            clicker = Clicker(world, channel_every=2)
            await clicker.play_to_end(gid, Policy(), 400)
            return clicker.log
        finally:
            await world.stop()
    finally:
        await fake.stop()
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved


def report(log: list[Decided]) -> None:
    """Print the table."""
    groups: dict[tuple[str, str, str], list[Decided]] = defaultdict(list)
    for d in log:
        groups[(d.decision, d.action, d.where)].append(d)
    print(
        f"{'decision':10} {'action':13} {'where':8} {'n':>4}  "
        f"{'clicks med (min-max)':22} {'bot ms/click med p90':22} {'bot ms/decision med p90'}"
    )
    for (decision, action, where), ds in sorted(groups.items()):
        clicks = [d.clicks for d in ds]
        per_click = [s for d in ds for s in d.seconds]
        per_decision = [sum(d.seconds) for d in ds]
        print(
            f"{decision:10} {action:13} {where:8} {len(ds):>4}  "
            f"{statistics.median(clicks):>4g} ({min(clicks)}-{max(clicks)})"
            f"{'':12} {statistics.median(per_click) * 1000:>7.1f} "
            f"{percentile(per_click, 90) * 1000:>7.1f}{'':7} "
            f"{statistics.median(per_decision) * 1000:>7.1f} "
            f"{percentile(per_decision, 90) * 1000:>7.1f}"
        )
    turns = [d for d in log if d.decision != "setup"]
    all_clicks = [s for d in log for s in d.seconds]
    print(
        f"\n{len(log)} decisions by people ({len(turns)} after the setup), "
        f"{sum(d.clicks for d in log)} clicks; bot answer per click: median "
        f"{statistics.median(all_clicks) * 1000:.1f} ms, p90 "
        f"{percentile(all_clicks, 90) * 1000:.1f} ms, max {max(all_clicks) * 1000:.1f} ms"
    )


def main() -> None:
    """Parse the arguments, play, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games to play (default 3)")
    parser.add_argument("--dms-closed", action="store_true", help="both people's DMs closed")
    parser.add_argument("--variant", default="", help="europe_at_war (default: European War)")
    parser.add_argument(
        "--decisions", type=int, default=400, help="Europe at War: decisions per game"
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    log: list[Decided] = []
    load = os.getloadavg()[0]
    cpu, wall = time.process_time(), time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.games):
            where = Path(tmp) / f"game{i}"
            where.mkdir()
            seed = SEEDS[i % len(SEEDS)]
            log += asyncio.run(play(seed, args.dms_closed, where, args.variant, args.decisions))
    print(f"load average before: {load:.2f}")
    report(log)
    print(
        f"{args.games} games in {time.perf_counter() - wall:.1f} s wall, "
        f"{time.process_time() - cpu:.1f} s CPU (this process: bot, fake Discord and players); "
        f"load average now {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
