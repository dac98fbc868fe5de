"""End-to-end tests of the fake Discord, driving a small demo bot through the real discord.py."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord
import discord.gateway
import pytest
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands
from discord.http import Route, handle_message_parameters
from PIL import Image

from bot.endpoints import point_discord_at
from tests.fake_discord.fixtures import assert_fake_clean, running_bot
from tests.fake_discord.models import (
    FakeChannel,
    FakeGuild,
    FakeUser,
    InteractionFailed,
    InvalidInvocation,
)
from tests.fake_discord.server import FakeDiscord

BOARDS = ["europe", "eurasia", "world", "balkans"]


def board_png(color: str = "red") -> discord.File:
    """A small PNG, as the real bot sends board images."""
    buf = io.BytesIO()
    Image.new("RGB", (64, 48), color).save(buf, "PNG")
    buf.seek(0)
    return discord.File(buf, "board.png")


# ---------------------------------------------------------------------------- the demo bot


class JoinView(discord.ui.View):
    """Persistent lobby view: a Join button and a seat select."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="game:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        assert interaction.message is not None
        content = f"{interaction.message.content}\n{interaction.user.name} joined"
        await interaction.response.edit_message(content=content, view=self)

    @discord.ui.select(
        custom_id="game:seat",
        options=[discord.SelectOption(label=c.title(), value=c) for c in ("red", "blue", "green")],
    )
    async def seat(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(
            f"{interaction.user.name} sits at {select.values[0]}", ephemeral=True
        )


class HandView(discord.ui.View):
    """Non-persistent view on an ephemeral message."""

    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.refreshes = 0

    @discord.ui.button(label="Refresh", custom_id="hand:refresh")
    async def refresh(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        self.refreshes += 1
        await interaction.response.edit_message(
            content=f"Your hand (refreshed {self.refreshes})", view=self
        )


class AckView(discord.ui.View):
    """A button on a DM."""

    @discord.ui.button(label="Got it", custom_id="dm:ack")
    async def ack(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await interaction.response.edit_message(content="Acknowledged", view=None)


class RenameModal(discord.ui.Modal, title="Rename game"):
    new_name: discord.ui.TextInput = discord.ui.TextInput(
        label="New name", custom_id="rename:name", max_length=20
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"Renamed to {self.new_name.value}", file=board_png("green")
        )


class GameCog(commands.Cog):
    game = app_commands.Group(name="game", description="Game commands")

    def __init__(self, bot: DemoBot) -> None:
        self.bot = bot

    @game.command(name="new", description="Start a game")
    @app_commands.choices(
        mode=[Choice(name="Classic", value="classic"), Choice(name="Blitz", value="blitz")]
    )
    async def new(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[int, 2, 6],
        mode: Choice[str],
        board: str = "europe",
    ) -> None:
        """Start a game."""
        embed = discord.Embed(title="New game", description=f"{players} players, {mode.value}")
        embed.add_field(name="Board", value=board)
        await interaction.response.send_message("Lobby open", embed=embed, view=JoinView())

    @new.autocomplete("board")
    async def board_autocomplete(self, _: discord.Interaction, current: str) -> list[Choice[str]]:
        return [Choice(name=b.title(), value=b) for b in BOARDS if b.startswith(current)]

    @app_commands.command(name="pick")
    async def pick(self, interaction: discord.Interaction, item: str) -> None:
        """Autocomplete that breaks Discord's 25-choice limit."""
        await interaction.response.send_message(item)

    @pick.autocomplete("item")
    async def pick_autocomplete(self, _: discord.Interaction, __: str) -> list[Choice[str]]:
        return [Choice(name=f"item {i}", value=f"item{i}") for i in range(30)]

    @app_commands.command(name="hand")
    async def hand(self, interaction: discord.Interaction) -> None:
        """Ephemeral reply with a view."""
        await interaction.response.send_message(
            "Your hand: 5 cards", ephemeral=True, view=HandView()
        )

    @app_commands.command(name="dm_board")
    async def dm_board(
        self, interaction: discord.Interaction, who: discord.User | None = None
    ) -> None:
        """DM a board image (to yourself or ``who``)."""
        target = who or interaction.user
        try:
            await target.send("Your board", file=board_png(), view=AckView())
        except discord.Forbidden as exc:
            self.bot.dm_failures.append(exc.code)
            await interaction.response.send_message(
                f"Cannot DM {target.name} ({exc.code})", ephemeral=True
            )
            return
        await interaction.response.send_message("Check your DMs", ephemeral=True)

    @app_commands.command(name="slow_board")
    async def slow_board(self, interaction: discord.Interaction) -> None:
        """Deferred reply completed by follow-ups."""
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("Here is the board", file=board_png("blue"))
        await interaction.followup.send("only you", ephemeral=True)
        second = await interaction.followup.send("second", wait=True)
        await second.edit(content="second (edited)")
        original = await interaction.original_response()
        await interaction.edit_original_response(content=f"{original.content} (final)")

    @app_commands.command(name="rename")
    async def rename(self, interaction: discord.Interaction) -> None:
        """Answer with a modal."""
        await interaction.response.send_modal(RenameModal())

    @app_commands.command(name="shout")
    async def shout(
        self, interaction: discord.Interaction, text: str, with_file: bool = False
    ) -> None:
        """Post ``text`` in the channel through the REST API."""
        assert isinstance(interaction.channel, discord.abc.Messageable)
        try:
            file = board_png() if with_file else discord.utils.MISSING
            await interaction.channel.send(text, file=file)
        except discord.HTTPException as exc:
            await interaction.response.send_message(
                f"error {exc.status} {exc.code}", ephemeral=True
            )
            return
        await interaction.response.send_message("sent", ephemeral=True)

    @app_commands.command(name="late")
    async def late(self, interaction: discord.Interaction) -> None:
        """Answers after 0.1 s."""
        await asyncio.sleep(0.1)
        await interaction.response.send_message("too late?")

    @app_commands.command(name="kick_seat")
    @app_commands.default_permissions(manage_channels=True)
    async def kick_seat(self, interaction: discord.Interaction, who: discord.Member) -> None:
        """Needs Manage Channels; takes a member option."""
        assert isinstance(interaction.user, discord.Member)
        await interaction.response.send_message(
            f"{who.display_name} removed by {interaction.user.name} "
            f"(manage_channels={interaction.permissions.manage_channels})"
        )

    @app_commands.command(name="thread")
    async def thread(self, interaction: discord.Interaction) -> None:
        """Open a private game thread for the caller."""
        assert isinstance(interaction.channel, discord.TextChannel)
        thread = await interaction.channel.create_thread(name=f"game-{interaction.user.name}")
        await thread.add_user(interaction.user)
        await thread.send(f"Welcome {interaction.user.mention}")
        await interaction.response.send_message(f"Created {thread.mention}", ephemeral=True)


class DemoBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(
            command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05
        )
        self.events: list[tuple[str, int]] = []
        self.seen: list[str] = []
        self.dm_failures: list[int] = []
        self.command_errors: list[BaseException] = []

    async def setup_hook(self) -> None:
        await self.add_cog(GameCog(self))
        self.add_view(JoinView())
        self.tree.on_error = self.record_error  # type: ignore[method-assign]  # record, not log

    async def record_error(self, _: discord.Interaction, error: Exception) -> None:
        self.command_errors.append(getattr(error, "original", error))

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot:
            return
        self.seen.append(message.content)
        if "ping" in message.content:
            await message.channel.send("pong")

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        self.events.append(("guild_remove", guild.id))

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        self.events.append(("channel_delete", channel.id))

    async def on_thread_create(self, thread: discord.Thread) -> None:
        self.events.append(("thread_create", thread.id))

    async def on_thread_delete(self, thread: discord.Thread) -> None:
        self.events.append(("thread_delete", thread.id))


# ---------------------------------------------------------------------------- fixtures


class World:
    def __init__(self, fake: FakeDiscord) -> None:
        self.guild: FakeGuild = fake.add_guild("Europe")
        self.games: FakeChannel = fake.add_text_channel(self.guild, "games")
        self.alice: FakeUser = fake.add_user("alice", guild=self.guild)
        self.bob: FakeUser = fake.add_user("bob", guild=self.guild)


@pytest.fixture
def world(fake_discord: FakeDiscord) -> World:
    return World(fake_discord)


@pytest.fixture
async def bot(fake_discord: FakeDiscord, world: World, start_bot: Any) -> DemoBot:
    return await start_bot(DemoBot())


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "PNG"
        return img.size


# ---------------------------------------------------------------------------- tests


async def test_login_guild_create_and_command_sync(
    fake_discord: FakeDiscord, world: World, start_bot: Any
) -> None:
    bot = await start_bot(DemoBot())
    # ready without discord.py's 2 s wait for guilds that will never come
    assert bot._connection.guild_ready_timeout <= 0.05
    guild = bot.get_guild(world.guild.id)
    assert guild is not None and guild.name == "Europe"
    assert [c.name for c in guild.text_channels] == ["games"]
    assert guild.me.id == fake_discord.bot_user.id
    assert guild.me.guild_permissions.manage_threads
    synced = {c["name"] for c in fake_discord.commands[None]}
    assert {"game", "hand", "dm_board", "slow_board", "rename", "kick_seat"} <= synced
    assert fake_discord.requests[0].path == "/users/@me"


async def test_wrong_token_is_a_login_failure(fake_discord: FakeDiscord) -> None:
    bot = DemoBot()
    with pytest.raises(discord.LoginFailure):
        await bot.login("not-the-token")
    await bot.close()


async def test_slash_with_choices_embed_and_persistent_view(
    fake_discord: FakeDiscord, world: World
) -> None:
    fake = fake_discord
    async with running_bot(fake, DemoBot()):
        res = await fake.slash(world.alice, world.games, "game", "new", players=3, mode="blitz")
        assert res.response_type == 4 and not res.ephemeral
        msg = res.original
        assert msg is not None and fake.messages(world.games) == [msg]
        assert msg.embeds[0]["description"] == "3 players, blitz"
        assert "europe" in msg.text  # default value of the optional option
        assert [b["custom_id"] for b in msg.buttons] == ["game:join"]
        joined = await fake.click(world.bob, msg, "game:join")
        assert joined.response_type == 7 and joined.original is msg
        assert msg.content.endswith("bob joined") and msg.edited_at is not None
    # A new bot process still handles the persistent view on the old message.
    async with running_bot(fake, DemoBot(), sync_commands=False):
        await fake.click(world.alice, msg, "game:join")
        assert msg.content.splitlines()[-2:] == ["bob joined", "alice joined"]
        seat = await fake.select(world.alice, msg, "game:seat", ["green"])
        assert seat.ephemeral and seat.content == "alice sits at green"
        assert seat.original not in fake.messages(world.games)


async def test_invocations_are_validated_like_discords_client(
    fake_discord: FakeDiscord, world: World, bot: DemoBot
) -> None:
    fake, alice, games = fake_discord, world.alice, world.games
    bad: list[tuple[str, str | None, dict]] = [
        ("nope", None, {}),  # unknown command
        ("game", None, {"players": 3, "mode": "blitz"}),  # missing subcommand
        ("game", "old", {}),  # unknown subcommand
        ("game", "new", {"mode": "blitz"}),  # missing required option
        ("game", "new", {"players": 7, "mode": "blitz"}),  # above max_value
        ("game", "new", {"players": 1, "mode": "blitz"}),  # below min_value
        ("game", "new", {"players": 3, "mode": "turbo"}),  # not a choice
        ("game", "new", {"players": "3", "mode": "blitz"}),  # wrong type
        ("game", "new", {"players": 3, "mode": "blitz", "speed": 2}),  # unknown option
        ("kick_seat", None, {"who": world.bob}),  # alice lacks Manage Channels
    ]
    for name, sub, options in bad:
        with pytest.raises(InvalidInvocation):
            await fake.slash(alice, games, name, sub, options=options)
    assert fake.interactions == {}  # none of them reached the bot
    lobby = await fake.slash(alice, games, "game", "new", players=2, mode="classic")
    assert lobby.original is not None
    with pytest.raises(InvalidInvocation):
        await fake.click(alice, lobby.original, "no-such-button")
    with pytest.raises(InvalidInvocation):
        await fake.select(alice, lobby.original, "game:seat", ["purple"])
    assert len(fake.interactions) == 1


async def test_member_option_and_member_permissions(
    fake_discord: FakeDiscord, world: World, bot: DemoBot
) -> None:
    mod = fake_discord.add_user(
        "mod", guild=world.guild, permissions=discord.Permissions(manage_channels=True)
    )
    res = await fake_discord.slash(mod, world.games, "kick_seat", who=world.bob)
    assert res.content == "bob removed by mod (manage_channels=True)"


async def test_autocomplete(fake_discord: FakeDiscord, world: World, bot: DemoBot) -> None:
    choices = await fake_discord.autocomplete(
        world.alice, world.games, "game", "new", focused="board", board="eu", players=3
    )
    assert choices == [
        {"name": "Europe", "value": "europe"},
        {"name": "Eurasia", "value": "eurasia"},
    ]
    with pytest.raises(InvalidInvocation):  # 'mode' has choices, no autocomplete
        await fake_discord.autocomplete(world.alice, world.games, "game", "new", focused="mode")


async def test_autocomplete_over_25_choices_is_rejected(
    fake_discord: FakeDiscord, world: World, start_bot: Any, caplog: pytest.LogCaptureFixture
) -> None:
    await start_bot(DemoBot(), allow_errors=True)
    with pytest.raises(InteractionFailed, match="25"):
        await fake_discord.autocomplete(world.alice, world.games, "pick", focused="item")

    def logged() -> list[logging.LogRecord]:
        return [r for r in caplog.records if "exception in autocomplete" in r.getMessage()]

    await fake_discord.wait_until(lambda: bool(logged()), 2, "the bot to log the error")
    exc_info = logged()[0].exc_info
    assert exc_info is not None
    error = exc_info[1]
    assert isinstance(error, discord.HTTPException) and error.status == 400


async def test_ephemeral_reply_with_view(
    fake_discord: FakeDiscord, world: World, bot: DemoBot
) -> None:
    res = await fake_discord.slash(world.alice, world.games, "hand")
    assert res.ephemeral and res.content == "Your hand: 5 cards"
    assert fake_discord.messages(world.games) == []
    assert res.original is not None
    with pytest.raises(InvalidInvocation):  # bob cannot see alice's ephemeral message
        await fake_discord.click(world.bob, res.original, "hand:refresh")
    clicked = await fake_discord.click(world.alice, res.original, "hand:refresh")
    assert clicked.original is res.original
    assert res.original.content == "Your hand (refreshed 1)"


async def test_slash_in_dm(fake_discord: FakeDiscord, world: World, bot: DemoBot) -> None:
    res = await fake_discord.slash(world.alice, fake_discord.dm_channel(world.alice), "hand")
    assert res.ephemeral and res.content.startswith("Your hand")


async def test_dm_with_png_and_button(
    fake_discord: FakeDiscord, world: World, bot: DemoBot
) -> None:
    res = await fake_discord.slash(world.alice, world.games, "dm_board")
    assert res.content == "Check your DMs" and res.ephemeral
    [dm] = fake_discord.dm_messages(world.alice)
    assert dm.content == "Your board"
    assert dm.attachments[0].filename == "board.png"
    assert png_size(dm.attachments[0].data) == (64, 48)
    # The attachment URL is served too, so the bot could download it again.
    fetched = await bot.get_partial_messageable(dm.channel_id).fetch_message(dm.id)
    assert await fetched.attachments[0].read() == dm.attachments[0].data
    await fake_discord.click(world.alice, dm, "dm:ack")
    assert dm.content == "Acknowledged" and dm.components == []


async def test_dms_closed_surface_as_forbidden_50007(
    fake_discord: FakeDiscord, world: World, bot: DemoBot
) -> None:
    shy = fake_discord.add_user("shy", guild=world.guild, dms_open=False)
    res = await fake_discord.slash(shy, world.games, "dm_board")
    assert res.content == "Cannot DM shy (50007)"
    other_bot = fake_discord.add_user("otherbot", guild=world.guild, bot=True)
    res = await fake_discord.slash(world.alice, world.games, "dm_board", who=other_bot)
    assert res.content == "Cannot DM otherbot (50007)"
    assert bot.dm_failures == [50007, 50007]
    assert [r.status for r in fake_discord.requests_to("POST", "/channels/*/messages")] == [
        403,
        403,
    ]
    assert fake_discord.dm_messages(shy) == []


async def test_bot_cannot_dm_itself(fake_discord: FakeDiscord, world: World, bot: DemoBot) -> None:
    with pytest.raises(discord.HTTPException) as info:
        await bot.http.start_private_message(fake_discord.bot_user.id)
    assert info.value.code == 50007


async def test_deferred_reply_and_followups(
    fake_discord: FakeDiscord, world: World, bot: DemoBot
) -> None:
    res = await fake_discord.slash(world.alice, world.games, "slow_board")
    assert res.response_type == 5
    assert res.original is not None and not res.original.loading
    assert res.original.content == "Here is the board"  # the first follow-up fills the reply
    assert png_size(res.original.attachments[0].data) == (64, 48)
    await fake_discord.wait_until(lambda: res.content.endswith("(final)"))
    assert res.content == "Here is the board (final)" and res.original.attachments
    private, second = await res.wait_for_followups(2)
    assert private.ephemeral and private.content == "only you"
    assert second.content == "second (edited)" and not second.ephemeral
    assert fake_discord.messages(world.games) == [res.original, second]
    assert [r.method for r in fake_discord.requests_to("*", "/webhooks/*/messages/*")] == [
        "PATCH",
        "GET",
        "PATCH",
    ]


async def test_modal(fake_discord: FakeDiscord, world: World, bot: DemoBot) -> None:
    shown = await fake_discord.slash(world.alice, world.games, "rename")
    assert shown.response_type == 9 and shown.modal is not None
    assert shown.modal["title"] == "Rename game"
    with pytest.raises(InvalidInvocation):  # required field left empty
        await fake_discord.submit_modal(world.alice, shown, {})
    with pytest.raises(InvalidInvocation):  # longer than max_length
        await fake_discord.submit_modal(world.alice, shown, {"rename:name": "x" * 21})
    done = await fake_discord.submit_modal(world.alice, shown, {"rename:name": "Verdun"})
    assert done.content == "Renamed to Verdun"
    assert done.original is not None and png_size(done.original.attachments[0].data) == (64, 48)


async def test_rate_limit_is_retried(fake_discord: FakeDiscord, world: World, bot: DemoBot) -> None:
    path = f"/channels/{world.games.id}/messages"
    fake_discord.rate_limit_once("POST", path, retry_after=0.05)
    res = await fake_discord.slash(world.alice, world.games, "shout", text="attack!")
    assert res.content == "sent"
    assert [r.status for r in fake_discord.requests_to("POST", path)] == [429, 200]
    assert [m.content for m in fake_discord.messages(world.games)] == ["attack!"]


async def test_late_interaction_answer_is_unknown_interaction(
    fake_discord: FakeDiscord, world: World, bot: DemoBot
) -> None:
    fake_discord.interaction_deadline = 0.05
    res = await fake_discord.slash(world.alice, world.games, "late")
    assert res.expired and not res.responded
    assert res.errors == [{"message": "Unknown interaction", "code": 10062}]
    await fake_discord.wait_until(lambda: bool(bot.command_errors))
    assert isinstance(bot.command_errors[0], discord.NotFound)
    assert bot.command_errors[0].code == 10062
    assert fake_discord.messages(world.games) == []


async def test_content_over_2000_is_a_400(
    fake_discord: FakeDiscord, world: World, bot: DemoBot
) -> None:
    res = await fake_discord.slash(world.alice, world.games, "shout", text="x" * 2001)
    assert res.content == "error 400 50035"
    assert fake_discord.messages(world.games) == []
    res = await fake_discord.slash(world.alice, world.games, "shout", text="x" * 2000)
    assert res.content == "sent"


def _row(*components: dict) -> dict:
    return {"type": 1, "components": list(components)}


def _button(i: int, **extra: Any) -> dict:
    return {"type": 2, "style": 1, "custom_id": f"b{i}", "label": "ok", **extra}


def _select(values: list[str], **extra: Any) -> dict:
    options = [{"label": v, "value": v or "x"} for v in values]
    return {"type": 3, "custom_id": "s", "options": options, **extra}


LIMIT_CASES: list[tuple[str, dict]] = [
    ("content", {"content": "x" * 2001}),
    ("empty", {"content": ""}),
    ("11 embeds", {"embeds": [{"title": "t"}] * 11}),
    ("description", {"embeds": [{"description": "d" * 4097}]}),
    ("6000 total", {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}),
    ("6 rows", {"components": [_row(_button(i)) for i in range(6)]}),
    ("6 buttons", {"components": [_row(*[_button(i) for i in range(6)])]}),
    (
        "select+button",
        {
            "components": [
                _row(
                    _button(0),
                    {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]},
                )
            ]
        },
    ),
    (
        "26 options",
        {
            "components": [
                _row(
                    {
                        "type": 3,
                        "custom_id": "s",
                        "options": [{"label": str(i), "value": str(i)} for i in range(26)],
                    }
                )
            ]
        },
    ),
    ("custom_id 101", {"components": [_row(_button(0, custom_id="c" * 101))]}),
    ("placeholder 151", {"components": [_row(_select(["a"], placeholder="p" * 151))]}),
    ("duplicate option values", {"components": [_row(_select(["a", "a"]))]}),
    ("empty option label", {"components": [_row(_select([""]))]}),
    ("more values than options", {"components": [_row(_select(["a"], max_values=2))]}),
    ("label 81", {"components": [_row(_button(0, label="l" * 81))]}),
    ("duplicate ids", {"components": [_row(_button(0), _button(0))]}),
]


async def test_documented_limits_are_enforced(
    fake_discord: FakeDiscord, world: World, bot: DemoBot
) -> None:
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=world.games.id)
    for name, payload in LIMIT_CASES:
        with pytest.raises(discord.HTTPException) as info:
            await bot.http.request(route, json=payload)
        assert info.value.status == 400, name
    files = [discord.File(io.BytesIO(b"x"), f"{i}.txt") for i in range(11)]
    params = handle_message_parameters(content="too many files", files=files)
    with pytest.raises(discord.HTTPException) as info:
        await bot.http.request(route, form=params.multipart, files=params.files)
    assert info.value.status == 400
    assert fake_discord.messages(world.games) == []
    ok = {"content": "fine", "components": [_row(*[_button(i) for i in range(5)])] * 1}
    await bot.http.request(route, json=ok)
    assert [m.content for m in fake_discord.messages(world.games)] == ["fine"]


async def test_missing_bot_permissions(
    fake_discord: FakeDiscord, world: World, bot: DemoBot
) -> None:
    fake_discord.set_bot_permissions(world.games, attach_files=False)
    res = await fake_discord.slash(world.alice, world.games, "shout", text="map", with_file=True)
    assert res.content == "error 403 50013"
    res = await fake_discord.slash(world.alice, world.games, "shout", text="no map")
    assert res.content == "sent"
    fake_discord.set_bot_permissions(world.games, send_messages=False)
    await fake_discord.sync()  # the bot has seen the CHANNEL_UPDATE
    channel = bot.get_channel(world.games.id)
    assert isinstance(channel, discord.TextChannel)
    assert not channel.permissions_for(channel.guild.me).send_messages
    res = await fake_discord.slash(world.alice, world.games, "shout", text="hello")
    assert res.content == "error 403 50013"  # interaction replies still work
    assert [m.content for m in fake_discord.messages(world.games)] == ["no map"]


async def test_threads_and_channel_deletion(
    fake_discord: FakeDiscord, world: World, bot: DemoBot
) -> None:
    res = await fake_discord.slash(world.alice, world.games, "thread")
    thread = next(c for c in fake_discord.channels.values() if c.parent_id == world.games.id)
    assert res.content == f"Created <#{thread.id}>"
    assert thread.type == 12 and thread.thread_members == {fake_discord.bot_user.id, world.alice.id}
    assert fake_discord.messages(thread)[0].content == f"Welcome <@{world.alice.id}>"
    await fake_discord.sync()
    assert ("thread_create", thread.id) in bot.events
    assert bot.get_channel(thread.id) is not None
    await fake_discord.delete_channel(thread)
    assert ("thread_delete", thread.id) in bot.events and bot.get_channel(thread.id) is None
    await fake_discord.delete_channel(world.games)
    assert ("channel_delete", world.games.id) in bot.events
    with pytest.raises(discord.NotFound) as info:
        await bot.http.send_message(world.games.id, params=handle_message_parameters("hi"))
    assert info.value.code == 10003


async def test_bot_removed_from_guild(
    fake_discord: FakeDiscord, world: World, bot: DemoBot
) -> None:
    await fake_discord.remove_bot_from_guild(world.guild)
    assert bot.events == [("guild_remove", world.guild.id)]
    assert bot.get_guild(world.guild.id) is None
    with pytest.raises(discord.Forbidden) as info:
        await bot.http.send_message(world.games.id, params=handle_message_parameters("hi"))
    assert info.value.code == 50001
    with pytest.raises(InvalidInvocation):
        await fake_discord.slash(world.alice, world.games, "hand")


async def test_user_messages_respect_the_message_content_intent(
    fake_discord: FakeDiscord, world: World, bot: DemoBot
) -> None:
    await fake_discord.user_message(world.alice, world.games, "ping without mention")
    assert bot.seen == [""]  # no message_content intent: content is withheld
    waiter = asyncio.create_task(
        fake_discord.wait_for_message(
            world.games, lambda m: m.author is fake_discord.bot_user, timeout=2
        )
    )
    await fake_discord.user_message(
        world.alice, world.games, f"{fake_discord.bot_user.mention} ping"
    )
    assert (await waiter).content == "pong"
    assert bot.seen[-1].endswith(" ping")


async def test_unknown_requests_are_recorded_and_fail_the_harness(
    fake_discord: FakeDiscord, world: World, bot: DemoBot
) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(Route("GET", "/guilds/{guild_id}/bans", guild_id=world.guild.id))
    assert [(r.method, r.path) for r in fake_discord.unknown_requests] == [
        ("GET", f"/guilds/{world.guild.id}/bans")
    ]
    with pytest.raises(AssertionError, match="bans"):
        assert_fake_clean(fake_discord)
    fake_discord.unknown_requests.clear()


async def test_bot_errors_fail_fast_and_fail_the_run(
    fake_discord: FakeDiscord, world: World
) -> None:
    class Broken(DemoBot):
        async def setup_hook(self) -> None:
            await super().setup_hook()
            del self.tree.on_error  # back to discord.py's handler, which logs the error

            @self.tree.command(name="boom")
            async def boom(_: discord.Interaction) -> None:
                raise RuntimeError("kaboom")

    with pytest.raises(AssertionError, match="kaboom"):  # raised by running_bot on exit
        async with running_bot(fake_discord, Broken()):
            # fails at once with the bot's error, long before its time to answer is up
            # (which would raise TimeoutError instead)
            with pytest.raises(InteractionFailed, match="kaboom"):
                await fake_discord.slash(world.alice, world.games, "boom", timeout=600)


async def test_rest_surface_parses_in_discord_py(
    fake_discord: FakeDiscord, world: World, bot: DemoBot
) -> None:
    """High-level discord.py calls a game bot makes, end to end (payloads must parse)."""
    fake = fake_discord
    guild = bot.get_guild(world.guild.id)
    assert guild is not None
    channel = await bot.fetch_channel(world.games.id)
    assert isinstance(channel, discord.TextChannel) and channel.name == "games"
    assert (await guild.fetch_member(world.alice.id)).name == "alice"
    assert (await bot.fetch_user(world.bob.id)).name == "bob"
    async with channel.typing():
        board = await channel.send("board", file=board_png())
    await board.pin()
    await board.add_reaction("✅")
    assert [m.id async for m in channel.pins()] == [board.id]
    await board.edit(content="board v2", attachments=[])  # drop the image
    stored = fake.message(board.id)
    assert stored.content == "board v2" and stored.attachments == [] and stored.pinned
    assert stored.reactions == {"✅": {fake.bot_user.id}}
    second = await channel.send("second")
    assert [m.content async for m in channel.history(limit=10)] == ["second", "board v2"]
    public = await board.create_thread(name="discussion")
    assert public.id == board.id and fake.channels[public.id].type == 11
    await public.edit(archived=True)
    assert fake.channels[public.id].archived
    await second.delete()
    assert [m.content for m in fake.messages(world.games)] == ["board v2"]
    hidden = discord.PermissionOverwrite(view_channel=False)
    lobby = await guild.create_text_channel("game-1", overwrites={guild.default_role: hidden})
    with pytest.raises(discord.Forbidden) as info:  # the bot hid the channel from itself too
        await lobby.send("hello")
    assert info.value.code == 50001
    shown = discord.PermissionOverwrite(view_channel=True)
    lobby = await guild.create_text_channel(
        "game-2", overwrites={guild.default_role: hidden, guild.me: shown}
    )
    await lobby.send("hello")
    alice = await guild.fetch_member(world.alice.id)
    with pytest.raises(discord.Forbidden) as info:
        await lobby.set_permissions(alice, view_channel=True, send_messages=True)
    assert info.value.code == 50013  # the default bot role has no Manage Roles
    bot_role = fake.bot_role(world.guild)
    fake.set_role_permissions(
        bot_role, bot_role.permissions | discord.Permissions(manage_roles=True).value
    )
    await fake.sync()
    await lobby.set_permissions(alice, view_channel=True, send_messages=True)
    created = fake.channels[lobby.id]
    assert fake.permissions_for(world.alice, created).send_messages
    assert not fake.permissions_for(world.bob, created).view_channel
    await fake.sync()
    cached = bot.get_channel(lobby.id)  # updated by the CHANNEL_UPDATE the fake dispatched
    assert isinstance(cached, discord.TextChannel) and cached.permissions_for(alice).send_messages
    await lobby.delete()
    assert created.deleted


def test_point_discord_at_sets_and_keeps_endpoints() -> None:
    saved = (Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    try:
        point_discord_at("http://127.0.0.1:1/api/v10/", "ws://127.0.0.1:1/gateway")
        assert Route("GET", "/users/@me").url == "http://127.0.0.1:1/api/v10/users/@me"
        assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:1/gateway"
        point_discord_at(None, None)  # no-op
        assert Route.BASE == "http://127.0.0.1:1/api/v10"
    finally:
        Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved


async def test_a_waiter_on_one_message_wakes_only_when_it_changes(
    fake_discord: FakeDiscord, world: World, bot: DemoBot
) -> None:
    channel = bot.get_channel(world.games.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("first")
    target = fake_discord.message(sent.id)
    checks = {"keyed": 0, "any": 0}

    def edited(kind: str) -> bool:
        checks[kind] += 1
        return target.content == "edited"

    keyed = asyncio.create_task(
        fake_discord.wait_until(lambda: edited("keyed"), 30, "the edit", 30, on=target)
    )
    unkeyed = asyncio.create_task(fake_discord.wait_until(lambda: edited("any"), 30, "x", 30))
    await asyncio.sleep(0)
    assert checks == {"keyed": 1, "any": 1}
    for n in range(5):  # requests about other messages: only the unkeyed waiter looks
        await channel.send(f"other {n}")
        await asyncio.sleep(0)
    assert checks["keyed"] == 1 and checks["any"] >= 6
    await sent.edit(content="edited")
    await asyncio.wait_for(asyncio.gather(keyed, unkeyed), 5)
    assert checks["keyed"] == 2
