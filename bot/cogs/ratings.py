"""Rating commands: /leaderboard and /stats. Both answer privately (only the asker sees
them), acknowledged on entry; /stats' rating chart follows its words by an edit when it
is not drawn quickly (:func:`bot.reply.with_picture`).

/leaderboard is made when the cog is (:func:`leaderboard_command`): its ``game`` offers the
games registered then, like /newgame's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from render.chart import Series
from rules import contract

from ..catalogue import N_, _
from ..errors import UserError
from ..reply import Reply, with_picture
from ..texts import leaderboard_text, stats_text
from .lobby import GameChoice

if TYPE_CHECKING:
    from ..client import GameBot

Choice = app_commands.Choice

SCOPES = [Choice(name=N_("server"), value="server"), Choice(name=N_("global"), value="global")]
NO_SERVER = N_("There is no server here: ask for `scope: global`, or ask in a server.")


def leaderboard_command(cog: RatingsCog) -> app_commands.Command[Any, ..., None]:
    """/leaderboard for ``cog``, offering the games registered now."""

    @app_commands.command(
        name="leaderboard",
        description=N_("The best ratings of a game, in this server or everyone's"),
    )
    @app_commands.describe(
        game=N_("Which game (default: the one played here, else your last)"),
        scope=N_("This server's players (default in a server) or everyone's"),
    )
    @app_commands.choices(scope=SCOPES)
    async def leaderboard(
        interaction: discord.Interaction,
        game: app_commands.Transform[str, GameChoice] | None = None,
        scope: Choice[str] | None = None,
    ) -> None:
        """The leaderboard."""
        await cog.show_leaderboard(interaction, game, scope.value if scope else None)

    return leaderboard


class RatingsCog(commands.Cog):
    """Ratings, leaderboards and a person's record."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.leaderboard = leaderboard_command(self)

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.leaderboard)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.leaderboard.name)

    async def show_leaderboard(
        self, interaction: discord.Interaction, game: str | None, scope: str | None
    ) -> None:
        """The best ratings of ``game`` (default: the game of this channel) in this server
        (``scope`` ``server``, the default in a server) or everyone's (``global``, the only
        one in DMs), with the asker's own place."""
        guild_id = interaction.guild_id
        if scope == "server" and guild_id is None:
            raise UserError(_(NO_SERVER))
        if scope == "global":
            guild_id = None
        service = self.bot.service
        variant = game or await self.default_game(interaction)
        board = await service.leaderboard(variant, guild_id, user_id=interaction.user.id)
        where = _("of everyone")
        if board.guild_id is not None:
            guild = interaction.guild
            where = (
                _("of {server}").format(server=guild.name)
                if guild is not None
                else _("of this server")
            )
        text = leaderboard_text(board, where, interaction.user.id)
        await Reply.of(interaction).private(text)

    async def default_game(self, interaction: discord.Interaction) -> str:
        """The game of this channel's table, else the one the asker finished last, else
        the first registered."""
        service = self.bot.service
        if interaction.guild_id is not None:
            gid = await service.active_game(interaction.channel_id or 0)
            if gid is not None:
                return (await service.status(gid)).variant
        last = await service.last_played(interaction.user.id)
        return last or contract.game_names()[0]

    @app_commands.command(
        name="stats",
        description=N_("A player's games, wins, favourite side and rating over time"),
    )
    @app_commands.describe(player=N_("Whose (default: yours)"))
    async def stats(
        self, interaction: discord.Interaction, player: discord.User | None = None
    ) -> None:
        """A person's record in every game, with their rating over time as a chart."""
        who = player or interaction.user
        stats = await self.bot.service.player_stats(who.id)
        name = stats.name or who.display_name
        text = stats_text(stats, name)
        reply = Reply.of(interaction)
        series = [Series(k.title, k.history) for k in stats.kinds if k.history]
        if not series:  # nothing rated yet: words only
            await reply.private(text)
            return
        drawing = self.bot.delivery.images.chart(name, series)
        await with_picture(reply, text, drawing, self.bot.delivery.later)
