"""What one seat (or a spectator) may know: the only way information leaves a game.

EA-6: a player sees his own stacks in full and every other stack as its owner, top unit
and count; both stacks of the battle under way are shown in full to everyone. Private:
hands (others' are counted), chits drawn for recruits or by cards, hands seen with
Telescope-type cards, the plan before it is shown, and window or sealed submissions
before they are revealed. Treasuries, deposits, control and the discard pile are public.

The top unit of a stack is the one its owner shows (a ``top`` action in his own
turn), by default his best leader, otherwise his highest-Force unit (EA-6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..contract import Decision
from .battle import breakdown
from .flow import deciders, public_plan
from .state import Battle, EaState


@dataclass(frozen=True, slots=True)
class UnitView:
    """One unit (or chit) the viewer may see in full."""

    unit: int
    kind: str
    name: str
    type: str
    force: int
    speed: int
    rep: int
    moves: int
    free_used: bool


@dataclass(frozen=True, slots=True)
class StackView:
    """A stack: its owner, top unit and count, and its units when the viewer may see them."""

    space: str
    seat: int
    count: int
    top: str
    top_rep: int
    units: tuple[UnitView, ...] | None


@dataclass(frozen=True, slots=True)
class WindowView:
    """An open window: what has been submitted that the viewer may see."""

    name: str
    stage: str
    pending: tuple[int, ...]
    reactions: tuple[dict[str, Any], ...]
    answers: tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True)
class BattleView:
    """The battle under way (both stacks are shown in ``EaView.stacks``)."""

    at: str
    attacker: int
    defender: int
    kind: str
    stage: str
    next: int
    pending: tuple[int, ...]
    plays: tuple[dict[str, Any], ...]
    result: dict[str, Any]
    left: int
    totals: tuple[int, int]
    """(attacker, defender): the totals as the cards everyone has seen leave them."""


@dataclass(frozen=True, slots=True)
class EaView:
    """One seat's knowledge of the game (``viewer`` None: a spectator)."""

    viewer: int | None
    nations: tuple[str, ...]
    compact: bool
    rounds: int
    round: int
    current: int
    step: str
    deciders: tuple[Decision, ...]
    over: bool
    winners: tuple[int, ...]
    reason: str
    """Why the game ended (``territories`` or ``last standing``), once it has."""
    out: tuple[bool, ...]
    control: dict[str, int]
    treasury: tuple[int, ...]
    deposits: dict[str, int]
    income: dict[str, int]
    stacks: tuple[StackView, ...]
    hand: tuple[str, ...] | None
    hand_sizes: tuple[int, ...]
    deck_count: int
    discard: tuple[str, ...]
    piles: tuple[int, ...]
    aside: tuple[str, ...]
    drawn: tuple[UnitView, ...] | None
    drawn_counts: tuple[int, ...]
    gifts: tuple[UnitView, ...] | None
    seen: dict[int, tuple[str, ...]]
    plan: tuple[dict[str, Any], ...] | None
    window: WindowView | None
    battle: BattleView | None
    interrupts: tuple[tuple[str, int, int], ...]
    bans: tuple[int, ...]
    frozen: bool
    suggestion: tuple[int, ...]
    """The units the engine suggests discarding, for the player deciding his upkeep."""


def _unit(g: EaState, uid: int) -> UnitView:
    k = g.kind(uid)
    u = g.units.get(uid)
    return UnitView(
        uid,
        k.key,
        k.name,
        k.type,
        k.force,
        k.speed,
        u.rep if u else 0,
        u.moves if u else 0,
        u.free_used if u else False,
    )


def top_unit(g: EaState, space: str, seat: int) -> int:
    """EA-6: the unit its owner shows on top of his stack at ``space``; by default his
    best leader, else his highest-Force unit (lowest number on a tie)."""
    units = g.stack(space, seat)
    chosen = g.tops.get(f"{seat}|{space}")
    if chosen is not None and chosen in units:
        return chosen
    leaders = [u for u in units if g.kind(u).leader]
    pool = leaders or units
    return min(pool, key=lambda u: (-(g.kind(u).force + g.units[u].rep), u))


def view_for(g: EaState, seat: int | None) -> EaView:
    """What ``seat`` (``None``: a spectator) may know now."""
    me = seat if seat is not None and 0 <= seat < g.player_count else None
    b = g.battle
    shown = (b.at, (b.attacker, b.defender)) if b is not None else None
    stacks = []
    for space in g.occupied():
        for s in g.seats_at(space):
            units = g.stack(space, s)
            top = top_unit(g, space, s)
            full = s == me or (shown is not None and space == shown[0] and s in shown[1])
            stacks.append(
                StackView(
                    space,
                    s,
                    len(units),
                    g.kind(top).name,
                    g.units[top].rep,
                    tuple(_unit(g, u) for u in units) if full else None,
                )
            )
    plan = None
    if me is not None and me == g.current:
        plan = tuple(o.to_dict() for o in g.plan)
    elif g.step != "plan":
        plan = tuple(public_plan(g))
    return EaView(
        viewer=me,
        nations=tuple(g.nations),
        compact=g.options.compact_map,
        rounds=g.options.rounds,
        round=g.round,
        current=g.current,
        step=g.step,
        deciders=tuple(deciders(g)),
        over=g.over,
        winners=tuple(g.winners),
        reason=g.end_reason,
        out=tuple(g.out),
        control=dict(g.control),
        treasury=tuple(g.treasury),
        deposits=dict(g.deposits),
        income=dict(g.income),
        stacks=tuple(stacks),
        hand=tuple(sorted(g.hands[me])) if me is not None else None,
        hand_sizes=tuple(len(h) for h in g.hands),
        deck_count=len(g.deck),
        discard=tuple(g.discard),
        piles=tuple(len(p) for p in g.piles),
        aside=tuple(g.kind(u).name for u in g.aside),
        drawn=tuple(_unit(g, u) for u in g.drawn[me]) if me is not None else None,
        drawn_counts=tuple(len(d) for d in g.drawn),
        gifts=tuple(_unit(g, u) for u in g.gifts) if me is not None and me == g.current else None,
        seen={int(k): tuple(v) for k, v in g.seen[me].items()} if me is not None else {},
        plan=plan,
        window=_window(g, me),
        battle=_battle(g, me),
        interrupts=tuple((i.kind, i.seat, i.amount) for i in g.interrupts),
        bans=tuple(g.bans),
        frozen=g.frozen,
        suggestion=_suggestion(g, me),
    )


def _suggestion(g: EaState, me: int | None) -> tuple[int, ...]:
    if me is None or g.step != "upkeep" or g.current != me or g.interrupts:
        return ()
    from .economy import upkeep_suggestion

    return tuple(upkeep_suggestion(g, me))


def _window(g: EaState, me: int | None) -> WindowView | None:
    w = g.window
    if w is None:
        return None
    revealed = w.stage != "submit"
    reactions = tuple(r.to_dict() for r in w.reactions if revealed or r.seat == me)
    return WindowView(
        w.name,
        w.stage,
        tuple(w.pending),
        reactions,
        tuple((int(s), str(t)) for s, t in w.answers),
    )


def _battle(g: EaState, me: int | None) -> BattleView | None:
    b = g.battle
    if b is None:
        return None
    hidden = b.stage == "sealed"
    plays = tuple(
        {"seat": p.seat, "card": p.card, "target": p.target, "negated": p.negated, "unit": p.unit}
        for p in b.plays
        if not hidden or p.seat == me
    )
    return BattleView(
        b.at,
        b.attacker,
        b.defender,
        b.kind,
        b.stage,
        b.next,
        tuple(b.pending),
        plays,
        dict(b.result),
        b.left,
        _totals(g, b),
    )


def _totals(g: EaState, b: Battle) -> tuple[int, int]:
    """The totals with the cards everyone has seen (not sealed choices yet to show)."""
    if not g.stack(b.at, b.attacker) or not g.stack(b.at, b.defender):
        return (0, 0)
    shown = b
    if b.stage == "sealed":
        shown = Battle()
        shown.load(b.to_dict())
        shown.plays = []
    return (breakdown(g, shown, b.attacker).total, breakdown(g, shown, b.defender).total)
