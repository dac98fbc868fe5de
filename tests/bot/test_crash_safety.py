"""Crash safety: a child process plays in a loop and is killed with SIGKILL at random
moments, many times. After every kill the database must hold exactly the acknowledged
actions: each one the child was told was committed, and at most the one it was waiting
for beside them; integrity intact, each log contiguous, version == number of actions, the
snapshot equal to replaying the log, open decisions matching the replayed game — no
partial rows. The same for an SQLite file and a PostgreSQL database; the short run is in
every test run, the long one (``-m slow``) kills the writer a hundred times and more."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.bot.helpers import check_database, check_postgres
from tests.postgres import PostgresServer

CHILD = Path(__file__).with_name("crash_child.py")
ROOT = Path(__file__).resolve().parents[2]

Check = Callable[[set[tuple[int, int]] | None], dict[str, int]]


def sqlite_database(request: pytest.FixtureRequest) -> tuple[str, Check]:
    db: Path = request.getfixturevalue("tmp_path") / "crash.db"
    return str(db), lambda verified: check_database(db, verified)


def postgres_database(request: pytest.FixtureRequest) -> tuple[str, Check]:
    server: PostgresServer = request.getfixturevalue("postgres_server")
    url = asyncio.run(server.fresh_url())
    return url, lambda verified: asyncio.run(check_postgres(url, verified))


DATABASES = {"sqlite": sqlite_database, "postgres": postgres_database}


@pytest.fixture(params=sorted(DATABASES))
def database(request: pytest.FixtureRequest) -> tuple[str, Check]:
    """(where the child writes, a check of that database) for one kind of database."""
    return DATABASES[request.param](request)


def kill_at_random_moments(where: str, check: Check, kills: int) -> None:
    rng = random.Random(20260101)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    progress = []
    finished: set[tuple[int, int]] = set()
    before = 0
    for _ in range(kills):
        child = subprocess.Popen(
            [sys.executable, str(CHILD), where, str(rng.randrange(1 << 30))],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        try:
            assert child.stdout is not None and child.stderr is not None
            line = child.stdout.readline()
            if line.strip() != "ready":
                child.kill()
                raise AssertionError(f"child did not start: {line!r} {child.stderr.read()}")
            # killed after a random number of acknowledged actions (so every kill lets it
            # make progress, however slow the machine), then at a random moment after
            read = [child.stdout.readline() for _ in range(rng.randrange(2, 30))]
            time.sleep(rng.uniform(0.0, 0.05))
            assert child.poll() is None, child.stderr.read()
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
        assert child.returncode == -signal.SIGKILL
        lines = [*read, *child.stdout.read().splitlines()]
        acked = [tuple(map(int, x.split()[1:])) for x in lines if x.strip()]
        counts = check(finished)
        # every acknowledged action is kept; beyond them, at most the one in flight
        assert counts["actions"] - before - len(acked) in (0, 1), (before, acked, counts)
        assert len(set(acked)) == len(acked)
        progress.append(counts["actions"])
        before = counts["actions"]
    # the child kept making progress across kills, and several games were played
    assert progress == sorted(progress) and progress[-1] > progress[0], progress
    assert check(None)["games"] >= 2, progress


def test_killed_at_random_moments_the_database_holds_exactly_the_acknowledged_actions(
    database: tuple[str, Check],
) -> None:
    kill_at_random_moments(*database, kills=20)


@pytest.mark.slow
def test_killed_a_hundred_and_twenty_times_the_database_holds_exactly_the_acknowledged_actions(
    database: tuple[str, Check],
) -> None:
    kill_at_random_moments(*database, kills=120)
