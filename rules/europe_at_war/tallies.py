"""The decisions Europe at War answers by counts (the presentation's ``tally``): a
battle's casualties (EA-23), the chits to buy and the city they go to (EA-29), the units
to disband (EA-30) and how the savings are split between cities (EA-28). Each starts at
the engine's suggestion, so agreeing with it takes one click."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..presentation import Tally, TallyGroup
from . import describe as D
from .actions import Buy, Casualty, Deposit, Disband, Done, unit_of, unit_ref
from .catalogue import _
from .data import game_map


def tally(kind: str, legal: Sequence[Any], view: Any) -> Tally | None:
    """The tally of a decision of ``kind`` with ``legal`` actions, from ``view``; None
    for a decision not answered by counts (or not open)."""
    made: dict[str, Callable[[Sequence[Any], Any], Tally | None]] = {
        "casualties": casualties,
        "recruit": recruit,
        "upkeep": upkeep,
        "deposit": deposit,
    }
    found = made.get(kind)
    return found(legal, view) if found is not None else None


def casualties(legal: Sequence[Any], view: Any) -> Tally | None:
    """EA-23: a battle's casualties, counted per unit type (a leader by his name),
    starting at the engine's suggestion."""
    b = view.battle
    if b is None:
        return None
    picks = [unit_ref(u) for u in view.picks]
    groups: dict[str, list[Casualty]] = {}
    for a in sorted(
        (a for a in legal if isinstance(a, Casualty)),
        key=lambda a: picks.index(a.unit) if a.unit in picks else len(picks),
    ):
        groups.setdefault(D.unit_name(a.unit, view), []).append(a)
    return Tally(
        b.left,
        _("casualties"),
        tuple(
            TallyGroup(name, tuple(acts), sum(a.unit in picks for a in acts))
            for name, acts in groups.items()
        ),
    )


def _cities(view: Any, spaces: Sequence[str]) -> list[str]:
    """``spaces`` in order, the viewer's capital first (where the engine puts things by
    default, EA-28)."""
    me = view.viewer
    capital = game_map(bool(view.compact)).home(view.nations[me]).capital
    return sorted(dict.fromkeys(spaces), key=lambda s: (s != capital, s))


def recruit(legal: Sequence[Any], view: Any) -> Tally | None:
    """EA-29: each drawn chit a toggle costing its Force, at most the treasury in all,
    placed in one chosen city (a ship or the Admiral in a sea zone touching it); then
    the phase ends (unless buying every chit drew more)."""
    me = view.viewer
    if me is None or view.drawn is None:
        return None
    buys = [a for a in legal if isinstance(a, Buy)]
    board = game_map(bool(view.compact))
    cities = _cities(view, [a.at for a in buys if a.at in board.territories])
    if not cities:  # nothing affordable has a city: the home cities still name the place
        held = [c for c, s in view.control.items() if s == me and _city(view, c)]
        cities = _cities(view, held)
    space = D.space_namer(view)
    groups = []
    for chit in view.drawn:
        ref = unit_ref(chit.unit)
        mine = [a for a in buys if a.chit == ref]
        placed = tuple(_placed(mine, board, city) for city in cities)
        label = _("{unit} ({cost} RP)").format(unit=D.unit_word(chit.name), cost=chit.force)
        groups.append(TallyGroup(label, (), 0, chit.force, placed=placed))
    return Tally(
        view.treasury[me],
        _("RP"),
        tuple(groups),
        bound="at most",
        finish=Done(),
        places=tuple(space(c) for c in cities),
        place_word=_("city"),
    )


def _city(view: Any, space: str) -> bool:
    """``space`` is a Major City or Capital with no other player's units (EA-29)."""
    board = game_map(bool(view.compact))
    t = board.territories.get(space)
    foreign = any(s.space == space and s.seat != view.viewer for s in view.stacks)
    return t is not None and t.city and not foreign


def _placed(buys: Sequence[Buy], board: Any, city: str) -> tuple[Buy, ...]:
    """A chit's purchase that places it at ``city`` (on land) or in a sea zone touching
    it (a ship, the Admiral): none when it cannot go there."""
    seas = board.territories[city].seas
    for a in buys:
        if a.at == city or a.at in seas:
            return (a,)
    return ()


def upkeep(legal: Sequence[Any], view: Any) -> Tally | None:
    """EA-30: the units to disband, counted per type (a leader by his name), at least as
    many as the engine finds unsupplied or unpaid, its suggestion preselected (each type
    takes the suggested units first, then the weakest); then the upkeep is paid."""
    if view.viewer is None:
        return None
    suggestion = [unit_ref(u) for u in view.suggestion]
    mine = {
        unit_ref(u.unit): u for s in view.stacks if s.seat == view.viewer for u in s.units or ()
    }

    def order(a: Disband) -> tuple[int, int, int, int]:
        u = mine.get(a.unit)
        weak = (u.type in ("G", "D"), u.force + u.rep) if u is not None else (False, 0)
        first = suggestion.index(a.unit) if a.unit in suggestion else len(suggestion)
        return first, int(weak[0]), weak[1], -(unit_of(a.unit) or 0)

    groups: dict[str, list[Disband]] = {}
    for a in sorted((a for a in legal if isinstance(a, Disband)), key=order):
        groups.setdefault(D.unit_name(a.unit, view), []).append(a)
    return Tally(
        len(suggestion),
        _("units to disband"),
        tuple(
            TallyGroup(name, tuple(acts), sum(a.unit in suggestion for a in acts))
            for name, acts in groups.items()
        ),
        bound="at least",
        finish=Done(),
    )


def deposit(legal: Sequence[Any], view: Any) -> Tally | None:
    """EA-28: the savings split between the viewer's Major Cities and Capital, in RP per
    city, all in the capital to start with (the default)."""
    deposits = [a for a in legal if isinstance(a, Deposit)]
    if view.viewer is None or not deposits:
        return None
    left = max(a.amount for a in deposits)
    cities = _cities(view, [a.at for a in deposits])
    default = view.suggested.at if isinstance(view.suggested, Deposit) else cities[0]
    space = D.space_namer(view)
    return Tally(
        left,
        _("RP"),
        tuple(
            TallyGroup(
                space(city),
                tuple(Deposit(city, n) for n in range(1, left + 1)),
                left if city == default else 0,
                whole=True,
            )
            for city in cities
        ),
    )
