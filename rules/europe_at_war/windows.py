"""Windows W1 and W2 (EA-15) and their Lost Orders answers (EA-33).

Every other player submits at once and in private; the submissions are revealed
together; then Lost Orders may answer. Interpretations:

- The answers after a reveal are one round at once: the active player may cancel a
  reaction card, and in W1 a reactor may cancel a card named in the plan. Only players
  who have something to answer are asked, all of them whatever they hold (unless the
  Fast windows option is on), so the wait reveals nothing.
- A card cancelled by Lost Orders lets its owner answer with Lost Orders of his own
  (chains alternate). He is asked only if he holds one: the deck has a single Lost
  Orders, so everyone knows nobody else can, and asking reveals nothing.
- W2 reactions resolve in seat order from the active player's left; one made illegal by
  an earlier one returns to its player's hand.
"""

from __future__ import annotations

from ..events import Event
from .actions import Action, Avoid, Done, Interdict, LostOrders, Negate, Pass, React
from .catalogue import _
from .data import deck
from .moves import carry_out, check, groups_of, paths
from .plan import planned_cards, sea_order
from .state import EaState, Reaction, Window

LOST_ORDERS = "lost_orders"


def left_of(g: EaState) -> list[int]:
    """The other players in seat order from the active player's left."""
    n = g.player_count
    return [(g.current + k) % n for k in range(1, n) if not g.out[(g.current + k) % n]]


# ---------------------------------------------------------------------------- submit
def submissions(g: EaState, seat: int) -> list[Action]:
    """What ``seat`` may submit now in the open window (its own unsubmitted cards)."""
    w = g.window
    assert w is not None
    used = {r.card for r in w.reactions if r.seat == seat}
    cards = deck()
    out: list[Action] = []
    for cid in dict.fromkeys(g.hands[seat]):
        if cid in used:
            continue
        card = cards[cid]
        e = card.effect
        if w.name == "w1" and card.timing == "window_w1":
            if e.kind == "negate_move":
                for n, o in enumerate(g.plan, start=1):
                    if o.kind == "move" and (e.domain != "sea" or sea_order(g, o)):
                        out.append(Negate(cid, n))
            else:
                out.append(React(cid))
        elif w.name == "w2" and card.timing == "window_w2":
            if e.kind == "avoid_battle":
                out += [Avoid(cid, at, dest) for at, dest in avoid_options(g, seat)]
            else:
                out += [
                    Interdict(cid, group, path[-1], ">".join(path[1:]))
                    for group, path in interdictions(g, seat)
                ]
    out.append(Done())
    return out


def avoid_options(g: EaState, seat: int) -> list[tuple[str, str]]:
    """EA-33, Avoid Battle: (space, destination) for ``seat``'s stacks sharing a space
    with the active player: to an adjacent space with no other player's units."""
    out = []
    for at in g.occupied():
        if not g.stack(at, g.current) or not any(not g.kind(u).fort for u in g.stack(at, seat)):
            continue
        near = g.map.seas[at].adjacent if at in g.map.seas else g.map.territories[at].adjacent
        out += [(at, n) for n in near if not g.foreign(n, seat)]
    return out


def interdictions(g: EaState, seat: int) -> list[tuple[str, tuple[str, ...]]]:
    """EA-33, Interdiction: (group, path) moves of ``seat`` ending where the active
    player has units (out of turn: they do not count toward EA-10(e))."""
    out = []
    for group in groups_of(g, seat):
        for path in paths(g, seat, group, forts_pass=False, counted=False, bans=[]):
            if g.stack(path[-1], g.current):
                route = check(g, seat, group, path, counted=False, listed=True)
                if not isinstance(route, str):
                    out.append((group, path))
    return out


def check_submission(g: EaState, seat: int, action: Action) -> str | None:
    """Why a window submission is refused, or ``None``."""
    if isinstance(action, Done) or action in submissions(g, seat):
        return None
    return _("That card cannot be played in this window on that target (EA-15, EA-33).")


def submit(g: EaState, seat: int, action: Action, events: list[Event]) -> None:
    """Record a checked submission (private until the reveal), or the seat's Done."""
    w = g.window
    assert w is not None
    if isinstance(action, Done):
        w.pending.remove(seat)
        events.append(Event("window_answered", {"seat": seat, "window": w.name}))
        return
    assert isinstance(action, (Negate, React, Avoid, Interdict))
    r = Reaction(seat, action.card)
    if isinstance(action, Negate):
        r.order = action.order
    elif isinstance(action, Avoid):
        r.at, r.dest = action.at, action.dest
    elif isinstance(action, Interdict):
        r.group, r.dest, r.via = action.group, action.dest, action.via
    w.reactions.append(r)
    events.append(Event("submitted", {"card": r.card}, to=seat))


def reveal(g: EaState, events: list[Event]) -> None:
    """All submissions are shown together; their cards leave the hands."""
    w = g.window
    assert w is not None
    for r in w.reactions:
        g.hands[r.seat].remove(r.card)
        g.table.append(r.card)
    events.append(
        Event("revealed", {"window": w.name, "reactions": [r.to_dict() for r in w.reactions]})
    )


# ---------------------------------------------------------------------------- answers
def answer_targets(g: EaState, seat: int) -> list[str]:
    """The cards ``seat`` may cancel with Lost Orders in this window's answer round."""
    w = g.window
    assert w is not None
    gone = cancelled(w)
    if w.stage == "chain":
        return [LOST_ORDERS]
    if seat == g.current:
        return [r.card for r in w.reactions if r.card not in gone]
    if w.name == "w1":
        return [c for c in planned_cards(g) if c not in gone]
    return []


def open_answers(g: EaState) -> None:
    """Start the answer round after a reveal: who has something to answer, all at once."""
    w = g.window
    assert w is not None
    w.stage = "answer"
    w.chain = []
    seats = [g.current, *left_of(g)]
    w.pending = [
        s
        for s in seats
        if answer_targets(g, s) and (not g.options.fast_windows or LOST_ORDERS in g.hands[s])
    ]


def answer_options(g: EaState, seat: int) -> list[Action]:
    """Lost Orders on each target (if held), or pass."""
    out: list[Action] = []
    if LOST_ORDERS in g.hands[seat]:
        out += [LostOrders(t) for t in answer_targets(g, seat)]
    out.append(Pass())
    return out


def answer(g: EaState, seat: int, action: Action, events: list[Event]) -> None:
    """Record a checked answer; when everyone asked has answered, apply them."""
    w = g.window
    assert w is not None
    w.pending.remove(seat)
    target = action.target if isinstance(action, LostOrders) else ""
    w.chain.append([seat, target])
    if w.stage == "answer":
        events.append(Event("window_answered", {"seat": seat, "window": w.name}))
    if w.pending:
        return
    order = [g.current, *left_of(g)]
    plays = sorted((p for p in w.chain if p[1]), key=lambda p: order.index(p[0]))
    w.chain = []
    before = len(w.answers)
    for s, t in plays:
        if t in cancelled(w) or LOST_ORDERS not in g.hands[s]:
            continue
        g.hands[s].remove(LOST_ORDERS)
        g.table.append(LOST_ORDERS)
        w.answers.append([s, t])
        events.append(Event("lost_orders", {"seat": s, "target": t}))
    if len(w.answers) > before:
        victim = owner(g, w.answers[-1][1])
        if victim is not None and victim != w.answers[-1][0] and LOST_ORDERS in g.hands[victim]:
            w.stage = "chain"
            w.pending = [victim]


def owner(g: EaState, card: str) -> int | None:
    """Who played ``card`` in this window (or planned it)."""
    w = g.window
    assert w is not None
    if card == LOST_ORDERS:
        return w.answers[-2][0] if len(w.answers) > 1 else None
    for r in w.reactions:
        if r.card == card:
            return r.seat
    if card in planned_cards(g):
        return g.current
    return None


def cancelled(w: Window) -> set[str]:
    """The cards Lost Orders cancels in the end: each play cancels its target unless a
    later play cancelled it (a chain)."""
    out: set[str] = set()
    live = [True] * len(w.answers)
    for i in range(len(w.answers) - 1, -1, -1):
        if not live[i]:
            continue
        target = w.answers[i][1]
        if target == LOST_ORDERS and i > 0:
            live[i - 1] = False
        else:
            out.add(target)
    return out


# ---------------------------------------------------------------------------- resolve
def resolve_w1(g: EaState, events: list[Event]) -> None:
    """Apply W1's reactions that stand: negated orders, Diplomacy bans, Winter Quarters;
    planned cards Lost Orders cancelled cancel their orders."""
    w = g.window
    assert w is not None
    gone = cancelled(w)
    for o in g.plan:
        if any(c in gone for c in o.cards):
            o.status = "cancelled"
    for r in _in_order(g, w):
        if r.card in gone:
            r.status = "cancelled"
            continue
        r.status = "done"
        e = deck()[r.card].effect
        if e.kind == "negate_move":
            o = g.plan[r.order - 1]
            o.status = "cancelled"
        elif e.kind == "ban_attacks_on_card_player":
            if r.seat not in g.bans:
                g.bans.append(r.seat)
        else:
            g.frozen = True
    events.append(
        Event("w1_resolved", {"cancelled": sorted(gone), "bans": g.bans[:], "frozen": g.frozen})
    )
    _clear_table(g)


def resolve_w2(g: EaState, events: list[Event]) -> None:
    """Carry out W2's reactions that stand, in seat order from the active player's left."""
    w = g.window
    assert w is not None
    gone = cancelled(w)
    for r in _in_order(g, w):
        if r.card in gone:
            r.status = "cancelled"
            continue
        if deck()[r.card].effect.kind == "avoid_battle":
            ok = (r.at, r.dest) in avoid_options(g, r.seat)
            if ok:
                for uid in [u for u in g.stack(r.at, r.seat) if not g.kind(u).fort]:
                    g.relocate(uid, r.dest)
                    g.units[uid].came_from = r.at
        else:
            found = groups_of(g, r.seat)
            route = None
            if r.group in found:
                start = _start(g, r.seat, r.group)
                path = (start, *r.via.split(">"))
                checked = check(g, r.seat, r.group, path, counted=False, must_reach=g.current)
                route = None if isinstance(checked, str) else checked
            ok = route is not None
            if route is not None:
                carry_out(g, route, counted=False, free=False)
                from .flow import route_data

                events.append(Event("interdiction", {"seat": r.seat, **route_data(route)}))
        r.status = "done" if ok else "returned"
        if not ok:
            g.table.remove(r.card)
            g.hands[r.seat].append(r.card)
        events.append(Event("reaction", r.to_dict()))
    _clear_table(g)


def _start(g: EaState, seat: int, group: str) -> str:
    from .moves import group_start

    found = group_start(g, seat, group)
    return found[0] if found else ""


def _in_order(g: EaState, w: Window) -> list[Reaction]:
    order = left_of(g)
    return sorted(w.reactions, key=lambda r: order.index(r.seat) if r.seat in order else len(order))


def _clear_table(g: EaState) -> None:
    g.discard += g.table
    g.table = []
