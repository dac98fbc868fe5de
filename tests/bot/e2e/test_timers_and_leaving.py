"""Deadlines (expiry, reminder, pause/resume, the diplomacy window), and a game's channel
or thread deleted, or the bot removed from the server."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import discord
import pytest

from service import ServiceError
from tests.bot.e2e.harness import World, make_world
from tests.bot.e2e.policy import Policy
from tests.fake_discord import FakeDiscord
from tests.fake_discord.models import PUBLIC_THREAD


async def _wait_text(world: World, words: str) -> str:
    def found() -> bool:
        return any(words in m.content for m in world.fake.messages(world.channel)[-3:])

    await world.fake.wait_until(found, what=repr(words))
    await world.settle()
    return next(
        m.content for m in reversed(world.fake.messages(world.channel)) if words in m.content
    )


async def _placed(world: World, **newgame: Any) -> tuple[int, Policy]:
    await world.slash("ann", "newgame", **newgame)
    gid = await world.gid()
    lobby = world.lobby_message()
    for name in ("bob", "cy"):
        await world.click(name, lobby, f"ew:l:{gid}:join")
    await world.click("ann", lobby, f"ew:l:{gid}:start")
    policy = Policy()
    for _ in range(3):
        assert await world.step(policy)
    return gid, policy


async def test_turn_expiry_is_announced_and_play_goes_on(world: World) -> None:
    gid, _ = await _placed(world, turn_timeout=300)
    assert world.bot is not None
    st = await world.bot.service.status(gid)
    mover = next(d for d in st.decisions if d.kind == "turn")
    assert mover.deadline is not None
    last = world.fake.messages(world.channel)[-1].content
    assert f"<t:{int(mover.deadline)}:R>" in last, "deadlines as relative timestamps"
    world.clock.advance(301)
    text = await _wait_text(world, "ran out of time")
    assert f"{mover.name} ran out of time (turn)" in text and "passed" in text
    assert world.fake.messages(world.channel)[-1].attachments[0].filename == "board.png"
    st = await world.bot.service.status(gid)
    assert next(d for d in st.decisions if d.kind == "turn").seat != mover.seat


async def test_one_reminder_before_the_deadline(world: World) -> None:
    gid, _ = await _placed(world)  # 12 h turns, reminder 1 h before
    assert world.bot is not None
    st = await world.bot.service.status(gid)
    mover = next(d for d in st.decisions if d.kind == "turn")
    world.clock.advance(11 * 3600 + 1)
    text = await _wait_text(world, "a reminder")
    assert text.startswith(f"⏰ <@{mover.user_id}>") and "<t:" in text
    req = world.fake.requests_to("POST", f"/channels/{world.channel.id}/messages")[-1]
    assert [int(u) for u in req.json["allowed_mentions"]["users"]] == [mover.user_id]
    count = len(world.fake.messages(world.channel))
    world.clock.advance(60)
    await world.settle()
    assert len(world.fake.messages(world.channel)) == count, "only one reminder"


async def test_pause_stops_the_clock_and_resume_restarts_it(world: World) -> None:
    gid, _ = await _placed(world, turn_timeout=300)
    res = await world.slash("bob", "pause")
    assert res.ephemeral and "host" in res.content.lower()
    res = await world.slash("ann", "pause")
    assert "paused" in res.content
    assert world.bot is not None
    version = (await world.bot.service.status(gid)).version
    world.clock.advance(10_000)
    await world.settle()
    assert (await world.bot.service.status(gid)).version == version
    res = await world.slash("ann", "resume")
    assert "resumes" in res.content and re.search(
        r"your turn — time runs out <t:\d+:R>", res.content
    )
    world.clock.advance(301)
    await _wait_text(world, "ran out of time")


async def test_diplomacy_window_runs_out_as_let_pass(world: World) -> None:
    gid, policy = await _placed(world)
    assert world.bot is not None
    svc = world.bot.service
    for _ in range(40):
        prompts = await svc.prompts(gid)
        if prompts and prompts[0].kind == "diplomacy":
            break
        assert await world.step(policy)
    else:
        raise AssertionError("no diplomacy window")
    world.clock.advance(31)
    await world.fake.wait_until(
        lambda: any(
            "ran out of time (diplomacy)" in m.content for m in world.fake.messages(world.channel)
        ),
        what="the window closing",
    )
    await world.settle()
    prompts = await svc.prompts(gid)
    assert prompts and prompts[0].kind == "duel"


async def test_channel_deleted_archives_the_game(world: World) -> None:
    gid, _ = await _placed(world, turn_timeout=300)
    assert world.bot is not None
    assert world.bot.service.scheduler.keys(gid)
    await world.fake.delete_channel(world.channel)
    await world.settle()
    st = await world.bot.service.status(gid)
    assert st.status == "archived"
    assert not world.bot.service.scheduler.keys(gid), "its timers stopped"
    world.clock.advance(10_000)
    await world.settle()
    assert (await world.bot.service.status(gid)).version == st.version


async def test_thread_deleted_archives_its_game(world: World) -> None:
    await world.slash("ann", "newgame", thread=True)
    thread = next(c for c in world.fake.channels.values() if c.type == PUBLIC_THREAD)
    assert world.bot is not None
    gid = await world.bot.service.active_game(thread.id)
    assert gid is not None
    await world.fake.delete_channel(thread)
    await world.settle()
    assert (await world.bot.service.status(gid)).status == "archived"


async def test_bot_removed_from_the_server_archives_its_games(world: World) -> None:
    gid, _ = await _placed(world, turn_timeout=300)
    assert world.bot is not None
    await world.fake.remove_bot_from_guild(world.guild)
    await world.settle()
    assert (await world.bot.service.status(gid)).status == "archived"
    assert not world.bot.service.scheduler.keys(gid)


async def test_a_server_s_data_is_deleted_a_week_after_the_bot_left(world: World) -> None:
    gid, _ = await _placed(world, turn_timeout=300)
    assert world.bot is not None
    await world.fake.remove_bot_from_guild(world.guild)
    await world.settle()
    left_at = world.clock.now()
    assert await world.bot.db.departures() == {world.guild.id: left_at}
    world.clock.advance(6 * 86400)
    assert await world.bot.purge_departed() == []
    assert (await world.bot.service.status(gid)).status == "archived"

    await world.stop()  # the departure is in the database: a restart keeps it
    world.clock.advance(86400)
    await world.start()
    assert await world.bot.db.departures() == {world.guild.id: left_at}
    assert await world.bot.purge_departed() == [world.guild.id]
    with pytest.raises(ServiceError):
        await world.bot.service.status(gid)
    assert await world.bot.db.departures() == {}
    rows = sqlite3.connect(world.tmp / "games.db").execute("SELECT COUNT(*) FROM games").fetchone()
    assert rows == (0,)


async def test_a_server_that_takes_the_bot_back_keeps_its_data(world: World) -> None:
    gid = await world.open_table(start=False)
    assert world.bot is not None
    await world.fake.remove_bot_from_guild(world.guild)
    await world.settle()
    assert set(await world.bot.db.departures()) == {world.guild.id}
    await world.bot.on_guild_join(discord.Object(world.guild.id))  # type: ignore[arg-type]  # a guild by id
    await world.settle()
    assert await world.bot.db.departures() == {}
    world.clock.advance(8 * 86400)
    assert await world.bot.purge_departed() == []
    assert (await world.bot.service.status(gid)).status == "archived"


async def test_files_of_an_older_release_are_taken_into_the_database(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    world = await make_world(fake_discord, tmp_path, start=False)
    bob = world.users["bob"]
    gone = 4242  # a server the old release had left: its deletion is still due
    (tmp_path / "preferences.json").write_text(json.dumps({"no_pings": [bob.id]}))
    (tmp_path / "departures.json").write_text(json.dumps({str(gone): world.clock.now()}))
    try:
        bot = await world.start()
        assert not await bot.db.user_pings(bob.id)
        assert await bot.db.departures() == {gone: world.clock.now()}
        assert not (tmp_path / "preferences.json").exists()
        assert (tmp_path / "departures.json.imported").is_file()
        world.clock.advance(7 * 86400)
        assert await bot.purge_departed() == [gone]
    finally:
        await world.stop()
