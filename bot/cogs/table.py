"""Table commands: /resign, /draw, /undo, /replace, /pause, /resume, /pings, /settings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from rules import i18n
from service.models import GuildSettings

from ..catalogue import N_, _
from ..entry import ANSWER_PUBLIC
from ..errors import UserError, expect_ok
from ..games import offered_options, option_value
from ..reply import Reply
from ..texts import duration_words
from ..views.confirm import confirm_view
from ..views.table import ask_draw
from .common import MAX_CHOICES, game_here, safe
from .lobby import LEVEL_CHOICES, TIMEOUT_CHOICES

if TYPE_CHECKING:
    from ..client import GameBot

Choice = app_commands.Choice
MINUTES = [
    Choice(name=N_("off"), value=0),
    Choice(name=N_("5 minutes"), value=5),
    Choice(name=N_("15 minutes"), value=15),
    Choice(name=N_("1 hour"), value=60),
    Choice(name=N_("3 hours"), value=180),
    Choice(name=N_("12 hours"), value=720),
]
FOLLOW_SERVER = "server"
"""The ``language`` choice of /settings that follows the server's Discord language."""
LANGUAGES: list[Choice[str]] = [
    Choice(name=N_("the server's Discord language"), value=FOLLOW_SERVER),
    *(Choice(name=name, value=code) for code, name in i18n.NAMES.items()),
]
LOBBY_MINUTES = [
    Choice(name=N_("15 minutes"), value=15),
    Choice(name=N_("1 hour"), value=60),
    Choice(name=N_("6 hours"), value=360),
    Choice(name=N_("1 day"), value=1440),
]


def settings_text(gs: GuildSettings) -> str:
    """The server's defaults in words: the table's, then the game options it set."""
    offered = offered_options()
    options = [
        f"{spec.summary}: {spec.label(gs.options[name])}"
        for name, spec in offered.items()
        if name in gs.options
    ]
    language = (
        i18n.NAMES[gs.language] if gs.language in i18n.NAMES else _("the server's Discord language")
    )
    reminder = duration_words(gs.reminder_lead) if gs.reminder_lead else _("off")
    return "\n".join(
        [
            _("**Server defaults for new games**"),
            _("Turn timeout: {duration}").format(duration=duration_words(gs.turn_timeout)),
            *options,
            _("Other game options: each game's own default")
            if options
            else _("Game options: each game's own default"),
            _("Reminder before a deadline: {duration}").format(duration=reminder),
            _("Lobby expiry: {duration}").format(duration=duration_words(gs.lobby_expiry)),
            _("Games at once in this server: {n}").format(n=gs.max_games),
            _("Language of new games in their channels: {language}").format(language=language),
        ]
    )


class TableCog(commands.Cog):
    """Seats, timers and server defaults."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @safe
    async def _seats(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        """/replace ``seat``: the seats of the game here, by name and side."""
        service = self.bot.service
        gid = await service.active_game(interaction.channel_id or 0)
        if gid is None:
            return []
        st = await service.status(gid)
        typed = current.strip().lower()
        out = []
        for i, s in enumerate(st.seats):
            label = f"{s.name} ({s.power_name})" if s.power_name else s.name
            if s.seat is not None and (not typed or typed in label.lower()):
                out.append(Choice(name=label[:100], value=str(i)))
        return out[:MAX_CHOICES]

    @safe
    async def _option_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        """/settings ``option``: the games' options, by their summary."""
        typed = current.strip().lower()
        return [
            Choice(name=spec.summary[:100], value=name)
            for name, spec in offered_options().items()
            if not typed or typed in spec.summary.lower() or typed in name
        ][:MAX_CHOICES]

    @safe
    async def _option_values(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        """/settings ``value``: the values of the option chosen beside it."""
        spec = offered_options().get(str(getattr(interaction.namespace, "option", "") or ""))
        if spec is None:
            return []
        if spec.kind == "flag":
            words = ["yes", "no"]  # the values typed; their labels are the spec's
        elif spec.kind == "word":
            words = list(spec.choices)
        else:
            words = [str(s) for s in spec.steps] or [
                str(v) for v in (spec.low, spec.high) if v is not None
            ]
        typed = current.strip().lower()
        named = [(spec.label(v if spec.kind != "number" else int(v)), v) for v in words]
        named = [
            (label, v) for label, v in named if not typed or typed in label.lower() or typed in v
        ]
        return [
            Choice(name=label[:100], value=v)
            for label, v in named + [(_("each game's own default"), "default")]
        ][:MAX_CHOICES]

    @app_commands.command(
        name="resign",
        description=N_("Hand your seat to a computer player (EW-25; asks to confirm)"),
    )
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction) -> None:
        """Ask to confirm resigning."""
        bot = self.bot
        gid = await game_here(bot.service, interaction)
        st = await bot.service.status(gid)
        if not any(s.user_id == interaction.user.id and s.seat is not None for s in st.seats):
            raise UserError(_("You are not playing in this game."), gid)
        await Reply.of(interaction).private(
            _("Resign? A computer player takes over your seat for the rest of the game."),
            view=confirm_view(bot.controls, "resign", gid, interaction.user.id, _("Resign")),
        )

    @app_commands.command(
        name="draw",
        description=N_("Propose or agree to a draw: the game ends so once every person agrees"),
    )
    @app_commands.guild_only()
    async def draw(self, interaction: discord.Interaction) -> None:
        """Ask to confirm agreeing to a draw (computer players are never asked)."""
        gid = await game_here(self.bot.service, interaction)
        await ask_draw(self.bot, interaction, gid)

    @app_commands.command(
        name="replace",
        description=N_("Host: hand a player's seat to a computer or to another member (EW-25)"),
        extras=ANSWER_PUBLIC,
    )
    @app_commands.guild_only()
    @app_commands.rename(with_="with")
    @app_commands.describe(
        seat=N_("The seat to hand over"),
        with_=N_("The member who takes it (leave empty for a computer player)"),
        level=N_("A computer's level (default normal)"),
    )
    @app_commands.autocomplete(seat=_seats)
    @app_commands.choices(level=LEVEL_CHOICES)
    async def replace(
        self,
        interaction: discord.Interaction,
        seat: str,
        with_: discord.User | None = None,
        level: Choice[str] | None = None,
    ) -> None:
        """Hand a seat over."""
        bot = self.bot
        gid = await game_here(bot.service, interaction)
        st = await bot.service.status(gid)
        number = _seat_number(seat, [s.name for s in st.seats])
        kw: dict[str, Any] = {"is_admin": interaction.permissions.manage_channels}
        if with_ is not None:
            if with_.bot:
                raise UserError(
                    _("Hand the seat to a person, or leave `with` empty for a computer player."),
                    gid,
                )
            kw.update(user_id=with_.id, name=with_.display_name)
        else:
            kw["level"] = level.value if level else "normal"
        out = expect_ok(await bot.service.replace_seat(gid, interaction.user.id, number, **kw))
        await bot.delivery.deliver(out, interaction)

    @app_commands.command(
        name="undo",
        description=N_("Take back your last action, if it revealed nothing and nobody moved since"),
        extras=ANSWER_PUBLIC,
    )
    @app_commands.guild_only()
    async def undo(self, interaction: discord.Interaction) -> None:
        """Take back the user's latest action."""
        bot = self.bot
        gid = await game_here(bot.service, interaction)
        out = expect_ok(await bot.service.undo(gid, interaction.user.id))
        await bot.delivery.deliver(out, interaction)

    @app_commands.command(
        name="pause", description=N_("Host: stop every timer of the game"), extras=ANSWER_PUBLIC
    )
    @app_commands.guild_only()
    async def pause(self, interaction: discord.Interaction) -> None:
        """Pause."""
        bot = self.bot
        gid = await game_here(bot.service, interaction)
        out = expect_ok(
            await bot.service.pause(
                gid, interaction.user.id, is_admin=interaction.permissions.manage_channels
            )
        )
        await bot.delivery.deliver(out, interaction)

    @app_commands.command(
        name="resume", description=N_("Host: restart the game's timers"), extras=ANSWER_PUBLIC
    )
    @app_commands.guild_only()
    async def resume(self, interaction: discord.Interaction) -> None:
        """Resume."""
        bot = self.bot
        gid = await game_here(bot.service, interaction)
        out = expect_ok(
            await bot.service.resume(
                gid, interaction.user.id, is_admin=interaction.permissions.manage_channels
            )
        )
        await bot.delivery.deliver(out, interaction)

    @app_commands.command(
        name="pings", description=N_("Whether I ping you when it is your move (in every server)")
    )
    @app_commands.describe(setting=N_("on (default) or off"))
    @app_commands.choices(
        setting=[Choice(name=N_("on"), value="on"), Choice(name=N_("off"), value="off")]
    )
    async def pings(self, interaction: discord.Interaction, setting: Choice[str]) -> None:
        """Turn one's own turn pings on or off."""
        on = setting.value == "on"
        bot = self.bot
        await bot.db.set_user_pings(interaction.user.id, on, bot.service.clock.now())
        bot.delivery.set_pings(interaction.user.id, on)
        await Reply.of(interaction).private(
            _("I will ping you when it is your move.")
            if on
            else _("I will no longer ping you; your name still shows when it is your move.")
        )

    @app_commands.command(
        name="settings", description=N_("Manage Server: defaults for new games in this server")
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(
        turn_timeout=N_("Time for each turn"),
        option=N_("A game option whose default to set for new tables (with value)"),
        value=N_("The option's default (default: back to each game's own)"),
        reminder=N_("Reminder before a deadline"),
        lobby_expiry=N_("An unstarted lobby closes after"),
        games=N_("Most games running at once in this server"),
        language=N_("The language new games speak in their channel"),
    )
    @app_commands.choices(
        turn_timeout=TIMEOUT_CHOICES[:-1], reminder=MINUTES, lobby_expiry=LOBBY_MINUTES
    )
    @app_commands.choices(language=LANGUAGES)
    @app_commands.autocomplete(option=_option_names, value=_option_values)
    async def settings(
        self,
        interaction: discord.Interaction,
        turn_timeout: Choice[int] | None = None,
        option: str | None = None,
        value: str | None = None,
        reminder: Choice[int] | None = None,
        lobby_expiry: Choice[int] | None = None,
        games: app_commands.Range[int, 1, 1000] | None = None,
        language: Choice[str] | None = None,
    ) -> None:
        """Show or change the server's defaults."""
        if not interaction.permissions.manage_guild:
            raise UserError(_("Only members with Manage Server can change these settings."))
        bot = self.bot
        guild = interaction.guild_id or 0
        changes: dict[str, Any] = {}
        if turn_timeout is not None:
            changes["turn_timeout"] = float(turn_timeout.value)
        if (option is None) != (value is None):
            raise UserError(_("Give a game option together with its value."))
        if option is not None and value is not None:
            spec = offered_options().get(option)
            if spec is None:
                raise UserError(
                    _("No game here has an option {name}: pick one from the list.").format(
                        name=repr(option[:40])
                    )
                )
            changes["options"] = {spec.name: option_value(spec, value)}
        if reminder is not None:
            changes["reminder_lead"] = float(reminder.value * 60)
        if lobby_expiry is not None:
            changes["lobby_expiry"] = float(lobby_expiry.value * 60)
        if games is not None:
            changes["max_games"] = games
        if language is not None:
            changes["language"] = None if language.value == FOLLOW_SERVER else language.value
        if changes:
            gs = await bot.service.update_guild_settings(guild, **changes)
            head = _("Saved. New games in this server use these defaults.") + "\n"
        else:
            gs = await bot.service.guild_settings(guild)
            head = ""
        await Reply.of(interaction).private(head + settings_text(gs))


def _seat_number(text: str, names: list[str]) -> int:
    if text.strip().isdigit():
        return int(text)
    for i, name in enumerate(names):
        if name.lower() == text.strip().lower():
            return i
    raise UserError(
        _("There is no seat called {name}; pick one from the list.").format(name=repr(text[:60]))
    )
