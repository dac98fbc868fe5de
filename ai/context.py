"""What a computer player works from for one decision: its view, a determinizer, one
possible truth, and the card odds that follow from what it has seen."""

from __future__ import annotations

import random
from math import comb

from rules import GameState, View
from rules import cards as C

from .boardinfo import BoardInfo
from .determinize import Determinizer
from .duelmath import chance_below, strength_dist, top_sum, value_counts
from .evaluate import CARD_LIMIT, info_of


class Context:
    """One decision's working material. ``g`` is a determinization in which only the
    hand sizes of the other seats are to be trusted."""

    __slots__ = ("det", "g", "info", "me", "pool", "view")

    def __init__(self, view: View, rng: random.Random) -> None:
        self.view = view
        self.det = Determinizer(view)
        self.me: int = self.det.seat
        self.g: GameState = self.det.sample(rng)
        self.info: BoardInfo = info_of(self.g)
        self.pool = value_counts(self.det.unseen)

    def known(self, seat: int) -> tuple[int, ...]:
        """Cards the viewer knows ``seat`` to hold (by espionage)."""
        return tuple(self.view.known_cards.get(seat, ()))

    def strength_of(self, seat: int, limit: int) -> tuple[float, ...]:
        """Distribution of ``seat``'s best-``limit`` duel total, as the viewer sees it."""
        known = self.known(seat)
        hand = len(self.g.hands[seat])
        return strength_dist(self.pool, max(0, hand - len(known)), limit, value_counts(known))

    def duel_win_chance(self, attacker: int, src: str, dst: str) -> float:
        """Chance that ``attacker``'s best cards beat the defender's best (EW-18)."""
        g = self.g
        size = g.pieces[src][1]
        defender, dsize = g.pieces[dst]
        d_dist = self.strength_of(defender, CARD_LIMIT[dsize])
        if attacker == self.me:
            return chance_below(d_dist, top_sum(g.hands[attacker], CARD_LIMIT[size]))
        a_dist = self.strength_of(attacker, CARD_LIMIT[size])
        return sum(p * chance_below(d_dist, x) for x, p in enumerate(a_dist) if p > 0)

    def stop_chance(self, seat: int) -> float:
        """Chance that ``seat`` holds a K or an A (could stop an attack, EW-13)."""
        if seat == self.me:
            return 1.0 if any(C.rank(c) >= C.KING for c in self.g.hands[seat]) else 0.0
        known = self.known(seat)
        if any(C.rank(c) >= C.KING for c in known):
            return 1.0
        unseen = self.det.unseen
        n = len(unseen)
        stops = sum(1 for c in unseen if C.rank(c) >= C.KING)
        rest = max(0, len(self.g.hands[seat]) - len(known))
        if rest == 0 or n == 0:
            return 0.0
        return 1.0 - comb(n - stops, rest) / comb(n, min(rest, n))
