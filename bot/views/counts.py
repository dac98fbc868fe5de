"""The counts panel: a decision a game answers with a count per type (a battle's
casualties, chits to buy, units to disband, RP per city: its presentation's ``tally``),
with − and + for each type (a toggle each, when every type counts at most one), the
running total against the game's bound, a select of the place the choices go when the
game names places, and Confirm. It starts at the game's suggestion, so a player who
agrees confirms in one click; *Suggested* goes back to it. Made from
:mod:`service.tally`, so every game has it.

Its components carry the game, the prompt's version, the page, the counts so far and
the place, so a panel keeps working after a restart; −, +, a toggle and the place are
acknowledged on entry as an update of the panel and answered by editing it (the words
above the counts are kept). Confirm takes the counted choices (and the game's finishing
action) through the service, which refuses a total the bound does not allow, an
out-of-date panel, or anything the game refuses (in the game's words), with a short
private reason and nothing changed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from rules.presentation import Tally
from service import Counts, ServiceError, shortfall, upper_first

from ..catalogue import _
from ..errors import UserError, guarded
from ..reply import Reply
from .bound import OfBot, button_of, select_of
from .turn import STEP_MARK, head_of

if TYPE_CHECKING:
    from ..client import GameBot
    from .controls import Controls

ROWS = 4
"""Rows for the types and the places' selects; the fifth holds Confirm, *Suggested* and
the pages."""
PER_ROW = 5
"""Toggles in one row."""
PER_SELECT = 25
COUNTS = r"(?:\d+(?:\.\d+)*|\*[0-9a-z~]*)?"
"""Counts in a custom id: dotted numbers, or (``*``) a base-36 digit each with a run
of zeros as ``~`` and its length (a panel of many types stays within 100 characters)."""
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
PLACE = r"(?:@(?P<place>\d+))?"
COUNT_ID = re.compile(
    r"ew:n:(?P<gid>\d+):(?P<ver>\d+):(?P<page>\d+):(?P<counts>" + COUNTS + ")" + PLACE
)
"""−, + or a toggle, *Suggested* (no counts: the suggestion) or a page: the panel at
those counts (and place)."""
PLACE_ID = re.compile(r"ew:np:(?P<gid>\d+):(?P<ver>\d+):(?P<n>\d+):(?P<counts>" + COUNTS + ")")
"""A select of the places (its options: their indices): the panel at that place."""
CONFIRM_ID = re.compile(
    r"ew:nc:(?P<gid>\d+):(?P<ver>\d+):(?P<counts>" + COUNTS + ")" + PLACE + "(?P<more>!)?"
)
"""Confirm the counts (``!``: without the game's finishing action, more to come)."""


def write(counts: Sequence[int]) -> str:
    """Counts as a custom id carries them: a base-36 digit each (runs of three or more
    zeros shortened), or dotted numbers when one is too large for a digit."""
    if any(n >= len(DIGITS) for n in counts):
        return ".".join(str(n) for n in counts)
    if not counts:
        return ""
    text = "".join(DIGITS[n] for n in counts)
    return "*" + re.sub(r"0{3,35}", lambda m: "~" + DIGITS[len(m.group())], text)


def read(text: str) -> tuple[int, ...] | None:
    """Counts from a custom id (empty: ``None``, the suggestion).

    Raises:
        ValueError: text no panel writes.
    """
    if not text:
        return None
    if not text.startswith("*"):
        return tuple(int(n) for n in text.split("."))
    out: list[int] = []
    rest = iter(text[1:])
    for c in rest:
        if c == "~":
            out += [0] * DIGITS.index(next(rest, "?"))
        else:
            out.append(DIGITS.index(c))
    return tuple(out)


def count_line(counts: Counts) -> str:
    """The panel's last line: the running total against the bound, each type counted,
    the place, and what is wrong."""
    tally = counts.tally
    if tally.bound == "at most":
        line = _("{what}: **{chosen}** of at most {total}")
    elif tally.bound == "at least":
        line = _("{what}: **{chosen}**, at least {total}")
    else:
        line = _("{what}: **{chosen} of {total}**")
    line = line.format(what=upper_first(tally.noun), chosen=counts.chosen, total=tally.total)
    each = ", ".join(
        f"{g.label} {n}" if len(g.at(counts.place)) > 1 or g.whole else g.label
        for g, n in zip(tally.groups, counts.counts, strict=True)
        if n
    )
    line = STEP_MARK + line + (f" — {each}" if each else "")
    if tally.places:
        line += " · " + _("{place_word}: **{place}**").format(
            place_word=upper_first(tally.place_word), place=tally.places[counts.place]
        )
    return line + ("" if shortfall(counts) is None else " " + _("(adjust the counts)"))


def with_counts(head: str, counts: Counts) -> str:
    """``head`` (the prompt, the hand…) with the counts line under it."""
    return f"{head}\n{count_line(counts)}" if head else count_line(counts)


def layout(tally: Tally) -> tuple[bool, int]:
    """How a counts panel of ``tally`` shows its types: as toggles (every type counts at
    most one, wherever it goes) or with − and +, and how many on one page."""
    groups = tally.groups
    toggles = bool(groups) and all(
        not g.whole and len(g.at(p)) <= 1 for g in groups for p in range(max(1, len(tally.places)))
    )
    rows = ROWS - min(ROWS - 1, -(-len(tally.places) // PER_SELECT))
    return toggles, rows * PER_ROW if toggles else rows


def counts_view(controls: Controls, gid: int, counts: Counts, page: int = 0) -> discord.ui.View:
    """The components of a counts panel at ``counts``: − / count / + for the types of
    ``page`` (or a toggle each), the places' select, then Confirm, *Suggested* and the
    pages."""
    view = discord.ui.View(timeout=None)
    tally, ver, now, place = counts.tally, counts.version, counts.counts, counts.place
    groups = tally.groups
    selects = min(ROWS - 1, -(-len(tally.places) // PER_SELECT))
    toggles, per_page = layout(tally)
    pages = max(1, -(-len(groups) // per_page))
    page = max(0, min(page, pages - 1))
    here = range(page * per_page, min(len(groups), (page + 1) * per_page))
    for i in here:
        group, n = groups[i], now[i]
        row = (i - here.start) // PER_ROW if toggles else i - here.start
        if toggles:
            flipped = list(now)
            flipped[i] = 1 - n
            if counts.limit(i) or n:
                mark = "☑" if n else "☐"
                style = discord.ButtonStyle.success if n else discord.ButtonStyle.secondary
                toggle = controls.count(
                    gid, ver, page, write(flipped), f"{mark} {group.label}", style, place
                )
                toggle.row = row
                view.add_item(toggle)
            else:  # it cannot go to this place
                view.add_item(_still(f"ew:nx:{gid}:{ver}:t:{i}", f"☐ {group.label}", row))
            continue
        for delta, sign in ((-1, "−"), (1, "+")):
            moved = list(now)
            moved[i] = n + delta
            allowed = 0 <= n + delta <= counts.limit(i)
            button: discord.ui.Item[Any] = (
                controls.count(gid, ver, page, write(moved), sign, place=place)
                if allowed
                else _still(f"ew:nx:{gid}:{ver}:{sign == '+':d}:{i}", sign)
            )
            button.row = row
            if delta == 1:
                view.add_item(_still(f"ew:nl:{gid}:{ver}:{i}", f"{group.label}: {n}", row))
            view.add_item(button)
    shown = -(-len(here) // PER_ROW) if toggles else len(here)
    for k in range(selects):
        chunk = list(enumerate(tally.places))[k * PER_SELECT : (k + 1) * PER_SELECT]
        options = [
            discord.SelectOption(label=label[:100] or "?", value=str(p), default=p == place)
            for p, label in chunk
        ]
        hint = upper_first(tally.place_word) or "…"
        select = controls.count_place(gid, ver, k, write(now), options, hint)
        select.row = shown
        shown += 1
        view.add_item(select)
    tail: list[discord.ui.Item[Any]] = [controls.count_confirm(gid, ver, write(now), place)]
    if tally.finish is not None and tally.places:
        tail.append(controls.count_confirm(gid, ver, write(now), place, more=True))
    tail.append(controls.count(gid, ver, page, "", _("↺ Suggested"), discord.ButtonStyle.secondary))
    for target, label in ((page - 1, "◀"), (page + 1, "▶")):
        if 0 <= target < pages:
            tail.append(
                controls.count(
                    gid, ver, target, write(now), label, discord.ButtonStyle.secondary, place
                )
            )
    for item in tail:
        item.row = shown  # a row of their own, under the types
        view.add_item(item)
    return view


def _still(custom_id: str, label: str, row: int | None = None) -> discord.ui.Button[Any]:
    """A button that only shows something (a count, or − / + at its limit)."""
    return discord.ui.Button(
        label=label[:80],
        style=discord.ButtonStyle.secondary,
        custom_id=custom_id,
        disabled=True,
        row=row,
    )


async def _counts(
    bot: GameBot,
    interaction: discord.Interaction,
    gid: int,
    version: int,
    text: str,
    place: str | None = None,
    *,
    moved: bool = False,
) -> Counts:
    """The clicker's counts panel at the counts ``text`` (and ``place``) of a component
    (``moved``: the place was just chosen, so counts it cannot take are dropped).

    Raises:
        UserError: the game moved on, ended, or the clicker has nothing to decide.
    """
    try:
        at = int(place) if place else None
        return await bot.service.counts_now(
            gid, interaction.user.id, version, read(text), at, fit=moved
        )
    except ValueError:
        raise UserError(_("That button is not valid any more."), gid) from None
    except ServiceError as exc:
        raise UserError(str(exc), gid) from None


class CountButton(
    OfBot,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=COUNT_ID.pattern,
):
    """−, + or a toggle of a type, *Suggested*, or a page of a counts panel."""

    def __init__(
        self,
        gid: int,
        version: int,
        page: int,
        counts: str,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
        place: int | None = None,
    ) -> None:
        at = f"@{place}" if place else ""
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=style,
                custom_id=f"ew:n:{gid}:{version}:{page}:{counts}{at}",
            )
        )
        self.gid, self.version, self.page, self.counts = gid, version, page, counts
        self.place = str(place) if place else None

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> CountButton:
        button = button_of(item)
        place = match["place"]
        return cls(
            int(match["gid"]),
            int(match["ver"]),
            int(match["page"]),
            match["counts"],
            button.label or "?",
            button.style,
            int(place) if place else None,
        )

    @guarded("update")
    async def callback(self, interaction: discord.Interaction) -> None:
        place = None if not self.counts else self.place or "0"
        counts = await _counts(self.bot, interaction, self.gid, self.version, self.counts, place)
        await _show(self.bot, interaction, self.gid, counts, self.page)


async def _show(
    bot: GameBot, interaction: discord.Interaction, gid: int, counts: Counts, page: int
) -> None:
    """Show ``counts`` in place of the panel's."""
    content = with_counts(head_of(interaction.message), counts)
    view = counts_view(bot.controls, gid, counts, page)
    await Reply.of(interaction).edit_source(content=content, view=view)


class CountPlace(
    OfBot,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=PLACE_ID.pattern,
):
    """Where a counts panel's choices go: one select of the game's places."""

    def __init__(
        self,
        gid: int,
        version: int,
        n: int,
        counts: str,
        options: list[discord.SelectOption],
        placeholder: str = "?",
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"ew:np:{gid}:{version}:{n}:{counts}",
                options=options,
                placeholder=placeholder[:150],
                min_values=1,
                max_values=1,
            )
        )
        self.gid, self.version, self.counts = gid, version, counts

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> CountPlace:
        select = select_of(item)
        return cls(
            int(match["gid"]),
            int(match["ver"]),
            int(match["n"]),
            match["counts"],
            list(select.options),
        )

    @guarded("update")
    async def callback(self, interaction: discord.Interaction) -> None:
        picked = self.item.values[0] if self.item.values else ""
        if not picked.isdigit():
            raise UserError(_("That button is not valid any more."), self.gid)
        counts = await _counts(
            self.bot, interaction, self.gid, self.version, self.counts, picked, moved=True
        )
        await _show(self.bot, interaction, self.gid, counts, 0)


class CountConfirm(
    OfBot,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=CONFIRM_ID.pattern,
):
    """Confirm: the choices a counts panel counted (and the game's finishing action,
    unless more are to come)."""

    def __init__(
        self, gid: int, version: int, counts: str, place: int | None = None, more: bool = False
    ) -> None:
        at = f"@{place}" if place else ""
        super().__init__(
            discord.ui.Button(
                label=_("✔ Confirm, then more") if more else _("✔ Confirm"),
                style=discord.ButtonStyle.primary if more else discord.ButtonStyle.success,
                custom_id=f"ew:nc:{gid}:{version}:{counts}{at}{'!' if more else ''}",
            )
        )
        self.gid, self.version, self.counts = gid, version, counts
        self.place, self.more = place, more

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> CountConfirm:
        place = match["place"]
        return cls(
            int(match["gid"]),
            int(match["ver"]),
            match["counts"],
            int(place) if place else None,
            bool(match["more"]),
        )

    @guarded("update")
    async def callback(self, interaction: discord.Interaction) -> None:
        bot, gid = self.bot, self.gid
        place = str(self.place or 0) if self.counts else None
        counts = await _counts(bot, interaction, gid, self.version, self.counts, place)
        out = await bot.service.act_counts(
            gid,
            interaction.user.id,
            self.version,
            counts.counts,
            counts.place,
            finish=not self.more,
        )
        if not out.ok:
            raise UserError(out.error or _("That did not work."), gid)
        note = count_line(counts).removeprefix(STEP_MARK)
        await bot.delivery.deliver(out, interaction, mode="panel", note=note)
