"""A fast, lightly informed policy: the moves of hard search's playouts and its model of
the other players.

It acts only on what the acting seat could know in the (determinized) state — its own
hand and the public board — and costs a fraction of a millisecond: it takes a win in
one, blocks an opponent's win in one, keeps a piece at home, and otherwise draws among
sensible kinds of action with weights (conscript, advance on a target, attack with the
odds, arm when short of cards).
"""

from __future__ import annotations

import random

from rules.pyramids import (
    Action,
    Attack,
    GameState,
    LetPass,
    Move,
    Retreat,
    Sabotage,
    Spy,
    StopAttack,
)
from rules.pyramids import cards as C
from rules.pyramids.state import DIPLOMACY, DUEL, RETREAT, SETUP

from .boardinfo import BoardInfo
from .duelmath import mean_strength, top_sum
from .duelplay import VALUE, duel_choice
from .evaluate import CARD_LIMIT, info_of, take_chance
from .placement import placement
from .tactics import can_leave, finishing_attacks, home_count, last_fields, winning_moves


def light_action(g: GameState, seat: int, rng: random.Random) -> Action:
    """A quick, reasonable action for ``seat`` (who must decide in ``g``)."""
    info = info_of(g)
    phase = g.phase
    if phase == SETUP:
        return placement(g, info, seat)
    if phase == DIPLOMACY:
        return light_diplomacy(g, info, seat)
    if phase == DUEL:
        return duel_choice(g, seat)
    if phase == RETREAT:
        return light_retreat(g, info, seat)
    return light_turn(g, info, seat, rng)


def attack_chance(g: GameState, seat: int, src: str, dst: str) -> float:
    """``seat``'s rough chance to win an attack from ``src`` on ``dst`` (its own hand
    against an average hand of the defender's size)."""
    size = g.pieces[src][1]
    defender, dsize = g.pieces[dst]
    if g.variant != "european_war":
        return take_chance(g.variant, size, dsize)
    mine = top_sum(g.hands[seat], CARD_LIMIT[size])
    theirs = mean_strength(len(g.hands[defender]), CARD_LIMIT[dsize])
    margin = mine - theirs
    return max(0.02, min(0.98, 0.5 + margin / 10))


def would_win_by_attack(g: GameState, info: BoardInfo, attacker: int, src: str, dst: str) -> bool:
    """True when the attack, if won, ends the game in the attacker's favour or makes the
    defender fall (which ends the game too)."""
    power = info.owner[dst]
    finishing = any(field == dst for _p, field in last_fields(g, info, attacker))
    if finishing and info.owner[src] != power:
        return True
    defender = g.pieces[dst][0]
    return dst in g.home_fields(defender) and home_count(g, defender) == 1


def light_diplomacy(g: GameState, info: BoardInfo, seat: int) -> Action:
    """Stop the attack with K (or A) when it could end the game without this seat among
    the winners; otherwise let it pass."""
    ranks = {C.rank(c) for c in g.hands[seat]}
    if C.KING not in ranks and C.ACE not in ranks:
        return LetPass()
    b = g.battle
    assert b is not None
    if not would_win_by_attack(g, info, b.attacker, b.src, b.dst):
        return LetPass()
    defender_falls = b.dst in g.home_fields(b.defender) and home_count(g, b.defender) == 1
    if defender_falls and g.previous_seat(b.defender) == seat:
        finishing = any(f == b.dst for _p, f in last_fields(g, info, b.attacker))
        if not finishing:
            return LetPass()
    return StopAttack(C.KING not in ranks)


def light_retreat(g: GameState, info: BoardInfo, seat: int) -> Action:
    """Retreat onto an own home field if possible, else towards home."""
    b = g.battle
    assert b is not None
    home = g.home_fields(seat)
    best = min(
        b.retreat_options,
        key=lambda f: (0 if f in home else 1, min(info.dist[f].get(h, 9) for h in home)),
    )
    return Retreat(best)


def _target_fields(g: GameState, info: BoardInfo, seat: int) -> list[str]:
    """The fields of the power ``seat`` is closest to holding that it lacks."""
    pieces = g.pieces
    mine = [f for f, (s, _z) in pieces.items() if s == seat]
    best: list[str] = []
    best_cost = 1e9
    dist = info.dist
    owner = info.owner
    own = g.seats[seat]
    for power in info.board.power_order:
        if power == own:
            continue
        cost = 0.0
        lacking = []
        for f in info.board.powers[power].fields:
            p = pieces.get(f)
            if p is not None and p[0] == seat:
                continue
            lacking.append(f)
            row = dist[f]
            cost += min((row[m] for m in mine if owner[m] != power), default=9)
            if p is not None:
                cost += 1.5
        if cost < best_cost:
            best_cost, best = cost, lacking
    return best


class _Hand:
    """``seat``'s duel strength by card limit, computed once per decision."""

    __slots__ = ("tops",)

    def __init__(self, hand: list[int]) -> None:
        vals = sorted((VALUE[c] for c in hand), reverse=True)
        self.tops = (0, sum(vals[:1]), sum(vals[:2]), sum(vals[:3]))


def _chance(g: GameState, hand: _Hand, src: str, dst: str) -> float:
    size = g.pieces[src][1]
    defender, dsize = g.pieces[dst]
    if g.variant != "european_war":
        return take_chance(g.variant, size, dsize)
    margin = hand.tops[size] - mean_strength(len(g.hands[defender]), CARD_LIMIT[dsize])
    return max(0.02, min(0.98, 0.5 + margin / 10))


def light_turn(g: GameState, info: BoardInfo, seat: int, rng: random.Random) -> Action:
    """The turn: win, block, stay at home, then a weighted draw among sensible actions."""
    acts = g.legal_actions(seat)
    legal = set(acts)
    lacking = [last_fields(g, info, t) if not g.eliminated[t] else [] for t in range(len(g.seats))]
    for mv in winning_moves(g, info, seat, lacking[seat]):
        if mv in legal:
            return mv
    ew = g.variant == "european_war"
    hand = _Hand(g.hands[seat])
    for at in finishing_attacks(g, info, seat, lacking[seat]):
        if at in legal and _chance(g, hand, at.src, at.dst) > 0.45:
            return at
    homes = home_count(g, seat)
    home = g.home_fields(seat)
    pieces = g.pieces
    block = _block(g, info, seat, legal, homes, lacking, hand)
    if block is not None:
        return block
    if ew and not g.special_over and not g.sabotage_used:
        for a in acts:
            if isinstance(a, Sabotage) and not a.ace:
                return a
    targets = _target_fields(g, info, seat)
    tdist: dict[str, int] = {}

    def to_target(f: str) -> int:
        d = tdist.get(f)
        if d is None:
            row = info.dist[f]
            d = tdist[f] = min((row[t] for t in targets), default=9)
        return d

    cards = len(g.hands[seat])
    weights: list[float] = []
    for a in acts:
        kind = a.kind
        w = 0.0
        if kind == "move":
            src = a.src  # type: ignore[attr-defined]  # by kind
            if not can_leave(g, seat, src, homes):
                w = 0.0
            elif targets and to_target(a.dst) < to_target(src):  # type: ignore[attr-defined]  # by kind
                w = 1.2 if src not in home or homes > 2 else 0.4
            else:
                w = 0.1
        elif kind in ("conscript", "build", "grow"):
            w = 1.5 if a.field in pieces else 4.0 if homes < 2 else 2.5  # type: ignore[attr-defined]  # by kind
        elif kind == "attack":
            src, dst = a.src, a.dst  # type: ignore[attr-defined]  # by kind
            if not can_leave(g, seat, src, homes) and dst not in home:
                w = 0.0
            else:
                p = _chance(g, hand, src, dst)
                if ew and p < 0.55:
                    w = 0.03
                else:
                    takes = _takes_field(g, info, dst)
                    useful = dst in home or dst in targets
                    w = p * p * (2.5 if takes and useful else 1.0 if takes or useful else 0.5)
        elif kind == "arm":
            w = 3.0 if cards <= 3 else 1.2 if cards <= 6 else 0.5
        elif kind == "pass":
            w = 0.1 if len(acts) > 1 else 1.0
        weights.append(w)
    total = sum(weights)
    if total <= 0:
        fallback = [a for a in acts if not isinstance(a, Spy | Sabotage)]
        return fallback[-1] if fallback else acts[0]
    return rng.choices(acts, weights)[0]


def _takes_field(g: GameState, info: BoardInfo, dst: str) -> bool:
    """True when winning an attack on ``dst`` would move the attacker in: the defender
    can retreat, or its piece would be destroyed (EW-19)."""
    pieces = g.pieces
    if any(o not in pieces for o in info.board.adjacency[dst]):
        return True
    owner, size = pieces[dst]
    return size == 1 or not any(g.supply(owner)[1:size])


def _block(
    g: GameState,
    info: BoardInfo,
    seat: int,
    legal: set[Action],
    homes: int,
    lacking: list[list[tuple[str, str]]],
    hand: _Hand,
) -> Action | None:
    """A move into (or an attack on) what an opponent needs to win next."""
    pieces = g.pieces
    for t in range(len(g.seats)):
        if t == seat or g.eliminated[t] or not lacking[t]:
            continue
        for mv in winning_moves(g, info, t, lacking[t]):
            for src, (owner, _z) in pieces.items():
                if owner == seat and can_leave(g, seat, src, homes):
                    cand = Move(src, mv.dst)
                    if cand in legal:
                        return cand
            power = info.owner[mv.dst]
            for f in info.board.powers[power].fields:
                p = pieces.get(f)
                if p is None or p[0] != t:
                    continue
                for src, (owner, _z) in pieces.items():
                    if owner == seat and can_leave(g, seat, src, homes):
                        hit = Attack(src, f)
                        if hit in legal and _chance(g, hand, src, f) > 0.3:
                            return hit
    return None
