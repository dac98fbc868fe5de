"""Which actions of the pyramid games may be taken back (``Game.undoable``): those that
revealed nothing, by the rules they follow."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from rules import contract
from rules.events import Event

NEVER = {
    "attack",  # EW-13 a window and a duel; WW-3 dice
    "sabotage",  # EW-8, EW-9: a J (or A) shown
    "spy",  # EW-10: a hand seen
    "arm",  # EW-11: two cards drawn
    "stop_attack",  # EW-13: an answer in the window, a K shown
    "let_pass",  # EW-15: an answer in the window
    "play_card",  # EW-17: a card shown
    "stop_playing",  # EW-17: a step of the duel
    "retreat",  # EW-19: after a duel
    "timeout",
    "agree_draw",
}


def playout(name: str, seed: int, players: int = 3) -> list[tuple[Any, int, Any, list[Event]]]:
    """A random game: (state before, seat, action, events) of every action, as
    ``Game.undoable`` takes them."""
    game = contract.game_named(name)
    state, _ = game.new_game([None] * players, seed, game.options_from_dict({}))
    rng = random.Random(seed)
    out = []
    for _ in range(400):
        deciders = state.deciders()
        if not deciders:
            break
        seat = rng.choice(deciders).seat
        action = rng.choice(list(state.legal_actions(seat)))
        before = state.copy()
        events = state.apply(seat, action)
        out.append((before, seat, action, events))
    return out


@pytest.mark.parametrize("name", ["european_war", "world_war_5"])
def test_every_action_is_judged_by_its_rule(name: str) -> None:
    game = contract.game_named(name)
    seen: Counter[tuple[str, bool]] = Counter()
    for seed in range(4):
        for before, seat, action, events in playout(name, seed):
            ok = game.undoable(before, seat, action, events)
            seen[(action.kind, ok)] += 1
            if action.kind in NEVER:
                assert not ok, action
            elif any(e.to is not None for e in events):
                assert not ok, (action, events)  # a card dealt or drawn (EW-6, EW-7)
            elif any(e.kind == "game_over" for e in events):
                assert not ok  # EW-20, WW-4, WW-5
            else:
                assert ok, action  # EW-5, EW-11 / WW-2, WW-6: nothing revealed
    if name == "world_war_5":
        assert seen[("place_piece", True)] and seen[("grow", True)]  # WW-6, WW-2
        assert seen[("attack", False)]  # WW-3: dice
    else:
        assert seen[("place_all", True)] and seen[("place_all", False)]  # EW-5, EW-6
        # EW-7: the next player's draw follows every action that ends a turn
        assert seen[("conscript", False)] and not seen[("conscript", True)]


def test_european_war_setup_placements_until_the_deal() -> None:
    game = contract.game_named("european_war")
    log = playout("european_war", 1)
    setup = log[:3]
    assert [a.kind for _, _, a, _ in setup] == ["place_all"] * 3
    assert [game.undoable(*step) for step in setup] == [True, True, False]  # EW-5, EW-6


def test_world_war_5_placements_and_peaceful_turns() -> None:
    game = contract.game_named("world_war_5")
    log = playout("world_war_5", 2, players=2)
    assert all(game.undoable(*step) for step in log[:6])  # WW-6: all six placements
    grows = [step for step in log if step[2].kind in ("grow", "build", "move")]
    assert grows and all(
        game.undoable(*step) for step in grows if all(e.kind != "game_over" for e in step[3])
    )  # WW-2
