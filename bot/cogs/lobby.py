"""Lobby commands: /newgame, /join, /leave, /addbot, /start, /cancel.

/newgame is made when the cog is (:func:`newgame_command`): its ``variant`` is a
:class:`GameChoice`, the games registered then (a test registers its own first).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from rules import contract, i18n
from service import ServiceError

from ..catalogue import N_, _
from ..entry import ANSWER_PUBLIC
from ..errors import UserError, expect_ok
from ..reply import Reply
from ..texts import jump_url, variant_name, variant_slug
from ..views.confirm import confirm_view
from .common import MAX_CHOICES, game_here, safe

if TYPE_CHECKING:
    from ..client import GameBot

log = logging.getLogger("bot")
Choice = app_commands.Choice

TIMEOUT_CHOICES = [
    Choice(name=N_("5 minutes"), value=300),
    Choice(name=N_("15 minutes"), value=900),
    Choice(name=N_("1 hour"), value=3600),
    Choice(name=N_("6 hours"), value=6 * 3600),
    Choice(name=N_("12 hours"), value=12 * 3600),
    Choice(name=N_("1 day"), value=86400),
    Choice(name=N_("3 days"), value=3 * 86400),
    Choice(name=N_("7 days"), value=7 * 86400),
    Choice(name=N_("no limit"), value=0),
]
LEVEL_CHOICES = [
    Choice(name=N_("easy"), value="easy"),
    Choice(name=N_("normal"), value="normal"),
    Choice(name=N_("hard"), value="hard"),
]


def _needs(perms: discord.Permissions, in_thread: bool, new_thread: bool) -> list[str]:
    """Permissions the bot lacks for a game here."""
    need = {_("view channel"): perms.view_channel, _("attach files"): perms.attach_files}
    if in_thread or new_thread:
        need[_("send messages in threads")] = perms.send_messages_in_threads
    if not in_thread:
        need[_("send messages")] = perms.send_messages
    if new_thread:
        need[_("create public threads")] = perms.create_public_threads
    return [name for name, ok in need.items() if not ok]


class GameChoice(app_commands.Transformer):
    """/newgame's ``variant``: one of the games registered when it is made, offered as
    users type their names (``european-war``); any other is refused with a short reason."""

    def __init__(self) -> None:
        self.names = contract.game_names()

    @property
    def choices(self) -> list[Choice[int | float | str]]:
        return [Choice(name=variant_slug(n), value=n) for n in self.names]

    async def transform(self, interaction: discord.Interaction, value: Any) -> str:
        """The game's registry name.

        Raises:
            UserError: no game offered here has that name.
        """
        if value not in self.names:
            raise UserError(
                _("There is no game {name} here: pick one from the list.").format(
                    name=repr(str(value)[:40])
                )
            )
        return str(value)


_WHICH = N_("Which game (default {default})")


def newgame_command(cog: LobbyCog) -> app_commands.Command[Any, ..., None]:
    """/newgame for ``cog``, offering the games registered now (the first by default)."""
    default = variant_slug(contract.game_names()[0])

    @app_commands.command(
        name="newgame",
        description=N_("Open a table for a new game in this channel (or in a new thread of it)"),
        extras=ANSWER_PUBLIC,
    )
    @app_commands.guild_only()
    @app_commands.describe(
        variant=locale_str(f"Which game (default {default})", template=_WHICH, default=default),
        players=N_("The most players at the table (2-5)"),
        turn_timeout=N_("Time for each turn (default: the server's setting)"),
        thread=N_("Open the table in a new thread of this channel"),
    )
    @app_commands.choices(turn_timeout=TIMEOUT_CHOICES)
    async def newgame(
        interaction: discord.Interaction,
        variant: app_commands.Transform[str, GameChoice] | None = None,
        players: app_commands.Range[int, 2, 5] | None = None,
        turn_timeout: Choice[int] | None = None,
        thread: bool = False,
    ) -> None:
        """Open a lobby."""
        await cog.open_table(interaction, variant, players, turn_timeout, thread)

    return newgame


class LobbyCog(commands.Cog):
    """Opening, joining and starting tables."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.newgame = newgame_command(self)

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.newgame)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.newgame.name)

    @safe
    async def _free_powers(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        """/join and /addbot ``power``: the sides of the table here nobody has taken."""
        service = self.bot.service
        gid = await service.active_game(interaction.channel_id or 0)
        if gid is None:
            return []
        try:
            info = await service.lobby_info(gid)
        except ServiceError:
            return []
        taken = {s.power for s in info.seats if s.power}
        game = contract.game_named(info.variant)
        words = game.presentation
        named = [
            (side, words.side_name(side))
            for side in game.sides(game.options_from_dict(dict(info.options)))
        ]
        typed = current.strip().lower()
        return [
            Choice(name=name[:100], value=side)
            for side, name in named
            if side not in taken and (not typed or typed in name.lower())
        ][:MAX_CHOICES]

    async def open_table(
        self,
        interaction: discord.Interaction,
        variant: str | None,
        players: int | None,
        turn_timeout: Choice[int] | None,
        thread: bool,
    ) -> None:
        """/newgame: open a lobby here, or in a new thread of this channel."""
        bot = self.bot
        channel = interaction.channel
        in_thread = isinstance(channel, discord.Thread)
        if thread and in_thread:
            raise UserError(_("This is already a thread: run /newgame here without `thread`."))
        missing = _needs(interaction.app_permissions, in_thread, thread)
        if missing:
            raise UserError(
                _(
                    "I cannot host a game here: I lack the {missing} permission(s) in this channel."
                ).format(missing=", ".join(missing))
            )
        if not thread:
            running = await bot.service.active_game(interaction.channel_id or 0)
            if running is not None:
                ref = (await bot.delivery.refs_of(running)).lobby
                link = (
                    jump_url(interaction.guild_id, ref[0], ref[1])
                    if ref
                    else jump_url(interaction.guild_id, interaction.channel_id or 0)
                )
                raise UserError(
                    _(
                        "A game is already open in this channel ({link}). Finish "
                        "it or /cancel it first, or use `/newgame thread:True`."
                    ).format(link=link)
                )
        chosen = variant or contract.game_names()[0]
        timeout: float | Literal["server"] | None = "server"
        if turn_timeout is not None:
            timeout = float(turn_timeout.value) or None
        target_id = interaction.channel_id or 0
        new_thread: discord.Thread | None = None
        if thread:
            assert isinstance(channel, discord.TextChannel)
            new_thread = await channel.create_thread(
                name=f"{variant_name(chosen)} — {interaction.user.display_name}"[:100],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
            )
            target_id = new_thread.id
        out = await bot.service.open_lobby(
            channel_id=target_id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            guild_id=interaction.guild_id,
            variant=chosen,
            max_players=players,
            turn_timeout=timeout,
            guild_locale=str(interaction.guild_locale) if interaction.guild_locale else None,
        )
        if not out.ok and new_thread is not None:
            try:
                await new_thread.delete()
            except discord.HTTPException:
                log.info("could not delete the unused thread %s", new_thread.id)
        expect_ok(out)
        log.info(
            "game %s created in guild %s channel %s", out.game_id, interaction.guild_id, target_id
        )
        if new_thread is not None:
            await bot.delivery.deliver(out)
            with i18n.use(out.language):  # said in the channel: the game's language
                opened = _("{who} opened a {game} table in {thread}: join it there.").format(
                    who=interaction.user.mention,
                    game=variant_name(chosen),
                    thread=new_thread.mention,
                )
            await Reply.of(interaction).public(content=opened)
        else:
            await bot.delivery.deliver(out, interaction)
        await bot.delivery.check_dms(out, interaction.user.id)

    @app_commands.command(
        name="join",
        description=N_("Take a seat at the table in this channel"),
        extras=ANSWER_PUBLIC,
    )
    @app_commands.guild_only()
    @app_commands.describe(power=N_("The power you would like to play (default: dealt at random)"))
    @app_commands.autocomplete(power=_free_powers)
    async def join(self, interaction: discord.Interaction, power: str | None = None) -> None:
        """Join the lobby."""
        bot = self.bot
        gid = await game_here(bot.service, interaction)
        out = expect_ok(
            await bot.service.join(gid, interaction.user.id, interaction.user.display_name, power)
        )
        await bot.delivery.deliver(out, interaction)
        await bot.delivery.check_dms(out, interaction.user.id)

    @app_commands.command(
        name="leave",
        description=N_("Leave the table (before the game starts)"),
        extras=ANSWER_PUBLIC,
    )
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave the lobby."""
        bot = self.bot
        gid = await game_here(bot.service, interaction)
        out = expect_ok(await bot.service.leave(gid, interaction.user.id))
        await bot.delivery.deliver(out, interaction)

    @app_commands.command(
        name="addbot", description=N_("Host: seat a computer player"), extras=ANSWER_PUBLIC
    )
    @app_commands.guild_only()
    @app_commands.describe(
        power=N_("The power it plays (default: dealt at random)"),
        level=N_("How well it plays (default normal)"),
    )
    @app_commands.autocomplete(power=_free_powers)
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(
        self,
        interaction: discord.Interaction,
        power: str | None = None,
        level: Choice[str] | None = None,
    ) -> None:
        """Add a computer seat."""
        bot = self.bot
        gid = await game_here(bot.service, interaction)
        out = expect_ok(
            await bot.service.add_computer(
                gid, interaction.user.id, level.value if level else "normal", power
            )
        )
        await bot.delivery.deliver(out, interaction)

    @app_commands.command(
        name="start", description=N_("Host: start the game (seats are dealt)"), extras=ANSWER_PUBLIC
    )
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction) -> None:
        """Start the game."""
        bot = self.bot
        gid = await game_here(bot.service, interaction)
        out = expect_ok(await bot.service.start_game(gid, interaction.user.id))
        log.info("game %s started", gid)
        await bot.delivery.deliver(out, interaction)

    @app_commands.command(
        name="cancel",
        description=N_(
            "Host or Manage Channels: end the table or game in this channel (asks to confirm)"
        ),
    )
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction) -> None:
        """Ask to confirm cancelling the game."""
        bot = self.bot
        gid = await game_here(bot.service, interaction)
        st = await bot.service.status(gid)
        if st.host_id != interaction.user.id and not interaction.permissions.manage_channels:
            raise UserError(
                _("Only the host or a member who can manage this channel may cancel the game."),
                gid,
            )
        await Reply.of(interaction).private(
            _("Cancel the game in this channel? This cannot be undone."),
            view=confirm_view(
                bot.controls, "cancel", gid, interaction.user.id, _("Cancel the game")
            ),
        )
