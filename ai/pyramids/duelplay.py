"""A sensible way to play a duel's cards (EW-16..EW-18), used by normal and in playouts.

The side to play first asks whether its cards can still change the duel: if even its
best cards within its limit would lose to the opponent's best answer nearly always
(:data:`HOPELESS`), or the duel is already won with the opponent out of it, it plays no
more (the attacker's one card that must be played is then its cheapest). Otherwise it
works out what it needs: to get ahead now (strictly for the attacker, a tie is enough
for the defender) and, when the opponent will still be able to answer after its own
last card, a margin covering the opponent's expected best answer. It then plays the
biggest card of the cheapest set of cards that does it; it stops when the duel cannot
be won, is safely won, or would cost more than ``budget`` duel points.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.pyramids import Action, GameState, PlayCard, StopPlaying
from rules.pyramids import cards as C

from .duelmath import FULL_DECK_COUNTS, mean_strength, strength_dist, top_sum

CARD_LIMIT = (0, 1, 2, 3)
HOPELESS = 0.1
"""A duel won less often than this, with both sides' best cards from here on, is not
worth another card."""

Odds = Callable[[int, int], tuple[float, ...]]
"""``odds(seat, slots)``: the distribution of the best ``slots`` duel values ``seat``
holds (index = sum), as the player deciding judges it."""


def blind_odds(g: GameState) -> Odds:
    """Odds from hand sizes alone: each hand as if dealt from a full deck."""

    def odds(seat: int, slots: int) -> tuple[float, ...]:
        return strength_dist(FULL_DECK_COUNTS, min(len(g.hands[seat]), 52), slots)

    return odds


def duel_state(g: GameState, seat: int) -> tuple[bool, int, int, int, int, int]:
    """(attacker?, my total, their total, my plays left, their plays left, their hand
    size) for ``seat``, who is to play in the duel."""
    b = g.battle
    assert b is not None
    attacker = seat == b.attacker and b.attacker_next
    other = b.defender if attacker else b.attacker
    my_cards = b.attacker_cards if attacker else b.defender_cards
    their_cards = b.defender_cards if attacker else b.attacker_cards
    my_limit = CARD_LIMIT[b.attacker_size if attacker else b.defender_size]
    their_limit = CARD_LIMIT[b.defender_size if attacker else b.attacker_size]
    their_done = b.defender_done if attacker else b.attacker_done
    their_hand = len(g.hands[other])
    their_left = 0 if their_done else min(their_limit - len(their_cards), their_hand)
    my_left = min(my_limit - len(my_cards), len(g.hands[seat]))
    my_total = sum(C.duel_value(c) for c in my_cards)
    their_total = sum(C.duel_value(c) for c in their_cards)
    return attacker, my_total, their_total, my_left, max(their_left, 0), their_hand


VALUE: tuple[int, ...] = tuple(C.duel_value(c) for c in range(52))
"""Duel value of each card, by card number."""
_ORDER: tuple[tuple[int, int], ...] = tuple((VALUE[c], c) for c in range(52))


def cheapest_set(hand: list[int], size: int, target: int) -> list[int] | None:
    """The cheapest set of at most ``size`` (1..3) cards of ``hand`` whose duel values
    reach ``target`` (ties: fewer cards; K and A are used last), or ``None``."""
    by_value: dict[int, list[int]] = {}
    for c in sorted(hand):
        by_value.setdefault(VALUE[c], []).append(c)
    values = sorted(by_value)
    counts = [len(by_value[v]) for v in values]
    n = len(values)
    best: tuple[int, int, tuple[int, ...]] | None = None
    for i in range(n):
        vi = values[i]
        if vi >= target:
            best = (vi, 1, (vi,))
            break
    if size >= 2:
        for i in range(n):
            for j in range(i, n):
                if j == i and counts[i] < 2:
                    continue
                total = values[i] + values[j]
                if total >= target:
                    if best is None or (total, 2) < best[:2]:
                        best = (total, 2, (values[i], values[j]))
                    break
    if size >= 3:
        for i in range(n):
            for j in range(i, n):
                if j == i and counts[i] < 2:
                    continue
                for k in range(j, n):
                    if k == j and counts[j] < (3 if i == j else 2):
                        continue
                    total = values[i] + values[j] + values[k]
                    if total >= target:
                        if best is None or (total, 3) < best[:2]:
                            best = (total, 3, (values[i], values[j], values[k]))
                        break
    if best is None:
        return None
    out: list[int] = []
    for v in best[2]:
        out.append(by_value[v][sum(1 for c in out if VALUE[c] == v)])
    return out


def best_case_chance(g: GameState, seat: int, odds: Odds | None = None) -> float:
    """``seat``'s chance (it is to play in the duel) of winning if both sides play their
    best cards from here on: its own best cards within its limit against the opponent's
    best answer as ``odds`` judge it (default: :func:`blind_odds`)."""
    b = g.battle
    assert b is not None
    attacker, mine, theirs, my_left, their_left, _h = duel_state(g, seat)
    best = mine + top_sum(g.hands[seat], my_left)
    if their_left <= 0:
        return 1.0 if (best > theirs if attacker else best >= theirs) else 0.0
    other = b.defender if attacker else b.attacker
    dist = (odds or blind_odds(g))(other, their_left)
    # the opponent's final total is theirs + x; the attacker needs strictly more
    room = best - theirs if attacker else best - theirs + 1
    return sum(dist[: max(0, min(room, len(dist)))])


def duel_choice(
    g: GameState,
    seat: int,
    budget: float = 99.0,
    caution: float = 0.8,
    odds: Odds | None = None,
) -> Action:
    """The card ``seat`` plays next (or a stop). ``budget``: the most duel points the
    whole duel is worth to ``seat``; ``caution``: the share of the opponent's expected
    best answer a lead must cover; ``odds``: how ``seat`` judges the opponent's cards
    (default: from its hand size)."""
    b = g.battle
    assert b is not None
    attacker, mine, theirs, my_left, their_left, their_hand = duel_state(g, seat)
    hand = sorted(g.hands[seat], key=_ORDER.__getitem__)
    must_play = attacker and not b.attacker_cards
    if not hand or my_left <= 0:
        return StopPlaying()
    if best_case_chance(g, seat, odds) < HOPELESS:
        return PlayCard(_cheapest(hand)) if must_play else StopPlaying()
    need = theirs - mine + (1 if attacker else 0)
    answer = caution * mean_strength(their_hand, their_left) if their_left > 0 else 0.0
    if need <= 0:
        if their_left == 0 or -need + (1 if attacker else 0) >= answer:
            return PlayCard(_cheapest(hand)) if must_play else StopPlaying()
        if mine + C.duel_value(hand[0]) > budget:
            return StopPlaying()
        return PlayCard(_cheapest(hand))
    plan: list[int] | None
    if my_left > their_left:
        plan = cheapest_set(hand, 1, need) or cheapest_set(hand, my_left, need)
    else:
        plan = cheapest_set(hand, my_left, need + round(answer))
        if plan is None:
            plan = cheapest_set(hand, my_left, need)
    if plan is None:
        return PlayCard(_cheapest(hand)) if must_play else StopPlaying()
    if mine + sum(C.duel_value(c) for c in plan) > budget and not must_play:
        return StopPlaying()
    return PlayCard(max(plan, key=lambda c: (C.duel_value(c), -c)))


def _cheapest(hand: list[int]) -> int:
    """The card worth least in a duel, keeping K and A (they can stop attacks) when
    another card of equal value exists."""
    low = C.duel_value(min(hand, key=lambda c: (C.duel_value(c), c)))
    same = sorted(c for c in hand if C.duel_value(c) == low)
    plain = [c for c in same if C.rank(c) < C.KING]
    return (plain or same)[0]
