"""What finding where a turn began costs a game loaded from the store: the service plays
its whole stored log again from the creation record (:func:`service.turns.replay_turn`)
the first time such a game acts after a restart (once per game); a host reloading a game
another process changed plays only the new actions on its dropped copy
(:func:`service.turns.play_on`, here the last action); a game visited from another
process finds none (its host draws the board). Long random games of every registered
game: the wall and CPU time of both (median and p90), in this process, off the event loop
as the service runs them.

Run by hand:  python -m benchmarks.turn_replay [--runs 20] [--players 4]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from functools import partial
from typing import Any

from benchmarks.stats import percentile
from rules import contract
from service.models import ActionRecord
from service.turns import play_on, replay_turn

KEEN = ("move", "conscript", "grow", "build", "arm", "play_card", "let_pass")
"""Action kinds a long game prefers (fewer attacks: games last)."""


def logged_game(name: str, players: int, seed: int, limit: int = 2000) -> tuple[Any, ...]:
    """A random game of ``name`` as the store keeps it: (game, creation, start events,
    action records, final snapshot)."""
    game = contract.game_named(name)
    state, start = game.new_game([None] * players, seed, game.options_from_dict({}))
    rng = random.Random(seed)
    records: list[ActionRecord] = []
    while not state.over and len(records) < limit:
        decision = rng.choice(state.deciders())
        legal = list(state.legal_actions(decision.seat))
        keen = [a for a in legal if a.kind in KEEN]
        action = rng.choice(keen if keen and rng.random() < 0.8 else legal)
        events = state.apply(decision.seat, action)
        records.append(
            ActionRecord(
                len(records) + 1,
                decision.seat,
                None,
                "player",
                action.to_dict(),
                [e.to_dict() for e in events],
                0.0,
            )
        )
    creation = {"powers": [None] * players, "seed": seed, "options": {}, "arranged": False}
    return game, creation, start, records, state.to_dict()


def main() -> None:
    """Time the replay of the longest of 40 seeded games of each registered game."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.2f} (1 min)")
    for name in contract.game_names():
        games = [logged_game(name, args.players, seed) for seed in range(1, 41)]
        game, creation, start, records, snapshot = max(games, key=lambda g: len(g[3]))
        before = game.new_game(
            creation["powers"], creation["seed"], game.options_from_dict({}), False
        )[0]
        for r in records[:-1]:
            before.apply(r.seat, game.action_from_dict(r.action))
        known = replay_turn(game, creation, start, records[:-1], before.to_dict())
        assert known is not None
        for label, replay in (
            (f"{len(records):>4} actions", partial(replay_turn, game, creation, start, records)),
            ("   the last one", partial(play_on, game, before, known, records[-1:])),
        ):
            walls, cpus = [], []
            for _ in range(args.runs):
                wall, cpu = time.perf_counter(), time.process_time()
                found = replay(snapshot)
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
                assert found is not None, "the log led to its snapshot"
            print(
                f"{name:<14} {label}: wall median {percentile(walls, 50) * 1000:.2f} ms, "
                f"p90 {percentile(walls, 90) * 1000:.2f} ms; "
                f"CPU median {percentile(cpus, 50) * 1000:.2f} ms, "
                f"p90 {percentile(cpus, 90) * 1000:.2f} ms"
            )


if __name__ == "__main__":
    main()
