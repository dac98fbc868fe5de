"""A tournament between the computer player levels (run by hand; not part of the tests).

Plays seeded games between levels — 2-player and 4-player tables, seats rotated so that
every level sits in every seat equally often — and prints, per match-up, each level's
share of the games it won (a shared win counts 1/k for each of its k winners) with a 95%
Wilson confidence interval, its share of the games that did not end in a draw, the
draws, and the median and 90th-percentile time of its decisions. Example::

    .venv/bin/python benchmarks/ai_tournament.py --games 40 --workers 2

Every game is seeded (game ``i`` of a match-up uses seed ``base + i``), so a run is
reproducible given the same options (decisions are capped only by iterations here, never
by the clock).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from math import sqrt
from typing import TextIO

import ai
import ai.pyramids
from rules import pyramids

MATCHUPS: dict[str, tuple[str, ...]] = {
    "hard-easy-2p": ("hard", "easy"),
    "hard-normal-2p": ("hard", "normal"),
    "normal-easy-2p": ("normal", "easy"),
    "hard-normal-4p": ("hard", "normal", "normal", "normal"),
    "hard2-normal2-4p": ("hard", "normal", "hard", "normal"),
    "normal-easy-4p": ("normal", "easy", "normal", "easy"),
}
DEFAULT_MATCHUPS = ("hard-easy-2p", "hard-normal-2p", "hard-normal-4p")


@dataclass
class GameResult:
    """One finished game: which level sat where, who won, and decision times."""

    matchup: str
    variant: str
    seed: int
    levels: tuple[str, ...]
    winners: tuple[int, ...]
    reason: str
    rounds: int
    times: dict[str, list[float]] = field(default_factory=dict)
    """Seconds per decision, by level (decisions with a real choice only)."""


def play_game(
    matchup: str,
    variant: str,
    seed: int,
    levels: tuple[str, ...],
    iterations: int | None,
    round_limit: int,
) -> GameResult:
    """Play one game to its end with the given level in each seat."""
    options = pyramids.Options(round_limit=round_limit)
    game, _ = pyramids.new_game(variant, [None] * len(levels), seed, options, arranged=True)
    times: dict[str, list[float]] = {lv: [] for lv in levels}
    step = 0
    while not game.over:
        decision = game.deciders()[0]
        level = levels[decision.seat]
        view = pyramids.view_for(game, decision.seat)
        choices = len(game.legal_actions(decision.seat))
        start = time.perf_counter()
        action = ai.pyramids.choose(
            view,
            level,
            seed * 100_003 + step,
            iterations=iterations if level == "hard" else None,
        )
        spent = time.perf_counter() - start
        if choices > 1:
            times[level].append(spent)
        game.apply(decision.seat, action)
        step += 1
    return GameResult(
        matchup, variant, seed, levels, tuple(game.winners), game.end_reason, game.round, times
    )


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _run(args: tuple[str, str, int, tuple[str, ...], int | None, int]) -> GameResult:
    return play_game(*args)


def schedule(
    matchups: list[str],
    variants: list[str],
    games: int,
    base_seed: int,
    iterations: int | None,
    round_limit: int,
) -> list[tuple[str, str, int, tuple[str, ...], int | None, int]]:
    """The games to play: seats rotated game by game."""
    jobs = []
    for name in matchups:
        lineup = MATCHUPS[name]
        for variant in variants:
            for i in range(games):
                r = i % len(lineup)
                levels = lineup[r:] + lineup[:r]
                jobs.append((name, variant, base_seed + i, levels, iterations, round_limit))
    return jobs


def report(results: list[GameResult], out: TextIO = sys.stdout) -> None:
    """Print one table per match-up and variant."""
    keys = sorted(
        {(r.matchup, r.variant) for r in results}, key=lambda k: (list(MATCHUPS).index(k[0]), k[1])
    )
    for name, variant in keys:
        rs = [r for r in results if r.matchup == name and r.variant == variant]
        lineup = MATCHUPS[name]
        n = len(rs)
        draws = sum(1 for r in rs if not r.winners)
        rounds = statistics.median(r.rounds for r in rs)
        print(f"\n{name} ({variant}): {n} games, {draws} draws, median {rounds:g} rounds", file=out)
        print(
            f"  {'level':<8}{'seats':>6}{'fair':>7}{'won':>8}{'share':>8}"
            f"{'95% CI':>17}{'of decided':>12}{'median ms':>11}{'p90 ms':>9}",
            file=out,
        )
        for level in dict.fromkeys(lineup):
            seats = lineup.count(level)
            won = 0.0
            for r in rs:
                if r.winners:
                    won += sum(1 for w in r.winners if r.levels[w] == level) / len(r.winners)
            lo, hi = wilson(won, n)
            ts = [t for r in rs for t in r.times.get(level, [])]
            med = statistics.median(ts) * 1000 if ts else 0.0
            p90 = sorted(ts)[int(0.9 * (len(ts) - 1))] * 1000 if ts else 0.0
            decided = won / (n - draws) if n > draws else 0.0
            print(
                f"  {level:<8}{seats:>6}{seats / len(lineup):>7.2f}{won:>8.1f}"
                f"{won / n if n else 0:>8.2f}   [{lo:.2f}, {hi:.2f}]{decided:>12.2f}"
                f"{med:>11.1f}{p90:>9.1f}",
                file=out,
            )


def main(argv: list[str] | None = None) -> None:
    """Parse the options, play the games in parallel and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per match-up and variant")
    parser.add_argument(
        "--matchups",
        default=",".join(DEFAULT_MATCHUPS),
        help=f"comma-separated, from: {', '.join(MATCHUPS)}",
    )
    parser.add_argument(
        "--variants", default="european_war", help="comma-separated: european_war, world_war_5"
    )
    parser.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="hard's search iterations per decision (default: the level's)",
    )
    parser.add_argument("--round-limit", type=int, default=200, help="rounds before a draw")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--workers", type=int, default=2, help="parallel processes")
    args = parser.parse_args(argv)
    matchups = [m for m in args.matchups.split(",") if m]
    for m in matchups:
        if m not in MATCHUPS:
            parser.error(f"unknown match-up {m!r}")
    variants = [v for v in args.variants.split(",") if v]
    jobs = schedule(matchups, variants, args.games, args.seed, args.iterations, args.round_limit)
    budget = args.iterations or ai.pyramids.DEFAULT_ITERATIONS["hard"]
    print(
        f"{len(jobs)} games; hard budget {budget} iterations; round limit "
        f"{args.round_limit}; {args.workers} workers",
        flush=True,
    )
    start = time.time()
    results: list[GameResult] = []
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for k, res in enumerate(pool.map(_run, jobs), 1):
            results.append(res)
            if k % 10 == 0 or k == len(jobs):
                print(f"  {k}/{len(jobs)} games, {time.time() - start:.0f} s", flush=True)
    report(results)
    print(f"\n{len(results)} games in {time.time() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
