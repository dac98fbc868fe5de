"""The fake Discord's shards, as Discord has them: ``GET /gateway/bot`` recommends a
count, each connection identifies one shard, sees only the servers on it (``(id >> 22) %
count``) and gets their events, and direct messages go to shard 0 only."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import discord
from discord.ext import commands

from tests.fake_discord.fixtures import running_bot
from tests.fake_discord.server import FakeDiscord


class Sharded(commands.AutoShardedBot):
    """Records which guilds and interactions reached it."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(
            command_prefix="!", intents=discord.Intents.none() | discord.Intents(guilds=True), **kw
        )
        self.interactions: list[int | None] = []

        @self.tree.command(name="where")
        async def where(interaction: discord.Interaction) -> None:
            self.interactions.append(interaction.guild_id)
            await interaction.response.send_message("here", ephemeral=True)


async def test_a_recommended_count_is_asked_for_and_every_shard_connected(
    fake_discord: FakeDiscord,
) -> None:
    fake_discord.shard_count = 1
    async with running_bot(fake_discord, Sharded(), sync_commands=False) as bot:
        assert bot.shard_count == 1 and fake_discord.shards_connected() == {0}
        assert any(r.path == "/gateway/bot" for r in fake_discord.requests)


async def test_each_process_sees_the_servers_of_its_shards_and_dms_reach_shard_0(
    fake_discord: FakeDiscord,
) -> None:
    zero = fake_discord.add_guild("Zero", shard=(0, 2))
    one = fake_discord.add_guild("One", shard=(1, 2))
    chans = [fake_discord.add_text_channel(g, "games") for g in (zero, one)]
    ann = fake_discord.add_user("ann", guild=zero)
    fake_discord.add_member(one, ann)
    a, b = Sharded(shard_count=2, shard_ids=[0]), Sharded(shard_count=2, shard_ids=[1])
    async with contextlib.AsyncExitStack() as stack:
        await stack.enter_async_context(running_bot(fake_discord, a, sync_commands=False))
        await stack.enter_async_context(running_bot(fake_discord, b, sync_commands=False))
        assert fake_discord.shards_connected() == {0, 1}
        assert [g.id for g in a.guilds] == [zero.id] and [g.id for g in b.guilds] == [one.id]
        await fake_discord.raw_command(ann, chans[1], "where")  # a server on shard 1
        await fake_discord.raw_command(ann, chans[0], "where")
        await fake_discord.raw_command(ann, fake_discord.dm_channel(ann), "where")  # a DM
        await asyncio.sleep(0)
        assert a.interactions == [zero.id, None] and b.interactions == [one.id]
        fake_discord.add_guild("Later", shard=(1, 2))
        await fake_discord.sync()
        assert len(a.guilds) == 1 and len(b.guilds) == 2
