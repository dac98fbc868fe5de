"""What a computer player works from for one decision: its view, a determinizer, one
possible truth, and the card odds that follow from what it has seen."""

from __future__ import annotations

import random
from math import comb

from rules.pyramids import GameState, View
from rules.pyramids import cards as C

from .boardinfo import BoardInfo
from .determinize import Determinizer
from .duelmath import chance_below, strength_dist, top_sum, value_counts
from .evaluate import CARD_LIMIT, DEFAULT_WEIGHTS, Weights, info_of, utilities


class Context:
    """One decision's working material for the seat ``me``: a state ``g`` in which only
    ``me``'s hand and the public facts are to be trusted (the other hands are one
    random possibility), the cards ``me`` knows in other hands, and the unseen cards."""

    __slots__ = ("det", "g", "info", "known_cards", "me", "pool", "unseen", "weights")

    def __init__(self, view: View, rng: random.Random, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.weights = weights
        self.det: Determinizer | None = Determinizer(view)
        self.me: int = self.det.seat
        self.g: GameState = self.det.sample(rng)
        self.info: BoardInfo = info_of(self.g)
        self.unseen: tuple[int, ...] = self.det.unseen
        self.known_cards: dict[int, tuple[int, ...]] = {
            t: tuple(cs) for t, cs in view.known_cards.items()
        }
        self.pool = value_counts(self.unseen)

    @classmethod
    def from_state(cls, g: GameState, seat: int, weights: Weights = DEFAULT_WEIGHTS) -> Context:
        """The context of ``seat`` inside a (determinized) state, trusting only what
        ``seat`` itself could know there — used to model the other players in a search."""
        ctx = cls.__new__(cls)
        ctx.weights = weights
        ctx.det = None
        ctx.me = seat
        ctx.g = g
        ctx.info = info_of(g)
        ctx.known_cards = {t: tuple(cs) for t, cs in g.knowledge[seat].items() if cs}
        if g.variant == "european_war":
            seen = set(g.hands[seat]) | set(g.discard)
            if g.battle is not None:
                seen.update(g.battle.attacker_cards)
                seen.update(g.battle.defender_cards)
            for cs in ctx.known_cards.values():
                seen.update(cs)
            ctx.unseen = tuple(c for c in range(52) if c not in seen)
        else:
            ctx.unseen = ()
        ctx.pool = value_counts(ctx.unseen)
        return ctx

    def utilities(self, g: GameState, bonus: tuple[int, float] | None = None) -> list[float]:
        """Every seat's estimated share of winning in ``g``, as ``me`` judges it."""
        return utilities(g, self.me, self.weights, bonus)

    def value(self, g: GameState, seat: int) -> float:
        """``seat``'s estimated share of winning in ``g``, as ``me`` judges it."""
        return utilities(g, self.me, self.weights)[seat]

    def known(self, seat: int) -> tuple[int, ...]:
        """Cards ``me`` knows ``seat`` to hold (by espionage)."""
        return self.known_cards.get(seat, ())

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
        unseen = self.unseen
        n = len(unseen)
        stops = sum(1 for c in unseen if C.rank(c) >= C.KING)
        rest = max(0, len(self.g.hands[seat]) - len(known))
        if rest == 0 or n == 0:
            return 0.0
        return 1.0 - comb(n - stops, rest) / comb(n, min(rest, n))
