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

from ..presentation import Typed, Unreadable
from . import describe as D
from .data import deck, game_map

ORDER_KEYS = {"general": "group", "to": "dest", "via": "via", "card": "pay"}
"""``order``'s keys and the parameters of the move they set."""
READ = frozenset({"order", "pass", "buy"})


def slug(text: str) -> str:
    """``text`` lower-cased, without spaces or punctuation."""
    return re.sub(r"[^0-9a-z]+", "", text.lower())


def _matches(text: str, label: str) -> bool:
    """Whether ``text`` names ``label``: the whole of it, a start, or a start of a word."""
    want = slug(text)
    if not want:
        return False
    if slug(label).startswith(want):
        return True
    return any(slug(w).startswith(want) for w in re.split(r"[\s,&()>/-]+", label) if w)


def _labels(view: Any, param: str, value: Any) -> str:
    """How a parameter value reads, for matching typed names."""
    if param == "pay":
        return "free move" if value == "free" else deck()[value].name if value in deck() else value
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
        raise Unreadable("You can give no move order now.")
    given: dict[str, str] = {}
    loose: list[str] = []
    for word in rest:
        key, sep, value = word.partition(":")
        if sep and key.lower() in ORDER_KEYS:
            given[ORDER_KEYS[key.lower()]] = value
        elif sep and key.lower() == "drop":
            raise Unreadable(
                "Drop units off after the order is given: drop UNIT PLACE (one unit each)."
            )
        elif sep:
            raise Unreadable(f"order takes general:, to:, via: and card:, not {key}:.")
        else:
            loose.append(word)
    for param, word in zip(("group", "dest", "pay"), loose, strict=False):
        given.setdefault(param, word)
    if len(loose) > 3:
        raise Unreadable("Say order general:LEADER to:PLACE [via:PLACE] [card:CARD|free].")
    fits = moves
    for param, text in given.items():
        fits = [a for a in fits if _matches(text, _labels(typed.view, param, getattr(a, param)))]
        if not fits:
            what = {"group": "general", "dest": "place", "via": "way", "pay": "payment"}[param]
            raise Unreadable(f"No order fits that {what} now: {text!r}.")
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
        raise Unreadable("Which general? Say general:NAME.")
    if len(dests) > 1:
        raise Unreadable("Where to? Say to:PLACE.")
    if len(pays) > 1:
        raise Unreadable("Which payment? Say card:free or card:CARD.")
    return fits[0]


def _pass(typed: Typed) -> Any:
    for kind in ("pass", "done"):
        found = [a for a in typed.choices if getattr(a, "kind", "") == kind]
        if found:
            return found[0]
    raise Unreadable("There is nothing to pass now.")


def _buy(rest: Sequence[str], typed: Typed) -> Any:
    buys = [a for a in typed.choices if getattr(a, "kind", "") == "buy"]
    drawn = list(getattr(typed.view, "drawn", None) or ())
    if not buys or not drawn:
        raise Unreadable("You have no drawn chit to buy now (EA-29).")
    if not rest:
        raise Unreadable("Say buy N [CITY]: N counts your drawn chits from 1.")
    if not rest[0].isdigit() or not 1 <= int(rest[0]) <= len(drawn):
        raise Unreadable(f"Say buy N with N from 1 to {len(drawn)} (your drawn chits).")
    chit = f"u{drawn[int(rest[0]) - 1].unit}"
    mine = [a for a in buys if getattr(a, "chit", "") == chit]
    if not mine:
        raise Unreadable("That chit cannot be bought now: too dear, or nowhere to place it.")
    if len(rest) == 1:
        if len({getattr(a, "at", "") for a in mine}) > 1:
            places = ", ".join(_labels(typed.view, "at", getattr(a, "at", "")) for a in mine)
            raise Unreadable(f"Where? buy {rest[0]} CITY, or a number: {places}.")
        return mine[0]
    place = " ".join(rest[1:])
    if place.isdigit():
        if not 1 <= int(place) <= len(mine):
            raise Unreadable(f"Choose a place from 1 to {len(mine)}.")
        return mine[int(place) - 1]
    fits = [a for a in mine if _matches(place, _labels(typed.view, "at", getattr(a, "at", "")))]
    if len(fits) != 1:
        raise Unreadable(
            f"{place!r} names {'no' if not fits else 'more than one'} place to buy in."
        )
    return fits[0]


class EaReader:
    """The :class:`~rules.presentation.LineReader` of Europe at War."""

    tagline = "chits, cards and 176 territories"

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
            "order general:G to:PLACE [via:P] [card:C|free]   a move order (EA-10)",
            "pass                        answer a window or a battle's exchange with nothing",
            "buy N [CITY|M]              buy your N-th drawn chit (EA-29)",
        ]

    def help_notes(self) -> list[str]:
        """How names may be typed."""
        return [
            'Names: any case, a unique start is enough (vienna, bohem, "upper austria"); '
            "a number answers any question by its place in the list."
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
            lines.append(f"{names[seat]}: {len(held)} territories, {view.treasury[seat]} RP.")
            for s in view.stacks:
                if s.seat == seat:
                    lines.append(f"  {m.name(s.space)}: {s.count} under {s.top}")
        free = len(m.territories) - len(view.control)
        lines.append(f"Neutral territories left: {free}.")
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
