"""Pressing for the win: the turn actions that end the game with the player among the
winners, found without a search.

A move into the last field of a power is unstoppable and always taken. An attack that
would end the game if won (an occupation, or the fall of the player's arch-enemy,
EW-20/21) is declared whenever its duel odds are fair: if a third player stops it with a
K, the attacker loses nothing and takes another action (EW-14), while the stopper has
spent its K — so declaring it every turn drains the stop cards standing between the
player and the win. And when that K lies where arming would draw it (the draw pile spent,
EW-3), the stopped attacker arms and takes it.
"""

from __future__ import annotations

from rules.pyramids import Action, Arm, Attack, GameState, Move, Retreat
from rules.pyramids import cards as C

from .boardinfo import BoardInfo
from .context import Context
from .evaluate import FIGURE_SHARE, MEAN_CARD
from .outcomes import attack_won
from .tactics import winning_moves

PRESS_FLOOR = 0.55
"""The duel odds from which an attack that would win the game is declared every turn."""
RETAKE_FLOOR = 0.5
"""The expected stop cards arming must draw for a stopped attacker to arm for them."""


def arm_draw(g: GameState) -> tuple[float, float, float]:
    """What arming would draw, as far as anyone can know: (cards drawn, the mean duel
    value of each, the stop cards among them, in expectation). From the draw pile the
    cards are the deck's average; once it runs short the rest comes from the discard
    pile reshuffled (EW-3), whose cards are public."""
    from_pile = min(2, len(g.pile))
    from_discard = min(2 - from_pile, len(g.discard))
    n = from_pile + from_discard
    if n == 0:
        return 0.0, 0.0, 0.0
    value = from_pile * MEAN_CARD
    stops = from_pile * FIGURE_SHARE
    if from_discard:
        share = from_discard / len(g.discard)
        value += share * sum(C.duel_value(c) for c in g.discard)
        stops += share * sum(1 for c in g.discard if C.rank(c) >= C.KING)
    return float(n), value / n, stops


def winning_move(ctx: Context, legal: list[Action]) -> Move | None:
    """A legal move into the last field the viewer lacks of a power
    (:func:`ai.pyramids.tactics.winning_moves`)."""
    allowed = set(legal)
    return next((m for m in winning_moves(ctx.g, ctx.info, ctx.me) if m in allowed), None)


def _wins_whatever_the_retreat(g: GameState, me: int, a: Attack) -> bool:
    """True when ``a``, if won, ends the game with ``me`` among the winners wherever the
    defender retreats (the defender is given the retreat that spoils it, if any)."""

    def spoiler(h: GameState, defender: int, options: list[str]) -> str:
        for f in options:
            k = h.copy()
            k._apply_unchecked(defender, Retreat(f))
            if not (k.over and me in k.winners):
                return f
        return options[0]

    h = attack_won(g, me, a.src, a.dst, [], [], spoiler)
    return h.over and me in h.winners


def winning_attack(ctx: Context, legal: list[Action]) -> Attack | None:
    """The legal attack that would win the game for the viewer with the best duel odds,
    if they reach :data:`PRESS_FLOOR` — in European War with a third player in, who could
    stop it (World War 5 has no stops; two players weigh such an attack as any other)."""
    g, me = ctx.g, ctx.me
    if g.variant != "european_war" or g.eliminated.count(False) < 3:
        return None
    best: tuple[float, Attack] | None = None
    for a in legal:
        if not isinstance(a, Attack) or not _wins_whatever_the_retreat(g, me, a):
            continue
        p = ctx.duel_win_chance(me, a.src, a.dst)
        if p >= PRESS_FLOOR and (best is None or p > best[0]):
            best = (p, a)
    return best[1] if best is not None else None


def _attacks_that_would_win(g: GameState, info: BoardInfo, me: int) -> bool:
    """True when ``me`` has an attack (allowed this turn or not) that would win the game
    whatever the retreat."""
    pieces = g.pieces
    for src, (owner, _z) in pieces.items():
        if owner != me:
            continue
        for f in info.attacks[src]:
            p = pieces.get(f)
            if p is not None and p[0] != me and _wins_whatever_the_retreat(g, me, Attack(src, f)):
                return True
    return False


def retake_stop(ctx: Context, legal: list[Action]) -> Arm | None:
    """Arm, when the viewer's attack that would have won the game was just stopped and
    arming would likely draw the K (or A) that stopped it back out of the discard pile
    (:data:`RETAKE_FLOOR`): one stop card fewer for the others next turn."""
    g, me = ctx.g, ctx.me
    if g.variant != "european_war" or not g.attack_barred or Arm() not in legal:
        return None
    n, _mean, stops = arm_draw(g)
    if not n or len(g.pile) >= n or stops < RETAKE_FLOOR:
        return None
    return Arm() if _attacks_that_would_win(g, ctx.info, me) else None
