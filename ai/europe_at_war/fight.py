"""A computer player's battles and reactions.

- **Battle cards** (EA-18): played only while behind: the cheapest card that puts the
  player ahead, else the one that gains the most; Lost Orders is kept for the
  opponent's multipliers (a x2 of his, a halving of mine). With sealed cards (EA-36)
  the cards are chosen the same way, as if the opponent plays none.
- **Windows** (EA-15, EA-33): the planned move that threatens the most of the player's
  revenue (the territories it would claim, his stack it would attack) is negated;
  Diplomacy or Winter Quarters answers a plan that threatens a lot; Avoid Battle takes
  a stack out of a battle it would lose; Interdiction sends a group into a stack of the
  active player it clearly outweighs.
- **Casualties** (EA-23): the winner's first pick is the enemy leader, else the
  strongest unit; every other pick is the picker's weakest unit, leaders last.
- **Retreat** (EA-24): toward the player's own units and territory, away from others.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules.europe_at_war.actions import (
    Avoid,
    BattleCard,
    Capture,
    Casualty,
    Destroy,
    Done,
    Fight,
    Interdict,
    LostOrders,
    Negate,
    Pass,
    React,
    Retreat,
)
from rules.europe_at_war.data import Card, deck
from rules.europe_at_war.suggest import card_value
from rules.europe_at_war.view import BattleView, UnitView

from .knowledge import Knowledge, kind_of, unit_force

THREAT = 4
"""Revenue (with 5 for a stack attacked) a move must threaten to be negated."""
ATTACK_MARGIN = 1.5
"""Interdiction only into a stack this much weaker."""
AVOID_ODDS = 0.7
"""A stack weaker than this share of the active player's leaves its battle."""


# ---------------------------------------------------------------------------- battles
def on_battle(k: Knowledge, legal: list[Any]) -> Any:
    """The battle with the best odds first (EA-17)."""
    fights = [a for a in legal if isinstance(a, Fight)]
    return max(fights, key=lambda a: (odds(k, a.at, a.seat), a.at, a.seat))


def odds(k: Knowledge, at: str, seat: int) -> float:
    """My Force at ``at`` over ``seat``'s there."""
    return k.my_force(at) / max(1.0, k.foe_force(at, seat))


def _sides(k: Knowledge, b: BattleView) -> tuple[int, int, bool]:
    """(my total, theirs, True when I win as things stand: a tie is the defender's)."""
    att, dfn = b.totals
    if k.me == b.attacker:
        return att, dfn, att > dfn
    return dfn, att, dfn >= att


def on_cards(k: Knowledge, legal: list[Any]) -> Any:
    """EA-18: Lost Orders on the opponent's multiplier; while behind, the cheapest card
    that puts me ahead, else the one that gains the most."""
    b = k.view.battle
    assert b is not None
    cards = deck()
    if b.plays and b.plays[-1]["seat"] != k.me and not b.plays[-1]["negated"]:
        last = cards[b.plays[-1]["card"]]
        lost = LostOrders(last.id)
        if lost in legal and last.effect.kind == "force_multiply":
            return lost
    mine, theirs, ahead = _sides(k, b)
    if ahead:
        return Pass()
    plays = [a for a in legal if isinstance(a, (BattleCard, Destroy))]
    if not plays:
        return Pass()
    gains = [(swing(k, b, a, mine, theirs), a) for a in plays]
    need = theirs - mine + (1 if k.me == b.attacker else 0)
    enough = [(card_value(cards[a.card]), a.card, a) for g, a in gains if g >= need]
    if enough:
        return min(enough, key=lambda t: (t[0], t[1]))[2]
    return max(gains, key=lambda t: (t[0], t[1].card))[1]


def swing(k: Knowledge, b: BattleView, action: Any, mine: int, theirs: int) -> float:
    """How much a battle card would move the totals my way."""
    card: Card = deck()[action.card]
    e = card.effect
    own = _stack(k, b, k.me)
    foe = _stack(k, b, b.defender if k.me == b.attacker else b.attacker)
    if e.kind == "force_per_unit":
        target = own if e.who == "own" else foe
        n = sum(1 for u in target if kind_of(u.kind).classes & e.classes)
        return float(abs(e.amount) * n)
    if e.kind == "force_flat":
        return float(abs(e.amount))
    if e.kind == "force_multiply":
        if e.who == "own":
            return float(mine * (e.factor - 1))
        return float(theirs * (1 - e.factor))
    if e.kind == "destroy_enemy_unit":
        uid = int(action.unit[1:])
        return float(next((unit_force(u) + 5 for u in foe if u.unit == uid), 5))
    return 0.5


def _stack(k: Knowledge, b: BattleView, seat: int) -> list[UnitView]:
    for s in k.view.stacks:
        if s.space == b.at and s.seat == seat:
            return list(s.units or ())
    return []


def on_sealed(k: Knowledge, legal: list[Any]) -> Any:
    """EA-36 sealed cards: add cards while behind (counting those chosen), at most 3."""
    b = k.view.battle
    assert b is not None
    chosen = [p for p in b.plays if p["seat"] == k.me]
    if len(chosen) >= 3:
        return Done()
    mine, theirs, _ = _sides(k, b)
    for p in chosen:
        mine += int(_play_gain(k, b, p, mine, theirs))
    if mine > theirs * Fraction(13, 10):
        return Done()
    plays = [a for a in legal if isinstance(a, (BattleCard, Destroy))]
    if not plays:
        return Done()
    return max(plays, key=lambda a: (swing(k, b, a, mine, theirs), a.card))


def _play_gain(k: Knowledge, b: BattleView, play: dict[str, Any], mine: int, theirs: int) -> float:
    card = deck()[play["card"]]
    if card.effect.kind == "destroy_enemy_unit":
        return 5.0
    return swing(k, b, BattleCard(card.id), mine, theirs)


def on_answer(k: Knowledge, legal: list[Any]) -> Any:
    """Lost Orders: in a battle on the opponent's multiplier; in a window on a card that
    would cancel my move (as the active player) or on the plan's card for the move
    that threatens me most."""
    lost = [a for a in legal if isinstance(a, LostOrders)]
    if not lost:
        return Pass()
    cards = deck()
    if k.view.battle is not None:
        for a in lost:
            if cards[a.target].effect.kind == "force_multiply":
                return a
        return Pass()
    if k.me == k.view.current:
        for a in lost:
            if cards[a.target].effect.kind in ("ban_all_moves", "negate_move"):
                return a
        return Pass()
    plan = k.view.plan or ()
    worst = max(plan, key=lambda o: threat(k, o), default=None)
    if worst is not None and threat(k, worst) >= 2 * THREAT:
        for a in lost:
            if a.target in (worst.get("pay"), worst.get("card")):
                return a
    return Pass()


def on_casualties(k: Knowledge, legal: list[Any]) -> Any:
    """EA-23: the first pick takes the enemy leader (else the strongest unit); other
    picks are the picker's weakest units, leaders last."""
    b = k.view.battle
    assert b is not None
    units = {u.unit: u for s in k.view.stacks if s.space == b.at for u in (s.units or ())}

    def rank(a: Casualty) -> tuple[int, int, str]:
        u = units.get(int(a.unit[1:]))
        if u is None:
            return (0, 0, a.unit)
        return (1 if u.type in ("G", "D") else 0, unit_force(u), a.unit)

    options = [a for a in legal if isinstance(a, Casualty)]
    if b.stage == "first":
        return max(options, key=rank)
    return min(options, key=rank)


def on_capture(k: Knowledge, legal: list[Any]) -> Any:
    """EA-33 Capture Ship: the first ship offered (the beaten player's)."""
    return next(a for a in legal if isinstance(a, Capture))


def on_retreat(k: Knowledge, legal: list[Any]) -> Any:
    """EA-24: toward my units, then my territory, away from other players' stacks."""
    options = [a for a in legal if isinstance(a, Retreat)]

    def rank(a: Retreat) -> tuple[bool, bool, int, str]:
        near = k.map.steps[a.dest]
        danger = sum(1 for n in near if n in k.foes)
        return (a.dest in k.mine, k.owner(a.dest) == k.me, -danger, a.dest)

    return max(options, key=rank)


# ---------------------------------------------------------------------------- windows
def threat(k: Knowledge, order: dict[str, Any]) -> int:
    """The revenue of mine a planned order would take (the territories where its group
    ends or drops units) and my stacks it would attack (5 each)."""
    if order["kind"] != "move":
        dest = order.get("dest", "")
        return 5 if dest in k.mine else 0
    path = order.get("path") or []
    if not path:
        return 0
    spaces = [path[-1]] + [d[0] for d in order.get("drops", ()) if d[0] != path[0]]
    out = 0
    for space in spaces:
        t = k.map.territories.get(space)
        if t is not None and k.owner(space) == k.me:
            out += t.revenue
        if space in k.mine:
            out += 5
    return out


def on_w1(k: Knowledge, legal: list[Any]) -> Any:
    """Negate the most threatening move; Diplomacy or Winter Quarters against a plan
    that threatens a lot."""
    plan = k.view.plan or ()
    best, most = None, THREAT - 1
    for a in legal:
        if isinstance(a, Negate):
            t = threat(k, plan[a.order - 1])
            if t > most:
                best, most = a, t
    if best is not None:
        return best
    total = sum(threat(k, o) for o in plan)
    reacts = [a for a in legal if isinstance(a, React)]
    if reacts and total >= 2 * THREAT:
        return min(reacts, key=lambda a: a.card)
    return Done()


def on_w2(k: Knowledge, legal: list[Any]) -> Any:
    """Avoid a battle I would lose; interdict a stack I clearly outweigh."""
    current = k.view.current
    for a in legal:
        if isinstance(a, Avoid) and odds(k, a.at, current) < AVOID_ODDS:
            return a
    best, margin = None, ATTACK_MARGIN
    for a in legal:
        if isinstance(a, Interdict):
            start = _group_space(k, a.group)
            ratio = k.my_force(start) / max(1.0, k.foe_force(a.dest, current))
            if ratio >= margin:
                best, margin = a, ratio
    return best if best is not None else Done()


def _group_space(k: Knowledge, group: str) -> str:
    if group.startswith("fleet:"):
        return group[len("fleet:") :]
    uid = int(group[1:])
    return next((s for s, units in k.mine.items() if any(u.unit == uid for u in units)), "")
