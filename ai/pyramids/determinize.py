"""Build playable game states from one player's view.

A :class:`rules.View` holds everything a seat may know. :func:`template` copies those
public facts into a fresh :class:`rules.GameState`; :func:`deal` completes a copy of it
by dealing the cards the viewer cannot see — at random, but consistently with what it
knows (its own hand, the discard pile, the duel cards on the table, and cards it saw by
espionage, which stay with their known holders). Each such state is one possible truth:
a *determinization*.
"""

from __future__ import annotations

import random

from rules.pyramids import GameState, Options, View
from rules.pyramids.state import DIPLOMACY, DUEL, Battle
from rules.rng import Rng

DECK_SIZE = 52


class Determinizer:
    """Deals possible truths for one view; the public part is built only once."""

    __slots__ = ("_base", "_known", "_unseen", "seat", "view")

    def __init__(self, view: View) -> None:
        if view.viewer is None:
            raise ValueError("a computer player needs a seat's view, not a spectator's")
        self.view = view
        self.seat = view.viewer
        self._base = template(view)
        self._known, self._unseen = _card_accounting(view)

    @property
    def unseen(self) -> tuple[int, ...]:
        """Cards whose place the viewer does not know (other hands and the pile)."""
        return self._unseen

    def sample(self, rng: random.Random) -> GameState:
        """One determinization: a full game state consistent with the view."""
        g = self._base.copy()
        g.rng = Rng(rng.getrandbits(64))
        if g.variant != "european_war":
            return g
        pool = list(self._unseen)
        rng.shuffle(pool)
        view = self.view
        for sv in view.seats:
            s = sv.seat
            if s == self.seat:
                continue
            hand = list(self._known.get(s, ()))
            need = sv.hand_size - len(hand)
            if need > 0:
                hand.extend(pool[-need:])
                del pool[-need:]
            g.hands[s] = hand
        g.pile = pool
        return g


def template(view: View) -> GameState:
    """A game state with every public fact of ``view`` and the viewer's own hand.

    Other hands and the pile are left empty; :meth:`Determinizer.sample` fills them.
    """
    seats = [sv.power for sv in view.seats]
    g = GameState(view.variant, Options.from_dict(dict(view.options)), seats, 0)
    board = g.board
    g.pieces = {f: view.pieces[f] for f in board.field_order if f in view.pieces}
    g.phase = view.phase
    g.current = view.current
    g.first = view.first
    g.turn = view.turn
    g.round = view.round
    g.setup_queue = list(view.setup_queue)
    g.sabotage_used = view.sabotage_used
    g.special_over = view.special_over
    g.attack_barred = view.attack_barred
    g.eliminated = [sv.eliminated for sv in view.seats]
    g.winners = list(view.winners)
    g.draw = view.draw
    g.end_reason = view.end_reason
    g.last_roll = dict(view.last_roll) if view.last_roll is not None else None
    g.discard = list(view.discard)
    if view.viewer is not None and view.hand is not None:
        g.hands[view.viewer] = list(view.hand)
        g.knowledge[view.viewer] = {t: list(cs) for t, cs in sorted(view.known_cards.items())}
    bv = view.battle
    if bv is not None:
        b = Battle(bv.attacker, bv.defender, bv.src, bv.dst, bv.attacker_size, bv.defender_size)
        b.attacker_cards = list(bv.attacker_cards)
        b.defender_cards = list(bv.defender_cards)
        b.attacker_done = bv.attacker_done
        b.defender_done = bv.defender_done
        b.attacker_next = bv.stage != DUEL or bv.to_play == bv.attacker
        b.retreat_options = list(bv.retreat_options)
        g.battle = b
        if bv.stage == DIPLOMACY:
            g.pending = list(bv.waiting_for)
    return g


def _card_accounting(view: View) -> tuple[dict[int, tuple[int, ...]], tuple[int, ...]]:
    """Cards known to be in other hands, and the cards whose place is unknown."""
    if view.variant != "european_war":
        return {}, ()
    seen: set[int] = set(view.hand or ())
    seen.update(view.discard)
    if view.battle is not None:
        seen.update(view.battle.attacker_cards)
        seen.update(view.battle.defender_cards)
    known: dict[int, tuple[int, ...]] = {}
    for t, cs in sorted(view.known_cards.items()):
        if not 0 <= t < len(view.seats) or t == view.viewer:
            continue
        fresh = tuple(c for c in cs if c not in seen)[: view.seats[t].hand_size]
        known[t] = fresh
        seen.update(fresh)
    unseen = tuple(c for c in range(DECK_SIZE) if c not in seen)
    return known, unseen
