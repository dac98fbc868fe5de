"""Replay speed and size: a replay of ``--actions`` actions (default 60) of a seeded
four-player European War game, drawn as ``/replay`` draws it, on one core.

Run by hand:  python -m benchmarks.replay [--runs 10] [--actions 60] [--formats]

- *cold*: the first replay in a fresh process (the replay worker builds the board's
  static layers, sprites and fonts at its first replay), run in a child process;
- *warm*: ``--runs`` more in this process: wall and CPU time (median and p90), split
  into drawing the boards (the game's own PNGs, decoded) and composing and encoding the
  GIF; its size and frame count;
- ``--formats``: the same composed frames encoded as animated WebP (lossless at
  methods 0 and 4, lossy at quality 70) beside the GIF: time (median of ``--runs``,
  at least 3) and size, the numbers behind choosing GIF (:mod:`render.replay`).

Every replay is drawn in one thread (the replay worker has one process), so its CPU
time is what one core spends.
"""

from __future__ import annotations

import argparse
import io
import multiprocessing
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

from render.pyramids.gallery import NAMES, replay_frames
from render.replay import Frame, animate, compose, duration, encode_gif

GAME = "european_war"
PLAYERS = 4


def percentiles(samples: Sequence[float]) -> str:
    """Median and p90, in seconds."""
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return f"median {statistics.median(ordered):5.2f} s  p90 {p90:5.2f} s"


def timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    """``fn()``, its wall and CPU (this process) seconds."""
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def cold(actions: int) -> tuple[float, float, int]:
    """The first replay in this (fresh) process: wall, CPU seconds and bytes."""
    frames = replay_frames(GAME, PLAYERS, actions=actions)
    animation, wall, cpu = timed(lambda: animate(GAME, frames, NAMES[:PLAYERS]))
    return wall, cpu, len(animation.data)


def webp(images: Sequence[Image.Image], durations: Sequence[int], **options: Any) -> bytes:
    """``images`` as an animated WebP (converted to RGB first, as WebP needs)."""
    rgb = [im.convert("RGB") for im in images]
    buf = io.BytesIO()
    rgb[0].save(
        buf,
        "WEBP",
        save_all=True,
        append_images=rgb[1:],
        duration=list(durations),
        loop=0,
        **options,
    )
    return buf.getvalue()


def formats(frames: Sequence[Frame], runs: int) -> None:
    """GIF against animated WebP on the same composed frames."""
    images = compose(GAME, frames, NAMES[:PLAYERS])
    durations = [duration(i, len(frames) - 1, f.caption) for i, f in enumerate(frames)]
    encoders: list[tuple[str, Callable[[], bytes]]] = [
        ("GIF (optimize)", lambda: encode_gif(images, durations)),
        ("WebP lossless m0", lambda: webp(images, durations, lossless=True, method=0)),
        ("WebP lossless m4", lambda: webp(images, durations, lossless=True, method=4)),
        ("WebP lossy q70 m4", lambda: webp(images, durations, quality=70, method=4)),
    ]
    print(f"encoding only, {len(images)} frames of {images[0].width}x{images[0].height}:")
    for name, fn in encoders:
        walls, cpus, size = [], [], 0
        for _ in range(max(3, runs)):
            data, wall, cpu = timed(fn)
            walls.append(wall)
            cpus.append(cpu)
            size = len(data)
        print(
            f"  {name:18} wall {percentiles(walls)}   CPU {percentiles(cpus)}   "
            f"{size / 1024:7.0f} KB"
        )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; print the results."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--actions", type=int, default=60)
    p.add_argument("--formats", action="store_true", help="compare GIF with animated WebP")
    args = p.parse_args(argv)
    with open("/proc/loadavg", encoding="ascii") as f:
        print(f"load average: {f.read().strip()}")
    frames = replay_frames(GAME, PLAYERS, actions=args.actions)
    print(f"{GAME}, {PLAYERS} players, {len(frames) - 1} actions: {len(frames)} frames")

    with multiprocessing.get_context("spawn").Pool(1) as pool:
        wall, cpu, size = pool.apply(cold, (args.actions,))
    print(f"cold (first replay of a process): wall {wall:5.2f} s  CPU {cpu:5.2f} s  {size} bytes")

    animate(GAME, frames, NAMES[:PLAYERS])  # warm
    walls, cpus, draws, sizes = [], [], [], []
    for _ in range(args.runs):
        animation, wall, cpu = timed(lambda: animate(GAME, frames, NAMES[:PLAYERS]))
        walls.append(wall)
        cpus.append(cpu)
        sizes.append(len(animation.data))
        _, draw, _ = timed(lambda: compose(GAME, frames, NAMES[:PLAYERS]))
        draws.append(draw)
    print(f"warm, {args.runs} runs:")
    print(f"  replay            wall {percentiles(walls)}   CPU {percentiles(cpus)}")
    print(f"  boards + compose  wall {percentiles(draws)}")
    print(
        f"  GIF: {statistics.median(sizes) / 1024:.0f} KB, {animation.shown} frames of "
        f"{animation.width}x{animation.height}"
    )
    if args.formats:
        formats(frames, args.runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
