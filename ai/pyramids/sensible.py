"""Obviously wasteful actions, left out before the normal and hard levels weigh theirs.

An action is left out when something else is plainly at least as good: arming with both
piles empty (it draws nothing: a pass), spending an A where the J, Q or K it stands in
for is held, spying on a hand already known card by card, attacking with next to no
chance of winning (unless the target stands on a home field of the attacker's, or its
owner could win with a move on its next turn), retreating the last home piece abroad
while a home field is free (the player falls), and stopping an attack that would make
the stopper win. In a duel, no card is worth playing once the duel is won with the
opponent out of it, or when even the best cards would nearly always lose
(:func:`worth_a_card`; :mod:`ai.pyramids.duelplay` plays by the same rule).
"""

from __future__ import annotations

from rules.pyramids import Action, Arm, Attack, GameState, Retreat, Sabotage, Spy, StopAttack
from rules.pyramids import cards as C

from .boardinfo import BoardInfo
from .context import Context
from .duelplay import HOPELESS, best_case_chance, duel_state
from .evaluate import take_chance
from .tactics import winning_moves

ATTACK_FLOOR = {"european_war": 0.2, "world_war_5": 0.12}
"""Below this chance of winning its duel (or its dice) an attack is thrown away."""

_FIGURE = {Sabotage: C.JACK, Spy: C.QUEEN, StopAttack: C.KING}


def sensible(ctx: Context, acts: list[Action]) -> list[Action]:
    """``acts`` (the viewer's legal actions) without the obviously wasteful ones; never
    empty (if everything looks wasteful, ``acts`` as they are)."""
    g, me = ctx.g, ctx.me
    ranks = {C.rank(c) for c in g.hands[me]}
    kept = [a for a in acts if not _wasteful(ctx, g, me, a, ranks)]
    return kept or acts


def _wasteful(ctx: Context, g: GameState, me: int, a: Action, ranks: set[int]) -> bool:
    if isinstance(a, Arm):
        return not g.pile and not g.discard
    if isinstance(a, Sabotage | Spy | StopAttack) and a.ace and _FIGURE[type(a)] in ranks:
        return True
    if isinstance(a, Spy):
        known = ctx.known(a.target)
        return len(known) >= len(g.hands[a.target])
    if isinstance(a, Attack):
        return hopeless_attack(ctx, a)
    if isinstance(a, Retreat):
        return _retreat_falls(g, me, a)
    return False


def hopeless_attack(ctx: Context, a: Attack) -> bool:
    """True when ``a`` (the viewer's attack) has next to no chance and nothing urgent
    calls for it."""
    g, me = ctx.g, ctx.me
    defender = g.pieces[a.dst][0]
    if a.dst in g.home_fields(me) or urgent_target(g, ctx.info, defender):
        return False
    return attack_chance(ctx, a) < ATTACK_FLOOR.get(g.variant, 0.12)


def attack_chance(ctx: Context, a: Attack) -> float:
    """The viewer's chance of winning the duel (or the dice) of attack ``a``."""
    g = ctx.g
    if g.variant != "european_war":
        return take_chance(g.variant, g.pieces[a.src][1], g.pieces[a.dst][1])
    return ctx.duel_win_chance(ctx.me, a.src, a.dst)


def urgent_target(g: GameState, info: BoardInfo, owner: int) -> bool:
    """True when ``owner`` could win with a move on its next turn (any attack on it may
    be worth a try)."""
    return bool(winning_moves(g, info, owner))


def _retreat_falls(g: GameState, me: int, a: Retreat) -> bool:
    b = g.battle
    if b is None:
        return False
    home = g.home_fields(me)
    if b.dst not in home or a.field in home:
        return False
    others = [f for f in home if f != b.dst and g.pieces.get(f, (-1, 0))[0] == me]
    return not others and any(f in home for f in b.retreat_options)


def worth_a_card(ctx: Context) -> bool:
    """In a duel where the viewer is to play: True when a card may still change it (the
    duel is not yet won with the opponent out of it, and not hopeless)."""
    g, me = ctx.g, ctx.me
    attacker, mine, theirs, _my_left, their_left, _h = duel_state(g, me)
    ahead = mine > theirs if attacker else mine >= theirs
    if their_left <= 0 and ahead:
        return False
    return best_case_chance(g, me, ctx.strength_of) >= HOPELESS
