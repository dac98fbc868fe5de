"""The turn panel: a decision a game answers with its turn commands (a turn), played by
clicking instead — pick the action, then each of its parameters from buttons or a select
offering only the values legal given the ones chosen before, then Confirm; Back goes one
step back, Cancel to the start. Made from the game's structured choices
(:mod:`service.steps`), so every game has one.

It comes by DM with the turn's prompt, and ephemerally from the *Your turn* button in
the channel (:mod:`bot.views.panels`). Its components carry the game, the prompt's
version and where the player stands (a path, :func:`bot.views.codec.fit_path`), so a
panel keeps working after a restart; each click is acknowledged on entry as an update of
the panel and answered by editing it (the words above the step are kept as they are).
An out-of-date click (the turn moved on, the game ended) gets a short private reason and
changes nothing; Confirm acts through the service, which checks the version again.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from rules import contract
from rules.contract import Game, Value
from service import Nth, Offer, Prompt, ServiceError, Step, first_step

from ..catalogue import _
from ..errors import UserError, guarded
from ..reply import Reply
from . import codec
from .bound import OfBot, button_of, select_of

if TYPE_CHECKING:
    from ..client import GameBot
    from .controls import Controls

STEP_MARK = "➤ "
"""Starts the panel's last line, the step; the words above it are kept as clicks edit it."""
PER_ROW = 5
MAX_BUTTONS = 20
"""Offers shown as buttons (four rows; the fifth holds Back, Cancel and the pages)."""
PER_SELECT = 25
SELECTS = 3
"""Selects on one page of a long list (a fourth row for the pages, a fifth for Back)."""
TURN_ID = re.compile(r"ew:t:(?P<gid>\d+):(?P<ver>\d+):(?P<page>\d+):(?P<path>" + codec.PATH + ")")
"""A step's button: a kind, a value, Back, Cancel or a page."""
SELECT_ID = re.compile(r"ew:ts:(?P<gid>\d+):(?P<ver>\d+):(?P<n>\d+):(?P<path>" + codec.PATH + ")")
"""One select of a step's long list (its options: the next token)."""
CONFIRM_ID = re.compile(r"ew:tc:(?P<gid>\d+):(?P<ver>\d+):(?P<path>" + codec.PATH + ")")
"""Confirm."""
TONES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "danger": discord.ButtonStyle.danger,
}
"""Button styles of a game's choice tones (its presentation's ``choice_tone``)."""


def is_turn(game: Game, kind: str) -> bool:
    """True when ``game`` answers a decision of ``kind`` with its turn commands (so
    with the turn panel), not on a private panel of its own."""
    return kind not in game.presentation.panel_decisions()


def root_step(prompt: Prompt, game: Game) -> Step:
    """The turn panel's first step for ``prompt``: the kinds of its choices."""
    return first_step(game, prompt.version, prompt.choices, prompt.labels)


def step_line(step: Step) -> str:
    """The panel's last line: what is chosen so far and what is asked."""
    if step.kind is None:
        return STEP_MARK + step.question
    if step.complete:
        return STEP_MARK + _("**{action}** — confirm?").format(action=step.label)
    done = " · ".join([f"**{step.kind_label}**", *(o.label for o in step.chosen)])
    return f"{STEP_MARK}{done} · {step.question}"


def with_step(head: str, step: Step) -> str:
    """``head`` (the prompt, the hand…) with ``step``'s line under it."""
    return f"{head}\n{step_line(step)}" if head else step_line(step)


def head_of(message: discord.Message | None) -> str:
    """The words above a panel's step (kept when a click shows the next step)."""
    content = message.content if message is not None else ""
    if content.startswith(STEP_MARK):
        return ""
    return content.rsplit("\n" + STEP_MARK, 1)[0]


def _path(prefix: str, step: Step, extra: Offer | None = None, place: int = 0) -> str:
    """The path of ``step`` (with ``extra``, the offer at ``place``, chosen too) for a
    custom id starting with ``prefix``."""
    if step.kind is None:
        assert extra is not None
        return codec.token(extra.value)
    values: list[Value] = [o.value for o in step.chosen]
    places = list(step.places)
    if extra is not None:
        values.append(extra.value)
        places.append(place)
    return codec.fit_path(prefix, step.kind, values, places)


def _back(gid: int, step: Step) -> str | None:
    """Where Back goes: the step before the last value the player chose (values taken
    without asking are skipped), the start once none is left; None at the start."""
    if step.kind is None:
        return None
    asked = [i for i, forced in enumerate(step.forced) if not forced]
    if not asked:
        return ""
    last = asked[-1]
    values = [o.value for o in step.chosen[:last]]
    prefix = f"ew:t:{gid}:{step.version}:0:"
    return codec.fit_path(prefix, step.kind, values, step.places[:last])


def step_view(controls: Controls, gid: int, step: Step, page: int = 0) -> discord.ui.View:
    """The components of ``step``: its offers (buttons, or selects in pages of
    ``SELECTS * PER_SELECT`` for a long list) or Confirm, then Back and Cancel."""
    view = discord.ui.View(timeout=None)
    ver = step.version
    nav: list[discord.ui.Item[Any]] = []
    words = contract.game_named(step.variant).presentation
    rows = 1
    if step.complete:
        view.add_item(controls.turn_confirm(gid, ver, _path(f"ew:tc:{gid}:{ver}:", step)))
    elif len(step.offers) <= MAX_BUTTONS:
        rows = -(-len(step.offers) // PER_ROW)
        prefix = f"ew:t:{gid}:{ver}:0:"
        for place, offer in enumerate(step.offers):
            tone = words.choice_tone(str(offer.value)) if step.kind is None else "primary"
            style = TONES.get(tone, discord.ButtonStyle.primary)
            path = _path(prefix, step, offer, place)
            view.add_item(controls.turn(gid, ver, 0, path, offer.label[:80] or "?", style))
    else:
        per_page = SELECTS * PER_SELECT
        pages = -(-len(step.offers) // per_page)
        page = max(0, min(page, pages - 1))
        widest = f"ew:ts:{gid}:{ver}:{pages * SELECTS}:"
        here = _path(widest, step) if step.kind is not None else ""
        for n in range(SELECTS):
            lo = page * per_page + n * PER_SELECT
            chunk = list(enumerate(step.offers))[lo : lo + PER_SELECT]
            if not chunk:
                break
            options = [
                discord.SelectOption(label=o.label[:100] or "?", value=_token(o, place))
                for place, o in chunk
            ]
            hint = _("Choose… ({first}–{last} of {all})").format(
                first=lo + 1, last=lo + len(chunk), all=len(step.offers)
            )
            view.add_item(controls.turn_select(gid, ver, page * SELECTS + n, here, options, hint))
            rows = n + 1
        for target, label in ((page - 1, _("◀ Earlier")), (page + 1, _("Later ▶"))):
            if 0 <= target < pages:
                nav.append(
                    controls.turn(gid, ver, target, here, label, discord.ButtonStyle.secondary)
                )
    back = _back(gid, step)
    if back is not None:
        nav.append(controls.turn(gid, ver, 0, back, _("◀ Back"), discord.ButtonStyle.secondary))
        if back:
            nav.append(controls.turn(gid, ver, 0, "", _("✖ Cancel"), discord.ButtonStyle.secondary))
    for item in nav:  # a row of their own, under the offers
        item.row = min(rows, 4)
        view.add_item(item)
    return view


def _token(offer: Offer, place: int) -> str:
    """A select option's value: the offer's token, or its place when too long."""
    token = codec.token(offer.value)
    return token if len(token) <= codec.MAX_ID else f"@{place}"


def _chosen(path: str) -> tuple[str | None, list[Value | Nth]]:
    """The kind and values of a component's path.

    Raises:
        UserError: a path this version cannot read (an old button).
    """
    try:
        return codec.read_path(path)
    except (ValueError, UnicodeDecodeError):
        raise UserError(_("That button is not valid any more.")) from None


async def _step(
    bot: GameBot, interaction: discord.Interaction, gid: int, version: int, path: str
) -> Step:
    """The step at ``path`` of the clicker's panel.

    Raises:
        UserError: the game moved on, ended, or the clicker has nothing to decide (the
            service's reason).
    """
    kind, chosen = _chosen(path)
    try:
        return await bot.service.step_now(gid, interaction.user.id, version, kind, chosen)
    except ServiceError as exc:
        raise UserError(str(exc), gid) from None


async def show(
    bot: GameBot, interaction: discord.Interaction, gid: int, version: int, path: str, page: int
) -> None:
    """A click on a turn panel: show the step at ``path`` in place of the panel's."""
    step = await _step(bot, interaction, gid, version, path)
    content = with_step(head_of(interaction.message), step)
    view = step_view(bot.controls, gid, step, page)
    await Reply.of(interaction).edit_source(content=content, view=view)


async def confirm(
    bot: GameBot, interaction: discord.Interaction, gid: int, version: int, path: str
) -> None:
    """Confirm: the action at ``path`` goes to the service (which checks the prompt's
    version again); the panel shows what was done, and what comes next."""
    step = await _step(bot, interaction, gid, version, path)
    if not step.complete or step.kind is None:
        raise UserError(_("That button is not valid any more."), gid)
    out = await bot.service.act_with(
        gid, interaction.user.id, step.kind, dict(step.values), version=version
    )
    if not out.ok:
        raise UserError(out.error or _("That did not work."), gid)
    await bot.delivery.deliver(out, interaction, mode="panel", note=step.label)


class TurnButton(
    OfBot,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=TURN_ID.pattern,
):
    """A step of a turn panel: a kind, a value, Back, Cancel or a page."""

    def __init__(
        self,
        gid: int,
        version: int,
        page: int,
        path: str,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"ew:t:{gid}:{version}:{page}:{path}"
            )
        )
        self.gid, self.version, self.page, self.path = gid, version, page, path

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> TurnButton:
        button = button_of(item)
        return cls(
            int(match["gid"]),
            int(match["ver"]),
            int(match["page"]),
            match["path"],
            button.label or "?",
            button.style,
        )

    @guarded("update")
    async def callback(self, interaction: discord.Interaction) -> None:
        await show(self.bot, interaction, self.gid, self.version, self.path, self.page)


class TurnSelect(
    OfBot,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=SELECT_ID.pattern,
):
    """A long list of a turn panel's step (a kind or a value), one select of a page."""

    def __init__(
        self,
        gid: int,
        version: int,
        n: int,
        path: str,
        options: list[discord.SelectOption],
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"ew:ts:{gid}:{version}:{n}:{path}",
                options=options,
                placeholder=(placeholder or _("Choose…"))[:150],
                min_values=1,
                max_values=1,
            )
        )
        self.gid, self.version, self.path = gid, version, path

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> TurnSelect:
        select = select_of(item)
        return cls(
            int(match["gid"]),
            int(match["ver"]),
            int(match["n"]),
            match["path"],
            list(select.options),
        )

    @guarded("update")
    async def callback(self, interaction: discord.Interaction) -> None:
        picked = self.item.values[0]
        path = f"{self.path}.{picked}" if self.path else picked
        await show(self.bot, interaction, self.gid, self.version, path, 0)


class TurnConfirm(
    OfBot,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=CONFIRM_ID.pattern,
):
    """Confirm: the action a turn panel built."""

    def __init__(self, gid: int, version: int, path: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("✔ Confirm"),
                style=discord.ButtonStyle.success,
                custom_id=f"ew:tc:{gid}:{version}:{path}",
            )
        )
        self.gid, self.version, self.path = gid, version, path

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> TurnConfirm:
        return cls(int(match["gid"]), int(match["ver"]), match["path"])

    @guarded("update")
    async def callback(self, interaction: discord.Interaction) -> None:
        await confirm(self.bot, interaction, self.gid, self.version, self.path)
