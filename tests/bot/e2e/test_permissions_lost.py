"""Permissions revoked in a running game: its messages wait (nothing is dropped), its
timers pause, and the channel — or the host by DM, if the bot cannot post there at all —
is told which permission is missing; the fix (or /resume) starts it again."""

from __future__ import annotations

import pytest

from service.scheduler import FakeClock
from tests.bot.e2e.harness import World
from tests.bot.e2e.selfplay import Recorder, lost_lines, open_table, resign_host


@pytest.fixture
async def perms(fake_discord, tmp_path):
    """A running game at a table with its host still seated, and the bot's recorder; the
    world stops after the test."""
    fake = fake_discord
    guild = fake.add_guild("Perms")
    world = World(
        fake, tmp_path, guild, fake.add_text_channel(guild, "lobby"), {}, clock=FakeClock()
    )
    bot = await world.start()
    recorder = Recorder()
    recorder.attach(bot)
    table = await open_table(fake, bot, guild, 0, recorder, resign=False)
    await world.settle()
    yield world, bot, recorder, table
    await world.stop()


async def _revoked(world: World, bot, recorder, table, **flags) -> None:
    """The bot's channel permissions set to ``flags``, then the host resigns: computers
    play every seat, and the first message the permission stops fails."""
    world.fake.set_bot_permissions(table.channel, **flags)
    await world.fake.sync()
    await resign_host(bot, table, recorder)
    await world.settle()


async def _fixed(world: World, table, **flags) -> None:
    fake, bot = world.fake, world.bot
    assert bot is not None
    fake.set_bot_permissions(table.channel, **flags)
    await fake.wait_until(lambda: table.channel.id not in bot.delivery.outbox.held_channels)
    await world.settle()


async def test_attach_files_revoked_pauses_tells_the_channel_and_the_fix_resumes(
    fake_discord, perms
) -> None:
    world, bot, recorder, table = perms
    await _revoked(world, bot, recorder, table, attach_files=False)  # boards fail
    await _assert_paused(bot, table)
    last = fake_discord.messages(table.channel)[-1].content
    assert "**Attach Files**" in last and "paused" in last, last
    kept = await bot.db.outbox_items()
    assert kept and all(i.channel_id == table.channel.id for i in kept)
    await _fixed(world, table, attach_files=None)
    await _assert_resumed_and_finished(fake_discord, bot, recorder, table)
    assert await bot.db.outbox_items() == []


async def test_channel_hidden_tells_the_host_by_dm_and_resume_tries_again(
    fake_discord, perms
) -> None:
    world, bot, recorder, table = perms
    await _revoked(world, bot, recorder, table, view_channel=False)
    st = await bot.service.status(table.gid)
    assert st.paused and st.status == "running"
    told = [m.content for m in fake_discord.dm_messages(table.host) if "missing" in m.content]
    assert len(told) == 1 and "**View Channel**" in told[0] and "#table-0" in told[0]
    # /resume while the permission is still missing: the game starts, the first
    # message fails again, so it pauses again and the host is told again
    res = await world.fake.slash(table.host, table.channel, "resume")
    assert "resumes" in res.content
    await world.settle()
    assert (await bot.service.status(table.gid)).paused
    told = [m.content for m in fake_discord.dm_messages(table.host) if "missing" in m.content]
    assert len(told) == 2
    await _fixed(world, table, view_channel=None)
    await _assert_finished(fake_discord, bot, recorder, table)


async def test_a_role_change_takes_the_permission_away_and_gives_it_back(
    fake_discord, perms
) -> None:
    """The bot's own role loses Attach Files (GUILD_ROLE_UPDATE), then gets it back."""
    from tests.fake_discord.models import ATTACH_FILES

    world, bot, recorder, table = perms
    guild = world.guild
    everyone, role = guild.roles[guild.id], fake_discord.bot_role(guild)
    fake_discord.set_role_permissions(role, role.permissions | ATTACH_FILES)
    fake_discord.set_role_permissions(everyone, everyone.permissions & ~ATTACH_FILES)
    fake_discord.set_role_permissions(role, role.permissions & ~ATTACH_FILES)
    await fake_discord.sync()
    await resign_host(bot, table, recorder)
    await world.settle()
    assert (await bot.service.status(table.gid)).paused
    assert "**Attach Files**" in fake_discord.messages(table.channel)[-1].content
    fake_discord.set_role_permissions(role, role.permissions | ATTACH_FILES)
    await fake_discord.wait_until(lambda: table.channel.id not in bot.delivery.outbox.held_channels)
    await world.settle()
    await _assert_finished(fake_discord, bot, recorder, table)


async def _assert_paused(bot, table) -> None:
    """The game is running, paused, with no clock running."""
    st = await bot.service.status(table.gid)
    assert st.status == "running" and st.paused
    assert all(d.deadline is None for d in st.decisions)


async def _assert_finished(fake_discord, bot, recorder, table) -> None:
    """The game played to the end, unpaused, every action told."""
    st = await bot.service.status(table.gid)
    assert st.status == "finished" and not st.paused
    assert lost_lines(fake_discord, [table], recorder) == []


async def _assert_resumed_and_finished(fake_discord, bot, recorder, table) -> None:
    """The channel was told the game resumes; it played to the end, every action told."""
    texts = [m.content for m in fake_discord.messages(table.channel)]
    assert any("resumes" in t for t in texts)
    await _assert_finished(fake_discord, bot, recorder, table)


async def _paused_for_attach_files(world: World, bot, recorder, table) -> None:
    """Attach Files revoked, the computers play, the first board fails: held and paused."""
    await _revoked(world, bot, recorder, table, attach_files=False)
    assert (await bot.service.status(table.gid)).paused
    assert table.channel.id in bot.delivery.outbox.held_channels


async def test_a_restart_keeps_the_channel_held_and_the_fix_still_resumes(
    fake_discord, perms
) -> None:
    world, bot, recorder, table = perms
    await _paused_for_attach_files(world, bot, recorder, table)
    told = len(fake_discord.messages(table.channel))
    await world.stop()
    bot = await world.start()
    recorder.attach(bot)
    await world.settle()
    # still held and paused: nothing was tried in the channel, nobody told twice
    assert table.channel.id in bot.delivery.outbox.held_channels
    await _assert_paused(bot, table)
    assert len(fake_discord.messages(table.channel)) == told
    assert await bot.db.outbox_items(), "the boards still wait"
    await _fixed(world, table, attach_files=None)  # the fix, after the restart
    await _assert_resumed_and_finished(fake_discord, bot, recorder, table)
    assert await bot.db.held_channels() == []


async def test_a_permission_given_back_while_the_bot_was_down_resumes_at_start(
    fake_discord, perms
) -> None:
    world, bot, recorder, table = perms
    await _paused_for_attach_files(world, bot, recorder, table)
    await world.stop()
    fake_discord.set_bot_permissions(table.channel, attach_files=None)
    bot = await world.start()
    recorder.attach(bot)
    await fake_discord.wait_until(
        lambda: table.channel.id not in bot.delivery.outbox.held_channels,
        what="the channel released at start",
    )
    await world.settle()
    await _assert_finished(fake_discord, bot, recorder, table)
