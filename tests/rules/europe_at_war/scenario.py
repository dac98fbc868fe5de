"""Positions built by hand for the scenario tests: a table with empty boards (home
countries held, nothing placed, no cards dealt), then units, cards and money put where a
test wants them."""

from __future__ import annotations

from rules.europe_at_war import flow
from rules.europe_at_war.actions import Action
from rules.europe_at_war.data import deck
from rules.europe_at_war.game import EaGame
from rules.europe_at_war.options import Options
from rules.europe_at_war.state import EaState
from rules.events import Event

GAME = EaGame()


def table(*nations: str, options: Options | None = None, seed: int = 1) -> EaState:
    """A game of ``nations`` (seats in that order) just past setup, with no unit placed
    and no card dealt, at seat 0's Move Phase of round 1."""
    g, _ = GAME.new_game(list(nations), seed, options or Options(), arranged=True)
    for s in range(g.player_count):
        g.piles[s] += g.drawn[s]
        g.piles[s].sort()
        g.drawn[s] = []
    g.round = 1
    g.current = 0
    g.turn = 1
    g.step = "plan"
    g.turn_clock = g.clock
    return g


def add(g: EaState, seat: int, name: str, space: str, count: int = 1, rep: int = 0) -> list[int]:
    """Put ``count`` chits named ``name`` from ``seat``'s pile at ``space``."""
    out = []
    for _ in range(count):
        uid = next(c for c in g.piles[seat] if g.kind(c).name == name)
        g.piles[seat].remove(uid)
        g.put(uid, seat, space).rep = rep
        out.append(uid)
    return out


def give(g: EaState, seat: int, *cards: str) -> None:
    """Put the named cards (ids) in ``seat``'s hand, taken from the deck."""
    for c in cards:
        assert c in deck(), c
        g.deck.remove(c)
        g.hands[seat].append(c)


def new_turn(g: EaState) -> None:
    """Mark everything now on the board as there before the turn began (EA-16)."""
    g.turn_clock = g.clock
    for u in g.units.values():
        u.moves, u.free_used, u.came_from, u.landed = 0, False, None, False


def battle_phase(g: EaState) -> list[Event]:
    """Go to the Battle Phase: the first battle starts if it is the only one."""
    events: list[Event] = []
    g.step = "battle"
    flow.advance(g, events)
    return events


def run(g: EaState, *steps: tuple[int, Action]) -> list[Event]:
    """Apply each (seat, action); return all events."""
    events: list[Event] = []
    for seat, action in steps:
        events += g.apply(seat, action)
    return events


def through_windows(g: EaState, *answers: tuple[int, Action]) -> list[Event]:
    """Submit the plan and let every window pass, playing ``answers`` (seat, action)
    first when their seat is asked."""
    from rules.europe_at_war.actions import Done, Pass, Submit

    events = g.apply(g.current, Submit())
    todo = list(answers)
    while g.step == "window":
        d = g.deciders()[0]
        mine = [a for a in todo if a[0] == d.seat and g.is_legal(d.seat, a[1])]
        if mine:
            todo.remove(mine[0])
            events += g.apply(d.seat, mine[0][1])
        else:
            events += g.apply(d.seat, Done() if d.kind in ("w1", "w2") else Pass())
    assert not todo, f"never asked: {todo}"
    return events


def names(g: EaState, space: str, seat: int) -> list[str]:
    """The kinds of ``seat``'s units at ``space``, sorted."""
    return sorted(g.kind(u).name for u in g.stack(space, seat))


def keep(g: EaState, *seats: int) -> None:
    """Give each of ``seats`` a Reserves far from the action (at a home territory no
    test uses), so that losing a battle does not put him out of the game."""
    for seat in seats:
        home = g.map.home(g.nations[seat]).territories
        add(
            g,
            seat,
            "Reserves",
            KEEP[g.nations[seat]] if KEEP[g.nations[seat]] in home else home[-1],
        )


KEEP = {
    "france": "brest",
    "britain": "highlands",
    "prussia": "memel",
    "austria": "transylvania",
    "russia": "crimea",
}


def result_of(events: list[Event]) -> dict[str, object]:
    """The data of the battle result among ``events``."""
    return next(e.data for e in events if e.kind == "battle_result")


def ref(uid: int) -> str:
    """How actions name a unit."""
    return f"u{uid}"
