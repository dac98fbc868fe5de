"""Seeded random playouts (2, 3 and 5 players; each option) with every invariant checked
after every step, and replays that reproduce the state hash at every step.

The default run plays each table's opening (its first two rounds) and one short game to
its end; the whole games are behind the ``slow`` marker (``pytest -m slow``)."""

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
OPENING = 2
"""Rounds of each table the default run plays."""


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_random_openings_keep_every_invariant(players: int, options: dict[str, Any]) -> None:
    seed = players * 7 + len(options)
    p = play(players, seed, Options.from_dict(options), sample=4, rounds=OPENING)
    assert p.state is not None and (p.state.over or p.state.round == OPENING + 1)
    assert any(step["kind"] == "move" for _, step in p.log)


def test_a_short_game_plays_to_its_end_keeping_every_invariant() -> None:
    p = play(2, 17, Options(rounds=8, compact_map=True), sample=4, views_every=40)
    assert p.state is not None and p.state.over and p.state.result() is not None


@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), TABLES)
def test_random_playouts_keep_every_invariant(players: int, options: dict[str, Any]) -> None:
    p = play(players, players * 7 + len(options), Options.from_dict(options), sample=6)
    assert p.state is not None and p.state.over
    assert p.state.result() is not None


def test_an_opening_replays_from_its_seed_and_actions() -> None:
    p = play(3, seed=11, views_every=0, sample=0, rounds=OPENING)
    assert replay(p) == p.hashes


@pytest.mark.slow
def test_a_game_replays_from_its_seed_and_actions() -> None:
    p = play(3, seed=11, views_every=0, sample=0)
    assert replay(p) == p.hashes
