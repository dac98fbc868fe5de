"""Confirmation buttons for /cancel, /resign and agreeing to a draw (ephemeral; only the
asker may press).
Confirm is acknowledged on entry as an update of its message; Keep answers at once. Both
answer for the bot they were bound to (:mod:`bot.views.bound`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from ..catalogue import _
from ..errors import UserError, expect_ok, guarded
from ..reply import Reply
from .bound import OfBot, button_of

if TYPE_CHECKING:
    from .controls import Controls


def confirm_view(controls: Controls, what: str, gid: int, uid: int, label: str) -> discord.ui.View:
    """Confirm (danger) and Keep buttons for ``what`` ('cancel', 'resign' or 'draw')."""
    view = discord.ui.View(timeout=None)
    view.add_item(controls.confirm(what, gid, uid, label))
    view.add_item(controls.keep(uid))
    return view


class _ForOneUser:
    uid: int

    def check_user(self, interaction: discord.Interaction) -> None:
        """Only the member who asked may answer.

        Raises:
            UserError: someone else pressed.
        """
        if interaction.user.id != self.uid:
            raise UserError(_("Only the member who asked can answer this."))


class ConfirmButton(
    OfBot,
    _ForOneUser,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ew:y:(?P<what>cancel|resign|draw):(?P<gid>\d+):(?P<uid>\d+)",
):
    """Carries out a confirmed /cancel, /resign or agreement to a draw."""

    def __init__(self, what: str, gid: int, uid: int, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or _("Confirm"),
                style=discord.ButtonStyle.danger,
                custom_id=f"ew:y:{what}:{gid}:{uid}",
            )
        )
        self.what, self.gid, self.uid = what, gid, uid

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> ConfirmButton:
        button = button_of(item)
        return cls(match["what"], int(match["gid"]), int(match["uid"]), button.label)

    @guarded("update")
    async def callback(self, interaction: discord.Interaction) -> None:
        bot = self.bot
        self.check_user(interaction)
        if self.what == "cancel":
            perms = interaction.permissions
            out = expect_ok(
                await bot.service.cancel(self.gid, self.uid, is_admin=perms.manage_channels)
            )
            done = _("You cancelled the game.")
        elif self.what == "draw":
            out = expect_ok(await bot.service.agree_draw(self.gid, self.uid))
            done = _("The game ended in a draw.") if out.game_over else _("You agreed to a draw.")
        else:
            out = expect_ok(await bot.service.resign(self.gid, self.uid))
            done = _("You resigned; a computer plays your seat now.")
        await Reply.of(interaction).edit_source(content=done, view=None)
        await bot.delivery.deliver(out)


class KeepButton(
    OfBot,
    _ForOneUser,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ew:n:(?P<uid>\d+)",
):
    """Dismisses a confirmation: nothing changes."""

    def __init__(self, uid: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Keep playing"),
                custom_id=f"ew:n:{uid}",
                style=discord.ButtonStyle.secondary,
            )
        )
        self.uid = uid

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> KeepButton:
        return cls(int(match["uid"]))

    @guarded("direct")
    async def callback(self, interaction: discord.Interaction) -> None:
        self.check_user(interaction)
        await Reply.of(interaction).edit_source(content=_("Nothing changed."), view=None)
