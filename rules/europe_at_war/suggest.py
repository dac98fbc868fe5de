"""The engine's suggestions: what a decision defaults to when its time runs out.

Windows and battle cards pass; the plan is submitted as it stands; recruiting stops;
casualties, retreats, placements, upkeep, deposits and payments take the suggestion
below (issue: "casualties, retreat, placement and upkeep take the engine's suggestion").
"""

from __future__ import annotations

from . import battle as B
from . import economy as E
from .actions import (
    Action,
    Capture,
    Casualty,
    Deposit,
    Disband,
    Discard,
    Done,
    Fight,
    Pass,
    PayLoss,
    Place,
    Retreat,
    Submit,
    unit_ref,
)
from .data import Card, deck
from .state import EaState


def card_value(card: Card) -> int:
    """A rough worth of a card in hand, for discarding the least useful first."""
    e = card.effect
    if e.kind == "negate_card":
        return 30
    if e.kind == "force_multiply":
        return 25 if e.factor > 1 else 15
    if e.kind in ("compel_move", "ban_attacks_on_card_player", "ban_all_moves", "interdiction"):
        return 18
    if e.kind == "move":
        return 12 + 4 * e.groups
    if e.kind == "force_flat":
        return 10 + (0 if e.role == "any" else -3)
    if e.kind in ("gain_units", "gain_revenue", "steal_revenue"):
        return 14 if e.dice == "2d6" or e.kind == "gain_units" else 9
    if e.kind == "force_per_unit":
        return 4 + e.amount
    return 8


def keep_value(g: EaState, uid: int) -> tuple[int, int, int]:
    """How much a unit is worth keeping: leaders last, then by Force."""
    k = g.kind(uid)
    return (1 if k.leader else 0, k.force + g.units[uid].rep, -uid)


def placement(g: EaState, seat: int, uid: int, setup: bool) -> str:
    """Where to place a chit: the capital if allowed, else the first space allowed."""
    spaces = E.placements(g, seat, uid, setup)
    capital = g.map.home(g.nations[seat]).capital
    if capital in spaces:
        return capital
    near = [z for z in spaces if z in g.map.territories[capital].seas]
    return near[0] if near else spaces[0]


def retreat(g: EaState) -> str:
    """Retreat home if possible: a space with own units, then one the loser controls."""
    b = g.battle
    assert b is not None
    spaces = B.retreat_spaces(g, b)
    return max(
        spaces,
        key=lambda s: (bool(g.stack(s, b.loser)), g.control.get(s) == b.loser, -spaces.index(s)),
    )


def default_action(g: EaState, seat: int, kind: str) -> Action:
    """The action a timed-out decision of ``kind`` takes (one step; repeated while the
    decision stays open)."""
    if kind in ("setup", "place"):
        chits = g.drawn[seat] if kind == "setup" else g.gifts
        uid = chits[0]
        return Place(unit_ref(uid), placement(g, seat, uid, kind == "setup"))
    if kind == "hand":
        cards = deck()
        worst = min(g.hands[seat], key=lambda c: (card_value(cards[c]), c))
        return Discard(worst)
    if kind == "loss":
        i = g.interrupts[0]
        mine = [(rp, s) for s, rp in g.deposits.items() if rp > 0 and g.control.get(s) == seat]
        rp, at = max(mine)
        return PayLoss(at, min(rp, i.amount))
    if kind == "plan":
        return Submit()
    if kind in ("discard", "w1", "w2", "sealed", "recruit"):
        return Done()
    if kind in ("answer", "cards"):
        return Pass()
    if kind == "battle":
        at, s = B.battles_due(g)[0]
        return Fight(at, s)
    if kind == "casualties":
        return Casualty(unit_ref(casualty(g)))
    if kind == "capture":
        from .flow import options

        ships = [a for a in options(g, seat, "capture") if isinstance(a, Capture)]
        return max(ships, key=lambda a: g.kind(int(a.unit[1:])).force)
    if kind == "retreat":
        return Retreat(retreat(g))
    if kind == "upkeep":
        gone = E.upkeep_suggestion(g, seat)
        return Disband(unit_ref(gone[0])) if gone else Done()
    if kind == "deposit":
        from .flow import _left_to_deposit

        cities = E.home_cities(g, seat)
        capital = g.map.home(g.nations[seat]).capital
        return Deposit(capital if capital in cities else cities[0], _left_to_deposit(g))
    raise ValueError(f"no default for a {kind} decision")


def casualty(g: EaState) -> int:
    """EA-23: the winner's first pick takes the loser's most valuable unit (a leader,
    unless protected); every other pick is the picker's own weakest unit."""
    from .flow import _casualty_pool

    b = g.battle
    assert b is not None
    pool = _casualty_pool(g)
    if b.stage == "first":
        return max(pool, key=lambda u: keep_value(g, u))
    return min(pool, key=lambda u: keep_value(g, u))
