"""Buttons about the table rather than a move: the draw vote (*Agree to a draw* and
*Refuse* under a proposal in the channel; /draw asks the same), *Undo* under an action
that may be taken back (for a short while; /undo does the same) and *Rematch* on a
finished game's last message.

A draw is a vote of every person at the table (computers are never asked, so they never
block one): agreeing is confirmed privately first (:mod:`bot.views.confirm`), each vote
is shown in the channel, and one refusal withdraws them all. *Rematch* opens a table in
the same channel with the same seats (:meth:`service.GameService.rematch`), started at
once when the one who asked is its only person. Each answers for the bot it was bound to
(:mod:`bot.views.bound`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from rules import contract
from service import ServiceError

from ..catalogue import N_, _
from ..errors import UserError, expect_ok, guarded
from ..reply import Reply
from .bound import OfBot
from .confirm import confirm_view

if TYPE_CHECKING:
    from ..client import GameBot
    from .controls import Controls


async def ask_draw(
    bot: GameBot, interaction: discord.Interaction, gid: int, *, proposed: bool = False
) -> None:
    """Ask the user privately to confirm agreeing to a draw of game ``gid`` (``proposed``:
    from a proposal's button, which needs a proposal still open).

    Raises:
        UserError: the game is not running or cannot be drawn, the user is not one of its
            people, already agrees, or (``proposed``) no draw is proposed any more.
    """
    try:
        status = await bot.service.status(gid)
    except ServiceError as exc:
        raise UserError(str(exc), gid) from None
    if status.status != "running":
        raise UserError(
            _("This game is over.") if status.status != "lobby" else _("The game has not started."),
            gid,
        )
    uid = interaction.user.id
    people = [s for s in status.seats if s.user_id is not None and s.seat is not None]
    me = next((s for s in people if s.user_id == uid), None)
    if me is None:
        raise UserError(_("You are not playing in this game."), gid)
    words = contract.game_named(status.variant).presentation
    if contract.game_named(status.variant).agreed_draw() is None:
        raise UserError(
            _("{game} cannot end in a draw by agreement.").format(game=words.title), gid
        )
    yes = [s for s in people if s.agrees_draw]
    if me.agrees_draw:
        waiting = ", ".join(s.name for s in people if not s.agrees_draw)
        raise UserError(
            _("You already agree to a draw ({yes} of {all}); waiting for {waiting}.").format(
                yes=len(yes), all=len(people), waiting=waiting
            ),
            gid,
        )
    if proposed and not yes:
        raise UserError(_("No draw is proposed now: /draw proposes one."), gid)
    text, label = draw_question(len(yes), len(people))
    await Reply.of(interaction).private(
        text, view=confirm_view(bot.controls, "draw", gid, uid, label)
    )


def draw_question(yes: int, people: int) -> tuple[str, str]:
    """What a person is asked before agreeing to a draw when ``yes`` of the ``people`` at
    the table agree already, and the label of the button that agrees."""
    if yes == people - 1:
        text = (
            _("End the game in a draw now? Every other person at the table agrees.")
            if yes
            else _(
                "End the game in a draw now? Computer players are not asked; the game ends at once."
            )
        )
        return text, _("End in a draw")
    if yes:
        text = _("Agree to a draw? {yes} of {all} people at the table agree so far.").format(
            yes=yes, all=people
        )
        return text, _("Agree to a draw")
    text = _(
        "Propose a draw? The game ends in a draw once every person at the table agrees "
        "(computer players are not asked); until then it goes on."
    )
    return text, _("Propose a draw")


def draw_items(controls: Controls, gid: int) -> list[discord.ui.Item[Any]]:
    """A proposal's buttons: agree (confirmed privately), or refuse."""
    return [controls.draw(gid, "yes"), controls.draw(gid, "no")]


class DrawButton(
    OfBot,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ew:d:(?P<gid>\d+):(?P<what>yes|no)",
):
    """Under a draw proposal in the channel: agree (asks to confirm) or refuse."""

    LABELS = {
        "yes": (N_("Agree to a draw"), discord.ButtonStyle.secondary),
        "no": (N_("Refuse"), discord.ButtonStyle.secondary),
    }

    def __init__(self, gid: int, what: str) -> None:
        label, style = self.LABELS[what]
        super().__init__(
            discord.ui.Button(label=_(label), style=style, custom_id=f"ew:d:{gid}:{what}")
        )
        self.gid, self.what = gid, what

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> DrawButton:
        return cls(int(match["gid"]), match["what"])

    @guarded("private")
    async def callback(self, interaction: discord.Interaction) -> None:
        if self.what == "yes":
            await ask_draw(self.bot, interaction, self.gid, proposed=True)
            return
        out = expect_ok(await self.bot.service.refuse_draw(self.gid, interaction.user.id))
        await Reply.of(interaction).private(_("You refused the draw; the game goes on."))
        await self.bot.delivery.deliver(out)


class UndoButton(
    OfBot,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ew:u:(?P<gid>\d+):(?P<seq>\d+)",
):
    """Under an action that may be taken back, while it may: its player takes it back
    (anyone else, or too late, or once someone acted, is told why privately)."""

    def __init__(self, gid: int, seq: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Undo"), style=discord.ButtonStyle.secondary, custom_id=undo_id(gid, seq)
            )
        )
        self.gid, self.seq = gid, seq

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> UndoButton:
        return cls(int(match["gid"]), int(match["seq"]))

    @guarded("public")
    async def callback(self, interaction: discord.Interaction) -> None:
        bot = self.bot
        out = await bot.service.undo(self.gid, interaction.user.id, seq=self.seq)
        if not out.ok:  # a button whose action may no longer be taken back goes
            bot.delivery.later(bot.delivery.undo.refused(self.gid, self.seq, interaction.message))
        await bot.delivery.deliver(expect_ok(out), interaction)


def undo_id(gid: int, seq: int) -> str:
    """The custom id of the Undo button under action ``seq`` of game ``gid``."""
    return f"ew:u:{gid}:{seq}"


class RematchButton(
    OfBot,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ew:r:(?P<gid>\d+)",
):
    """On a finished game's last message: a new table here with the same seats."""

    def __init__(self, gid: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Rematch"), style=discord.ButtonStyle.primary, custom_id=f"ew:r:{gid}"
            )
        )
        self.gid = gid

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> RematchButton:
        return cls(int(match["gid"]))

    @guarded("public")
    async def callback(self, interaction: discord.Interaction) -> None:
        bot, uid = self.bot, interaction.user.id
        out = expect_ok(await bot.service.rematch(self.gid, uid))
        await bot.delivery.deliver(out, interaction)
        info, gid = out.lobby, out.game_id
        if info is None or gid is None or any(s.user_id not in (None, uid) for s in info.seats):
            return  # the others decide whether to play again; the host starts
        started = await bot.service.start_game(gid, uid)
        if started.ok:
            await bot.delivery.deliver(started)
