"""The normal level: a greedy evaluator over one decision.

Every legal action is scored by the position it leads to (:mod:`ai.evaluate`, with the
other hands valued from their sizes only). Attacks are weighed as a lottery: the chance
that some player stops it with K, the chance of winning the duel (exact card odds from
what the player has seen, or the dice), and the positions after a win and after a loss.
The special phase: a sabotage is scored like an action; a look (espionage) is taken by
a rule — a spare Q, a big hand and a neighbour whose hand is unknown. With three or more
players in, it presses for the win as the hard level does (:mod:`ai.pyramids.pressing`):
an attack that would win is declared whenever its odds are fair, and a stop card that
would be drawn back is taken. Armament is worth nothing from :data:`FULL_HAND` cards on,
unless a stop card lies where it would be drawn. An attack is weighed with the cards it
is likely to cost (the cheapest that beat the defender's expected best). Diplomacy stops
only an attack that would end the game for someone else (:func:`diplomacy_choice`); the
duel is played by :mod:`ai.duelplay` with a budget set by the stakes, each duel point
priced by what the hand would lose.
"""

from __future__ import annotations

from rules.pyramids import (
    Action,
    Arm,
    Attack,
    GameState,
    LetPass,
    Pass,
    Retreat,
    Sabotage,
    Spy,
    StopAttack,
)
from rules.pyramids import cards as C
from rules.pyramids.state import DIPLOMACY, DUEL, RETREAT, SETUP

from .context import Context
from .duelmath import mean_strength
from .duelplay import cheapest_set, duel_choice
from .evaluate import CARD_LIMIT, Weights, card_strength, take_chance
from .outcomes import RetreatChooser, attack_lost, attack_won
from .placement import placement
from .pressing import arm_draw, retake_stop, winning_attack
from .sensible import sensible

NEG = -1.0
FULL_HAND = 8
"""From this many cards on, drawing more is worth nothing: the cards are better used."""


def normal_action(ctx: Context) -> Action:
    """The normal level's decision for the viewer of ``ctx``."""
    g, me = ctx.g, ctx.me
    acts = g.legal_actions(me)
    if len(acts) == 1:
        return acts[0]
    if g.phase == SETUP:
        return placement(g, ctx.info, me)
    if g.phase == DIPLOMACY:
        return diplomacy_choice(ctx)
    if g.phase == DUEL:
        return duel_normal(ctx)
    acts = sensible(ctx, acts)
    if g.phase == RETREAT:
        return retreat_choice(ctx, acts)
    spy = spy_rule(ctx)
    if spy is not None:
        return spy
    press = winning_attack(ctx, acts) or retake_stop(ctx, acts)
    if press is not None:
        return press
    values = turn_values(ctx, acts)
    best = max(range(len(acts)), key=lambda i: values[i])
    return acts[best]


def _after(g: GameState, seat: int, action: Action) -> GameState:
    h = g.copy()
    h._apply_unchecked(seat, action)
    return h


def defender_retreat(ctx: Context) -> RetreatChooser:
    """A retreat chooser for :func:`ai.outcomes.attack_won`: the defender's best field as
    the viewer's evaluation sees it."""

    def choose(h: GameState, defender: int, options: list[str]) -> str:
        if len(options) == 1:
            return options[0]
        return max(
            options,
            key=lambda f: ctx.value(_after(h, defender, Retreat(f)), defender),
        )

    return choose


def arm_bonus(g: GameState, seat: int, w: Weights) -> float:
    """Logits that arming adds to ``seat``'s hand score: the cards it would draw
    (:func:`arm_draw`). A big hand gains nothing from average cards, but a stop card
    known to lie in the discard pile is worth taking twice over: it is one more K for
    ``seat`` and one fewer for whoever would draw it next (a stopper who draws back its
    own K could stop the same attack every turn, EW-13)."""
    n, mean, stops_drawn = arm_draw(g)
    hand = g.hands[seat]
    stops = sum(1 for c in hand if C.rank(c) >= C.KING)
    known = len(g.pile) < n  # some cards would come from the public discard pile
    if len(hand) >= FULL_HAND and not (known and stops_drawn > 0):
        return -0.01
    vals: list[float] = [C.duel_value(c) for c in hand]
    more = card_strength([*vals, *([mean] * int(n))], w) - card_strength(vals, w)
    gain = min(stops + stops_drawn, 2) - min(stops, 2)
    if known:
        gain += stops_drawn
    return more + w.card_stop * gain


def turn_values(ctx: Context, acts: list[Action]) -> list[float]:
    """Expected utility (for the viewer) of each of its turn actions in ``acts``."""
    g, me = ctx.g, ctx.me
    values = [NEG] * len(acts)
    plain_best = NEG
    pass_value: float | None = None
    for i, a in enumerate(acts):
        if isinstance(a, Attack | Spy | Sabotage):
            continue
        if isinstance(a, Arm):
            h = _after(g, me, Pass())
            values[i] = ctx.utilities(h, bonus=(me, arm_bonus(g, me, ctx.weights)))[me]
        else:
            values[i] = ctx.value(_after(g, me, a), me)
        if isinstance(a, Pass):
            pass_value = values[i]
        plain_best = max(plain_best, values[i])
    if pass_value is None and (any(isinstance(a, Sabotage) for a in acts)):
        pass_value = ctx.value(_after(g, me, Pass()), me)
    for i, a in enumerate(acts):
        if isinstance(a, Attack):
            values[i] = attack_value(ctx, a, plain_best)
        elif isinstance(a, Sabotage):
            h = _after(g, me, a)
            if h.over:
                values[i] = ctx.value(h, me)
            else:
                gain = plain_best - (pass_value if pass_value is not None else plain_best)
                values[i] = ctx.value(_after(h, me, Pass()), me) + gain
    return values


def _top(hand: list[int], k: int) -> list[int]:
    return sorted(hand, key=lambda c: (C.duel_value(c), c), reverse=True)[:k]


def attack_value(ctx: Context, a: Attack, stopped_value: float) -> float:
    """Expected utility of declaring ``a`` (for the viewer, who attacks)."""
    g, me = ctx.g, ctx.me
    size = g.pieces[a.src][1]
    defender, dsize = g.pieces[a.dst]
    chooser = defender_retreat(ctx)
    if g.variant != "european_war":
        p = take_chance(g.variant, size, dsize)
        won = attack_won(g, me, a.src, a.dst, [], [], chooser)
        lost = attack_lost(g, me, defender, [], [])
        return p * ctx.value(won, me) + (1 - p) * ctx.value(lost, me)
    p_win = ctx.duel_win_chance(me, a.src, a.dst)
    k_a, k_d = CARD_LIMIT[size], CARD_LIMIT[dsize]
    hand = g.hands[me]
    n_spend = max(1, min(k_a, k_d + 1, len(hand)))
    top = _top(hand, k_a)
    expected = mean_strength(len(g.hands[defender]), k_d)
    win_cards = cheapest_set(hand, k_a, round(expected) + 1) or top[:n_spend]
    lose_cards = sorted(top, key=lambda c: (C.duel_value(c), c))[: max(1, n_spend - 1)]
    d_cards = g.hands[defender][: min(k_d, len(g.hands[defender]))]
    won = attack_won(g, me, a.src, a.dst, win_cards, d_cards, chooser)
    lost = attack_lost(g, me, defender, lose_cards, d_cards)
    v_won = ctx.value(won, me)
    v_lost = ctx.value(lost, me)
    p_stop = stop_chance(ctx, me, defender, won)
    return p_stop * stopped_value + (1 - p_stop) * (p_win * v_won + (1 - p_win) * v_lost)


def stop_chance(ctx: Context, attacker: int, defender: int, won: GameState) -> float:
    """Chance that some third player stops the attack with K (EW-13): one holding a K
    (or an A) nearly always does if the attack would end the game without it among the
    winners, and seldom otherwise (:func:`diplomacy_choice`)."""
    g = ctx.g
    keep = 1.0
    for t in range(len(g.seats)):
        if t in (attacker, defender) or g.eliminated[t]:
            continue
        has = ctx.stop_chance(t)
        if has == 0.0:
            continue
        want = 0.95 if won.over and t not in won.winners else 0.05
        keep *= 1 - has * want
    return 1 - keep


def spy_rule(ctx: Context) -> Spy | None:
    """A look is worth a Q when the hand is big and a neighbour's hand is unknown."""
    g, me, info = ctx.g, ctx.me, ctx.info
    if g.variant != "european_war" or g.special_over:
        return None
    hand = g.hands[me]
    if len(hand) < 6 or not any(C.rank(c) == C.QUEEN for c in hand):
        return None
    mine = [f for f, (s, _z) in g.pieces.items() if s == me]
    best: tuple[int, int] | None = None
    for t in range(len(g.seats)):
        if t == me or g.eliminated[t] or ctx.known(t) or len(g.hands[t]) < 3:
            continue
        near = any(o in g.pieces and g.pieces[o][0] == t for f in mine for o in info.attacks[f])
        if near and (best is None or len(g.hands[t]) > best[0]):
            best = (len(g.hands[t]), t)
    return Spy(best[1], False) if best is not None else None


def battle_ends(ctx: Context) -> tuple[GameState, GameState]:
    """The positions after the declared attack is won and after it is lost, with the
    cards each side is expected to spend if the duel has not started."""
    g = ctx.g
    b = g.battle
    assert b is not None
    chooser = defender_retreat(ctx)
    a_cards: list[int] = []
    d_cards: list[int] = []
    if g.phase == DIPLOMACY:
        k_a, k_d = CARD_LIMIT[b.attacker_size], CARD_LIMIT[b.defender_size]
        a_cards = g.hands[b.attacker][: max(1, min(k_a, k_d + 1, len(g.hands[b.attacker])))]
        d_cards = g.hands[b.defender][: min(k_d, len(g.hands[b.defender]))]
    won = attack_won(g, b.attacker, b.src, b.dst, a_cards, d_cards, chooser)
    lost = attack_lost(g, b.attacker, b.defender, a_cards[:1], d_cards)
    return won, lost


def attack_makes_me_win(ctx: Context) -> bool:
    """True when the attack declared (the viewer may stop it) would, if won, end the
    game with the viewer among the winners."""
    won, _lost = battle_ends(ctx)
    return won.over and ctx.me in won.winners


def diplomacy_choice(ctx: Context) -> Action:
    """Stop the attack with K (or A) when it could end the game with the viewer not
    among the winners; let every other attack pass.

    A K is kept for the attacks that end games: one spent on a lesser attack goes to the
    discard pile, and once the draw pile is spent it comes back to whoever draws next,
    often the attacker or the stopper itself, to stop the same attack again next turn.
    Stopping lesser attacks held four normal players to a draw in two games of five
    (48 seeded games); letting them pass, in one of four, and the games ran half as long.
    """
    g, me = ctx.g, ctx.me
    hand = g.hands[me]
    kings = [c for c in hand if C.rank(c) == C.KING]
    aces = [c for c in hand if C.rank(c) == C.ACE]
    if not kings and not aces:
        return LetPass()
    b = g.battle
    assert b is not None
    won, _lost = battle_ends(ctx)
    if not won.over or me in won.winners:
        return LetPass()
    p_win = ctx.duel_win_chance(b.attacker, b.src, b.dst)
    return StopAttack(not kings) if p_win > 0.05 else LetPass()


def _point_cost(hand: list[int], w: Weights) -> float:
    """Logits a duel point costs ``hand``: what giving up its best card takes from the
    hand's score, per point of that card (little in a big hand that has others as good)."""
    if not hand:
        return w.card_top / 10
    vals: list[float] = sorted((C.duel_value(c) for c in hand), reverse=True)
    drop = card_strength(vals, w) - card_strength(vals[1:], w)
    return max(drop, 0.0) / vals[0]


def duel_normal(ctx: Context) -> Action:
    """Play the duel with a budget in duel points set by what is at stake, each point
    priced by what the hand would lose (:func:`_point_cost`)."""
    g, me = ctx.g, ctx.me
    b = g.battle
    assert b is not None
    won, lost = battle_ends(ctx)
    mine_won = b.attacker == me
    good, bad = (won, lost) if mine_won else (lost, won)
    if good.over or bad.over:
        return duel_choice(g, me, odds=ctx.strength_of)
    u_good = ctx.value(good, me)
    u_bad = ctx.value(bad, me)
    stake = max(0.0, u_good - u_bad)
    u = max(0.02, min(0.98, u_bad))
    per_point = u * (1 - u) * _point_cost(g.hands[me], ctx.weights)
    budget = max(4.0, min(99.0, stake / max(per_point, 1e-4)))
    spent = sum(C.duel_value(c) for c in (b.attacker_cards if mine_won else b.defender_cards))
    return duel_choice(g, me, budget + spent, odds=ctx.strength_of)


def retreat_choice(ctx: Context, acts: list[Action]) -> Action:
    """The retreat field whose position the viewer's evaluation likes best."""
    g, me = ctx.g, ctx.me
    return max(acts, key=lambda a: ctx.value(_after(g, me, a), me))
