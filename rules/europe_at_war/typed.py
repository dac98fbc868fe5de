"""Europe at War typed at a keyboard: its :class:`~rules.presentation.LineReader`.

Names are forgiving: any case, spaces and punctuation ignored, and a unique start of a
name (or of one of its words) is enough, among what the open decision allows: ``order
general:blucher to:berlin card:free``, or the same without the keys (``order general
berlin``, the way and the payment taken when only one fits, the free move first);
``pass`` answers a window or a battle's exchange (or finishes the step); ``buy 1 3``
buys the first drawn chit and places it in the third city offered (``buy 1 vienna``).
The board and the hand as text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rules import i18n

from ..presentation import Typed, Unreadable
from . import describe as D
from .catalogue import N_, _, n_
from .data import game_map

ORDER_KEYS = {"general": "group", "to": "dest", "via": "via", "card": "pay"}
"""``order``'s keys and the parameters of the move they set."""
READ = frozenset({"order", "pass", "buy"})
NO_FIT = {
    "group": N_("No order fits that general now: {text}."),
    "dest": N_("No order fits that place now: {text}."),
    "via": N_("No order fits that way now: {text}."),
    "pay": N_("No order fits that payment now: {text}."),
}
"""The refusal when a typed name fits no legal move, by the parameter it names."""


def slug(text: str) -> str:
    """``text`` lower-cased, without spaces or punctuation."""
    return re.sub(r"[^0-9a-z]+", "", text.lower())


def _matches(text: str, labels: Sequence[str]) -> bool:
    """Whether ``text`` names one of ``labels``: the whole of it, a start, or a start of a
    word."""
    want = slug(text)
    if not want:
        return False
    for label in labels:
        if slug(label).startswith(want):
            return True
        if any(slug(w).startswith(want) for w in re.split(r"[\s,&()>/-]+", label) if w):
            return True
    return False


def _labels(view: Any, param: str, value: Any) -> tuple[str, str]:
    """How a parameter value reads, for matching typed names: in the current language
    and in English."""
    here = _label(view, param, value)
    with i18n.use(i18n.DEFAULT):
        return here, _label(view, param, value)


def _label(view: Any, param: str, value: Any) -> str:
    """How a parameter value reads in the current language."""
    if param == "pay":
        return _("free move") if value == "free" else D.card_name(value)
    if param == "group":
        return D.group_label(value, view)
    if param in ("dest", "at"):
        return game_map(bool(view.compact)).name(value)
    if param == "via":
        space = game_map(bool(view.compact)).name
        return " > ".join(space(s) for s in str(value).split(">"))
    if param == "chit":
        return D.unit_label(value, view)
    return str(value)


def _order(rest: Sequence[str], typed: Typed) -> Any:
    moves = [a for a in typed.choices if getattr(a, "kind", "") == "move"]
    if not moves:
        raise Unreadable(_("You can give no move order now."))
    given: dict[str, str] = {}
    loose: list[str] = []
    for word in rest:
        key, sep, value = word.partition(":")
        if sep and key.lower() in ORDER_KEYS:
            given[ORDER_KEYS[key.lower()]] = value
        elif sep and key.lower() == "drop":
            raise Unreadable(
                _("Drop units off after the order is given: drop UNIT PLACE (one unit each).")
            )
        elif sep:
            raise Unreadable(
                _("order takes general:, to:, via: and card:, not {key}:.").format(key=key)
            )
        else:
            loose.append(word)
    for param, word in zip(("group", "dest", "pay"), loose, strict=False):
        given.setdefault(param, word)
    if len(loose) > 3:
        raise Unreadable(_("Say order general:LEADER to:PLACE [via:PLACE] [card:CARD|free]."))
    fits = moves
    for param, text in given.items():
        fits = [a for a in fits if _matches(text, _labels(typed.view, param, getattr(a, param)))]
        if not fits:
            raise Unreadable(_(NO_FIT[param]).format(text=repr(text)))
    if "pay" not in given:
        free = [a for a in fits if getattr(a, "pay", "") == "free"]
        fits = free or fits
    if "via" not in given:
        short = min(len(str(getattr(a, "via", "")).split(">")) for a in fits)
        fits = [a for a in fits if len(str(getattr(a, "via", "")).split(">")) == short]
    groups = {getattr(a, "group", "") for a in fits}
    dests = {getattr(a, "dest", "") for a in fits}
    pays = {getattr(a, "pay", "") for a in fits}
    if len(groups) > 1:
        raise Unreadable(_("Which general? Say general:NAME."))
    if len(dests) > 1:
        raise Unreadable(_("Where to? Say to:PLACE."))
    if len(pays) > 1:
        raise Unreadable(_("Which payment? Say card:free or card:CARD."))
    return fits[0]


def _pass(typed: Typed) -> Any:
    for kind in ("pass", "done"):
        found = [a for a in typed.choices if getattr(a, "kind", "") == kind]
        if found:
            return found[0]
    raise Unreadable(_("There is nothing to pass now."))


def _buy(rest: Sequence[str], typed: Typed) -> Any:
    buys = [a for a in typed.choices if getattr(a, "kind", "") == "buy"]
    drawn = list(getattr(typed.view, "drawn", None) or ())
    if not buys or not drawn:
        raise Unreadable(_("You have no drawn chit to buy now (EA-29)."))
    if not rest:
        raise Unreadable(_("Say buy N [CITY]: N counts your drawn chits from 1."))
    if not rest[0].isdigit() or not 1 <= int(rest[0]) <= len(drawn):
        raise Unreadable(
            _("Say buy N with N from 1 to {n} (your drawn chits).").format(n=len(drawn))
        )
    chit = f"u{drawn[int(rest[0]) - 1].unit}"
    mine = [a for a in buys if getattr(a, "chit", "") == chit]
    if not mine:
        raise Unreadable(_("That chit cannot be bought now: too dear, or nowhere to place it."))
    if len(rest) == 1:
        if len({getattr(a, "at", "") for a in mine}) > 1:
            places = ", ".join(_label(typed.view, "at", getattr(a, "at", "")) for a in mine)
            raise Unreadable(
                _("Where? buy {n} CITY, or a number: {places}.").format(n=rest[0], places=places)
            )
        return mine[0]
    place = " ".join(rest[1:])
    if place.isdigit():
        if not 1 <= int(place) <= len(mine):
            raise Unreadable(_("Choose a place from 1 to {n}.").format(n=len(mine)))
        return mine[int(place) - 1]
    fits = [a for a in mine if _matches(place, _labels(typed.view, "at", getattr(a, "at", "")))]
    if len(fits) != 1:
        if not fits:
            raise Unreadable(_("{place} names no place to buy in.").format(place=repr(place)))
        raise Unreadable(
            _("{place} names more than one place to buy in.").format(place=repr(place))
        )
    return fits[0]


class EaReader:
    """The :class:`~rules.presentation.LineReader` of Europe at War."""

    @property
    def tagline(self) -> str:
        """The game in a few words, in the current language."""
        return _("chits, cards and 176 territories")

    def words(self) -> Mapping[str, tuple[str, ...]]:
        """``pass`` answers a window or a battle (``p``)."""
        return {"pass": ("p",)}

    def refusal(self, word: str) -> str | None:
        """No words of its own beyond the commands."""
        return None

    def read(self, word: str, rest: Sequence[str], typed: Typed) -> Any | None:
        """``order``, ``pass`` and ``buy`` with forgiving names (see the module); the
        other turn commands are read from the spec."""
        if word == "order":
            return _order(rest, typed)
        if word == "pass":
            return _pass(typed)
        if word == "buy":
            return _buy(rest, typed)
        return None

    def completions(self, word: str, typed: Typed) -> list[str] | None:
        """The keys after ``order``."""
        if word == "order":
            return [f"{k}:" for k in ORDER_KEYS]
        return None

    def help_lines(self) -> list[str]:
        """The forgiving forms read here."""
        return [
            "order general:G to:PLACE [via:P] [card:C|free]   " + _("a move order (EA-10)"),
            "pass                        "
            + _("answer a window or a battle's exchange with nothing"),
            "buy N [CITY|M]              " + _("buy your N-th drawn chit (EA-29)"),
        ]

    def help_notes(self) -> list[str]:
        """How names may be typed."""
        return [
            _(
                'Names: any case, a unique start is enough (vienna, bohem, "upper austria"); '
                "a number answers any question by its place in the list."
            )
        ]

    def prompt_lines(
        self, kind: str, text: str, view: Any, names: Sequence[str], seat: int, hand_due: bool
    ) -> list[str]:
        """The question, then the hand when it changed."""
        from .words import EaWords

        lines = [text]
        if hand_due:
            lines += EaWords().private_lines(view, names)
        return lines

    def numbers(self, kind: str, view: Any, choices: Sequence[Any]) -> list[int]:
        """Every answer by its place in the prompt (each decision lists its answers in
        one fixed order)."""
        return list(range(1, len(choices) + 1))

    def board_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """Each player's territories and stacks, then the neutral land left."""
        m = game_map(bool(view.compact))
        lines = []
        for seat, _nation in enumerate(view.nations):
            held = sorted(m.name(t) for t, s in view.control.items() if s == seat)
            lines.append(
                n_(
                    "{who}: {n} territory, {money} RP.",
                    "{who}: {n} territories, {money} RP.",
                    len(held),
                ).format(who=names[seat], n=len(held), money=view.treasury[seat])
            )
            for s in view.stacks:
                if s.seat == seat:
                    under = _("{n} under {top}").format(n=s.count, top=D.unit_word(s.top))
                    lines.append(f"  {m.name(s.space)}: {under}")
        free = len(m.territories) - len(view.control)
        lines.append(_("Neutral territories left: {n}.").format(n=free))
        return lines

    def hand_lines(self, view: Any, names: Sequence[str]) -> list[str]:
        """The hand grouped by when it is played, drawn chits and what the seat knows."""
        from .words import EaWords

        return EaWords().private_lines(view, names)

    def confirm(self, action: Any, view: Any, seat: int) -> str | None:
        """Nothing to confirm."""
        return None

    def note(self, action: Any, typed: Typed) -> str | None:
        """No surprises to point out."""
        return None


READER = EaReader()
