"""Two bot processes on one PostgreSQL database through the fake Discord, each with its
own shard of two: the server's games are hosted by the process of its shard (1), while
every DM — a player's panel — reaches the process of shard 0, which applies the answer
through the database; the host hears of it, tells the channel and the players, and
re-arms the game's timers. No click is ever answered "There is no such game"."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest

from bot.client import GameBot
from bot.config import Settings
from bot.resources import open_resources
from service.scheduler import FakeClock
from tests.bot.e2e.clicks import Clicker
from tests.bot.e2e.harness import SEED, World
from tests.bot.e2e.policy import Policy
from tests.fake_discord import FakeDiscord
from tests.fake_discord.fixtures import running_bot
from tests.fake_discord.models import InteractionResult
from tests.postgres import PostgresServer

Pair = tuple[World, GameBot, GameBot]


@contextlib.asynccontextmanager
async def sharded_bot(
    fake: FakeDiscord, url: str, shard: int, clock: FakeClock
) -> AsyncIterator[GameBot]:
    """A bot process's client, started as ``python -m bot`` does (what it runs on opened
    first and handed to it): shard ``shard`` of 2 on the database at ``url``."""
    settings = Settings(
        discord_token=fake.token,
        database_url=url,
        dev_guild_id=None,
        log_level="INFO",
        discord_api_base=fake.api_base,
        discord_gateway_url=fake.gateway_url,
        shard_count=2,
        shard_ids=(shard,),
        lease_seconds=3.0,
    )
    options = {
        "clock": clock,
        "computer_pacing": 0,
        "computer_answer_delay": (0.0, 0.0),
        "seed_source": lambda: SEED,
    }
    async with open_resources(settings, service_options=options) as resources:
        bot = GameBot(settings, resources, warm_up=False, guild_ready_timeout=0.05)
        async with running_bot(fake, bot, sync_commands=False) as running:
            yield running


@pytest.fixture
async def pair(
    fake_discord: FakeDiscord, postgres_server: PostgresServer, tmp_path: object
) -> AsyncIterator[Pair]:
    """(a world on a server of shard 1, the process of shard 0, the process of shard 1)."""
    url = await postgres_server.fresh_url()
    guild = fake_discord.add_guild("Shard One", shard=(1, 2))
    channel = fake_discord.add_text_channel(guild, "games")
    users = {n: fake_discord.add_user(n, guild=guild) for n in ("ann", "bob", "cy")}
    world = World(fake_discord, tmp_path, guild, channel, users)  # type: ignore[arg-type]  # a path
    async with contextlib.AsyncExitStack() as stack:
        bots = {}
        for shard in (1, 0):  # the host first: it leads, so it syncs the commands
            bots[shard] = await stack.enter_async_context(
                sharded_bot(fake_discord, url, shard, world.clock)
            )
        world.bot = bots[1]
        yield world, bots[0], bots[1]


async def caught_up(host: GameBot, visitor: GameBot, gid: int) -> None:
    """Wait until the host has heard of every change the visitor made (its cached copy
    is the database's) and has delivered what it owes."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10.0
    while True:
        await host.settle()
        stored = await visitor.service.status(gid)  # read through the database
        live = host.service._games.get(gid)
        if live is not None and live.version == stored.version:
            return
        assert loop.time() < deadline, "the host never followed the other process's change"
        await asyncio.sleep(0.01)


async def test_a_dm_panel_lands_on_the_other_process_and_the_host_follows(pair: Pair) -> None:
    world, shard0, shard1 = pair
    assert set(shard0.shards) == {0} and set(shard1.shards) == {1}
    assert shard1.leader and not shard0.leader
    gid = await world.open_table()
    policy = Policy()
    before = len(world.fake.messages(world.channel))
    answered_elsewhere = 0
    while True:
        await caught_up(shard1, shard0, gid)
        prompts = await shard1.service.prompts(gid)
        if prompts and prompts[0].kind in ("turn", "action"):
            break  # every setup placement was answered on its DM panel
        seen = len(world.fake.interactions)
        assert await world.step(policy)
        for result in list(world.fake.interactions.values())[seen:]:
            assert "no such game" not in (result.content or "").lower(), result.content
            if result.channel.guild_id is None:  # a DM: Discord sent it to shard 0
                answered_elsewhere += 1
                assert result.response_type is not None and not result.errors
        assert gid not in shard0.service._games, "the visiting process never caches it"
    assert answered_elsewhere >= 3, "each player placed on a DM panel"
    # the host told the channel and re-armed the timers of the decisions now open
    assert len(world.fake.messages(world.channel)) > before
    live = shard1.service._games[gid]
    assert {k[1:] for k in shard1.service.scheduler.keys(gid) if k[1] == "due"} == {
        ("due", d.seat, d.kind) for d in live.decisions.values() if d.due_at is not None
    }
    assert shard0.service.scheduler.keys(gid) == []
    # and play goes on through the host
    assert await world.step(policy)
    await caught_up(shard1, shard0, gid)


async def test_turns_built_on_the_dm_turn_panel_land_on_the_other_process(pair: Pair) -> None:
    """A turn built step by step on its DM panel: every click (each step, then Confirm)
    reaches shard 0's process, which reads the game through the database and applies the
    turn there; the host follows and sends the next turn's panel."""
    world, shard0, shard1 = pair
    gid = await world.open_table()
    policy = Policy()
    clicker = Clicker(world, channel_every=0)  # always in the DM
    dm_clicks: list[InteractionResult] = []
    clicker.on_click = lambda res: dm_clicks.append(res) if res.channel.guild_id is None else None
    while clicker.turns < 4:
        await caught_up(shard1, shard0, gid)
        version = (await shard1.service.status(gid)).version
        assert await clicker.step(policy)
        await caught_up(shard1, shard0, gid)
        assert (await shard1.service.status(gid)).version > version, "the decision was taken"
        assert gid not in shard0.service._games, "the visiting process never caches it"
    turns = [d for d in clicker.log if d.decision == "turn"]
    assert len(turns) == 4 and all(d.where == "dm" and d.clicks >= 2 for d in turns)
    assert len(dm_clicks) == sum(d.clicks for d in clicker.log)
    for res in dm_clicks:
        assert "no such game" not in (res.content or "").lower(), res.content
