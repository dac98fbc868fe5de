"""Crash safety: a child process plays in a loop and is killed with SIGKILL at random
moments, many times. After every kill the file must hold exactly the committed actions:
integrity intact, each log contiguous, version == number of actions, the snapshot equal to
replaying the log, open decisions matching the replayed game — no partial rows."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.bot.helpers import check_database

CHILD = Path(__file__).with_name("crash_child.py")
ROOT = Path(__file__).resolve().parents[2]
KILLS = 20


def test_killed_at_random_moments_the_file_holds_exactly_the_committed_actions(
    tmp_path: Path,
) -> None:
    db = tmp_path / "crash.db"
    rng = random.Random(20260101)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    progress = []
    finished: set[tuple[int, int]] = set()
    for _ in range(KILLS):
        child = subprocess.Popen(
            [sys.executable, str(CHILD), str(db), str(rng.randrange(1 << 30))],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        try:
            assert child.stdout is not None
            line = child.stdout.readline()
            if line.strip() != "ready":
                child.kill()
                raise AssertionError(f"child did not start: {line!r} {child.stderr.read()}")  # type: ignore[union-attr]  # piped
            time.sleep(rng.uniform(0.01, 0.12))
            assert child.poll() is None, child.stderr.read()  # type: ignore[union-attr]  # stderr is piped
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
        assert child.returncode == -signal.SIGKILL
        counts = check_database(db, finished)
        progress.append(counts["actions"])
    # the child kept making progress across kills, and several games were played
    assert progress == sorted(progress) and progress[-1] > progress[0], progress
    assert check_database(db)["games"] >= 2, progress
