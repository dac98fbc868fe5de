"""Seeded random legal games with every invariant checked after every step."""

from __future__ import annotations

import pytest

from rules import pyramids
from tests.rules.playout import play_random

CONFIGS = [
    (2, pyramids.Options()),
    (3, pyramids.Options()),
    (4, pyramids.Options()),
    (3, pyramids.Options(setup_order="by_size", sea_attacks=True)),
    (5, pyramids.Options(five_players=True, turn_timeout_action="arm")),
]


@pytest.mark.parametrize("chunk", range(10))
def test_random_european_war_games_keep_every_invariant(chunk: int) -> None:
    # 10 chunks x 20 games = 200 games with every check, several table sizes and options.
    results = []
    for k in range(20):
        seed = chunk * 1000 + k
        players, options = CONFIGS[seed % len(CONFIGS)]
        results.append(play_random("european_war", players, seed, options))
    assert all(r.over for r in results)
    assert any(r.winners for r in results)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(50))
def test_many_random_european_war_games(chunk: int) -> None:
    for k in range(100):
        seed = 100_000 + chunk * 1000 + k
        players, options = CONFIGS[seed % len(CONFIGS)]
        assert play_random("european_war", players, seed, options, full_checks=k % 5 == 0).over
