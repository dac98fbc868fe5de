"""Build European War positions for scenario tests without playing up to them."""

from __future__ import annotations

import rules
from rules import pyramids
from rules.pyramids.cards import parse_card
from rules.pyramids.state import TURN, GameState

EW = "european_war"


def cards(*names: str) -> list[int]:
    """Cards from short names: cards('KH', '10s', 'AD')."""
    return [parse_card(n) for n in names]


def position(
    powers: list[str],
    pieces: dict[str, tuple[int, int]],
    hands: list[list[int]] | None = None,
    current: int = 0,
    options: pyramids.Options | None = None,
    variant: str = EW,
    seed: int = 11,
) -> GameState:
    """A game in its turn phase: seats in the order of ``powers`` (seat 0 first),
    ``pieces`` {field: (seat, size)}; in European War ``hands`` per seat and every other
    card in the pile.

    The turn's draw (EW-7) is taken as already done.
    """
    g, _ = pyramids.new_game(variant, list(powers), seed=seed, options=options, arranged=True)
    g.setup_queue = []
    g.phase = TURN
    g.first = 0
    g.current = current
    g.turn = 1
    g.round = 1
    g.pieces = dict(pieces)
    if variant == EW:
        g.hands = [list(h) for h in (hands or [[] for _ in powers])]
        used = {c for h in g.hands for c in h}
        g.pile = [c for c in range(52) if c not in used]
        g.discard = []
    return g


def kinds(events: list[rules.Event]) -> list[str]:
    """The kinds of ``events`` in order, leaving out the hidden chance steps."""
    return [e.kind for e in events if e.kind != "chance"]


BRIT, FRAN, CENT, RUSS, OTTO = (
    "britain_allies",
    "france_allies",
    "central_powers",
    "russian_empire",
    "ottoman_empire",
)
