"""Seeded random playouts (2, 3 and 5 players; each option) with every invariant checked
after every step, and replays that reproduce the state hash at every step."""

from __future__ import annotations

from typing import Any

import pytest

from rules.europe_at_war.options import Options
from tests.rules.europe_at_war.playout import play, replay

TABLES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (3, {}),
    (5, {}),
    (2, {"rounds": 8, "compact_map": True}),
    (3, {"basic_set": True, "leaders_in_play": True}),
    (4, {"teams": True, "protected_leaders": True}),
    (3, {"fast_windows": True, "sealed_battle_cards": True, "rounds": 16}),
]


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_random_playouts_keep_every_invariant(players: int, options: dict[str, Any]) -> None:
    p = play(players, players * 7 + len(options), Options.from_dict(options), sample=6)
    assert p.state is not None and p.state.over
    assert p.state.result() is not None


def test_a_game_replays_from_its_seed_and_actions() -> None:
    p = play(3, seed=11, views_every=0, sample=0)
    assert replay(p) == p.hashes
