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

from rules import (
    Action,
    Arm,
    Attack,
    Build,
    Conscript,
    GameState,
    Grow,
    LetPass,
    Move,
    Pass,
    Retreat,
    Sabotage,
    Spy,
    StopAttack,
)
from rules import cards as C
from rules.state import DIPLOMACY, DUEL, RETREAT, SETUP

from .boardinfo import BoardInfo
from .duelmath import mean_strength, top_sum
from .duelplay import duel_choice
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
    for power in info.board.power_order:
        if power == g.seats[seat]:
            continue
        lacking = [f for f in info.board.powers[power].fields
                   if f not in pieces or pieces[f][0] != seat]
        cost = 0.0
        for f in lacking:
            cost += min((info.dist[m].get(f, 9) for m in mine if info.owner[m] != power),
                        default=9)
            if f in pieces:
                cost += 1.5
        if cost < best_cost:
            best_cost, best = cost, lacking
    return best


def light_turn(g: GameState, info: BoardInfo, seat: int, rng: random.Random) -> Action:
    """The turn: win, block, stay at home, then a weighted draw among sensible actions."""
    acts = g.legal_actions(seat)
    legal = set(acts)
    for mv in winning_moves(g, info, seat):
        if mv in legal:
            return mv
    ew = g.variant == "european_war"
    for at in finishing_attacks(g, info, seat):
        if at in legal and attack_chance(g, seat, at.src, at.dst) > 0.45:
            return at
    homes = home_count(g, seat)
    home = g.home_fields(seat)
    pieces = g.pieces
    block = _block(g, info, seat, legal, homes)
    if block is not None:
        return block
    if ew and not g.special_over and not g.sabotage_used:
        for a in acts:
            if isinstance(a, Sabotage) and not a.ace:
                return a
    targets = _target_fields(g, info, seat)
    hand = len(g.hands[seat])
    weights: list[float] = []
    for a in acts:
        w = 0.0
        if isinstance(a, Grow) or (isinstance(a, Conscript) and a.field in pieces):
            w = 1.5
        elif isinstance(a, Conscript | Build):
            w = 4.0 if homes < 2 else 2.5
        elif isinstance(a, Move):
            if not can_leave(g, seat, a.src, homes):
                w = 0.0
            elif targets and min(info.dist[a.dst].get(t, 9) for t in targets) < min(
                info.dist[a.src].get(t, 9) for t in targets
            ):
                w = 1.2 if a.src not in home or homes > 2 else 0.4
            else:
                w = 0.1
        elif isinstance(a, Attack):
            if not can_leave(g, seat, a.src, homes) and a.dst not in home:
                w = 0.0
            else:
                p = attack_chance(g, seat, a.src, a.dst)
                if ew and p < 0.55:
                    w = 0.03
                else:
                    takes = _takes_field(g, info, a.dst)
                    useful = a.dst in home or a.dst in targets
                    w = p * p * (2.5 if takes and useful else 1.0 if takes or useful else 0.5)
        elif isinstance(a, Arm):
            w = 3.0 if hand <= 3 else 1.2 if hand <= 6 else 0.5
        elif isinstance(a, Pass):
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
    g: GameState, info: BoardInfo, seat: int, legal: set[Action], homes: int
) -> Action | None:
    """A move into (or an attack on) what an opponent needs to win next."""
    pieces = g.pieces
    for t in range(len(g.seats)):
        if t == seat or g.eliminated[t]:
            continue
        for mv in winning_moves(g, info, t):
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
                        cand = Attack(src, f)
                        if cand in legal and attack_chance(g, seat, src, f) > 0.3:
                            return cand
    return None
