"""Ratings' speed: one finished game rated (2 to 5 seats, a computer among them in half),
a rebuild of many stored games, and /stats' rating chart drawn.

Run by hand:  python -m benchmarks.ratings [--runs 400] [--games 10000] [--people 300]

- *rate one game*: :func:`service.rating.rate_game` (OpenSkill's update of one game),
  median, p90 and p99 of wall time and of this thread's CPU time, per table size;
- *rebuild*: :func:`service.rating.rate_all` over ``--games`` made-up games among
  ``--people`` people (2 to 5 seats, a win, sometimes shared, sometimes a draw), as
  :meth:`service.GameService.rebuild_ratings` runs it off the event loop: seconds in all
  and per game, wall and CPU;
- *chart*: :func:`render.chart.rating_chart` for one game kind with 30 rated games and
  for two kinds with 300 and 120 (each with the PNG's size), wall and CPU.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from functools import partial

from benchmarks.stats import summary
from render.chart import Series, rating_chart
from service.models import FinishedGame, Rating, SeatRecord
from service.rating import rate_all, rate_game

LEVELS = ("easy", "normal", "hard")


def made_up_game(rng: random.Random, gid: int, people: int, seats: int) -> FinishedGame:
    """A finished game of ``seats`` seats (one of them a computer half the time) among
    user ids 1..``people``: one winner, two sharing the win, or a draw."""
    users = rng.sample(range(1, people + 1), seats)
    if seats > 2 and rng.random() < 0.5:
        users[-1] = 0  # a computer
    records = [
        SeatRecord(
            id=gid * 10 + n,
            user_id=u or None,
            computer_level=None if u else rng.choice(LEVELS),
            display_name=f"P{u}",
            joined_at=0.0,
            seat=n,
            power=f"side{n}",
        )
        for n, u in enumerate(users)
    ]
    roll = rng.random()
    winners = [0] if roll < 0.8 else [0, 1]
    return FinishedGame(
        id=gid,
        variant="kind",
        guild_id=1,
        ended_at=1_700_000_000.0 + gid * 600,
        result={"winners": winners, "draw": roll > 0.95},
        seats=records,
        rating_seq=gid,
    )


def timed(fn: Callable[[], object], runs: int) -> tuple[list[float], list[float]]:
    """Wall and thread CPU seconds of ``runs`` calls of ``fn``."""
    walls, cpus = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.thread_time()
        fn()
        cpus.append(time.thread_time() - c)
        walls.append(time.perf_counter() - w)
    return walls, cpus


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=400)
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--people", type=int, default=300)
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()}")
    rng = random.Random(19)

    print("rate one game (service.rating.rate_game):")
    for seats in range(2, 6):
        game = made_up_game(rng, 1, 50, seats)
        before = {
            s.user_id: Rating("kind", s.user_id, "P", 27.0, 5.0, 12.0, 10, 3, 0.0)
            for s in game.seats
            if s.user_id is not None
        }
        walls, cpus = timed(partial(rate_game, game, before, 2), args.runs)
        print(f"  {seats} seats: wall {summary(walls)}; cpu {summary(cpus)}")

    games = [made_up_game(rng, i + 1, args.people, rng.randint(2, 5)) for i in range(args.games)]
    w, c = time.perf_counter(), time.thread_time()
    results, table = rate_all(games)
    wall, cpu = time.perf_counter() - w, time.thread_time() - c
    print(
        f"rebuild (service.rating.rate_all): {args.games} games, {len(results)} results, "
        f"{len(table)} ratings: wall {wall:.2f} s, cpu {cpu:.2f} s, "
        f"{wall / args.games * 1e6:.0f} µs per game"
    )

    print("chart (render.chart.rating_chart):")
    walk = [(1_700_000_000.0 + i * 50_000, rng.uniform(-5, 25)) for i in range(300)]
    for label, series in (
        ("1 kind, 30 games", [Series("European War", tuple(walk[:30]))]),
        (
            "2 kinds, 300 + 120 games",
            [Series("European War", tuple(walk)), Series("World War 5", tuple(walk[::3][:120]))],
        ),
    ):
        size = len(rating_chart("Bartholomew", series))
        runs = max(20, args.runs // 10)
        walls, cpus = timed(partial(rating_chart, "Bartholomew", series), runs)
        print(f"  {label}: wall {summary(walls)}; cpu {summary(cpus)}; PNG {size / 1024:.1f} KiB")
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
