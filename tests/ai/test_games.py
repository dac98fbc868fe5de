"""Every level plays whole seeded games — both variants, 2 to 6 players, several rule
options — without an illegal action or an exception (:func:`support.play_game` checks
every decision against the engine's legal actions, and the engine checks it again)."""

from __future__ import annotations

import pytest

import ai
import ai.pyramids
from rules import pyramids
from tests.ai.support import EW, WW, play_game

TABLES: list[tuple[str, int, pyramids.Options]] = [
    (EW, 2, pyramids.Options(round_limit=15)),
    (EW, 3, pyramids.Options(round_limit=8, setup_order="by_size")),
    (EW, 4, pyramids.Options(round_limit=6, sea_attacks=True)),
    (EW, 5, pyramids.Options(round_limit=5, five_players=True, turn_timeout_action="arm")),
    (WW, 2, pyramids.Options(round_limit=15)),
    (WW, 3, pyramids.Options(round_limit=8, setup_order="together")),
    (WW, 4, pyramids.Options(round_limit=6, pyramid_arcade=True)),
    (WW, 6, pyramids.Options(round_limit=5, five_players=True)),
]


def _lineup(level: str, players: int) -> list[str]:
    """The level in every seat; hard (the slow one) alternates with easy."""
    if level != "hard":
        return [level] * players
    return ["hard" if s % 2 == 0 else "easy" for s in range(players)]


@pytest.mark.parametrize("level", ai.pyramids.LEVELS)
def test_each_level_finishes_seeded_games(level: str) -> None:
    games = 0
    for k, (variant, players, options) in enumerate(TABLES):
        for seed in range(3):
            g = play_game(variant, _lineup(level, players), 1000 * k + seed, options, iterations=4)
            assert g.over
            games += 1
    assert games == 24


def test_levels_mixed_at_one_table() -> None:
    for seed in range(6):
        variant = EW if seed % 2 == 0 else WW
        levels = ["easy", "normal", "hard", "normal"][: 2 + seed % 3]
        g = play_game(variant, levels, 500 + seed, pyramids.Options(round_limit=10), iterations=4)
        assert g.over


def test_games_end_decisively_between_unequal_players() -> None:
    """Two-player European War between normal and easy ends in a win, not a draw."""
    for seed in range(6):
        levels = ["normal", "easy"] if seed % 2 else ["easy", "normal"]
        g = play_game(EW, levels, 900 + seed, pyramids.Options(round_limit=60))
        assert g.winners, f"seed {seed} ended in a draw"


def test_four_normal_players_bring_european_war_to_an_end() -> None:
    """Four normal players steer for an occupation (the cost of each turn still needed
    weighs in their evaluation): in sixteen seeded games none reaches the round limit and
    half end within 60 rounds. With those turns valued at a quarter as much, four of them
    did, and the median game lasted 80 rounds."""
    rounds = []
    for seed in range(1, 17):
        g = play_game(EW, ["normal"] * 4, seed, pyramids.Options(round_limit=200))
        assert g.winners, f"seed {seed} reached the round limit"
        rounds.append(g.round)
    assert sorted(rounds)[len(rounds) // 2] <= 60, sorted(rounds)


@pytest.mark.slow
@pytest.mark.parametrize("level", ai.pyramids.LEVELS)
def test_each_level_finishes_full_length_games(level: str) -> None:
    """Run by hand (-m slow): whole games up to the default round limit, every seat."""
    for k, (variant, players, _options) in enumerate(TABLES):
        for seed in range(4):
            options = pyramids.Options(five_players=players > 4)
            assert play_game(
                variant, [level] * players, 77 + 1000 * k + seed, options, iterations=16
            ).over
