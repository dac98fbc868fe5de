"""Exact odds for European War duels (EW-16..EW-18) and World War 5 dice (WW-3).

A side's *strength* in a duel is the sum of the duel values of the best ``k`` cards it
holds, ``k`` being its card limit. For a hand dealt at random from a pool of unseen
cards the strength is a random variable; :func:`strength_dist` gives its exact
distribution (a small dynamic programme over the multivariate hypergeometric law).
"""

from __future__ import annotations

from functools import cache
from itertools import product
from math import comb

from rules.pyramids import cards as C

VALUES = (10, 9, 8, 7, 6, 5, 4, 3, 2)
"""Distinct duel values, best first (figures count 4, EW-2)."""

FULL_DECK_COUNTS: tuple[int, ...] = tuple(
    sum(1 for c in range(52) if C.duel_value(c) == v) for v in VALUES
)


def value_counts(cards: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """How many cards of each duel value (in :data:`VALUES` order) ``cards`` holds."""
    counts = [0] * len(VALUES)
    for c in cards:
        counts[10 - C.duel_value(c)] += 1
    return tuple(counts)


def top_sum(cards: list[int] | tuple[int, ...], k: int) -> int:
    """The sum of the ``k`` best duel values among ``cards``."""
    vals = sorted((C.duel_value(c) for c in cards), reverse=True)
    return sum(vals[:k])


@cache
def strength_dist(
    pool: tuple[int, ...], hand: int, k: int, forced: tuple[int, ...] = ()
) -> tuple[float, ...]:
    """Distribution of the best-``k`` sum of a hand made of the cards counted in
    ``forced`` plus ``hand`` cards dealt at random from the cards counted in ``pool``
    (both are counts per value, in :data:`VALUES` order). Index = sum, value = chance.
    """
    if not forced:
        forced = (0,) * len(VALUES)
    total = sum(pool)
    hand = max(0, min(hand, total))
    out = [0.0] * (10 * k + 1)
    denominator = comb(total, hand)
    # state: (cards dealt so far, cards counted in the top so far, their sum) -> ways
    states: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
    remaining = total
    for i, v in enumerate(VALUES):
        kv, fv = pool[i], forced[i]
        remaining -= kv
        nxt: dict[tuple[int, int, int], int] = {}
        for (m, t, s), ways in states.items():
            room = hand - m
            for j in range(min(kv, room) + 1):
                w = ways * comb(kv, j)
                got = fv + j
                if t + got >= k:
                    rest = room - j
                    if rest <= remaining:
                        out[s + (k - t) * v] += w * comb(remaining, rest)
                else:
                    key = (m + j, t + got, s + got * v)
                    nxt[key] = nxt.get(key, 0) + w
        states = nxt
    for (m, _t, s), ways in states.items():
        if m == hand:
            out[s] += ways
    return tuple(x / denominator for x in out)


def chance_below(dist: tuple[float, ...], total: int) -> float:
    """P(strength < ``total``)."""
    return sum(dist[: max(0, min(total, len(dist)))])


def expected(dist: tuple[float, ...]) -> float:
    """The mean of a distribution over sums."""
    return sum(i * p for i, p in enumerate(dist))


@cache
def mean_strength(hand: int, k: int) -> float:
    """Expected best-``k`` sum of ``hand`` cards dealt from a full deck."""
    return expected(strength_dist(FULL_DECK_COUNTS, min(hand, 52), k))


@cache
def dice_win_chance(attacker_dice: int, defender_dice: int) -> float:
    """WW-3: chance that ``attacker_dice`` six-sided dice total strictly more than
    ``defender_dice`` dice."""

    def dist(n: int) -> dict[int, int]:
        d: dict[int, int] = {}
        for roll in product(range(1, 7), repeat=n):
            d[sum(roll)] = d.get(sum(roll), 0) + 1
        return d

    a, b = dist(attacker_dice), dist(defender_dice)
    wins = sum(wa * wb for sa, wa in a.items() for sb, wb in b.items() if sa > sb)
    return wins / (sum(a.values()) * sum(b.values()))
