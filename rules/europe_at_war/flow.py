"""Who decides now, what he may do, and the steps of a turn (EA-3 to EA-5, EA-15 to
EA-31, EA-35).

A turn runs through steps (``EaState.step``): ``discard`` (EA-5), ``plan`` (EA-15),
``window`` (W1, then W2), ``battle`` (choosing the next battle) and ``fight`` (one
battle), ``recruit`` (EA-29), ``upkeep`` (EA-30), ``deposit`` (EA-28); the Draw phase's
draw, the Revenue and Control phases and carrying out the plan need no decision and run
by themselves. Decisions an own-turn card or a draw puts in between (``hand``,
``place``, ``loss``) come first (``EaState.interrupts``).

Interpretations: the Draw phase's discards are skipped when the hand is empty, and a
battle is started at once when it is the only one left (no order to choose).
"""

from __future__ import annotations

from ..contract import Decision
from ..errors import GameOver, IllegalAction, NotYourTurn
from ..events import Event
from . import battle as B
from . import cards as C
from . import economy as E
from . import plan as P
from . import windows as W
from .actions import (
    Action,
    BattleCard,
    Buy,
    Capture,
    Casualty,
    Compel,
    Deposit,
    Destroy,
    Disband,
    Discard,
    Done,
    Drop,
    Fight,
    LostOrders,
    Move,
    Pass,
    PayLoss,
    Place,
    PlayAt,
    PlayCard,
    PlayOn,
    Retreat,
    Submit,
    Timeout,
    Top,
    Undo,
    unit_of,
    unit_ref,
)
from .catalogue import _
from .data import deck
from .moves import Route, carry_out
from .state import HAND_LIMIT, Battle, EaState, Order, Play, Window

OWN_TURN = ("discard", "plan", "battle", "recruit", "upkeep", "deposit")
"""Steps in which the active player may play own-turn cards (EA-32)."""
DRAW = 5
RECRUIT_DRAW = 5


# ---------------------------------------------------------------------------- deciders
def deciders(g: EaState) -> list[Decision]:
    """Who must decide now: one seat, or several at once in a window."""
    if g.over:
        return []
    if g.interrupts:
        i = g.interrupts[0]
        return [Decision(i.seat, i.kind)]
    step = g.step
    if step == "setup":
        return [Decision(g.setup_seat, "setup")]
    if step in OWN_TURN:
        return [Decision(g.current, step)]
    if step == "window":
        w = g.window
        assert w is not None
        kind = w.name if w.stage == "submit" else "answer"
        return [Decision(s, kind) for s in w.pending]
    if step == "fight":
        b = g.battle
        assert b is not None
        if b.stage == "cards":
            return [Decision(b.next, "cards")]
        if b.stage == "sealed":
            return [Decision(s, "sealed") for s in b.pending]
        if b.stage == "answer":
            return [Decision(b.pending[0], "answer")]
        if b.stage in ("first", "own"):
            return [Decision(b.winner, "casualties")]
        if b.stage == "losses":
            return [Decision(b.loser, "casualties")]
        if b.stage == "capture":
            return [Decision(b.winner, "capture")]
        return [Decision(b.loser, "retreat")]
    return []


def decision_of(g: EaState, seat: int) -> str | None:
    """The kind of ``seat``'s open decision, if it has one."""
    return next((d.kind for d in deciders(g) if d.seat == seat), None)


# ---------------------------------------------------------------------------- listing
def legal(g: EaState, seat: int) -> list[Action]:
    """Every legal action of ``seat`` now."""
    kind = decision_of(g, seat)
    return [] if kind is None else options(g, seat, kind)


def options(g: EaState, seat: int, kind: str) -> list[Action]:
    """The legal actions of ``seat``'s decision of ``kind``."""
    out: list[Action] = []
    if kind == "setup":
        out = [
            Place(unit_ref(c), at) for c in g.drawn[seat] for at in E.placements(g, seat, c, True)
        ]
    elif kind == "place":
        out = [Place(unit_ref(c), at) for c in g.gifts for at in E.placements(g, seat, c)]
    elif kind == "hand":
        out = [Discard(c) for c in g.hands[seat]]
    elif kind == "loss":
        out = _loss_options(g, seat)
    elif kind == "discard":
        out = [*(Discard(c) for c in g.hands[seat]), Done()]
    elif kind == "plan":
        out = _plan_options(g)
    elif kind in ("w1", "w2"):
        out = W.submissions(g, seat)
    elif kind == "answer":
        out = W.answer_options(g, seat) if g.step == "window" else _battle_answers(g, seat)
    elif kind == "battle":
        out = [Fight(at, s) for at, s in B.battles_due(g)]
    elif kind == "cards":
        out = _exchange_options(g, seat)
    elif kind == "sealed":
        out = _sealed_options(g, seat)
    elif kind == "casualties":
        out = [Casualty(unit_ref(u)) for u in _casualty_pool(g)]
    elif kind == "capture":
        out = [Capture(unit_ref(u)) for u in _capture_pool(g)]
    elif kind == "retreat":
        b = g.battle
        assert b is not None
        out = [Retreat(s) for s in B.retreat_spaces(g, b)]
    elif kind == "recruit":
        out = [
            Buy(unit_ref(c), at)
            for c in g.drawn[seat]
            if g.kind(c).force <= g.treasury[seat]
            for at in E.placements(g, seat, c)
        ]
        out.append(Done())
    elif kind == "upkeep":
        out = [Disband(unit_ref(u)) for u in g.units_of(seat)]
        if E.upkeep_ok(g, seat):
            out.append(Done())
    elif kind == "deposit":
        left = _left_to_deposit(g)
        # largest first, city by city: a panel shows the first hundred choices, and a
        # deposit too small to be listed there can still be made in steps
        cities = E.home_cities(g, seat)
        out = [Deposit(at, n) for n in range(left, 0, -1) for at in cities]
    if kind in OWN_TURN and not g.interrupts and (kind != "plan" or not g.plan):
        out += C.own_turn_plays(g, seat)
    if kind in OWN_TURN and not g.interrupts:
        out += _top_options(g, seat)
    return out


def _top_options(g: EaState, seat: int) -> list[Action]:
    """EA-6: another unit of a stack may be shown on top."""
    from .view import top_unit

    out: list[Action] = []
    for space in g.occupied():
        units = g.stack(space, seat)
        if len(units) > 1:
            top = top_unit(g, space, seat)
            out += [Top(unit_ref(u)) for u in units if u != top]
    return out


def _plan_options(g: EaState) -> list[Action]:
    out: list[Action] = []
    if not g.frozen:
        out += P.plan_moves(g)
        out += [Drop(unit_ref(u), at) for u, at in P.drop_options(g)]
        cards = deck()
        for cid in g.hands[g.current]:
            card = cards[cid]
            if card.effect.kind == "compel_move" and not P.card_uses(g, cid):
                out += [Compel(cid, at, s, d) for at, s, d in P.compel_targets(g, card)]
    if g.plan:
        out.append(Undo())
    out.append(Submit())
    return out


def _loss_options(g: EaState, seat: int) -> list[Action]:
    i = g.interrupts[0]
    out: list[Action] = []
    for at, rp in sorted(g.deposits.items()):
        if rp > 0 and g.control.get(at) == seat:
            out += [PayLoss(at, n) for n in range(1, min(rp, i.amount) + 1)]
    return out


def _left_to_deposit(g: EaState) -> int:
    placed = sum(rp for s, rp in g.deposits.items() if g.control.get(s) == g.current)
    return g.treasury[g.current] - placed


# ---------------------------------------------------------------------------- checking
def check(g: EaState, seat: int, action: Action) -> str | None:
    """Why ``action`` by ``seat`` is refused now, or ``None`` when it is legal."""
    kind = decision_of(g, seat)
    if kind is None:
        return _("It is not your decision now.")
    if isinstance(action, Top):
        if kind in OWN_TURN and not g.interrupts and action in _top_options(g, seat):
            return None
        return _("Show one of your units on top of its stack, in your own turn (EA-6).")
    if kind in OWN_TURN and isinstance(action, (PlayCard, PlayOn, PlayAt)):
        if g.interrupts or (kind == "plan" and g.plan):
            return _("Own-turn cards are played before the plan's first order (EA-15, EA-32).")
        return C.check_own_turn(g, seat, action)
    if kind == "plan":
        if isinstance(action, Move):
            return (
                _("Winter Quarters: no more moves this turn.")
                if g.frozen
                else P.check_move(g, action)
            )
        if isinstance(action, Drop):
            unit = unit_of(action.unit)
            if unit is None:
                return _("Name a unit as u<number>.")
            return P.check_drop(g, unit, action.at)
        if isinstance(action, Compel):
            return P.check_compel(g, action)
        if isinstance(action, Undo):
            return None if g.plan else _("Your plan has no order to take back.")
        if isinstance(action, Submit):
            return None
        return _("In the Move Phase, give orders (move, drop, compel), undo or submit.")
    if kind in ("w1", "w2"):
        return W.check_submission(g, seat, action)
    if action in options(g, seat, kind):
        return None
    return _refusal(kind)


def _refusal(kind: str) -> str:
    return {
        "setup": _("Place one of your drawn units in your home country (EA-3)."),
        "place": _("Place the unit in a Major City or Capital you hold (EA-29)."),
        "hand": _("Discard a card from your hand (EA-5)."),
        "loss": _("Pay from one of your deposits, no more than is owed (EA-28)."),
        "discard": _("Discard a card, play an own-turn card, or finish (EA-5)."),
        "answer": _("Play Lost Orders on a card it can cancel, or pass (EA-33)."),
        "battle": _("Choose one of the battles to fight (EA-16, EA-17)."),
        "cards": _("Play a card legal in this battle, or pass (EA-18)."),
        "sealed": _("Choose a card legal in this battle, or finish (EA-36)."),
        "casualties": _("Choose one of the units that may be lost now (EA-23)."),
        "capture": _("Choose one of the beaten player's ships (EA-33)."),
        "retreat": _("Retreat to an adjacent space with no other player's units (EA-24)."),
        "recruit": _("Buy a drawn chit you can afford and place it in a city you hold (EA-29)."),
        "upkeep": _("Disband a unit, or finish once every unit is supplied and paid (EA-30)."),
        "deposit": _("Leave RP in a Major City or Capital you hold (EA-28)."),
    }.get(kind, _("That action is not legal now."))


# ---------------------------------------------------------------------------- applying
def apply(g: EaState, seat: int, action: Action) -> list[Event]:
    """Check and apply ``action``; run the automatic steps that follow.

    Raises:
        GameOver, NotYourTurn, IllegalAction: the action is refused; nothing changed.
    """
    if g.over:
        raise GameOver(_("The game is over."))
    kind = decision_of(g, seat)
    if kind is None:
        raise NotYourTurn(_("It is not your decision now."))
    events: list[Event] = []
    if isinstance(action, Timeout):
        events.append(Event("timed_out", {"seat": seat, "decision": kind}))
        for _n in range(1000):
            if decision_of(g, seat) != kind or g.over:
                break
            from .suggest import default_action

            default = default_action(g, seat, kind)
            assert check(g, seat, default) is None, (kind, default)
            _do(g, seat, kind, default, events)
            advance(g, events)
        return events
    refusal = check(g, seat, action)
    if refusal is not None:
        raise IllegalAction(refusal)
    _do(g, seat, kind, action, events)
    advance(g, events)
    return events


def _do(g: EaState, seat: int, kind: str, action: Action, events: list[Event]) -> None:
    """Carry out a checked action of ``seat``'s decision of ``kind``."""
    g.projections.clear()
    if isinstance(action, (PlayCard, PlayOn, PlayAt)):
        C.play_own_turn(g, seat, action, events)
        return
    if isinstance(action, Top):
        uid = unit_of(action.unit)
        assert uid is not None
        u = g.units[uid]
        g.tops[f"{seat}|{u.space}"] = uid
        events.append(Event("top", {"seat": seat, "at": u.space, "unit": g.kind(uid).name}))
        return
    if kind == "setup":
        assert isinstance(action, Place)
        _setup_place(g, seat, action, events)
    elif kind == "place":
        assert isinstance(action, Place)
        uid = unit_of(action.chit)
        assert uid is not None
        g.gifts.remove(uid)
        g.put(uid, seat, action.at)
        events.append(Event("placed", {"seat": seat, "at": action.at}))
        if not g.gifts:
            g.interrupts.pop(0)
    elif kind == "hand":
        assert isinstance(action, Discard)
        C.spend(g, seat, action.card)
        events.append(Event("discarded", {"seat": seat, "cards": [action.card]}))
        if len(g.hands[seat]) <= HAND_LIMIT:
            g.interrupts.pop(0)
    elif kind == "loss":
        assert isinstance(action, PayLoss)
        i = g.interrupts[0]
        C.pay_from(g, seat, action.at, action.amount)
        i.amount -= action.amount
        i.paid += action.amount
        events.append(Event("loss_paid", {"seat": seat, "at": action.at, "amount": action.amount}))
        if i.amount == 0 or not _loss_options(g, seat):
            g.interrupts.pop(0)
            C.settle_loss(g, seat, i.paid, i.thief, events)
    elif kind == "discard":
        if isinstance(action, Discard):
            C.spend(g, seat, action.card)
            events.append(Event("discarded", {"seat": seat, "cards": [action.card]}))
        else:
            _draw_phase(g, events)
    elif kind == "plan":
        _plan_action(g, action, events)
    elif kind in ("w1", "w2"):
        W.submit(g, seat, action, events)
    elif kind == "answer":
        if g.step == "window":
            W.answer(g, seat, action, events)
        else:
            _battle_answer(g, seat, action, events)
    elif kind == "battle":
        assert isinstance(action, Fight)
        _start_battle(g, action.at, action.seat, events)
    elif kind == "cards":
        _exchange(g, seat, action, events)
    elif kind == "sealed":
        _sealed(g, seat, action, events)
    elif kind == "casualties":
        assert isinstance(action, Casualty)
        _casualty(g, action, events)
    elif kind == "capture":
        assert isinstance(action, Capture)
        _capture(g, action, events)
    elif kind == "retreat":
        assert isinstance(action, Retreat)
        _retreat(g, action.dest, events)
    elif kind == "recruit":
        _recruit(g, seat, action, events)
    elif kind == "upkeep":
        _upkeep(g, seat, action, events)
    elif kind == "deposit":
        assert isinstance(action, Deposit)
        g.deposits[action.at] = g.deposits.get(action.at, 0) + action.amount
        events.append(Event("deposited", {"seat": seat, "at": action.at, "amount": action.amount}))


# ---------------------------------------------------------------------------- setup
def _setup_place(g: EaState, seat: int, action: Place, events: list[Event]) -> None:
    uid = unit_of(action.chit)
    assert uid is not None
    g.drawn[seat].remove(uid)
    g.put(uid, seat, action.at)
    events.append(Event("placed", {"seat": seat, "at": action.at}))
    if g.drawn[seat]:
        return
    g.setup_seat += 1
    if g.setup_seat < g.player_count:
        return
    for s in range(g.player_count):
        C.draw(g, s, 5, "deal", events)
    g.round = 1
    events.append(Event("setup_done", {}))
    begin_turn(g, 0, events)


# ---------------------------------------------------------------------------- turns
def begin_turn(g: EaState, seat: int, events: list[Event]) -> None:
    """Start ``seat``'s turn: the per-turn marks are cleared (EA-4)."""
    g.current = seat
    g.turn += 1
    for u in g.units.values():
        u.moves, u.free_used, u.came_from, u.landed = 0, False, None, False
    g.turn_clock = g.clock
    g.income = {}
    g.card_revenue = 0
    g.plan = []
    g.window = None
    g.bans = []
    g.frozen = False
    g.battle = None
    g.bonus_drawn = False
    g.bought = 0
    g.interrupts = []
    events.append(Event("turn", {"seat": seat, "round": g.round}))
    g.step = "discard"
    if not g.hands[seat]:
        _draw_phase(g, events)


def _draw_phase(g: EaState, events: list[Event]) -> None:
    """EA-5: draw 5, then discard down to 7; the Move Phase follows."""
    C.draw(g, g.current, DRAW, "draw phase", events)
    C.enforce_limit(g, g.current)
    g.step = "plan"
    g.turn += 1


def end_turn(g: EaState, events: list[Event]) -> None:
    """The next player still in the game takes his turn; after the last seat, the round
    ends, and after the last round the game (EA-4, EA-35)."""
    n = g.player_count
    seat = g.current
    for _n in range(n):
        seat = (seat + 1) % n
        if seat == 0:
            if g.round == g.options.rounds:
                finish_by_count(g, events)
                return
            g.round += 1
        if not g.out[seat]:
            break
    begin_turn(g, seat, events)


# ---------------------------------------------------------------------------- the plan
def _plan_action(g: EaState, action: Action, events: list[Event]) -> None:
    if isinstance(action, Move):
        P.add_move(g, action)
    elif isinstance(action, Drop):
        unit = unit_of(action.unit)
        assert unit is not None
        P.add_drop(g, unit, action.at)
    elif isinstance(action, Compel):
        P.add_compel(g, action)
    elif isinstance(action, Undo):
        P.undo(g)
    else:
        events.append(Event("plan", {"seat": g.current, "orders": public_plan(g)}))
        _open_window(g, "w1", events)


def public_plan(g: EaState) -> list[dict[str, object]]:
    """The plan as everyone sees it once shown: the dropped units are counted, not named."""
    out = []
    for o in g.plan:
        d = o.to_dict()
        drops: dict[str, int] = {}
        for _unit, at in o.drops:
            drops[at] = drops.get(at, 0) + 1
        d["drops"] = [[at, n] for at, n in drops.items()]
        out.append(d)
    return out


def _open_window(g: EaState, name: str, events: list[Event]) -> None:
    g.step = "window"
    g.turn += 1
    w = Window(name)
    g.window = w
    seats = W.left_of(g)
    if g.options.fast_windows:
        seats = [s for s in seats if len(W.submissions(g, s)) > 1]
    w.pending = seats
    events.append(Event("window", {"window": name, "seats": seats[:]}))


def _window_progress(g: EaState, events: list[Event]) -> None:
    """Move a window on once everyone asked has answered."""
    w = g.window
    assert w is not None
    if w.pending:
        return
    if w.stage == "submit":
        W.reveal(g, events)
        W.open_answers(g)
        g.turn += 1
        if w.pending:
            return
    if w.name == "w1":
        W.resolve_w1(g, events)
        g.window = None
        _execute(g, events)
        _open_window(g, "w2", events)
    else:
        W.resolve_w2(g, events)
        g.window = None
        g.step = "battle"
        g.turn += 1


def _execute(g: EaState, events: list[Event]) -> None:
    """EA-15 step 3: carry out the orders in sequence."""
    me = g.current
    for n, o in enumerate(g.plan, start=1):
        data: dict[str, object] = {"seat": me, "number": n}
        if g.frozen:
            o.status = "cancelled"
        if o.status == "cancelled":
            _spend_free(g, o)
        elif o.kind == "compel":
            if o.seat in g.bans:
                o.status = "cancelled"
            elif P.compel_still_legal(g, o):
                P.compel(g, o)
                o.status = "done"
            else:
                o.status = "skipped"
        else:
            route = P.order_route(g, o, me, bans=g.bans)
            if isinstance(route, str):
                plain = P.order_route(g, o, me)
                o.status = "skipped" if isinstance(plain, str) else "cancelled"
                if o.status == "cancelled":
                    _spend_free(g, o)
            else:
                carry_out(g, route, counted=True, free=o.pay == "free")
                o.status = "done"
                data.update(route_data(route))
        data["status"] = o.status
        events.append(Event("order", data))
    for card in P.plan_cards(g):
        uses = P.card_uses(g, card)
        if any(o.status in ("done", "cancelled") for o in uses):
            C.spend(g, me, card)


def route_data(route: Route) -> dict[str, object]:
    """A carried-out move in public words: its shape and path, and for a sea move how
    many land units its ships carried."""
    data: dict[str, object] = {"shape": route.shape, "path": list(route.path)}
    if route.shape == "sea":
        data["carried"] = len(route.movers) - (len(route.ships) if route.sail else 0)
        data["ships"] = len(route.ships)
    return data


def _spend_free(g: EaState, o: Order) -> None:
    """A cancelled order's free move is spent (EA-15 step 3)."""
    if o.kind == "move" and o.pay == "free":
        found = unit_of(o.group)
        if found is not None and found in g.units:
            g.units[found].free_used = True


# ---------------------------------------------------------------------------- battles
def _start_battle(g: EaState, at: str, foe: int, events: list[Event]) -> None:
    b = Battle()
    b.at = at
    b.attacker, b.defender = B.sides(g, at, foe)
    b.kind = B.kind_of(g, at, b.attacker, b.defender)
    came = {g.units[u].came_from for u in g.stack(at, b.attacker)}
    b.entered = sorted(c for c in came if c is not None)
    g.battle = b
    g.step = "fight"
    g.turn += 1
    if g.options.sealed_battle_cards:
        b.stage = "sealed"
        b.pending = [b.attacker, b.defender]
    else:
        b.stage = "cards"
        b.next = b.attacker
    events.append(
        Event(
            "battle",
            {
                "at": at,
                "attacker": b.attacker,
                "defender": b.defender,
                "kind": b.kind,
                "stacks": {
                    str(s): [g.kind(u).name for u in g.stack(at, s)]
                    for s in (b.attacker, b.defender)
                },
            },
        )
    )


def _last_play(b: Battle) -> Play | None:
    return b.plays[-1] if b.plays and b.passes == 0 else None


def _exchange_options(g: EaState, seat: int) -> list[Action]:
    b = g.battle
    assert b is not None
    cards = deck()
    out: list[Action] = []
    for cid in g.hands[seat]:
        card = cards[cid]
        if not B.card_playable(g, b, seat, card):
            continue
        if card.effect.kind == "destroy_enemy_unit":
            out += [Destroy(cid, unit_ref(u)) for u in B.destroy_targets(g, b, seat, card)]
        else:
            out.append(BattleCard(cid))
    last = _last_play(b)
    if W.LOST_ORDERS in g.hands[seat] and last is not None and last.seat != seat:
        out.append(LostOrders(last.card))
    out.append(Pass())
    return out


def _exchange(g: EaState, seat: int, action: Action, events: list[Event]) -> None:
    """EA-18: one step of the alternating exchange."""
    b = g.battle
    assert b is not None
    if isinstance(action, Pass):
        b.passes += 1
        events.append(Event("battle_pass", {"seat": seat}))
        if b.passes >= 2:
            _resolve(g, events)
        else:
            b.next = b.other(seat)
        return
    if isinstance(action, LostOrders):
        play = Play(seat, W.LOST_ORDERS)
    else:
        assert isinstance(action, (BattleCard, Destroy))
        play = Play(seat, action.card)
    g.hands[seat].remove(play.card)
    g.table.append(play.card)
    b.plays.append(play)
    if isinstance(action, LostOrders):
        play.target = action.target
        _negate(g, b, b.plays[-2])
    elif isinstance(action, Destroy):
        uid = unit_of(action.unit)
        assert uid is not None
        _destroy(g, play, uid)
    events.append(Event("battle_card", _play_data(g, play)))
    b.passes = 0
    b.next = b.other(seat)


def _play_data(g: EaState, play: Play) -> dict[str, object]:
    data: dict[str, object] = {"seat": play.seat, "card": play.card}
    if play.target:
        data["target"] = play.target
    if play.removed:
        data["unit"] = g.kind(play.unit).name
    return data


def _destroy(g: EaState, play: Play, uid: int) -> None:
    """A destroy-card acts at once; a leader is set aside (EA-18, EA-21)."""
    play.unit = uid
    play.removed = g.units[uid].to_list()
    g.remove(uid, aside=g.kind(uid).leader)


def _negate(g: EaState, b: Battle, target: Play) -> None:
    """Lost Orders cancels ``target``; cancelling a Lost Orders restores its target."""
    target.negated = True
    if target.removed and target.unit not in g.units:
        g.restore(target.removed)
    if target.card == W.LOST_ORDERS:
        earlier = next(p for p in reversed(b.plays) if p.card == target.target and p is not target)
        earlier.negated = False
        if earlier.removed and earlier.unit in g.units:
            g.remove(earlier.unit, aside=g.kind(earlier.unit).leader)


def _sealed_options(g: EaState, seat: int) -> list[Action]:
    b = g.battle
    assert b is not None
    chosen = {p.card for p in b.plays if p.seat == seat}
    cards = deck()
    out: list[Action] = []
    for cid in g.hands[seat]:
        card = cards[cid]
        if cid in chosen or not B.card_playable(g, b, seat, card):
            continue
        if card.effect.kind == "destroy_enemy_unit":
            taken = {p.unit for p in b.plays if p.seat == seat}
            out += [
                Destroy(cid, unit_ref(u))
                for u in B.destroy_targets(g, b, seat, card)
                if u not in taken
            ]
        else:
            out.append(BattleCard(cid))
    out.append(Done())
    return out


def _sealed(g: EaState, seat: int, action: Action, events: list[Event]) -> None:
    """EA-36, Sealed battle cards: choose in secret; reveal together; one Lost Orders
    round, attacker first."""
    b = g.battle
    assert b is not None
    if not isinstance(action, Done):
        assert isinstance(action, (BattleCard, Destroy))
        play = Play(seat, action.card)
        if isinstance(action, Destroy):
            uid = unit_of(action.unit)
            assert uid is not None
            play.unit = uid
        b.plays.append(play)
        events.append(Event("submitted", {"card": play.card}, to=seat))
        return
    b.pending.remove(seat)
    events.append(Event("battle_pass", {"seat": seat}))
    if b.pending:
        return
    b.plays.sort(key=lambda p: 0 if p.seat == b.attacker else 1)
    for p in b.plays:
        g.hands[p.seat].remove(p.card)
        g.table.append(p.card)
        if p.unit >= 0:
            if p.unit in g.units:
                _destroy(g, p, p.unit)
            else:
                p.unit = -1
    events.append(Event("sealed_revealed", {"plays": [_play_data(g, p) for p in b.plays]}))
    b.stage = "answer"
    b.pending = [b.attacker, b.defender]
    g.turn += 1


def _battle_answers(g: EaState, seat: int) -> list[Action]:
    b = g.battle
    assert b is not None
    out: list[Action] = []
    if W.LOST_ORDERS in g.hands[seat]:
        out += [LostOrders(p.card) for p in b.plays if p.seat != seat and not p.negated]
    out.append(Pass())
    return out


def _battle_answer(g: EaState, seat: int, action: Action, events: list[Event]) -> None:
    b = g.battle
    assert b is not None
    b.pending.pop(0)
    if isinstance(action, LostOrders):
        play = Play(seat, W.LOST_ORDERS)
        play.target = action.target
        g.hands[seat].remove(W.LOST_ORDERS)
        g.table.append(W.LOST_ORDERS)
        target = next(p for p in b.plays if p.card == action.target)
        b.plays.append(play)
        _negate(g, b, target)
        events.append(Event("battle_card", _play_data(g, play)))
    else:
        events.append(Event("battle_pass", {"seat": seat}))
    if not b.pending:
        _resolve(g, events)


def _resolve(g: EaState, events: list[Event]) -> None:
    """EA-20 to EA-23: totals, the winner, reputation, and the losses to choose."""
    b = g.battle
    assert b is not None
    att, dfn = g.stack(b.at, b.attacker), g.stack(b.at, b.defender)
    if not att or not dfn:
        b.winner = b.attacker if att else b.defender
        b.loser = b.other(b.winner)
        b.result = {
            "winner": b.winner,
            "empty": True,
            "at": b.at,
            "sides": [b.attacker, b.defender],
        }
        _reputation(g, b)
        events.append(Event("battle_result", dict(b.result)))
        _after_casualties(g, events)
        return
    a, d = B.breakdown(g, b, b.attacker), B.breakdown(g, b, b.defender)
    b.winner = B.winner_of(a, d, b)
    b.loser = b.other(b.winner)
    losses = B.losses(g, b, b.winner)
    _reputation(g, b)
    forts = [u for u in g.stack(b.at, b.loser) if g.kind(u).fort]
    for uid in forts:
        g.remove(uid)
    rest = min(max(losses.loser - losses.forts, 0), len(g.stack(b.at, b.loser)))
    b.result = {
        "winner": b.winner,
        "at": b.at,
        "sides": [b.attacker, b.defender],
        "attacker": a.to_dict(),
        "defender": d.to_dict(),
        "base": losses.base,
        "loser_loses": max(losses.loser, losses.forts),
        "winner_loses": losses.winner,
        "forts": losses.forts,
        "picks": [1 if rest else 0, max(rest - 1, 0), losses.winner],
    }
    events.append(Event("battle_result", dict(b.result)))
    b.stage = "first"
    b.left = 1 if rest else 0
    if not _casualty_pool(g):
        b.result["picks"][1] += b.left  # EA-36: a protected leader: the loser picks all
        b.left = 0
    _next_casualty_stage(g, events)


def _reputation(g: EaState, b: Battle) -> None:
    """EA-21, C11: every leader in the winning stack gains +1."""
    for uid in g.stack(b.at, b.winner):
        if g.kind(uid).leader:
            g.units[uid].rep += 1


def _casualty_pool(g: EaState) -> list[int]:
    b = g.battle
    assert b is not None
    if b.stage == "own":
        return list(g.stack(b.at, b.winner))
    pool = list(g.stack(b.at, b.loser))
    if b.stage == "first" and g.options.protected_leaders:
        pool = [u for u in pool if not g.kind(u).leader]
    return pool


def _next_casualty_stage(g: EaState, events: list[Event]) -> None:
    """Move through the winner's first pick, the loser's picks and the winner's own,
    taking them without asking when there is no choice."""
    b = g.battle
    assert b is not None
    stages = ["first", "losses", "own"]
    while True:
        pool = _casualty_pool(g)
        if b.left > 0 and len(pool) > b.left:
            return
        for uid in pool[: b.left]:
            _lose(g, b, uid, events)
        i = stages.index(b.stage)
        if i == 2:
            break
        b.stage = stages[i + 1]
        b.left = b.result["picks"][i + 1]
        g.turn += 1
    _after_casualties(g, events)


def _lose(g: EaState, b: Battle, uid: int, events: list[Event]) -> None:
    k = g.kind(uid)
    owner = g.units[uid].owner
    if owner == b.loser and k.type == "S":
        b.lost_ships.append(uid)
    g.remove(uid, aside=k.leader)
    events.append(Event("casualty", {"seat": owner, "unit": k.name, "aside": k.leader}))


def _casualty(g: EaState, action: Casualty, events: list[Event]) -> None:
    b = g.battle
    assert b is not None
    uid = unit_of(action.unit)
    assert uid is not None
    _lose(g, b, uid, events)
    b.left -= 1
    if b.left == 0 or not _casualty_pool(g):
        b.left = 0
        _next_casualty_stage(g, events)


def _capture_pool(g: EaState) -> list[int]:
    b = g.battle
    assert b is not None
    ships = [u for u in g.stack(b.at, b.loser) if g.kind(u).type == "S"]
    if ships:
        return ships
    pile = g.piles[g.chits.origin[b.lost_ships[0]]] if b.lost_ships else []
    return [u for u in b.lost_ships if u in pile]


def _after_casualties(g: EaState, events: list[Event]) -> None:
    """EA-33 Capture Ship, then EA-24 retreat."""
    b = g.battle
    assert b is not None
    captured = any(
        p.seat == b.winner and not p.negated and deck()[p.card].effect.kind == "capture_ship"
        for p in b.plays
    )
    if captured and _capture_pool(g):
        b.stage = "capture"
        g.turn += 1
        return
    _to_retreat(g, events)


def _capture(g: EaState, action: Capture, events: list[Event]) -> None:
    b = g.battle
    assert b is not None
    uid = unit_of(action.unit)
    assert uid is not None
    if uid in g.units:
        g.change_owner(uid, b.winner)
    else:
        g.piles[g.chits.origin[uid]].remove(uid)
        g.put(uid, b.winner, b.at)
    events.append(Event("captured", {"seat": b.winner, "unit": g.kind(uid).name}))
    _to_retreat(g, events)


def _to_retreat(g: EaState, events: list[Event]) -> None:
    b = g.battle
    assert b is not None
    if not g.stack(b.at, b.loser):
        _end_battle(g, events)
        return
    spaces = B.retreat_spaces(g, b)
    if len(spaces) == 1:
        _retreat(g, spaces[0], events)
    elif not spaces:
        for uid in list(g.stack(b.at, b.loser)):
            _lose(g, b, uid, events)
        events.append(Event("no_retreat", {"seat": b.loser, "at": b.at}))
        _end_battle(g, events)
    else:
        b.stage = "retreat"
        g.turn += 1


def _retreat(g: EaState, dest: str, events: list[Event]) -> None:
    """EA-24: the survivors move together one space (not a move)."""
    b = g.battle
    assert b is not None
    for uid in list(g.stack(b.at, b.loser)):
        g.relocate(uid, dest)
    events.append(Event("retreated", {"seat": b.loser, "from": b.at, "to": dest}))
    _end_battle(g, events)


def _end_battle(g: EaState, events: list[Event]) -> None:
    """EA-26: both participants draw up to 7."""
    b = g.battle
    assert b is not None
    g.discard += g.table
    g.table = []
    for s in (b.attacker, b.defender):
        if not g.out[s]:
            C.draw_up_to(g, s, "after battle", events)
    g.battle = None
    g.step = "battle"
    g.turn += 1


# ---------------------------------------------------------------------------- economy
def _revenue_and_recruit(g: EaState, events: list[Event]) -> None:
    """EA-27, then EA-29's draw."""
    me = g.current
    g.income = E.income(g, me)
    total = sum(g.income.values())
    g.treasury[me] += total
    events.append(Event("revenue", {"seat": me, "amount": total}))
    got = C.draw_chits(g, me, RECRUIT_DRAW, "recruiting")
    g.drawn[me] = got
    _announce_draw(g, me, got, events)
    g.step = "recruit"
    g.turn += 1


def _announce_draw(g: EaState, seat: int, got: list[int], events: list[Event]) -> None:
    events.append(Event("chits_drawn", {"seat": seat, "count": len(got)}))
    if got:
        events.append(Event("recruits", {"chits": got[:], "names": g.names_of(got)}, to=seat))


def _recruit(g: EaState, seat: int, action: Action, events: list[Event]) -> None:
    if isinstance(action, Done):
        g.piles[seat] += g.drawn[seat]
        g.piles[seat].sort()
        g.drawn[seat] = []
        g.step = "upkeep"
        g.turn += 1
        return
    assert isinstance(action, Buy)
    uid = unit_of(action.chit)
    assert uid is not None
    cost = g.kind(uid).force
    g.treasury[seat] -= cost
    g.drawn[seat].remove(uid)
    g.put(uid, seat, action.at)
    g.bought += 1
    events.append(Event("recruited", {"seat": seat, "at": action.at, "cost": cost}))
    if not g.drawn[seat] and not g.bonus_drawn:
        g.bonus_drawn = True
        extra = C.roll(g, "1d6", "recruiting", events)
        got = C.draw_chits(g, seat, extra, "recruiting")
        g.drawn[seat] = got
        _announce_draw(g, seat, got, events)


def _upkeep(g: EaState, seat: int, action: Action, events: list[Event]) -> None:
    if isinstance(action, Disband):
        uid = unit_of(action.unit)
        assert uid is not None
        name = g.kind(uid).name
        at = g.units[uid].space
        g.remove(uid)
        events.append(Event("disbanded", {"seat": seat, "at": at}))
        events.append(Event("disbanded_named", {"seat": seat, "at": at, "unit": name}, to=seat))
        return
    count = len(g.units_of(seat))
    g.treasury[seat] -= count
    events.append(Event("upkeep_paid", {"seat": seat, "amount": count}))
    for space in [s for s, _amount in g.deposits.items() if g.control.get(s) == seat]:
        del g.deposits[space]
    g.step = "deposit"
    g.turn += 1


def _deposit_auto(g: EaState, events: list[Event]) -> bool:
    """EA-28: place the leftover without asking when there is no choice; True when the
    step is over."""
    me = g.current
    left = _left_to_deposit(g)
    cities = E.home_cities(g, me)
    if left <= 0:
        return True
    if not cities:
        g.treasury[me] -= left
        events.append(Event("savings_lost", {"seat": me, "amount": left}))
        return True
    if len(cities) == 1:
        g.deposits[cities[0]] = g.deposits.get(cities[0], 0) + left
        events.append(Event("deposited", {"seat": me, "at": cities[0], "amount": left}))
        return True
    return False


def _control(g: EaState, events: list[Event]) -> None:
    """EA-31: the active player's marker goes where his units are alone; deposits there
    change hands with the city (EA-28)."""
    me = g.current
    taken = []
    for space in g.occupied():
        if space in g.map.seas or g.control.get(space) == me:
            continue
        if g.seats_at(space) == [me]:
            before = g.control.get(space)
            if before is not None and space in g.deposits:
                g.treasury[before] -= g.deposits[space]
                g.treasury[me] += g.deposits[space]
            g.control[space] = me
            taken.append(space)
    events.append(Event("control", {"seat": me, "taken": taken}))


# ---------------------------------------------------------------------------- advance
def advance(g: EaState, events: list[Event]) -> None:
    """Run the steps that need no decision until someone must decide (or the game ends)."""
    for _n in range(10_000):
        _eliminate(g, events)
        if g.over or g.interrupts:
            return
        step = g.step
        if step == "window":
            w = g.window
            assert w is not None
            if w.pending:
                return
            _window_progress(g, events)
        elif step == "battle":
            due = B.battles_due(g)
            if not due:
                _revenue_and_recruit(g, events)
            elif len(due) == 1:
                _start_battle(g, due[0][0], due[0][1], events)
            else:
                return
        elif step == "deposit":
            if _deposit_auto(g, events) or _left_to_deposit(g) <= 0:
                _control(g, events)
                end_turn(g, events)
            else:
                return
        else:
            return
    raise AssertionError("the automatic steps did not settle")


def _eliminate(g: EaState, events: list[Event]) -> None:
    """EA-35, C9: a player with no units left is out at once."""
    if g.step == "setup" or g.over:
        return
    gone = []
    for seat in range(g.player_count):
        if g.out[seat] or any(u.owner == seat for u in g.units.values()):
            continue
        gone.append(seat)
        g.out[seat] = True
        for space in [s for s, o in g.control.items() if o == seat]:
            del g.control[space]
            g.deposits.pop(space, None)
        g.treasury[seat] = 0
        g.discard += g.hands[seat]
        g.hands[seat] = []
        g.piles[seat] += g.drawn[seat]
        g.drawn[seat] = []
        if seat == g.current and g.gifts:
            g.piles[seat] += g.gifts
            g.gifts = []
        g.piles[seat].sort()
        g.interrupts = [i for i in g.interrupts if i.seat != seat]
        events.append(Event("eliminated", {"seat": seat}))
        if g.window is not None:
            if seat in g.window.pending:
                g.window.pending.remove(seat)
            g.window.reactions = [r for r in g.window.reactions if r.seat != seat]
        b = g.battle
        if b is not None and seat in (b.attacker, b.defender):
            g.discard += g.table
            g.table = []
            g.battle = None
            g.step = "battle"
    alive = [s for s in range(g.player_count) if not g.out[s]]
    teams = {team_of(g, s) for s in alive}
    if len(teams) <= 1:
        if not alive:  # the last players fell together: they share the win
            teams = {team_of(g, s) for s in gone}
        winners = [s for s in range(g.player_count) if team_of(g, s) in teams]
        _game_over(g, winners, "last standing", events)
        return
    if g.out[g.current]:
        g.interrupts = []
        g.window = None
        g.battle = None
        end_turn(g, events)


def team_of(g: EaState, seat: int) -> int:
    """EA-36 Teams: even and odd seats; otherwise every player is his own side."""
    return seat % 2 if g.options.teams else seat


def finish_by_count(g: EaState, events: list[Event]) -> None:
    """EA-35: after the last round, the most territories wins; ties go to revenue, then
    units in play; a tie after that shares the win (per team with Teams)."""
    totals: dict[int, tuple[int, int, int]] = {}
    for s in range(g.player_count):
        t = team_of(g, s)
        a, b, c = E.score(g, s)
        x, y, z = totals.get(t, (0, 0, 0))
        totals[t] = (x + a, y + b, z + c)
    best = max(totals.values())
    teams = {t for t, v in totals.items() if v == best}
    winners = [s for s in range(g.player_count) if team_of(g, s) in teams]
    _game_over(g, winners, "territories", events)


def _game_over(g: EaState, winners: list[int], reason: str, events: list[Event]) -> None:
    g.winners = winners
    g.end_reason = reason
    g.step = "over"
    g.interrupts = []
    g.window = None
    g.battle = None
    events.append(Event("game_over", {"winners": winners, "reason": reason}))
