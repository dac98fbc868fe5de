"""Private prompt panels: the decisions a game answers on panels (its presentation's
``panel_decisions``; the pyramid games: setup placements, duel cards, diplomacy, retreat).

A panel goes by DM, and ephemerally from the *Open my panel* button on the game's messages
in the channel (:class:`PanelOpener`, which opens a turn's panel too, as *Your turn*; and,
for a player whose DMs are closed, from a button of their own). Every component is a
:class:`discord.ui.DynamicItem` whose custom id names the game, the prompt's version and
the action, so panels keep working after a restart; the service refuses an out-of-date
version (a stale or double click), answered ephemerally with nothing changed. A choice is
acknowledged on entry as an update of its panel; the openers privately (:mod:`bot.reply`).
Each is answered by the bot it was bound to (:mod:`bot.views.bound`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord

from rules import contract, i18n
from rules.contract import Game
from rules.presentation import Presentation
from service import OLD_BUTTON, Counts, DecisionInfo, Prompt, ServiceError, opening

from ..catalogue import N_, _
from ..errors import UserError, guarded
from ..reply import Reply, with_picture
from ..texts import clip, stamp
from . import codec
from .bound import OfBot, button_of, select_of
from .counts import count_line, counts_view
from .turn import TONES, is_turn, root_step, step_view, with_step

if TYPE_CHECKING:
    from ..client import GameBot
    from .controls import Controls

PER_ROW = 5
ROWS = 4
"""Rows for a panel's choices (buttons, five a row, or selects); the fifth holds the quiet
choices (Pass) or the pages."""
MAX_BUTTONS = ROWS * PER_ROW
PER_SELECT = 25
PER_PAGE = ROWS * PER_SELECT
"""Choices on one page of selects; a longer list has Earlier and Later."""


def panel_content(
    prompt: Prompt, view: Any, names: list[str], words: Presentation, label: str = ""
) -> str:
    """The words of a panel: where, the question, the deadline, the position's public
    lines (a contest under way), and what only the player knows (the hand)."""
    lines = [label] if label else []
    lines.append(f"**{prompt.text}**")
    if prompt.deadline:
        lines.append(_("Time runs out {when}.").format(when=stamp(prompt.deadline)))
    lines += words.status_lines(view, names)
    lines += words.private_lines(view, names)
    if prompt.tally is not None:
        lines.append(count_line(_start(prompt)))
    return "\n".join(lines)


def _start(prompt: Prompt) -> Counts:
    """A counts panel as it opens: at the game's suggestion."""
    assert prompt.tally is not None
    return opening(prompt.version, prompt.tally)


def panel_view(controls: Controls, prompt: Prompt, game: Game, page: int = 0) -> discord.ui.View:
    """Buttons (or selects, when the game shows this decision so or there are too many
    choices) for ``prompt``'s choices, each carrying its action (:mod:`bot.views.codec`);
    a counts panel (:mod:`bot.views.counts`) for a decision answered by counts.

    Buttons: up to four rows of five, the quiet choices (Pass) in a row of their own
    under them. Selects: four of 25 choices on a ``page``, with Earlier and Later when
    there are more, so every choice is reachable."""
    if prompt.tally is not None:
        return counts_view(controls, prompt.game_id, _start(prompt))
    view = discord.ui.View(timeout=None)
    words = game.presentation
    gid, ver = prompt.game_id, prompt.version
    pairs = list(zip(prompt.choices, prompt.labels, strict=True))
    shown = words.panel_decisions().get(prompt.kind, "buttons")
    if shown == "buttons":
        quiet = [i for i, (a, _lab) in enumerate(pairs) if words.choice_tone(a.kind) == "secondary"]
        loud = [i for i in range(len(pairs)) if i not in quiet]
        if len(loud) <= MAX_BUTTONS and len(quiet) <= PER_ROW:
            rows = -(-len(loud) // PER_ROW)
            for n, i in enumerate(loud + quiet):
                a, lab = pairs[i]
                style = TONES.get(words.choice_tone(a.kind), discord.ButtonStyle.primary)
                button = controls.answer(gid, ver, codec.encode(a, game), lab[:80], style)
                button.row = n // PER_ROW if n < len(loud) else rows
                view.add_item(button)
            return view
    pages = max(1, -(-len(pairs) // PER_PAGE))
    page = max(0, min(page, pages - 1))
    here = pairs[page * PER_PAGE : (page + 1) * PER_PAGE]
    for n, start in enumerate(range(0, len(here), PER_SELECT)):
        chunk = here[start : start + PER_SELECT]
        options = [
            discord.SelectOption(label=lab[:100], value=codec.encode(a, game)) for a, lab in chunk
        ]
        first = page * PER_PAGE + start + 1
        hint = (
            _("Choose… ({first}–{last} of {all})").format(
                first=first, last=first + len(chunk) - 1, all=len(pairs)
            )
            if len(pairs) > PER_SELECT
            else None
        )
        view.add_item(controls.answer_select(gid, ver, n, options, hint))
    for target, label in ((page - 1, _("◀ Earlier")), (page + 1, _("Later ▶"))):
        if 0 <= target < pages:
            turn = controls.answer_page(gid, ver, target, label)
            turn.row = ROWS
            view.add_item(turn)
    return view


class AnswerButton(
    OfBot,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ew:a:(?P<gid>\d+):(?P<ver>\d+):(?P<code>" + codec.CODE + ")",
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
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> AnswerButton:
        button = button_of(item)
        return cls(
            int(match["gid"]), int(match["ver"]), match["code"], button.label or "?", button.style
        )

    @guarded("update")
    async def callback(self, interaction: discord.Interaction) -> None:
        await answer(self.bot, interaction, self.gid, self.version, self.code)


class AnswerSelect(
    OfBot,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"ew:s:(?P<gid>\d+):(?P<ver>\d+):(?P<n>\d)",
):
    """Choices of a prompt in a select (as the game shows that decision, or too many for
    buttons)."""

    def __init__(
        self,
        gid: int,
        version: int,
        n: int,
        options: list[discord.SelectOption],
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"ew:s:{gid}:{version}:{n}",
                options=options,
                placeholder=(placeholder or _("Choose…"))[:150],
                min_values=1,
                max_values=1,
            )
        )
        self.gid, self.version = gid, version

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> AnswerSelect:
        select = select_of(item)
        return cls(int(match["gid"]), int(match["ver"]), int(match["n"]), list(select.options))

    @guarded("update")
    async def callback(self, interaction: discord.Interaction) -> None:
        await answer(self.bot, interaction, self.gid, self.version, self.item.values[0])


class AnswerPage(
    OfBot,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ew:ap:(?P<gid>\d+):(?P<ver>\d+):(?P<page>\d+)",
):
    """Earlier or Later: another page of a long list of a prompt's choices."""

    def __init__(self, gid: int, version: int, page: int, label: str = "?") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.secondary,
                custom_id=f"ew:ap:{gid}:{version}:{page}",
            )
        )
        self.gid, self.version, self.page = gid, version, page

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> AnswerPage:
        button = button_of(item)
        return cls(int(match["gid"]), int(match["ver"]), int(match["page"]), button.label or "?")

    @guarded("update")
    async def callback(self, interaction: discord.Interaction) -> None:
        bot, gid = self.bot, self.gid
        game = await check_seated(bot, interaction, gid)
        uv = await bot.service.view(gid, interaction.user.id)
        prompt = uv.prompt
        if prompt is None or prompt.version != self.version:
            raise UserError(i18n.translate_any(OLD_BUTTON, i18n.current()), gid)
        view = panel_view(bot.controls, prompt, game, self.page)
        await Reply.of(interaction).edit_source(view=view)


class OpenPanelButton(
    OfBot,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ew:o:(?P<gid>\d+):(?P<uid>\d+)",
):
    """In the channel, for a player whose DMs are closed: opens their panel privately."""

    def __init__(self, gid: int, uid: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Open my panel"),
                style=discord.ButtonStyle.primary,
                custom_id=f"ew:o:{gid}:{uid}",
            )
        )
        self.gid, self.uid = gid, uid

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> OpenPanelButton:
        return cls(int(match["gid"]), int(match["uid"]))

    @guarded("private")
    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.uid:  # only the player the panel is for
            raise UserError(
                _("This panel is for {who}, not you.").format(who=f"<@{self.uid}>"), self.gid
            )
        await open_panel(self.bot, interaction, self.gid)


async def check_seated(bot: GameBot, interaction: discord.Interaction, gid: int) -> Game:
    """Only a player of game ``gid`` may answer its panels (the service checks the seat
    again). Returns the game being played.

    Raises:
        UserError: the game is gone, or the user holds no seat in it.
    """
    try:
        status = await bot.service.status(gid)
    except ServiceError:
        raise UserError(_("That game no longer exists."), gid) from None
    if not any(s.user_id == interaction.user.id for s in status.seats):
        raise UserError(_("This panel belongs to a player of that game, not you."), gid)
    return contract.game_named(status.variant)


def open_panel_view(controls: Controls, gid: int, uid: int) -> discord.ui.View:
    """A one-button view: *Open my panel* for ``uid``."""
    view = discord.ui.View(timeout=None)
    view.add_item(controls.open_panel(gid, uid))
    return view


async def open_panel(bot: GameBot, interaction: discord.Interaction, gid: int) -> None:
    """Show the user's open decision (if any) as an ephemeral panel, with their hand: a
    turn's panel (:mod:`bot.views.turn`), or the panel of a decision the game answers on
    one.

    Raises:
        UserError: the game is over, the user holds no seat or has nothing to decide.
    """
    try:
        status = await bot.service.status(gid)
        uv = await bot.service.view(gid, interaction.user.id)
    except ServiceError as exc:
        raise UserError(str(exc), gid) from None
    if status.status != "running":
        raise UserError(_("This game is over."), gid)
    if uv.seat is None:
        raise UserError(_("You are not playing in this game."), gid)
    prompt = uv.prompt
    if prompt is None:
        awaited = ", ".join(sorted({d.name for d in status.decisions})) or _("nobody")
        raise UserError(
            _("You have nothing to decide now (waiting for {who}).").format(who=awaited), gid
        )
    names = [s.name for s in status.seats]
    game = contract.game_named(status.variant)
    content = panel_content(prompt, uv.view, names, game.presentation)
    if is_turn(game, prompt.kind):
        step = root_step(prompt, game)
        content, panel = with_step(content, step), step_view(bot.controls, gid, step)
    else:
        panel = panel_view(bot.controls, prompt, game)
    images = bot.delivery.images
    holding = images.holding(uv.view, status.variant)
    if holding is None:  # a game without images, or nothing held
        await Reply.of(interaction).say(clip(content), view=panel)
        return
    drawing = images.hand(holding, _("Your hand"), game=status.variant)
    await with_picture(
        Reply.of(interaction), clip(content), drawing, bot.delivery.later, view=panel
    )


def opener_view(
    controls: Controls, gid: int, decisions: Iterable[DecisionInfo], variant: str
) -> discord.ui.View | None:
    """Buttons for a channel message while people decide: *Your turn* when a person's
    turn is open, *Open my panel* when a decision the game answers on a panel is (each
    opens the clicker's own, privately); None when no person decides."""
    game = contract.game_named(variant)
    kinds = {d.kind for d in decisions if d.user_id is not None}
    view = discord.ui.View(timeout=None)
    if any(is_turn(game, k) for k in kinds):
        view.add_item(controls.opener(gid, "t"))
    if any(not is_turn(game, k) for k in kinds):
        view.add_item(controls.opener(gid, "a"))
    return view if view.children else None


class PanelOpener(
    OfBot,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ew:p:(?P<gid>\d+):(?P<what>[ta])",
):
    """In the channel, on a game's message: opens the clicker's own open decision
    privately (*Your turn* for a turn, *Open my panel* for a decision the game answers
    on a panel)."""

    LABELS = {
        "t": (N_("Your turn"), discord.ButtonStyle.success),
        "a": (N_("Open my panel"), discord.ButtonStyle.primary),
    }

    def __init__(self, gid: int, what: str) -> None:
        label, style = self.LABELS[what]
        super().__init__(
            discord.ui.Button(label=_(label), style=style, custom_id=f"ew:p:{gid}:{what}")
        )
        self.gid, self.what = gid, what

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> PanelOpener:
        return cls(int(match["gid"]), match["what"])

    @guarded("private")
    async def callback(self, interaction: discord.Interaction) -> None:
        await open_panel(self.bot, interaction, self.gid)


async def answer(
    bot: GameBot, interaction: discord.Interaction, gid: int, version: int, code: str
) -> None:
    """A panel choice: decode it, let the service apply it, deliver the outcome."""
    game = await check_seated(bot, interaction, gid)
    uv = await bot.service.view(gid, interaction.user.id)
    if uv.seat is None:
        raise UserError(_("You are not playing in this game."), gid)
    offered = uv.prompt.choices if uv.prompt is not None else ()
    try:
        kind, params = codec.decode(code, game, offered)
    except (ValueError, UnicodeDecodeError):
        reason = (
            i18n.translate_any(OLD_BUTTON, i18n.current())
            if code.startswith("h")
            else _("That button is not valid any more.")
        )
        raise UserError(reason, gid) from None
    outcome = await bot.service.act_with(gid, interaction.user.id, kind, params, version=version)
    if not outcome.ok:
        raise UserError(outcome.error or _("That did not work."), gid)
    note = kind
    for action, label in zip(offered, uv.prompt.labels if uv.prompt else (), strict=False):
        if action.to_dict() == {"kind": kind, **params}:
            note = label
    await bot.delivery.deliver(outcome, interaction, mode="panel", note=note)
