"""Lobby flows: one game per channel, threads, the bot's permissions, joining and leaving,
computers, the Options panel, the server cap, expiry, /cancel with confirmation."""

from __future__ import annotations

import discord
import pytest

from tests.bot.e2e.harness import World
from tests.fake_discord.models import PUBLIC_THREAD, InvalidInvocation


async def test_second_newgame_is_refused_with_a_link(world: World) -> None:
    await world.open_table(start=False)
    lobby = world.lobby_message()
    res = await world.slash("bob", "newgame")
    assert res.ephemeral and "already open in this channel" in res.content
    assert f"/{world.channel.id}/{lobby.id}" in res.content, "links to the running game"


async def test_newgame_in_a_new_thread(world: World) -> None:
    res = await world.slash("ann", "newgame", thread=True)
    assert not res.ephemeral
    thread = next(c for c in world.fake.channels.values() if c.type == PUBLIC_THREAD)
    assert thread.parent_id == world.channel.id and thread.mention in res.content
    lobby = world.fake.messages(thread)[-1]
    assert "a table for" in lobby.content and lobby.buttons
    assert world.bot is not None
    gid = await world.bot.service.active_game(thread.id)
    assert gid is not None and await world.gid_or_none() is None
    await world.click("bob", lobby, f"ew:l:{gid}:join")
    assert "bob" in world.fake.messages(thread)[-1].content or "<@" in lobby.content
    assert len((await world.bot.service.lobby_info(gid)).seats) == 2
    # the channel itself is still free, and a thread cannot hold a second game
    res = await world.slash("cy", "newgame", channel=thread)
    assert res.ephemeral and "already open" in res.content
    res = await world.slash("cy", "newgame", channel=thread, thread=True)
    assert res.ephemeral and "already a thread" in res.content


async def test_missing_bot_permissions_are_named(world: World) -> None:
    world.fake.set_bot_permissions(world.channel, attach_files=False)
    await world.fake.sync()
    res = await world.slash("ann", "newgame")
    assert res.ephemeral and "attach files" in res.content
    world.fake.set_bot_permissions(world.channel, attach_files=None, create_public_threads=False)
    await world.fake.sync()
    res = await world.slash("ann", "newgame", thread=True)
    assert res.ephemeral and "create public threads" in res.content
    assert await world.gid_or_none() is None


async def test_join_leave_addbot_and_options(world: World) -> None:
    await world.slash("ann", "newgame", players=4)
    gid = await world.gid()
    choices = await world.fake.autocomplete(
        world.users["bob"], world.channel, "join", focused="power", power=""
    )
    assert len(choices) == 5 and all(c["value"] for c in choices)
    res = await world.slash("bob", "join", power="russian_empire")
    assert not res.ephemeral and "bob joined" in res.content
    choices = await world.fake.autocomplete(
        world.users["cy"], world.channel, "join", focused="power", power="emp"
    )
    assert [c["value"] for c in choices] == ["ottoman_empire"], "taken powers are not offered"
    res = await world.slash("cy", "join", power="Russian Empire")
    assert res.ephemeral and "already chose that power" in res.content
    lobby = world.lobby_message()
    assert "wants Russian Empire" in lobby.content
    res = await world.slash("bob", "addbot")
    assert res.ephemeral and "only the host" in res.content.lower()
    res = await world.slash("ann", "addbot", level="easy")
    assert "Computer 1 (easy)" in res.content
    await world.click("ann", lobby, f"ew:l:{gid}:bot")
    assert world.bot is not None
    info = await world.bot.service.lobby_info(gid)
    assert len(info.seats) == 4
    res = await world.click("cy", lobby, f"ew:l:{gid}:join")
    assert res.ephemeral and "full" in res.content
    res = await world.slash("bob", "leave")
    assert "bob left" in res.content
    assert "wants Russian Empire" not in world.lobby_message().content

    # the host's Options panel: changes show on the lobby message at once
    opts = await world.click("ann", lobby, f"ew:l:{gid}:opts")
    assert opts.ephemeral
    panel = opts.answer
    await world.fake.select(world.users["ann"], panel, f"ew:op:{gid}:setup", ["by_size"])
    await world.fake.select(world.users["ann"], panel, f"ew:op:{gid}:diplomacy", ["60"])
    await world.fake.select(
        world.users["ann"], panel, f"ew:op:{gid}:flags", ["arranged", "sea_attacks"]
    )
    await world.fake.select(world.users["ann"], panel, f"ew:op:{gid}:timeout", ["3600"])
    await world.settle()
    text = world.lobby_message().content
    for words in (
        "one piece at a time by size",
        "diplomacy window 60 s",
        "sea attacks",
        "seats in join order",
        "turn timeout 1 h",
    ):
        assert words in text, words
    info = await world.bot.service.lobby_info(gid)
    assert info.options["setup_order"] == "by_size" and info.arranged
    res = await world.click("cy", lobby, f"ew:l:{gid}:opts")
    assert res.ephemeral and "only the host" in res.content.lower()


async def test_server_cap_and_cancel(world: World) -> None:
    admin = world.fake.add_user(
        "admin",
        guild=world.guild,
        permissions=discord.Permissions(manage_guild=True, manage_channels=True),
    )
    res = await world.slash(admin, "settings", games=1)
    assert res.ephemeral and "Games at once in this server: 1" in res.content
    with pytest.raises(InvalidInvocation):  # Discord hides it from members without the right
        await world.slash("bob", "settings", games=3)
    await world.open_table(start=False)
    other = world.fake.add_text_channel(world.guild, "more-games")
    await world.fake.sync()
    res = await world.slash("bob", "newgame", channel=other)
    assert res.ephemeral and "limit" in res.content

    # an admin (Manage Channels) may cancel someone else's table, after confirming
    ask = await world.slash(admin, "cancel")
    assert ask.ephemeral
    confirm = ask.original.buttons[0]["custom_id"]
    res = await world.click(admin, ask.original, confirm)
    assert "cancelled" in res.original.content
    assert await world.gid_or_none() is None
    assert not world.fake.messages(world.channel)[0].buttons, "the lobby is closed"
    assert "cancelled" in world.fake.messages(world.channel)[-1].content
    res = await world.slash("bob", "newgame", channel=other)
    assert not res.ephemeral


async def test_abandoned_lobby_expires(world: World) -> None:
    await world.open_table(start=False)
    gid = await world.gid()
    world.clock.advance(3600 + 1)
    await world.fake.wait_until(
        lambda: "expired" in world.fake.messages(world.channel)[-1].content,
        what="the expiry notice",
    )
    await world.settle()
    assert await world.gid_or_none() is None
    lobby = world.fake.messages(world.channel)[0]
    assert not lobby.buttons and "expired" in lobby.content
    res = await world.click("dee", lobby, f"ew:l:{gid}:join") if lobby.buttons else None
    assert res is None


async def test_lobby_buttons_stay_live_across_a_restart(world: World) -> None:
    await world.slash("ann", "newgame")
    gid = await world.gid()
    lobby = world.lobby_message()
    await world.stop()
    await world.start()
    res = await world.click("bob", lobby, f"ew:l:{gid}:join")
    assert not res.ephemeral and world.users["bob"].mention in res.original.content
    assert world.bot is not None
    assert len((await world.bot.service.lobby_info(gid)).seats) == 2
    await world.click("ann", lobby, f"ew:l:{gid}:start")
    assert "The game has started" in world.fake.message(lobby.id).content
