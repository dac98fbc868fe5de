"""Information commands: /board, /hand, /games, /hint, /status, /log, /rules, /help, /about.
All answer ephemerally (only the asker sees them); /hand and /hint are the ones with private
content.

Each is acknowledged privately on entry (``/about`` answers at once); an image that is not
drawn quickly follows its words by an edit (:func:`bot.reply.with_picture`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from rules import contract
from service import GameListing, ServiceError, rulebook

from ..catalogue import N_, _
from ..entry import ANSWER_DIRECT
from ..errors import UserError
from ..reply import Reply, with_picture
from ..texts import about, clip, game_line, help_for, jump_url, pages, status_text
from ..views.panels import panel_view
from ..views.turn import is_turn, root_step, step_line, step_view
from .common import MAX_CHOICES, channel_variant, game_here, my_view, safe

if TYPE_CHECKING:
    from ..client import GameBot

Choice = app_commands.Choice


class InfoCog(commands.Cog):
    """What anyone may look at."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @safe
    async def _topics(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        """/rules ``topic``: rule numbers, sections and words."""
        typed = current.strip().lower()
        names = [t for t in rulebook.topics() if not typed or typed in t.lower()]
        return [Choice(name=t[:100], value=t[:100]) for t in names[:MAX_CHOICES]]

    @app_commands.command(name="board", description=N_("The current board, with a text summary"))
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction) -> None:
        """The board (spectator view)."""
        bot = self.bot
        gid = await game_here(bot.service, interaction)
        st = await bot.service.status(gid)
        reply = Reply.of(interaction)
        if st.view is None:
            await reply.private(_("The game has not started yet."))
            return
        names = [s.name for s in st.seats]
        images = bot.delivery.images
        if not images.draws(st.variant):  # a game without images: in words
            words = contract.game_named(st.variant).presentation
            lines = words.summary_lines(st.view, names) + words.status_lines(st.view, names)
            await reply.private(clip("\n".join(lines)))
            return
        drawing = images.board(st.view, names, game=st.variant, key=(gid, st.version))
        summary = images.board_text(st.view, names, game=st.variant)
        await with_picture(reply, clip(summary), drawing, bot.delivery.later)

    @app_commands.command(
        name="hand", description=N_("Your hand (only you see it) and your open panel, if any")
    )
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        """The asker's hand, privately."""
        bot = self.bot
        gid = await game_here(bot.service, interaction)
        uv = await my_view(bot.service, interaction, gid)
        reply = Reply.of(interaction)
        if uv.seat is None:
            await reply.private(_("You are not playing in this game."))
            return
        status = await bot.service.status(gid)
        game = contract.game_named(status.variant)
        names = [s.name for s in status.seats]
        lines = game.presentation.private_lines(uv.view, names)
        kwargs = {}
        prompt = uv.prompt
        if prompt is not None:
            lines.append(f"**{prompt.text}**")
            if is_turn(game, prompt.kind):
                step = root_step(prompt, game)
                lines.append(step_line(step))
                kwargs["view"] = step_view(bot.controls, gid, step)
            else:
                kwargs["view"] = panel_view(bot.controls, prompt, game)
        images = bot.delivery.images
        holding = images.holding(uv.view, status.variant)
        if holding is None:  # a game without images, or nothing held
            await reply.private(clip("\n".join(lines)), **kwargs)
            return
        drawing = images.hand(holding, _("Your hand"), game=status.variant)
        await with_picture(reply, clip("\n".join(lines)), drawing, bot.delivery.later, **kwargs)

    @app_commands.command(
        name="hint", description=N_("What the strongest computer would do in your place (only you)")
    )
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction) -> None:
        """The hard computer player's choice for the asker's own decision, and why,
        privately (acknowledged on entry: the search may take a second)."""
        service = self.bot.service
        gid = await game_here(service, interaction)
        try:
            advice = await service.hint(gid, interaction.user.id)
        except ServiceError as exc:
            raise UserError(str(exc), gid) from None
        await Reply.of(interaction).private(clip("\n".join(advice.lines())))

    @app_commands.command(
        name="games", description=N_("Your games in every server, and the game in this channel")
    )
    async def games(self, interaction: discord.Interaction) -> None:
        """The asker's unfinished games anywhere (where, whose move, their own deadline),
        and what runs in this channel, privately."""
        service, uid = self.bot.service, interaction.user.id
        lines = []
        if interaction.guild_id is not None:
            here = await service.active_game(interaction.channel_id or 0)
            if here is None:
                lines.append(_("**In this channel:** no game. /newgame opens one."))
            else:
                st = await service.status(here)
                line = game_line(st, uid, _("here"))
                lines.append(_("**In this channel:** {game}").format(game=line))
        mine = await service.games_of(uid)  # from the store: every process's games
        mine.sort(key=lambda st: (not any(d.user_id == uid for d in st.decisions), st.game_id))
        if not mine:
            lines.append(_("You are not at any table now."))
        else:
            lines.append(_("**Your games ({n}):**").format(n=len(mine)))
            lines += [f"• {game_line(st, uid, self._where(st))}" for st in mine]
        await Reply.of(interaction).private(clip("\n".join(lines)))

    def _where(self, st: GameListing) -> str:
        """A game's server and channel, linked."""
        guild = self.bot.get_guild(st.guild_id or 0)
        channel = self.bot.get_channel(st.channel_id)
        server = guild.name if guild is not None else _("a server")
        name = getattr(channel, "name", None) or str(st.channel_id)
        return f"{server} › [#{name}]({jump_url(st.guild_id, st.channel_id)})"

    @app_commands.command(
        name="status",
        description=N_("Whose turn, phase, hand sizes, deck, discard, timers and seats"),
    )
    @app_commands.guild_only()
    async def status(self, interaction: discord.Interaction) -> None:
        """Public status."""
        bot = self.bot
        gid = await game_here(bot.service, interaction)
        st = await bot.service.status(gid)
        lines = list(st.lines)
        if st.view is None:
            lines += [
                _("• {name} — wants {power}").format(name=s.name, power=s.power_name)
                if s.power_name
                else f"• {s.name}"
                for s in st.seats
            ]
        await Reply.of(interaction).private(status_text(lines))

    @app_commands.command(name="log", description=N_("The last events of the game in words"))
    @app_commands.guild_only()
    @app_commands.describe(n=N_("How many lines (default 10)"))
    async def log(
        self, interaction: discord.Interaction, n: app_commands.Range[int, 1, 50] = 10
    ) -> None:
        """The log, with the asker's own private lines."""
        bot = self.bot
        gid = await game_here(bot.service, interaction)
        lines = await bot.service.log(gid, n, interaction.user.id)
        await Reply.of(interaction).private(
            clip("\n".join(lines) or _("Nothing has happened yet."))
        )

    @app_commands.command(
        name="rules", description=N_("The rules as this bot plays them, with rule numbers")
    )
    @app_commands.describe(topic=N_("A rule number (EW-19), a section or a word"))
    @app_commands.autocomplete(topic=_topics)
    async def rules(self, interaction: discord.Interaction, topic: str | None = None) -> None:
        """Rules lookup, for the variant played in this channel."""
        variant = await channel_variant(self.bot.service, interaction)
        await Reply.of(interaction).private(clip(rulebook.lookup(topic, variant)))

    @app_commands.command(name="help", description=N_("How to play with this bot"))
    async def help(self, interaction: discord.Interaction) -> None:
        """Help, for the variant played in this channel."""
        variant = await channel_variant(self.bot.service, interaction)
        for page in pages(help_for(variant)):  # a long help (a long language) in parts
            await Reply.of(interaction).private(page)

    @app_commands.command(
        name="about",
        description=N_("Version, source, what data is stored and how to have it deleted"),
        extras=ANSWER_DIRECT,
    )
    async def about(self, interaction: discord.Interaction) -> None:
        """About."""
        await Reply.of(interaction).private(about())
