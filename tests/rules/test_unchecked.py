"""The unchecked twin of ``apply`` (computer players' playouts) reaches exactly the state
the checked ``apply`` reaches, for every legal action of random games of both variants."""

from __future__ import annotations

import random

import pytest

from rules import pyramids


@pytest.mark.parametrize(
    ("variant", "players"), [("european_war", 2), ("european_war", 4), ("world_war_5", 3)]
)
def test_an_unchecked_legal_action_leaves_the_same_state_as_a_checked_one(
    variant: str, players: int
) -> None:
    rng = random.Random(players)
    for seed in range(6):
        checked, _ = pyramids.new_game(variant, [None] * players, seed)
        unchecked = checked.copy()
        while not checked.over:
            deciders = checked.deciders()
            d = deciders[rng.randrange(len(deciders))]
            legal = checked.legal_actions(d.seat)
            action = legal[rng.randrange(len(legal))]
            checked.apply(d.seat, action)
            unchecked._apply_unchecked(d.seat, action)
            assert unchecked.to_dict() == checked.to_dict(), (variant, seed, action)
        assert unchecked.over and unchecked.winners == checked.winners


def test_the_unchecked_twin_keeps_no_chance_events() -> None:
    """A playout must not pile up hidden chance events: they are kept only by ``apply``."""
    g, _ = pyramids.new_game("european_war", [None, None], 5)
    rng = random.Random(5)
    while not g.over:
        d = g.deciders()[0]
        g._apply_unchecked(d.seat, rng.choice(g.legal_actions(d.seat)))
        assert g.take_chance_steps() == []
