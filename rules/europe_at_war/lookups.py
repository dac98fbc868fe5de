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
from .catalogue import N_, _, n_
from .data import deck, game_map

REGIONS: tuple[tuple[str, str], ...] = (
    ("full", N_("The whole map")),
    ("british_isles", N_("British Isles")),
    ("iberia", N_("Iberia")),
    ("france", N_("France and the Low Countries")),
    ("germany", N_("Germany and the Alps")),
    ("italy", N_("Italy")),
    ("scandinavia", N_("Scandinavia and the Baltic")),
    ("poland_russia", N_("Poland and Russia")),
    ("balkans", N_("The Balkans and Anatolia")),
    ("north_africa", N_("North Africa")),
)
"""The map's frames ``/map`` offers (the images ``map_<id>``), the whole map first, named
in English (translated where shown)."""

TIMING_WORDS = {
    "combat": N_("Played in a battle"),
    "own_turn": N_("Played in your own turn"),
    "move_plan": N_("Played as an order of your move plan"),
    "window_w1": N_("Played in window W1 (against another player's plan)"),
    "window_w2": N_("Played in window W2 (after another player's moves)"),
    "response": N_("Played as an answer to a card"),
}
"""When a card is played, in English (translated where shown)."""
CONTEXT_WORDS = {"battle": N_("battle"), "siege": N_("siege"), "sea": N_("sea")}
"""The kinds of battle a battle card is played in."""


def lookup_commands() -> tuple[CommandSpec, ...]:
    """The look-ups, described in the current language."""
    return (
        CommandSpec(
            "map",
            _("Show a region of the map (only you see it)"),
            (),
            (
                CommandOption(
                    "region",
                    _("Which part of the map (default: all of it)"),
                    ("region",),
                    "word",
                    required=False,
                    choices=tuple(OptionChoice(rid, _(name), rid) for rid, name in REGIONS),
                ),
            ),
            lookup=True,
        ),
        CommandSpec(
            "stack",
            _("Your stacks in full, or every stack in one place (only you see it)"),
            (),
            (CommandOption("at", _("A territory or sea zone"), ("at",), "word", required=False),),
            lookup=True,
        ),
        CommandSpec("treasury", _("Every player's money and deposits"), (), lookup=True),
        CommandSpec(
            "card",
            _("A card's text and when it is played"),
            (),
            (CommandOption("name", _("The card's name (a start is enough)"), ("name",), "word"),),
            lookup=True,
        ),
    )


def _slug(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", text.lower())


NAME_A = {
    "card": N_("Name a card."),
    "region": N_("Name a region."),
    "space": N_("Name a territory or sea zone."),
}
NO_SUCH = {
    "card": N_("There is no card called {text}."),
    "region": N_("There is no region called {text}."),
    "space": N_("There is no territory or sea zone called {text}."),
}


def _find(text: str, named: Mapping[str, str], what: str) -> str:
    """The id among ``named`` (id -> English name) that ``text`` names: the id or the
    whole name (in English or in the current language), else the one name starting so
    (or with a word starting so) in either. ``what`` is ``card``, ``region`` or ``space``.

    Raises:
        RulesError: none or several match.
    """
    want = _slug(text)
    if not want:
        raise RulesError(_(NAME_A[what]))
    both = {i: (n, _(n)) for i, n in named.items()}
    exact = [i for i, ns in both.items() if want == _slug(i) or any(want == _slug(n) for n in ns)]
    if len(exact) == 1:
        return exact[0]
    starts = [i for i, ns in both.items() if any(_slug(n).startswith(want) for n in ns)]
    if not starts:
        starts = [
            i
            for i, ns in both.items()
            if any(_slug(w).startswith(want) for n in ns for w in re.split(r"[\s,&()/-]+", n) if w)
        ]
    if len(starts) == 1:
        return starts[0]
    if not starts:
        raise RulesError(_(NO_SUCH[what]).format(text=repr(text)))
    some = ", ".join(sorted(_(named[i]) for i in starts)[:5])
    if len(starts) > 5:
        some += ", …"
    raise RulesError(_("{text} could be several: {some}.").format(text=repr(text), some=some))


def _units(stack: Any) -> str:
    if stack.units is None:
        return n_("{n} unit under {top}", "{n} units under {top}", stack.count).format(
            n=stack.count, top=D.unit_word(stack.top)
        )
    counts: dict[str, int] = {}
    for u in stack.units:
        name = D.unit_word(u.name) + (f" (+{u.rep})" if u.rep else "")
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
        space = _find(at, spaces, "space")
        here = [s for s in view.stacks if s.space == space]
        holder = view.control.get(space)
        head = m.name(space)
        if holder is not None:
            head = _("{space} (held by {who})").format(space=head, who=names[holder])
        if not here:
            return [_("{space}: no units.").format(space=head)]
        return [f"{head}:"] + [f"{names[s.seat]}: {_units(s)}" for s in here]
    if view.viewer is None:
        return [_("You have no stacks here: /stack at:PLACE shows the stacks in a place.")]
    mine = [s for s in view.stacks if s.seat == view.viewer]
    if not mine:
        return [_("You have no units on the board.")]
    return [_("Your stacks:")] + [f"{m.name(s.space)}: {_units(s)}" for s in mine]


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
        who = f"{names[seat]} ({D.nation_name(nation)})"
        if kept:
            line = _(
                "{who}: {money} RP; deposits: {deposits}; territories worth {revenue} RP a turn."
            )
        else:
            line = _("{who}: {money} RP; territories worth {revenue} RP a turn.")
        lines.append(
            line.format(
                who=who, money=view.treasury[seat], deposits=", ".join(kept), revenue=revenue
            )
        )
    return lines


def _card(typed: Mapping[str, str]) -> list[str]:
    cards = deck()
    found = cards[_find(typed.get("name", ""), {c.id: c.name for c in cards.values()}, "card")]
    when = _(TIMING_WORDS[found.timing]) if found.timing in TIMING_WORDS else found.timing
    where = ", ".join(_(CONTEXT_WORDS.get(c, c)) for c in sorted(found.contexts))
    return [
        _("**{name}** (card {n}): {text}").format(
            name=_(found.name), n=found.n, text=_(found.text)
        ),
        _("{when}; in: {where}.").format(when=when, where=where) if where else f"{when}.",
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
        return Shown((_("The map: {region}.").format(region=_(ids[region])),), f"map_{region}")
    if command == "stack":
        return Shown(tuple(_stacks(typed, view, names)))
    if command == "treasury":
        return Shown(tuple(_treasury(view, names)))
    if command == "card":
        return Shown(tuple(_card(typed)))
    raise RulesError(_("Europe at War has no /{command}.").format(command=command))
