"""Which actions of Europe at War may be taken back (``EaGame.undoable``): a placement
in view of all, an order of the plan before it is shown, a deposit or a loss's payment —
when nothing came of them but public events."""

from __future__ import annotations

import random
from collections import Counter

from rules.europe_at_war.game import EaGame

NEVER = {
    "discard",  # EA-5: the card is seen
    "play",  # EA-32: an own-turn card played
    "play_on",
    "play_at",
    "submit",  # EA-15: the plan is shown, window W1 opens
    "negate",  # EA-33, W1
    "react",
    "avoid",  # EA-33, W2
    "interdict",
    "lost_orders",
    "pass",  # an answer in a window or a battle
    "done",
    "fight",  # EA-16, EA-17: a battle
    "battle_card",  # EA-18
    "destroy",
    "casualty",  # EA-23
    "capture",
    "retreat",  # EA-24
    "buy",  # EA-29: chits drawn
    "disband",  # EA-30, EA-6: what others see of a stack changes
    "top",  # EA-6
    "timeout",
}


def test_every_action_is_judged_by_its_rule() -> None:
    game = EaGame()
    seen: Counter[tuple[str, bool]] = Counter()
    for seed in range(3):
        state, _ = game.new_game([None] * 3, seed, game.options_from_dict({}))
        rng = random.Random(seed)
        for _ in range(500):
            deciders = state.deciders()
            if not deciders:
                break
            seat = rng.choice(deciders).seat
            action = rng.choice(list(state.legal_actions(seat)))
            before = state.copy()
            events = state.apply(seat, action)
            ok = game.undoable(before, seat, action, events)
            seen[(action.kind, ok)] += 1
            if action.kind in NEVER or any(e.to is not None for e in events):
                assert not ok, (action, events)  # EA-3.4: the deal after the last placement
            else:
                assert ok, action
    assert seen[("place", True)] and seen[("place", False)]  # EA-3.3, EA-3.4
    assert seen[("move", True)] and seen[("undo", True)]  # EA-10, EA-15 step 1
    assert seen[("deposit", True)]  # EA-28
    assert seen[("submit", False)] and seen[("discard", False)]  # EA-15 W1, EA-5


def test_the_plans_own_take_back_leaves_the_word_undo_to_the_platform() -> None:
    # /undo (and the console's undo) take back any game's latest action; the plan's
    # own "undo" action is typed as retract
    commands = {c.name: c for c in EaGame().presentation.commands()}
    assert "undo" not in commands and commands["retract"].kinds == ("undo",)
