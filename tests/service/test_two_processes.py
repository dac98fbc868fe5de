"""Two services on one PostgreSQL database, as two bot processes with different shard
ranges: the one that does not host a game still acts on it through the database (a DM's
panel reaches whichever process has shard 0), its host hears of the change, reloads the
game and tells what its channel is owed; concurrent answers for one game from both end
serial."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

from service import GameService
from service.postgres_store import PostgresStore
from service.scheduler import FakeClock
from tests.bot.helpers import new_game
from tests.postgres import PostgresServer

GUILD = 77 << 22


def ours(guild_id: int | None, channel_id: int) -> bool:
    return guild_id == GUILD


def theirs(guild_id: int | None, channel_id: int) -> bool:
    return guild_id is not None and guild_id != GUILD


def any_server(guild_id: int | None, channel_id: int) -> bool:
    return guild_id is not None


@pytest.fixture
async def pair(postgres_server: PostgresServer) -> AsyncIterator[tuple[GameService, GameService]]:
    """(the host of GUILD's games, another process that only visits them)."""
    url = await postgres_server.fresh_url()
    clock = FakeClock(1_700_000_000.0)
    services = []
    for hosts in (ours, theirs):
        svc = GameService(
            await PostgresStore.open(url),
            clock=clock,
            computer_pacing=0,
            seed_source=lambda: 7,
            hosts=hosts,
            visits=any_server,
        )
        svc.announces = True
        await svc.start()
        services.append(svc)
    yield services[0], services[1]
    for svc in services:
        await svc.close()


async def test_a_game_hosted_elsewhere_is_played_through_the_database_and_its_host_follows(
    pair: tuple[GameService, GameService],
) -> None:
    host, other = pair
    told: list[int] = []
    heard = asyncio.Event()

    async def on_changed(game_id: int) -> None:
        told.append(game_id)
        assert await host.store.announcements() != [], "the visit's action is owed to the channel"
        heard.set()

    host.on_changed = on_changed
    gid, _ = await new_game(host, guild=GUILD, channel=5)
    assert host._games.get(gid) is not None
    rng = random.Random(3)
    for _ in range(3):
        heard.clear()
        prompts = await other.prompts(gid)  # read through the database
        assert prompts, "the visiting process sees the game's open decisions"
        p = rng.choice(prompts)
        before = (await host.status(gid)).version
        out = await other.answer(gid, p.user_id or 0, p.version, rng.choice(p.choices))
        assert out.ok, out.error
        assert out.version == before + 1
        assert other._games.get(gid) is None, "a visited game is never cached"
        assert other.scheduler.keys(gid) == [], "nor timed"
        await asyncio.wait_for(heard.wait(), 10)
        await host.idle(gid)
        live = host._games.get(gid)
        assert live is not None and live.version == out.version, "the host reloaded it"
    assert told == [gid, gid, gid]


async def test_answers_from_both_processes_at_once_end_serial(
    pair: tuple[GameService, GameService],
) -> None:
    host, other = pair
    gid, _ = await new_game(host, guild=GUILD, channel=6)
    versions = []
    for _ in range(5):
        await host.idle(gid)
        prompts = await other.prompts(gid)  # the database's truth (the host may not have heard yet)
        p = prompts[0]
        results = await asyncio.gather(
            host.answer(gid, p.user_id or 0, p.version, p.choices[0]),
            other.answer(gid, p.user_id or 0, p.version, p.choices[-1]),
        )
        ok = [r for r in results if r.ok]
        assert len(ok) == 1, [r.error for r in results]
        assert all("out of date" in (r.error or "") for r in results if not r.ok)
        versions.append(ok[0].version)
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    actions = await host.store.actions(gid)
    assert [a.seq for a in actions] == list(range(1, len(actions) + 1))
