"""The fake answers interaction responses as Discord does: which callback types each kind
of interaction allows, one callback only, the 3-second deadline, the deferred "thinking"
message and its first follow-up, ephemeral flags, ``@original`` and the 15 minutes a token
lives. Driven through the real discord.py client (and raw HTTP where discord.py itself
would refuse to send)."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fake_discord.models import FakeChannel, FakeUser, InteractionFailed, InteractionResult
from tests.fake_discord.server import FakeDiscord


class Buttons(discord.ui.View):
    """A persistent view: one button deferred then followed up privately, one deferred
    then the message edited."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Refuse", custom_id="r:refuse")
    async def refuse(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await interaction.response.defer()
        await interaction.followup.send("not you", ephemeral=True)

    @discord.ui.button(label="Edit", custom_id="r:edit")
    async def edit(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="edited by a deferred update")


class ResponseCog(commands.Cog):
    def __init__(self, bot: ResponseBot) -> None:
        self.bot = bot

    @app_commands.command(name="silent")
    async def silent(self, interaction: discord.Interaction) -> None:
        """Never answers (the test answers by raw HTTP)."""
        self.bot.seen.append(interaction.id)

    @app_commands.command(name="public_private")
    async def public_private(self, interaction: discord.Interaction) -> None:
        """Public thinking, then a follow-up asking to be ephemeral, then another one."""
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("first", ephemeral=True)
        await interaction.followup.send("second", ephemeral=True)

    @app_commands.command(name="private_public")
    async def private_public(self, interaction: discord.Interaction) -> None:
        """Ephemeral thinking, then a follow-up without the flag."""
        await interaction.response.defer(thinking=True, ephemeral=True)
        await interaction.followup.send("still private")

    @app_commands.command(name="refuse")
    async def refuse(self, interaction: discord.Interaction) -> None:
        """Public thinking taken away, then a private reason."""
        await interaction.response.defer(thinking=True)
        await interaction.delete_original_response()
        await interaction.followup.send("no, privately", ephemeral=True)

    @app_commands.command(name="lobby")
    async def lobby(self, interaction: discord.Interaction) -> None:
        """A message with the buttons."""
        await interaction.response.send_message("lobby", view=Buttons())

    @app_commands.command(name="choose")
    async def choose(self, interaction: discord.Interaction, what: str) -> None:
        """A command whose option is autocompleted (slowly: when the test says)."""
        await interaction.response.send_message(what)

    @choose.autocomplete("what")
    async def choose_what(
        self, _: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        await self.bot.release.wait()
        return [app_commands.Choice(name="one", value="one")]

    @app_commands.command(name="keep")
    async def keep(self, interaction: discord.Interaction) -> None:
        """Answers, and keeps the interaction for a later follow-up."""
        self.bot.kept.append(interaction)
        await interaction.response.send_message("now")


class ResponseBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(
            command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05
        )
        self.seen: list[int] = []
        self.kept: list[discord.Interaction] = []
        self.release = asyncio.Event()

    async def setup_hook(self) -> None:
        await self.add_cog(ResponseCog(self))
        self.add_view(Buttons())


@pytest.fixture
async def setup(
    fake_discord: FakeDiscord, start_bot: Any
) -> tuple[FakeDiscord, FakeUser, FakeChannel, ResponseBot]:
    guild = fake_discord.add_guild("S")
    channel = fake_discord.add_text_channel(guild, "games")
    user = fake_discord.add_user("ann", guild=guild)
    bot = await start_bot(ResponseBot())
    return fake_discord, user, channel, bot


async def _callback(fake: FakeDiscord, it: InteractionResult, body: dict) -> tuple[int, dict]:
    url = f"{fake.api_base}/interactions/{it.id}/{it.token}/callback"
    async with aiohttp.ClientSession() as session, session.post(url, json=body) as resp:
        return resp.status, await resp.json()


async def _unanswered(
    fake: FakeDiscord, user: FakeUser, channel: FakeChannel
) -> tuple[InteractionResult, asyncio.Task[InteractionResult]]:
    before = set(fake.interactions)
    task = asyncio.create_task(fake.slash(user, channel, "silent"))
    await fake.wait_until(lambda: set(fake.interactions) - before != set())
    [iid] = set(fake.interactions) - before
    return fake.interactions[iid], task


async def test_callback_types_per_interaction_kind_and_only_once(setup: Any) -> None:
    fake, user, channel, _ = setup
    it, task = await _unanswered(fake, user, channel)
    for rtype in (6, 7, 8):  # update types need a component; 8 is autocomplete's
        status, body = await _callback(fake, it, {"type": rtype})
        assert (status, body["code"]) == (400, 50035), rtype
    assert it.acknowledged_at is None
    status, _ = await _callback(fake, it, {"type": 5, "data": {"flags": 64}})
    assert status == 200 and it.original is not None and it.original.loading
    assert it.acknowledged_at is not None and 0 <= it.ack_delay < fake.interaction_deadline
    status, body = await _callback(fake, it, {"type": 4, "data": {"content": "again"}})
    assert status == 400 and body == {
        "message": "Interaction has already been acknowledged.",
        "code": 40060,
    }
    task.cancel()


async def test_a_late_callback_is_unknown_interaction(setup: Any) -> None:
    fake, user, channel, _ = setup
    fake.interaction_deadline = 0.0
    it, task = await _unanswered(fake, user, channel)
    status, body = await _callback(fake, it, {"type": 4, "data": {"content": "late"}})
    assert (status, body["code"]) == (404, 10062) and it.expired
    assert it.acknowledged_at is None
    await task


async def test_first_followup_of_public_thinking_stays_public(setup: Any) -> None:
    fake, user, channel, _ = setup
    res = await fake.slash(user, channel, "public_private")
    await res.wait_for_followups(1)
    assert res.original is not None and res.original.content == "first"
    assert not res.original.ephemeral, "the first follow-up keeps the deferral's visibility"
    [second] = res.followups
    assert second.ephemeral and second.content == "second"
    assert fake.messages(channel) == [res.original]


async def test_first_followup_of_private_thinking_stays_private(setup: Any) -> None:
    fake, user, channel, _ = setup
    res = await fake.slash(user, channel, "private_public")
    assert res.ephemeral and res.content == "still private"
    assert fake.messages(channel) == []


async def test_deleted_thinking_then_private_followup(setup: Any) -> None:
    fake, user, channel, _ = setup
    res = await fake.slash(user, channel, "refuse")
    assert res.original is not None and res.original.deleted
    assert res.answer is res.followups[0] and res.ephemeral
    assert res.content == "no, privately"
    assert fake.messages(channel) == [], "nothing public is left"
    assert res.answered_at is not None and res.answered_at >= (res.acknowledged_at or 0)


async def test_deferred_update_edits_the_message_or_follows_up(setup: Any) -> None:
    fake, user, channel, _ = setup
    lobby = (await fake.slash(user, channel, "lobby")).original
    assert lobby is not None
    res = await fake.click(user, lobby, "r:edit")
    assert res.response_type == 6 and res.original is lobby and res.answer is lobby
    assert lobby.content == "edited by a deferred update"
    res = await fake.click(user, lobby, "r:refuse")
    assert res.answer is res.followups[0] and res.ephemeral and res.content == "not you"
    assert lobby.content == "edited by a deferred update"
    status, body = await _callback(fake, res, {"type": 8, "data": {"choices": []}})
    assert status == 400 and body["code"] == 40060  # already acknowledged comes first


async def test_followups_for_fifteen_minutes_only(setup: Any) -> None:
    fake, user, channel, bot = setup
    res = await fake.slash(user, channel, "keep")
    assert res.content == "now"
    fake.followup_lifetime = 0.0
    with pytest.raises(discord.HTTPException) as info:
        await bot.kept[0].followup.send("later")
    assert info.value.status == 401 and info.value.code == 50027
    fake.followup_lifetime = 15 * 60.0
    msg = await bot.kept[0].followup.send("later", wait=True)
    assert msg.content == "later" and res.followups[0].content == "later"


async def test_autocomplete_answers_only_with_choices(setup: Any) -> None:
    fake, user, channel, bot = setup
    before = set(fake.interactions)
    task = asyncio.create_task(fake.autocomplete(user, channel, "choose", focused="what"))
    await fake.wait_until(lambda: set(fake.interactions) - before != set())
    [iid] = set(fake.interactions) - before
    it = fake.interactions[iid]
    for rtype in (4, 5, 6, 7, 9):
        status, body = await _callback(fake, it, {"type": rtype, "data": {"content": "x"}})
        assert (status, body["code"]) == (400, 50035), rtype
    bot.release.set()
    await fake.wait_until(lambda: it.response_type is not None)
    assert it.response_type == 8 and it.acknowledged_at is not None
    assert it.choices == [{"name": "one", "value": "one"}]
    with pytest.raises(InteractionFailed):  # the rejected attempts count against it
        await task
