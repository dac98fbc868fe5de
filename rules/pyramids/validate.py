"""Invariants of a stored game, checked when one is loaded (and by the tests)."""

from __future__ import annotations

from ..errors import InvalidState
from .state import PHASES, GameState


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise InvalidState(f"stored game is inconsistent: {message}")


def validate_state(g: GameState) -> None:
    """Raise :class:`InvalidState` unless ``g`` is a consistent game.

    Checks seats and powers, pieces (known fields, owners, sizes, at most three of a
    size per colour), the 52 cards (each exactly once among hands, pile, discard and the
    duel table, European War only), and the phase bookkeeping.
    """
    n = len(g.seats)
    max_players = 6 if g.variant == "world_war_5" else 5
    _need(2 <= n <= max_players, f"{n} seats")
    _need(len(set(g.seats)) == n, "a power is played twice")
    _need(all(p in g.board.powers for p in g.seats), "unknown power")
    _need(sorted(g.origins) == list(range(n)), "seat origins")
    _need(g.phase in PHASES, f"unknown phase {g.phase!r}")
    _need(0 <= g.current < n and 0 <= g.first < n, "current or first seat out of range")
    _need(len(g.hands) == n and len(g.knowledge) == n and len(g.eliminated) == n, "seat lists")
    counts: dict[tuple[int, int], int] = {}
    for field, (seat, size) in g.pieces.items():
        _need(field in g.board.fields, f"unknown field {field!r}")
        _need(0 <= seat < n and 1 <= size <= 3, f"bad piece on {field}")
        counts[seat, size] = counts.get((seat, size), 0) + 1
    _need(all(c <= 3 for c in counts.values()), "more than three pieces of one size")
    if g.variant == "european_war":
        cards = [c for h in g.hands for c in h] + g.pile + g.discard
        if g.battle is not None:
            cards += g.battle.attacker_cards + g.battle.defender_cards
        _need(sorted(cards) == list(range(52)), "the 52 cards are not all accounted for once")
    else:
        _need(not g.pile and not g.discard and not any(g.hands), "cards in a game without cards")
    for s, z in g.setup_queue:
        _need(0 <= s < n and 0 <= z <= 3, "setup queue")
    _need(all(0 <= s < n for s in g.pending), "diplomacy pending seats")
    _need(all(0 <= s < n for s in g.winners), "winners")
    if g.battle is not None:
        b = g.battle
        _need(0 <= b.attacker < n and 0 <= b.defender < n, "battle seats")
        _need(b.src in g.board.fields and b.dst in g.board.fields, "battle fields")
