"""What a declared attack leads to, for weighing it before it is fought.

The engine decides a duel card by card; to judge an attack in advance we jump straight
to its two ends — won (the defender retreats or shrinks, the attacker moves in, EW-19 /
WW-3) or lost — with the cards the duel is expected to cost, and let the engine run the
end check and start the next turn, so the resulting states are exactly what the rules
would produce.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.pyramids import GameState, Retreat
from rules.pyramids.state import RETREAT, TURN, Battle

RetreatChooser = Callable[[GameState, int, list[str]], str]
"""(state in the retreat phase, defender, options) -> the field it retreats to."""


def spend(g: GameState, seat: int, cards: list[int]) -> None:
    """Move ``cards`` from ``seat``'s hand to the discard pile (as a duel does)."""
    hand = g.hands[seat]
    for c in cards:
        hand.remove(c)
        g.discard.append(c)
        for k in g.knowledge:
            known = k.get(seat)
            if known and c in known:
                known.remove(c)


def _clear_battle(g: GameState) -> None:
    b = g.battle
    if b is not None:
        g.discard.extend(b.attacker_cards)
        g.discard.extend(b.defender_cards)
    g.battle = None
    g.pending = []


def attack_won(
    g: GameState,
    attacker: int,
    src: str,
    dst: str,
    attacker_cards: list[int],
    defender_cards: list[int],
    choose_retreat: RetreatChooser,
) -> GameState:
    """A copy of ``g`` after ``attacker``'s piece on ``src`` beat the one on ``dst``.

    ``*_cards`` are the cards each side spends (taken from their hands); cards already
    on the duel table go to the discard pile too.
    """
    h = g.copy()
    _clear_battle(h)
    defender, dsize = h.pieces[dst]
    spend(h, attacker, attacker_cards)
    spend(h, defender, defender_cards)
    h.battle = Battle(attacker, defender, src, dst, h.pieces[src][1], dsize)
    h.phase = TURN
    h.current = attacker
    h.special_over = True
    h.rules.after_won_attack(h)
    if h.phase == RETREAT:
        assert h.battle is not None
        field = choose_retreat(h, defender, list(h.battle.retreat_options))
        h._apply_unchecked(defender, Retreat(field))
    return h


def attack_lost(
    g: GameState,
    attacker: int,
    defender: int,
    attacker_cards: list[int],
    defender_cards: list[int],
) -> GameState:
    """A copy of ``g`` after ``attacker`` lost (or gave up) its attack: nothing moves,
    the cards are spent and the next turn begins."""
    h = g.copy()
    _clear_battle(h)
    spend(h, attacker, attacker_cards)
    spend(h, defender, defender_cards)
    h.phase = TURN
    h.current = attacker
    h.special_over = True
    h.rules.end_action(h)
    return h


def first_retreat(g: GameState, defender: int, options: list[str]) -> str:
    """The simplest retreat chooser: the first option (as a timed-out player would)."""
    return options[0]
