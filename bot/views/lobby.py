"""The lobby message's buttons (Join / Leave / Add computer / Options / Start) and the
host's Options panel. All are dynamic items whose custom ids carry the game id, so a
lobby posted before a restart keeps working after it. Each click is acknowledged on entry
as an update of the message it is on (:mod:`bot.reply`), and answered by the bot the item
was bound to (:mod:`bot.views.bound`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from rules import contract
from rules.presentation import OptionSpec
from service import LobbyInfo, ServiceError

from ..catalogue import N_, _
from ..errors import UserError, expect_ok, guarded
from ..reply import Reply
from ..texts import duration_words
from .bound import OfBot, button_of, select_of

if TYPE_CHECKING:
    from .controls import Controls

LOBBY_BUTTONS = (
    ("join", N_("Join"), discord.ButtonStyle.primary),
    ("leave", N_("Leave"), discord.ButtonStyle.secondary),
    ("bot", N_("Add computer"), discord.ButtonStyle.secondary),
    ("opts", N_("Options"), discord.ButtonStyle.secondary),
    ("start", N_("Start"), discord.ButtonStyle.success),
)
TIMEOUTS = (300, 900, 3600, 6 * 3600, 12 * 3600, 86400, 3 * 86400, 7 * 86400, 0)
"""Turn timeouts offered (seconds; 0 = no limit)."""
HOST_ONLY = frozenset({"bot", "opts", "start"})


def lobby_view(controls: Controls, game_id: int) -> discord.ui.View:
    """The lobby's five buttons."""
    view = discord.ui.View(timeout=None)
    for what, label, style in LOBBY_BUTTONS:
        view.add_item(controls.lobby(game_id, what, _(label), style))
    return view


class LobbyButton(
    OfBot,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ew:l:(?P<gid>\d+):(?P<what>join|leave|bot|opts|start)",
):
    """A lobby button."""

    def __init__(
        self,
        gid: int,
        what: str,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"ew:l:{gid}:{what}")
        )
        self.gid, self.what = gid, what

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> LobbyButton:
        button = button_of(item)
        return cls(int(match["gid"]), match["what"], button.label or "?", button.style)

    async def _check_host(self, interaction: discord.Interaction) -> LobbyInfo | None:
        """Start, Add computer and Options are the host's; Join and Leave anyone's (the
        service checks the seat).

        Raises:
            UserError: a host-only button pressed by someone else.
        """
        if self.what not in HOST_ONLY:
            return None
        try:
            info = await self.bot.service.lobby_info(self.gid)
        except ServiceError as exc:
            raise UserError(str(exc), self.gid) from None
        if info.host_id != interaction.user.id:
            raise UserError(_("Only the host can do that."), self.gid)
        return info

    @guarded("update")
    async def callback(self, interaction: discord.Interaction) -> None:
        bot = self.bot
        svc, uid = bot.service, interaction.user.id
        info = await self._check_host(interaction)
        if interaction.message is not None:
            await bot.delivery.remember_lobby(self.gid, interaction.message)
        if self.what == "join":
            out = expect_ok(await svc.join(self.gid, uid, interaction.user.display_name))
            await bot.delivery.deliver(out, interaction, mode="lobby")
            await bot.delivery.check_dms(out, uid)
        elif self.what == "leave":
            out = expect_ok(await svc.leave(self.gid, uid))
            await bot.delivery.deliver(out, interaction, mode="lobby")
        elif self.what == "bot":
            out = expect_ok(await svc.add_computer(self.gid, uid))
            await bot.delivery.deliver(out, interaction, mode="lobby")
        elif self.what == "start":
            out = expect_ok(await svc.start_game(self.gid, uid))
            await bot.delivery.deliver(out, interaction, mode="lobby")
        else:
            assert info is not None
            await Reply.of(interaction).private(
                options_text(info), view=options_view(bot.controls, self.gid, info)
            )


# ---------------------------------------------------------------------- options
def options_text(info: LobbyInfo) -> str:
    """The Options panel's words."""
    return _(
        "**Table options** (host only). Changes apply at once; the lobby message shows "
        "them. Turn timeout now: {duration}."
    ).format(duration=duration_words(info.turn_timeout))


def panel_options(variant: str) -> dict[str, OptionSpec]:
    """The game's options on the Options panel, each by the name of its select: the
    first word of the option's name ("setup" for ``setup_order``), or the whole name
    without underscores when that word is taken. Flags share one select ("flags");
    a number is there only with the ``steps`` a host picks from."""
    out: dict[str, OptionSpec] = {}
    taken = {"flags", "timeout", "players"}
    for spec in contract.game_named(variant).presentation.options():
        if not spec.panel or spec.kind == "flag" or (spec.kind == "number" and not spec.steps):
            continue
        key = spec.name.split("_")[0]
        if key in taken:
            key = spec.name.replace("_", "")
        taken.add(key)
        out[key] = spec
    return out


def _select(controls: Controls, gid: int, key: str, spec: OptionSpec, now: object) -> OptionSelect:
    """One option's select: its choices (a word) or steps (a number) with their labels."""
    values: tuple[object, ...] = spec.choices if spec.kind == "word" else spec.steps
    return controls.option(
        gid,
        key,
        [
            discord.SelectOption(label=spec.label(v)[:100], value=str(v), default=v == now)
            for v in values
        ],
    )


def options_view(controls: Controls, gid: int, info: LobbyInfo) -> discord.ui.View:
    """Selects for the game's options (:meth:`rules.presentation.Presentation.options`),
    the turn timeout, the seat arrangement and the table's size."""
    game = contract.game_named(info.variant)
    opts = game.options_to_dict(game.options_from_dict(dict(info.options)))
    view = discord.ui.View(timeout=None)
    flags = [("arranged", _("Seats in join order (not dealt at random)"), info.arranged)]
    flags += [
        (spec.name, spec.summary[:100], bool(opts.get(spec.name)))
        for spec in game.presentation.options()
        if spec.kind == "flag" and spec.panel
    ]
    view.add_item(
        controls.option(
            gid,
            "flags",
            [
                discord.SelectOption(label=label, value=value, default=on)
                for value, label, on in flags
            ],
            min_values=0,
            max_values=len(flags),
            placeholder=_("Table rules"),
        )
    )
    selects = panel_options(info.variant)
    for key, spec in selects.items():
        if spec.kind == "word":
            view.add_item(_select(controls, gid, key, spec, opts.get(spec.name)))
    view.add_item(
        controls.option(
            gid,
            "timeout",
            [
                discord.SelectOption(
                    label=_("Turn timeout: {duration}").format(duration=duration_words(t or None)),
                    value=str(t),
                    default=(t or None) == info.turn_timeout,
                )
                for t in TIMEOUTS
            ],
        )
    )
    for key, spec in selects.items():
        if spec.kind == "number":
            view.add_item(_select(controls, gid, key, spec, opts.get(spec.name)))
    limit = game.max_players(game.options_from_dict(dict(info.options)))
    view.add_item(
        controls.option(
            gid,
            "players",
            [
                discord.SelectOption(
                    label=_("Up to {n} players").format(n=n),
                    value=str(n),
                    default=n == info.max_players,
                )
                for n in range(2, limit + 1)
            ],
        )
    )
    return view


class OptionSelect(
    OfBot,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"ew:op:(?P<gid>\d+):(?P<name>[a-z0-9]+)",
):
    """One select of the Options panel."""

    def __init__(
        self,
        gid: int,
        name: str,
        options: list[discord.SelectOption],
        *,
        min_values: int = 1,
        max_values: int = 1,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"ew:op:{gid}:{name}",
                options=options,
                min_values=min_values,
                max_values=max_values,
                placeholder=placeholder,
            )
        )
        self.gid, self.name = gid, name

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> OptionSelect:
        select = select_of(item)
        return cls(
            int(match["gid"]),
            match["name"],
            list(select.options),
            min_values=select.min_values,
            max_values=select.max_values,
        )

    async def _option(self, value: str) -> dict[str, Any]:
        """The game option this select sets, at ``value`` (read as its kind says).

        Raises:
            UserError: the table is gone, or its game has no such option any more.
        """
        try:
            info = await self.bot.service.lobby_info(self.gid)
        except ServiceError as exc:
            raise UserError(str(exc), self.gid) from None
        spec = panel_options(info.variant).get(self.name)
        if spec is None:
            raise UserError(_("This option is no longer offered: open Options again."), self.gid)
        return {spec.name: int(value) if spec.kind == "number" else value}

    @guarded("update")
    async def callback(self, interaction: discord.Interaction) -> None:
        bot = self.bot
        values = list(self.item.values)
        kw: dict[str, Any] = {}
        if self.name == "flags":
            picked = set(values)
            kw["arranged"] = "arranged" in picked
            known = {o.value for o in self.item.options} - {"arranged"}
            kw["options"] = {flag: flag in picked for flag in known}
        elif self.name == "timeout":
            kw["turn_timeout"] = float(values[0]) or None
        elif self.name == "players":
            kw["max_players"] = int(values[0])
        else:
            kw["options"] = await self._option(values[0])
        out = expect_ok(await bot.service.configure(self.gid, interaction.user.id, **kw))
        assert out.lobby is not None
        await Reply.of(interaction).edit_source(
            content=options_text(out.lobby), view=options_view(bot.controls, self.gid, out.lobby)
        )
        await bot.delivery.deliver(out)
