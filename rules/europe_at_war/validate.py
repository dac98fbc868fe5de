"""Invariants of a game, checked when one is loaded (and after every step by the tests)."""

from __future__ import annotations

from ..errors import InvalidState
from .data import deck
from .state import EaState

STEPS = (
    "setup",
    "discard",
    "plan",
    "window",
    "battle",
    "fight",
    "recruit",
    "upkeep",
    "deposit",
    "over",
)
MAX_PLAYERS = 5


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise InvalidState(f"stored Europe at War game is inconsistent: {message}")


def validate(g: EaState) -> None:
    """Raise :class:`InvalidState` unless ``g`` is a consistent game: the seats, every
    chit in exactly one place, units only where their kind may stand, the 228 cards each
    once, control and deposits, treasuries, and the step's bookkeeping."""
    n = g.player_count
    _need(2 <= n <= MAX_PLAYERS, f"{n} seats")
    _need(sorted(g.origins) == list(range(n)), "seat origins")
    for what, values in (
        ("piles", g.piles),
        ("drawn", g.drawn),
        ("hands", g.hands),
        ("seen", g.seen),
        ("treasury", g.treasury),
        ("out", g.out),
    ):
        _need(len(values) == n, f"{what} per seat")
    places = [c for p in g.piles for c in p] + list(g.units) + g.aside
    places += [c for d in g.drawn for c in d] + g.gifts
    _need(sorted(places) == list(range(g.chits.start[-1])), "chits are not each in one place")
    for seat, pile in enumerate(g.piles):
        _need(all(g.chits.origin[c] == seat for c in pile), "a chit in another nation's pile")
    for uid, u in g.units.items():
        _need(0 <= u.owner < n, f"unit {uid} has an unknown owner")
        k = g.kind(uid)
        if u.space in g.map.seas:
            _need(k.naval, f"land unit {uid} at sea")
        else:
            _need(u.space in g.map.territories and not k.naval, f"unit {uid} misplaced")
        _need(0 <= u.moves <= 2 and u.rep >= 0, f"unit {uid} bookkeeping")
    cards = list(deck())
    held = [c for h in g.hands for c in h] + g.deck + g.discard + g.table
    _need(sorted(held) == sorted(cards), "the 228 cards are not all accounted for once")
    for space, seat in g.control.items():
        _need(space in g.map.territories and 0 <= seat < n, f"control of {space}")
    for space, rp in g.deposits.items():
        _need(rp > 0 and space in g.control, f"deposit at {space}")
        _need(g.map.territories[space].city, f"deposit outside a city at {space}")
    _need(all(t >= 0 for t in g.treasury), "a treasury below 0")
    _need(g.step in STEPS, f"unknown step {g.step!r}")
    _need(0 <= g.current < n and 0 <= g.setup_seat <= n, "current seat")
    _need((g.step == "window") == (g.window is not None), "window bookkeeping")
    _need((g.step == "fight") == (g.battle is not None), "battle bookkeeping")
    _need(all(0 <= s < n for s in g.winners), "winners")
