"""README's console smoke run, ``european-war --watch 2 --fast``, timed: wall and CPU
seconds per run, turns played, and what it leaves on disk, with and without ``--boards``.

Each run is a fresh process in a fresh directory (a new database), as a person runs it;
seeds vary from run to run (the default seed is random), so game lengths do too (a game
that reaches the round limit takes 200 rounds).

Run by hand:  python -m benchmarks.console_watch [--runs 5] [--boards]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .stats import percentile


def disk_use(folder: Path) -> int:
    """Bytes of every file under ``folder``."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def one_run(seed: int, boards: bool) -> tuple[float, float, int, int, int]:
    """One smoke run: (wall seconds, CPU seconds, turns, PNGs written, bytes on disk)."""
    with tempfile.TemporaryDirectory() as tmp:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        command = [sys.executable, "-m", "console", "--watch", "2", "--fast", "--seed", str(seed)]
        proc = subprocess.run(
            command + (["--boards"] if boards else []),
            cwd=tmp,
            capture_output=True,
            text=True,
            check=True,
            env={k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
        )
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        turns = len(re.findall(r"^Turn \d+ ", proc.stdout, re.M))
        pngs = len(list(Path(tmp).rglob("*.png")))
        return wall, cpu, turns, pngs, disk_use(Path(tmp))


def main() -> None:
    """Print the median and p90 of wall and CPU time over the runs, and the extremes."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--boards", action="store_true", help="with --boards (PNGs every turn)")
    parser.add_argument("--seed", type=int, default=1, help="the first run's seed")
    args = parser.parse_args()
    results = [one_run(args.seed + 2 * k, args.boards) for k in range(args.runs)]
    walls = [r[0] for r in results]
    cpus = [r[1] for r in results]
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    print(f"--watch 2 --fast{' --boards' if args.boards else ''}, {args.runs} runs, load {load}")
    print(f"  wall: median {statistics.median(walls):.1f} s, p90 {percentile(walls, 90):.1f} s")
    print(f"  CPU:  median {statistics.median(cpus):.1f} s, p90 {percentile(cpus, 90):.1f} s")
    for wall, cpu, turns, pngs, size in results:
        print(
            f"  {wall:5.1f} s wall, {cpu:5.1f} s CPU, {turns:5d} turns, {pngs:4d} PNGs, "
            f"{size / 1e6:5.1f} MB on disk"
        )


if __name__ == "__main__":
    main()
