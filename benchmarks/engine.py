"""Engine speed: complete random games per second, actions per second, JSON round trip.

Run by hand:  python -m benchmarks.engine [--games 200] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from rules import pyramids
from rules.pyramids import GameState


def random_game(
    variant: str, players: int, seed: int, unchecked: bool = False
) -> tuple[GameState, int]:
    """Play one uniform-random legal game; return it and the number of actions. With
    ``unchecked``, through the unchecked twin of ``apply`` the computer players use."""
    rng = random.Random(seed)
    g, _ = pyramids.new_game(variant, [None] * players, seed)
    steps = 0
    while not g.over:
        deciders = g.deciders()
        d = deciders[rng.randrange(len(deciders))]
        legal = g.legal_actions(d.seat)
        action = legal[rng.randrange(len(legal))]
        if unchecked:
            g._apply_unchecked(d.seat, action)
        else:
            g.apply(d.seat, action)
        steps += 1
    return g, steps


def main() -> None:
    """Print games/s and actions/s (median of runs) and the JSON round-trip time."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for variant, players, unchecked in [
        (v, p, u) for v in ("european_war", "world_war_5") for p in (2, 4) for u in (False, True)
    ]:
        rates, action_rates, turns = [], [], []
        for run in range(args.runs):
            t0 = time.perf_counter()
            steps = 0
            for k in range(args.games):
                g, n = random_game(variant, players, run * 100_000 + k, unchecked)
                steps += n
                turns.append(g.turn)
            dt = time.perf_counter() - t0
            rates.append(args.games / dt)
            action_rates.append(steps / dt)
        print(
            f"{variant} {players}p{' unchecked' if unchecked else ''}: "
            f"{statistics.median(rates):.0f} games/s, "
            f"{statistics.median(action_rates):.0f} actions/s "
            f"(median of {args.runs} runs x {args.games} games; "
            f"median game {statistics.median(turns):.0f} turns)"
        )
    g, _ = pyramids.new_game("european_war", [None] * 4, 3)
    rng = random.Random(3)
    for _ in range(60):
        if g.over:
            break
        d = g.deciders()[0]
        g.apply(d.seat, rng.choice(g.legal_actions(d.seat)))
    times = []
    for _ in range(2000):
        t0 = time.perf_counter()
        GameState.from_dict(json.loads(json.dumps(g.to_dict())))
        times.append(time.perf_counter() - t0)
    copies = []
    for _ in range(2000):
        t0 = time.perf_counter()
        g.copy()
        copies.append(time.perf_counter() - t0)
    print(
        f"JSON round trip (to_dict+dumps+loads+from_dict, validated): "
        f"median {statistics.median(times) * 1e6:.1f} µs; "
        f"{len(json.dumps(g.to_dict()))} bytes; "
        f"copy median {statistics.median(copies) * 1e6:.1f} µs"
    )


if __name__ == "__main__":
    main()
