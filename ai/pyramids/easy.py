"""The easy level: legal moves with light preferences.

A weighted random choice among the legal actions that prefers building up (conscription,
armament when short of cards), attacks only with a decent hand, rarely passes, and
avoids only the most obvious blunder — moving its last piece off its home fields. In a
duel it plays its best card while behind and stops when ahead; it stops an attack with
K now and then, whatever the attack.
"""

from __future__ import annotations

import random

from rules.pyramids import (
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
    PlayCard,
    Sabotage,
    Spy,
    StopAttack,
    StopPlaying,
)
from rules.pyramids import cards as C
from rules.pyramids.state import DIPLOMACY, DUEL, SETUP, TURN

from .duelplay import duel_state
from .tactics import can_leave, home_count


def easy_action(g: GameState, seat: int, rng: random.Random) -> Action:
    """The easy level's decision for ``seat`` in the (determinized) state ``g``."""
    acts = g.legal_actions(seat)
    if len(acts) == 1:
        return acts[0]
    if g.phase == SETUP:
        return rng.choice(acts)
    if g.phase == DIPLOMACY:
        stops = [a for a in acts if isinstance(a, StopAttack)]
        return stops[0] if stops and rng.random() < 0.25 else LetPass()
    if g.phase == DUEL:
        return _duel(g, seat, acts)
    if g.phase != TURN:
        return rng.choice(acts)
    homes = home_count(g, seat)
    hand = g.hands[seat]
    strong = sum(1 for c in hand if C.duel_value(c) >= 7)
    weights = []
    for a in acts:
        if isinstance(a, Conscript | Build | Grow):
            w = 3.0
        elif isinstance(a, Move):
            w = 1.5 if can_leave(g, seat, a.src, homes) else 0.02
        elif isinstance(a, Attack):
            ok = g.variant != "european_war" or strong >= 2
            w = (1.5 if ok else 0.2) * (1.0 if can_leave(g, seat, a.src, homes) else 0.05)
        elif isinstance(a, Arm):
            w = 2.5 if len(hand) < 4 else 0.8
        elif isinstance(a, Sabotage):
            w = 2.0
        elif isinstance(a, Spy | Pass):
            w = 0.1
        else:
            w = 1.0
        weights.append(w)
    return rng.choices(acts, weights)[0]


def _duel(g: GameState, seat: int, acts: list[Action]) -> Action:
    attacker, mine, theirs, _my_left, _their_left, _h = duel_state(g, seat)
    ahead = mine > theirs if attacker else mine >= theirs
    cards = [a for a in acts if isinstance(a, PlayCard)]
    if (ahead and StopPlaying() in acts) or not cards:
        return StopPlaying()
    return max(cards, key=lambda a: (C.duel_value(a.card), -a.card))
