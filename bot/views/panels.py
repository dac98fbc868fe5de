"""Private prompt panels: setup placements, duel cards, diplomacy, retreat.

A panel goes by DM (or, for a player whose DMs are closed, ephemerally from an *Open my
panel* button in the channel). Every component is a :class:`discord.ui.DynamicItem` whose
custom id names the game, the prompt's version and the action, so panels keep working
after a restart; the service refuses an out-of-date version (a stale or double click),
answered ephemerally with nothing changed. A choice is acknowledged on entry as an update
of its panel; *Open my panel* privately (:mod:`bot.reply`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from rules import pyramids
from rules.pyramids.cards import card_name
from rules.pyramids.words import action_label
from service import Prompt, ServiceError

from ..errors import UserError, guarded
from ..reply import Reply, with_picture
from ..texts import hand_lines, stamp
from . import codec

if TYPE_CHECKING:
    from ..client import GameBot

PANEL_KINDS = frozenset({"setup", "duel", "diplomacy", "retreat"})
"""Prompt kinds answered on a panel (turns are played with slash commands)."""
MAX_BUTTONS = 20


def board_of_view(view: pyramids.View) -> pyramids.Board:
    """The board a view is drawn on."""
    return pyramids.load_board(view.board_id, bool(view.options.get("pyramid_arcade")))


def panel_content(prompt: Prompt, view: pyramids.View, names: list[str], label: str = "") -> str:
    """The words of a panel: where, the question, the deadline, the hand."""
    lines = [label] if label else []
    lines.append(f"**{prompt.text}**")
    if prompt.deadline:
        lines.append(f"Time runs out {stamp(prompt.deadline)}.")
    b = view.battle
    if prompt.kind == "duel" and b is not None:
        me_att = view.viewer == b.attacker
        mine = b.attacker_cards if me_att else b.defender_cards
        theirs = b.defender_cards if me_att else b.attacker_cards
        limit = b.attacker_limit if me_att else b.defender_limit
        lines.append(
            f"You played: {', '.join(card_name(c) for c in mine) or '—'} "
            f"({len(mine)} of up to {limit}); they played: "
            f"{', '.join(card_name(c) for c in theirs) or '—'}."
        )
    if view.hand or prompt.kind != "setup":
        lines += hand_lines(view, names)
    return "\n".join(lines)


def panel_view(prompt: Prompt, board: pyramids.Board) -> discord.ui.View:
    """Buttons (or selects, for many choices or a retreat) for ``prompt``'s choices."""
    view = discord.ui.View(timeout=None)
    pairs = list(zip(prompt.choices, prompt.labels, strict=True))
    stops = [(a, lab) for a, lab in pairs if a.kind in ("stop_playing",)]
    main = [(a, lab) for a, lab in pairs if a.kind != "stop_playing"]
    use_select = prompt.kind == "retreat" or len(main) > MAX_BUTTONS
    if use_select:
        for n, start in enumerate(range(0, min(len(main), 100), 25)):
            chunk = main[start : start + 25]
            options = [
                discord.SelectOption(label=lab[:100], value=codec.encode(a, board))
                for a, lab in chunk
            ]
            view.add_item(AnswerSelect(prompt.game_id, prompt.version, n, options))
    else:
        for a, lab in main:
            view.add_item(
                AnswerButton(
                    prompt.game_id,
                    prompt.version,
                    codec.encode(a, board),
                    _short(a, lab),
                    _style(a),
                )
            )
    for a, lab in stops:
        view.add_item(
            AnswerButton(
                prompt.game_id,
                prompt.version,
                codec.encode(a, board),
                lab,
                discord.ButtonStyle.danger,
            )
        )
    return view


def _short(action: pyramids.Action, label: str) -> str:
    if isinstance(action, pyramids.PlayCard):
        return card_name(action.card)
    return label[:80]


def _style(action: pyramids.Action) -> discord.ButtonStyle:
    if action.kind == "stop_attack":
        return discord.ButtonStyle.danger
    if action.kind == "let_pass":
        return discord.ButtonStyle.secondary
    return discord.ButtonStyle.primary


class AnswerButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ew:a:(?P<gid>\d+):(?P<ver>\d+):(?P<code>[a-z0-9.]+)",
):
    """One choice of a prompt."""

    def __init__(
        self,
        gid: int,
        version: int,
        code: str,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"ew:a:{gid}:{version}:{code}")
        )
        self.gid, self.version, self.code = gid, version, code

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> AnswerButton:
        if not isinstance(item, discord.ui.Button):  # the template matches only our buttons
            raise TypeError(f"{item!r} is not a button")
        return cls(
            int(match["gid"]), int(match["ver"]), match["code"], item.label or "?", item.style
        )

    @guarded("update")
    async def callback(self, interaction: discord.Interaction) -> None:
        await answer(interaction, self.gid, self.version, self.code)


class AnswerSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"ew:s:(?P<gid>\d+):(?P<ver>\d+):(?P<n>\d)",
):
    """Choices of a prompt in a select (a retreat, or a hand too big for buttons)."""

    def __init__(self, gid: int, version: int, n: int, options: list[discord.SelectOption]) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"ew:s:{gid}:{version}:{n}",
                options=options,
                placeholder="Choose…",
                min_values=1,
                max_values=1,
            )
        )
        self.gid, self.version = gid, version

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> AnswerSelect:
        if not isinstance(item, discord.ui.Select):  # the template matches only our selects
            raise TypeError(f"{item!r} is not a select")
        return cls(int(match["gid"]), int(match["ver"]), int(match["n"]), list(item.options))

    @guarded("update")
    async def callback(self, interaction: discord.Interaction) -> None:
        await answer(interaction, self.gid, self.version, self.item.values[0])


class OpenPanelButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ew:o:(?P<gid>\d+):(?P<uid>\d+)"
):
    """In the channel, for a player whose DMs are closed: opens their panel privately."""

    def __init__(self, gid: int, uid: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Open my panel",
                style=discord.ButtonStyle.primary,
                custom_id=f"ew:o:{gid}:{uid}",
            )
        )
        self.gid, self.uid = gid, uid

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> OpenPanelButton:
        return cls(int(match["gid"]), int(match["uid"]))

    @guarded("private")
    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.uid:  # only the player the panel is for
            raise UserError(f"This panel is for <@{self.uid}>, not you.", self.gid)
        await open_panel(interaction, self.gid)


async def check_seated(interaction: discord.Interaction, gid: int) -> None:
    """Only a player of game ``gid`` may answer its panels (the service checks the seat
    again).

    Raises:
        UserError: the game is gone, or the user holds no seat in it.
    """
    bot: GameBot = interaction.client  # type: ignore[assignment]  # always a GameBot
    try:
        status = await bot.service.status(gid)
    except ServiceError:
        raise UserError("That game no longer exists.", gid) from None
    if not any(s.user_id == interaction.user.id for s in status.seats):
        raise UserError("This panel belongs to a player of that game, not you.", gid)


def open_panel_view(gid: int, uid: int) -> discord.ui.View:
    """A one-button view: *Open my panel* for ``uid``."""
    view = discord.ui.View(timeout=None)
    view.add_item(OpenPanelButton(gid, uid))
    return view


async def open_panel(interaction: discord.Interaction, gid: int) -> None:
    """Show the user's open prompt (if any) as an ephemeral panel, with their hand."""
    bot: GameBot = interaction.client  # type: ignore[assignment]  # always a GameBot
    uv = await bot.service.view(gid, interaction.user.id)
    prompt = uv.prompt
    if prompt is None or prompt.kind not in PANEL_KINDS:
        raise UserError(
            "You have nothing to decide on a panel right now"
            + (" — it is your turn: use the slash commands." if prompt else ".")
        )
    st = await bot.service.status(gid)
    names = [s.name for s in st.seats]
    board = board_of_view(uv.view)
    drawing = bot.delivery.images.hand(uv.view.hand or (), "Your hand", game=st.variant)
    await with_picture(
        Reply.of(interaction),
        panel_content(prompt, uv.view, names),
        drawing,
        bot.delivery.later,
        view=panel_view(prompt, board),
    )


async def answer(interaction: discord.Interaction, gid: int, version: int, code: str) -> None:
    """A panel choice: decode it, let the service apply it, deliver the outcome."""
    bot: GameBot = interaction.client  # type: ignore[assignment]  # always a GameBot
    await check_seated(interaction, gid)
    uv = await bot.service.view(gid, interaction.user.id)
    if uv.seat is None:
        raise UserError("You are not playing in this game.", gid)
    try:
        action = codec.decode(code, board_of_view(uv.view))
    except (ValueError, IndexError):
        raise UserError("That button is not valid any more.", gid) from None
    outcome = await bot.service.answer(gid, interaction.user.id, version, action)
    if not outcome.ok:
        raise UserError(outcome.error or "That did not work.", gid)
    note = action_label(action, board_of_view(uv.view), list(outcome.names))
    await bot.delivery.deliver(outcome, interaction, mode="panel", note=note)
