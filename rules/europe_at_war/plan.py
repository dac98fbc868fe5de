"""The Move Phase (EA-15): the plan of orders, its projection, and carrying it out.

While the active player builds his plan, each new order is checked against the board as
it will stand after the orders before it (the *projection*): a General may move twice,
the second time from where the first move left it. The plan is shown in window W1; the
orders are then carried out in sequence, each checked again on the real board.

Interpretations:

- An order cancelled by a reaction (a negate-move card, Lost Orders, Winter Quarters, or
  Diplomacy for an order that would reach or move the card player's units) spends its
  card, or its free move. An order that has become illegal for any other reason is
  skipped; its card returns to the hand unless another order of the same card was
  carried out or cancelled (EA-15 step 3).
- Negate-move cards cancel moves of groups (free or card moves), not Compel Action or
  Revenge, which Lost Orders answers (EA-33). Storms at Sea cancels a move with ships: a
  ship move or a sea move.
"""

from __future__ import annotations

from .actions import Compel, Move
from .catalogue import _
from .data import ENGLAND, Card, deck
from .moves import Route, carry_out, check, paths
from .state import EaState, Order


def card_uses(g: EaState, card: str, upto: int | None = None) -> list[Order]:
    """The orders of the plan (before ``upto``) that spend ``card``."""
    return [o for o in g.plan[:upto] if card in o.cards]


def projection(g: EaState, upto: int | None = None) -> EaState:
    """The board after the first ``upto`` orders (all, by default), as if none is
    cancelled. Cached until the plan changes."""
    n = len(g.plan) if upto is None else upto
    cache = g.projections
    if n in cache:
        return cache[n]
    if n == 0:
        return g
    twin = projection(g, n - 1).clone()
    _execute(twin, g.plan[n - 1], g.current)
    cache[n] = twin
    return twin


def _execute(g: EaState, order: Order, seat: int) -> None:
    """Carry out ``order`` on ``g`` (a projection): it was checked when planned."""
    if order.kind == "compel":
        compel(g, order)
        return
    route = order_route(g, order, seat)
    assert isinstance(route, Route), route
    carry_out(g, route, counted=True, free=order.pay == "free")


def order_route(g: EaState, order: Order, seat: int, bans: list[int] | None = None) -> Route | str:
    """Check a move order on ``g``: its :class:`Route`, or why it is refused."""
    card = deck()[order.pay] if order.pay != "free" else None
    route = check(g, seat, order.group, tuple(order.path), card=card, bans=bans, drops=order.drops)
    if isinstance(route, str):
        return route
    if order.pay == "free":
        if route.leader is None:
            return _("Ships without an Admiral move only by a card (C5).")
        if g.units[route.leader].free_used:
            return _("That leader has already had his free move this turn (EA-10).")
        if route.shape == "sea" and not g.kind(route.leader).general:
            return _("A sea move is led by a General (EA-12).")
    return route


# ---------------------------------------------------------------------------- planning
def move_cards(g: EaState, seat: int) -> list[Card]:
    """The move cards in ``seat``'s hand."""
    cards = deck()
    return [cards[c] for c in g.hands[seat] if cards[c].effect.kind == "move"]


def pay_options(g: EaState, group: str, route: Route) -> list[str]:
    """How the active player may pay for ``route`` next in his plan: ``free``, or a
    move card with a group left for a different group (EA-10(c), (d))."""
    return _Payer(g).options(group, route)


class _Payer:
    """The payments open to the plan's next order, worked out once for many routes."""

    def __init__(self, g: EaState) -> None:
        self.g = g
        self.proj = projection(g)
        self.cards = [(card, card_uses(g, card.id)) for card in move_cards(g, g.current)]

    def options(self, group: str, route: Route) -> list[str]:
        g, proj = self.g, self.proj
        out = []
        leader = route.leader
        if (
            leader is not None
            and not proj.units[leader].free_used
            and (route.shape != "sea" or g.kind(leader).general)
        ):
            out.append("free")
        for card, uses in self.cards:
            if len(uses) >= card.effect.groups or any(o.group == group for o in uses):
                continue
            e = card.effect
            if e.domain == "sea" and route.shape != "ships":
                continue
            if e.must_end_in_battle and not proj.foreign(route.dest, g.current):
                continue
            out.append(card.id)
        return out


def plan_moves(g: EaState) -> list[Move]:
    """Every move order the active player may add to his plan now.

    Who goes on a listed path depends only on its shape (its length; at sea, its first
    zone, its lanes and whether it touches England), so the group is worked out once
    per shape (:func:`.moves.check` with ``listed``) and given each path of it."""
    from .moves import groups_of

    seat = g.current
    proj = projection(g)
    payer = _Payer(g)
    out: list[Move] = []
    bypass = next((c for c in move_cards(g, seat) if c.effect.may_pass_forts), None)
    for group in groups_of(proj, seat):
        plain = paths(proj, seat, group, forts_pass=False, counted=True, bans=[])
        shapes: dict[tuple[object, ...], Route | str] = {}
        for path in plain:
            key = _shape(proj, path)
            route = shapes.get(key)
            if route is None:
                route = shapes[key] = check(proj, seat, group, path, listed=True)
            if isinstance(route, Route):
                route.path = path
                via = ">".join(path[1:])
                out += [Move(group, path[-1], via, p) for p in payer.options(group, route)]
        if bypass is None:
            continue
        known = set(plain)
        for path in paths(proj, seat, group, forts_pass=True, counted=True, bans=[]):
            if path in known:
                continue
            route = check(proj, seat, group, path, card=bypass, listed=True)
            if isinstance(route, Route) and bypass.id in payer.options(group, route):
                out.append(Move(group, path[-1], ">".join(path[1:]), bypass.id))
    return out


def _shape(g: EaState, path: tuple[str, ...]) -> tuple[object, ...]:
    """What decides who goes on a listed path: its length, and for a sea move its first
    zone and whether it touches England (EA-12, EA-13)."""
    if path[0] in g.map.territories and path[1] in g.map.seas:
        ends = (g.map.territories[path[0]].country, g.map.territories[path[-1]].country)
        return ("sea", path[1], len(path), ENGLAND in ends)
    return ("land" if path[-1] in g.map.territories else "sea-end", len(path))


def check_move(g: EaState, action: Move) -> str | None:
    """Why ``action`` may not join the plan now, or ``None``."""
    seat = g.current
    proj = projection(g)
    card = None
    if action.pay != "free":
        if action.pay not in g.hands[seat] or deck()[action.pay].effect.kind != "move":
            return _("Pay with your free move or a move card in your hand.")
        card = deck()[action.pay]
        uses = card_uses(g, card.id)
        if len(uses) >= card.effect.groups:
            return _("{card} moves no more groups (EA-10(d)).").format(card=_(card.name))
        if any(o.group == action.group for o in uses):
            return _("{card} moves different groups (EA-10(d)).").format(card=_(card.name))
    path = (_start(proj, action.group), *action.via.split(">"))
    if path[-1] != action.dest:
        return _("The path must end at the destination.")
    route = check(proj, seat, action.group, path, card=card)
    if isinstance(route, str):
        return route
    if action.pay == "free" and "free" not in pay_options(g, action.group, route):
        return _("That group's leader has no free move left for this (EA-10(c), EA-12).")
    return None


def _start(g: EaState, group: str) -> str:
    from .moves import group_start

    found = group_start(g, g.current, group)
    return found[0] if found else ""


def add_move(g: EaState, action: Move) -> Order:
    """Add a checked move order to the plan."""
    o = Order("move")
    o.group = action.group
    o.path = [_start(projection(g), action.group), *action.via.split(">")]
    o.pay = action.pay
    g.plan.append(o)
    g.projections.clear()
    return o


# ---------------------------------------------------------------------------- drops
def drop_options(g: EaState) -> list[tuple[int, str]]:
    """EA-10(g): (unit, space) drop-offs the plan's last move order may add."""
    if not g.plan or g.plan[-1].kind != "move":
        return []
    last = g.plan[-1]
    before = projection(g, len(g.plan) - 1)
    route = order_route(before, last, g.current)
    if isinstance(route, str):
        return []
    dropped = {u for u, _ in last.drops}
    spaces = [last.path[0]] + ([] if route.shape == "sea" else list(last.path[1:-1]))
    out = []
    free = [u for u in route.movers if u != route.leader and u not in route.ships]
    for uid in free:
        if uid in dropped:
            continue
        last_to_go = route.leader is None and len(free) == 1  # ships with no Admiral
        out += [(uid, s) for s in spaces if not (last_to_go and s == last.path[0])]
    return out


def check_drop(g: EaState, unit: int, at: str) -> str | None:
    """Why the drop-off may not be added, or ``None``."""
    if (unit, at) not in drop_options(g):
        return _(
            "Only a unit moving with the last order, not its leader, may be dropped off, "
            "at its start or in a space it enters (EA-10(g))."
        )
    return None


def add_drop(g: EaState, unit: int, at: str) -> None:
    """Add a checked drop-off to the last order."""
    g.plan[-1].drops.append([unit, at])
    g.projections.clear()


# ---------------------------------------------------------------------------- compel
def compel_targets(g: EaState, card: Card) -> list[tuple[str, int, str]]:
    """EA-33: (space, seat, destination) for Compel Action or Revenge on the projection."""
    proj = projection(g)
    me = g.current
    out = []
    for space in proj.occupied():
        for seat in proj.seats_at(space):
            if seat == me:
                continue
            for dest in compel_dests(proj, card, space, seat, me):
                out.append((space, seat, dest))
    return out


def compel_dests(g: EaState, card: Card, space: str, seat: int, me: int) -> list[str]:
    """Where ``card`` may send ``seat``'s stack at ``space``: one space, with a General
    (land) or ships (sea); Compel Action anywhere without a third player's units,
    Revenge only where the card player has units (EA-33)."""
    stack = g.stack(space, seat)
    movers = [u for u in stack if not g.kind(u).fort]
    if not movers:
        return []
    attack = card.effect.attack
    if space in g.map.seas:
        if attack or not any(g.kind(u).type == "S" for u in stack):
            return []
        near = g.map.seas[space].adjacent
    else:
        if not any(g.kind(u).general for u in stack):
            return []
        near = g.map.territories[space].adjacent
    out = []
    for n in near:
        if attack:
            if g.stack(n, me):
                out.append(n)
        elif all(s in (me, seat) for s in g.seats_at(n)):
            out.append(n)
    return out


def check_compel(g: EaState, action: Compel) -> str | None:
    """Why the Compel Action or Revenge order may not join the plan, or ``None``."""
    seat = g.current
    if action.card not in g.hands[seat] or deck()[action.card].effect.kind != "compel_move":
        return _("Play Compel Action or Revenge from your hand.")
    if card_uses(g, action.card):
        return _("That card is already in your plan.")
    card = deck()[action.card]
    if action.seat == seat or not 0 <= action.seat < g.player_count:
        return _("Choose another player's stack.")
    if action.dest not in compel_dests(projection(g), card, action.at, action.seat, seat):
        return _(
            "That stack cannot be sent there: it needs a General (or ships), one space, "
            "and Revenge must send it into your units (EA-33)."
        )
    return None


def add_compel(g: EaState, action: Compel) -> None:
    """Add a checked Compel Action or Revenge order."""
    o = Order("compel")
    o.card, o.at, o.seat, o.dest = action.card, action.at, action.seat, action.dest
    g.plan.append(o)
    g.projections.clear()


def compel(g: EaState, order: Order) -> None:
    """Move the compelled stack (out of turn: its moves do not count, EA-10(e))."""
    for uid in [u for u in g.stack(order.at, order.seat) if not g.kind(u).fort]:
        g.relocate(uid, order.dest)
        u = g.units[uid]
        u.came_from = order.at
        u.landed = False


def compel_still_legal(g: EaState, order: Order) -> bool:
    """The compel order can still be carried out on the real board."""
    card = deck()[order.card]
    return order.dest in compel_dests(g, card, order.at, order.seat, g.current)


def undo(g: EaState) -> None:
    """Take back the last drop-off, or else the last order."""
    if g.plan[-1].drops:
        g.plan[-1].drops.pop()
    else:
        g.plan.pop()
    g.projections.clear()


def sea_order(g: EaState, order: Order) -> bool:
    """True for a move order whose group includes ships (a ship move or a sea move)."""
    return order.kind == "move" and len(order.path) > 1 and order.path[1] in g.map.seas


def planned_cards(g: EaState) -> list[str]:
    """The cards the plan names and that are still planned (Lost Orders targets)."""
    out: list[str] = []
    for o in g.plan:
        if o.status == "planned":
            out += [c for c in o.cards if c not in out]
    return out


def plan_cards(g: EaState) -> list[str]:
    """Every card the plan names, whatever became of its orders."""
    out: list[str] = []
    for o in g.plan:
        out += [c for c in o.cards if c not in out]
    return out
