"""Europe at War's look-up commands: ``/map region:``, ``/stack``, ``/treasury`` and
``/card name:``, answered privately from the asker's view (a spectator's for someone
not playing), so they show only what the asker may know: his own stacks in full, other
stacks as their top unit and count (both stacks of the battle under way in full).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import RulesError
from ..presentation import CommandOption, CommandSpec, OptionChoice, Shown
from . import describe as D
from .data import deck, game_map

REGIONS: tuple[tuple[str, str], ...] = (
    ("full", "The whole map"),
    ("british_isles", "British Isles"),
    ("iberia", "Iberia"),
    ("france", "France and the Low Countries"),
    ("germany", "Germany and the Alps"),
    ("italy", "Italy"),
    ("scandinavia", "Scandinavia and the Baltic"),
    ("poland_russia", "Poland and Russia"),
    ("balkans", "The Balkans and Anatolia"),
    ("north_africa", "North Africa"),
)
"""The map's frames ``/map`` offers (the images ``map_<id>``), the whole map first."""

TIMING_WORDS = {
    "combat": "in a battle",
    "own_turn": "in your own turn",
    "move_plan": "as an order of your move plan",
    "window_w1": "in window W1 (against another player's plan)",
    "window_w2": "in window W2 (after another player's moves)",
    "response": "as an answer to a card",
}

LOOKUPS = (
    CommandSpec(
        "map",
        "Show a region of the map (only you see it)",
        (),
        (
            CommandOption(
                "region",
                "Which part of the map (default: all of it)",
                ("region",),
                "word",
                required=False,
                choices=tuple(OptionChoice(rid, name, rid) for rid, name in REGIONS),
            ),
        ),
        lookup=True,
    ),
    CommandSpec(
        "stack",
        "Your stacks in full, or every stack in one place (only you see it)",
        (),
        (CommandOption("at", "A territory or sea zone", ("at",), "word", required=False),),
        lookup=True,
    ),
    CommandSpec("treasury", "Every player's money and deposits", (), lookup=True),
    CommandSpec(
        "card",
        "A card's text and when it is played",
        (),
        (CommandOption("name", "The card's name (a start is enough)", ("name",), "word"),),
        lookup=True,
    ),
)


def _slug(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", text.lower())


def _find(text: str, named: Mapping[str, str], what: str) -> str:
    """The id among ``named`` (id -> name) that ``text`` names: the id or the whole
    name, else the one name starting so (or with a word starting so).

    Raises:
        RulesError: none or several match.
    """
    want = _slug(text)
    if not want:
        raise RulesError(f"Name a {what}.")
    exact = [i for i, n in named.items() if want in (_slug(i), _slug(n))]
    if len(exact) == 1:
        return exact[0]
    starts = [i for i, n in named.items() if _slug(n).startswith(want)]
    if not starts:
        starts = [
            i
            for i, n in named.items()
            if any(_slug(w).startswith(want) for w in re.split(r"[\s,&()/-]+", n) if w)
        ]
    if len(starts) == 1:
        return starts[0]
    if not starts:
        raise RulesError(f"There is no {what} called {text!r}.")
    some = ", ".join(sorted(named[i] for i in starts)[:5])
    raise RulesError(f"{text!r} could be several: {some}{', …' if len(starts) > 5 else ''}.")


def _units(stack: Any) -> str:
    if stack.units is None:
        return f"{stack.count} units under {stack.top}"
    counts: dict[str, int] = {}
    for u in stack.units:
        name = u.name + (f" (+{u.rep})" if u.rep else "")
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{n} {name}" if n > 1 else name for name, n in counts.items())


def _stacks(typed: Mapping[str, str], view: Any, names: Sequence[str]) -> list[str]:
    m = game_map(bool(view.compact))
    at = typed.get("at", "").strip()
    if at:
        spaces = {
            **{t: x.name for t, x in m.territories.items()},
            **{s: x.name for s, x in m.seas.items()},
        }
        space = _find(at, spaces, "territory or sea zone")
        here = [s for s in view.stacks if s.space == space]
        holder = view.control.get(space)
        head = m.name(space) + (f" (held by {names[holder]})" if holder is not None else "")
        if not here:
            return [f"{head}: no units."]
        return [f"{head}:"] + [f"{names[s.seat]}: {_units(s)}" for s in here]
    if view.viewer is None:
        return ["You have no stacks here: /stack at:PLACE shows the stacks in a place."]
    mine = [s for s in view.stacks if s.seat == view.viewer]
    if not mine:
        return ["You have no units on the board."]
    return ["Your stacks:"] + [f"{m.name(s.space)}: {_units(s)}" for s in mine]


def _treasury(view: Any, names: Sequence[str]) -> list[str]:
    m = game_map(bool(view.compact))
    lines = []
    for seat, nation in enumerate(view.nations):
        kept = [
            f"{m.name(t)} {amount}"
            for t, amount in sorted(view.deposits.items())
            if amount and view.control.get(t) == seat
        ]
        revenue = sum(m.territories[t].revenue for t, s in view.control.items() if s == seat)
        where = f"; deposits: {', '.join(kept)}" if kept else ""
        lines.append(
            f"{names[seat]} ({D.NATION_NAMES.get(nation, nation)}): {view.treasury[seat]} RP"
            f"{where}; territories worth {revenue} RP a turn."
        )
    return lines


def _card(typed: Mapping[str, str]) -> list[str]:
    cards = deck()
    found = cards[_find(typed.get("name", ""), {c.id: c.name for c in cards.values()}, "card")]
    when = TIMING_WORDS.get(found.timing, found.timing)
    where = ", ".join(sorted(found.contexts))
    return [
        f"**{found.name}** (card {found.n}): {found.text}",
        f"Played {when}" + (f"; in: {where}." if where else "."),
    ]


def look_up(command: str, typed: Mapping[str, str], view: Any, names: Sequence[str]) -> Shown:
    """What look-up ``command`` shows the viewer of ``view`` (see the module).

    Raises:
        RulesError: an unknown look-up, or an option naming nothing.
    """
    if command == "map":
        region = typed.get("region", "full").strip().lower() or "full"
        ids = dict(REGIONS)
        if region not in ids:
            region = _find(region, ids, "region")
        return Shown((f"The map: {ids[region]}.",), f"map_{region}")
    if command == "stack":
        return Shown(tuple(_stacks(typed, view, names)))
    if command == "treasury":
        return Shown(tuple(_treasury(view, names)))
    if command == "card":
        return Shown(tuple(_card(typed)))
    raise RulesError(f"Europe at War has no /{command}.")
