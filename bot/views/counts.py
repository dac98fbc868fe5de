"""The counts panel: a decision a game answers with a count per type (a battle's
casualties, its presentation's ``tally``), with − and + for each type, the running total
and Confirm. It starts at the game's suggestion, so a player who agrees confirms in one
click; *Suggested* goes back to it. Made from :mod:`service.tally`, so every game has it.

Its components carry the game, the prompt's version, the page and the counts so far, so
a panel keeps working after a restart; − and + are acknowledged on entry as an update of
the panel and answered by editing it (the words above the counts are kept). Confirm
takes the counted choices through the service, which refuses a total other than the one
asked, or an out-of-date panel, with a short private reason and nothing changed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from service import Counts, ServiceError, shortfall

from ..catalogue import _
from ..errors import UserError, guarded
from ..reply import Reply
from .bound import OfBot, button_of
from .turn import STEP_MARK, head_of

if TYPE_CHECKING:
    from ..client import GameBot
    from .controls import Controls

PER_PAGE = 4
"""Types on one page (a row each: −, the count, +); the fifth row holds Confirm,
*Suggested* and the pages."""
COUNTS = r"(?:\d+(?:\.\d+)*)?"
COUNT_ID = re.compile(r"ew:n:(?P<gid>\d+):(?P<ver>\d+):(?P<page>\d+):(?P<counts>" + COUNTS + ")")
"""− or +, *Suggested* (no counts: the suggestion) or a page: the panel at those counts."""
CONFIRM_ID = re.compile(r"ew:nc:(?P<gid>\d+):(?P<ver>\d+):(?P<counts>" + COUNTS + ")")
"""Confirm the counts."""


def write(counts: Sequence[int]) -> str:
    """Counts as a custom id carries them."""
    return ".".join(str(n) for n in counts)


def read(text: str) -> tuple[int, ...] | None:
    """Counts from a custom id (empty: ``None``, the suggestion)."""
    return tuple(int(n) for n in text.split(".")) if text else None


def count_line(counts: Counts) -> str:
    """The panel's last line: the running total, each type counted, and what is wrong."""
    tally = counts.tally
    each = ", ".join(
        f"{g.label} {n}" for g, n in zip(tally.groups, counts.counts, strict=True) if n
    )
    noun = tally.noun.capitalize()
    if each and shortfall(counts) is not None:
        line = _("{what}: **{chosen} of {total}** — {each} (adjust with − and +)")
    elif each:
        line = _("{what}: **{chosen} of {total}** — {each}")
    elif shortfall(counts) is not None:
        line = _("{what}: **{chosen} of {total}** (adjust with − and +)")
    else:
        line = _("{what}: **{chosen} of {total}**")
    return STEP_MARK + line.format(what=noun, chosen=counts.chosen, total=tally.total, each=each)


def with_counts(head: str, counts: Counts) -> str:
    """``head`` (the prompt, the hand…) with the counts line under it."""
    return f"{head}\n{count_line(counts)}" if head else count_line(counts)


def counts_view(controls: Controls, gid: int, counts: Counts, page: int = 0) -> discord.ui.View:
    """The components of a counts panel at ``counts``: − / count / + for the types of
    ``page``, then Confirm, *Suggested* and the pages."""
    view = discord.ui.View(timeout=None)
    ver, now, groups = counts.version, counts.counts, counts.tally.groups
    pages = max(1, -(-len(groups) // PER_PAGE))
    page = max(0, min(page, pages - 1))
    for row, i in enumerate(range(page * PER_PAGE, min(len(groups), (page + 1) * PER_PAGE))):
        group, n = groups[i], now[i]
        for delta, sign in ((-1, "−"), (1, "+")):
            moved = list(now)
            moved[i] = n + delta
            allowed = 0 <= n + delta <= len(group.actions)
            button = (
                controls.count(gid, ver, page, write(moved), sign)
                if allowed
                else _still(f"ew:nx:{gid}:{ver}:{sign == '+':d}:{i}", sign)
            )
            button.row = row
            if delta == 1:
                view.add_item(_still(f"ew:nl:{gid}:{ver}:{i}", f"{group.label}: {n}", row))
            view.add_item(button)
    shown = len(range(page * PER_PAGE, min(len(groups), (page + 1) * PER_PAGE)))
    tail: list[discord.ui.Item[Any]] = [controls.count_confirm(gid, ver, write(now))]
    tail.append(controls.count(gid, ver, page, "", _("↺ Suggested"), discord.ButtonStyle.secondary))
    for target, label in ((page - 1, "◀"), (page + 1, "▶")):
        if 0 <= target < pages:
            tail.append(
                controls.count(gid, ver, target, write(now), label, discord.ButtonStyle.secondary)
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
    bot: GameBot, interaction: discord.Interaction, gid: int, version: int, text: str
) -> Counts:
    """The clicker's counts panel at the counts ``text`` of a component.

    Raises:
        UserError: the game moved on, ended, or the clicker has nothing to decide.
    """
    try:
        return await bot.service.counts_now(gid, interaction.user.id, version, read(text))
    except ValueError:
        raise UserError(_("That button is not valid any more."), gid) from None
    except ServiceError as exc:
        raise UserError(str(exc), gid) from None


class CountButton(
    OfBot,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=COUNT_ID.pattern,
):
    """− or + of a type, *Suggested*, or a page of a counts panel."""

    def __init__(
        self,
        gid: int,
        version: int,
        page: int,
        counts: str,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"ew:n:{gid}:{version}:{page}:{counts}"
            )
        )
        self.gid, self.version, self.page, self.counts = gid, version, page, counts

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> CountButton:
        button = button_of(item)
        return cls(
            int(match["gid"]),
            int(match["ver"]),
            int(match["page"]),
            match["counts"],
            button.label or "?",
            button.style,
        )

    @guarded("update")
    async def callback(self, interaction: discord.Interaction) -> None:
        counts = await _counts(self.bot, interaction, self.gid, self.version, self.counts)
        content = with_counts(head_of(interaction.message), counts)
        view = counts_view(self.bot.controls, self.gid, counts, self.page)
        await Reply.of(interaction).edit_source(content=content, view=view)


class CountConfirm(
    OfBot,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=CONFIRM_ID.pattern,
):
    """Confirm: the choices a counts panel counted."""

    def __init__(self, gid: int, version: int, counts: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("✔ Confirm"),
                style=discord.ButtonStyle.success,
                custom_id=f"ew:nc:{gid}:{version}:{counts}",
            )
        )
        self.gid, self.version, self.counts = gid, version, counts

    @classmethod
    def from_match(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> CountConfirm:
        return cls(int(match["gid"]), int(match["ver"]), match["counts"])

    @guarded("update")
    async def callback(self, interaction: discord.Interaction) -> None:
        bot, gid = self.bot, self.gid
        counts = await _counts(bot, interaction, gid, self.version, self.counts)
        out = await bot.service.act_counts(gid, interaction.user.id, self.version, counts.counts)
        if not out.ok:
            raise UserError(out.error or _("That did not work."), gid)
        note = count_line(counts).removeprefix(STEP_MARK)
        await bot.delivery.deliver(out, interaction, mode="panel", note=note)
