"""A decision is a function of the view, the level, the seed and the budget: the same
in a second call, in another process, and under another string-hash seed."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import ai
import ai.pyramids
from ai.pyramids import ismcts, lookahead
from ai.pyramids.context import Context
from rules import pyramids
from tests.ai.support import EW, SMALL_BUDGET, WW

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys
import ai
from rules import pyramids
out = []
for variant, players, seed in [("european_war", 3, 4), ("world_war_5", 2, 8)]:
    game, _ = pyramids.new_game(variant, [None] * players, seed, pyramids.Options(round_limit=12))
    step = 0
    while not game.over and step < 60:
        d = game.deciders()[0]
        view = pyramids.view_for(game, d.seat)
        for level in ai.pyramids.LEVELS:
            out.append(ai.pyramids.choose(view, level, step, iterations=%d).to_dict())
        game.apply(d.seat, ai.pyramids.choose(view, "normal", step))
        step += 1
print(json.dumps(out))
"""


def _decisions_in_subprocess(hash_seed: str) -> list[dict[str, object]]:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT % SMALL_BUDGET],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(done.stdout)


def test_same_decisions_under_different_hash_seeds() -> None:
    first = _decisions_in_subprocess("1")
    assert len(first) > 100
    assert first == _decisions_in_subprocess("2024")


def test_same_seed_same_decision_and_seeds_matter() -> None:
    game, _ = pyramids.new_game(EW, [None] * 4, 12, pyramids.Options(round_limit=10))
    differs = 0
    for step in range(40):
        if game.over:
            break
        seat = game.deciders()[0].seat
        view = pyramids.view_for(game, seat)
        for level in ai.pyramids.LEVELS:
            a = ai.pyramids.choose(view, level, 77, iterations=SMALL_BUDGET)
            assert a == ai.pyramids.choose(view, level, 77, iterations=SMALL_BUDGET)
        easy = {ai.pyramids.choose(view, "easy", s) for s in range(8)}
        differs += len(easy) > 1
        game.apply(seat, ai.pyramids.choose(view, "normal", step))
    assert differs > 5, "easy should vary with the seed"


class CountingClock:
    """``time.monotonic`` for the search: each reading is one second later, so a
    deadline is a number of readings, whatever the machine's speed."""

    def __init__(self) -> None:
        self.readings = 0

    def monotonic(self) -> float:
        self.readings += 1
        return float(self.readings)


def _first_turn() -> tuple[pyramids.GameState, int]:
    game, _ = pyramids.new_game(WW, [None, None, None], 3)
    while game.phase == "setup":
        seat = game.deciders()[0].seat
        game.apply(seat, ai.pyramids.choose(pyramids.view_for(game, seat), "easy", 0))
    return game, game.deciders()[0].seat


def test_deadline_cuts_the_lookahead_short(monkeypatch: pytest.MonkeyPatch) -> None:
    game, seat = _first_turn()
    clock = CountingClock()
    monkeypatch.setattr(lookahead, "time", clock)
    # the lookahead looks at the clock after each deal: past the deadline at the 3rd look
    action = ai.pyramids.choose(
        pyramids.view_for(game, seat), "hard", 1, iterations=2_000, deadline=2.5
    )
    assert clock.readings == 3, "the lookahead stopped at its deadline, not its budget"
    assert action in game.legal_actions(seat)


def test_deadline_cuts_the_search_short(monkeypatch: pytest.MonkeyPatch) -> None:
    game, seat = _first_turn()
    clock = CountingClock()
    monkeypatch.setattr(ismcts, "time", clock)
    ctx = Context(pyramids.view_for(game, seat), random.Random(1))
    # the search looks at the clock every 4 iterations: past the deadline at the 3rd look
    action = ismcts.search(ctx, random.Random(1), 2_000, deadline=2.5)
    assert clock.readings == 3, "the search stopped at its deadline, not its budget"
    assert action in game.legal_actions(seat)


def test_public_api() -> None:
    assert ai.pyramids.LEVELS == ("easy", "normal", "hard")
    assert set(ai.pyramids.DEFAULT_ITERATIONS) == set(ai.pyramids.LEVELS)
    assert ai.pyramids.DEFAULT_ITERATIONS["hard"] > 0
