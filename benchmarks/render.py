"""Render speed: board, hand and duel images, median and p90 of wall time, with sizes.

Run by hand:  python -m benchmarks.render [--runs 100]

Static layers, sprites and palettes are built before timing (once per process in the
bot too). Each line gives the median and 90th percentile over ``--runs`` renders (PNG
bytes included) of: wall time; the calling thread's CPU time ("thread"), which is what
the wall time comes to on an otherwise idle machine (a board's second deflate band
runs on another thread, in parallel); and the whole process's CPU time ("cpu", all
threads). Then the PNG size. The board lines also split drawing from encoding. The
same position is rendered again and again, so cached text masks are warm: a new
position draws a few new strings (~0.05 ms each).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import render
import rules
from render.board import board_image
from render.encode import png_bytes
from render.gallery import NAMES, find
from render.png_palette import board_palette


def _measure(fn: Callable[[], object], runs: int
             ) -> tuple[list[float], list[float], list[float]]:
    wall, thread, cpu = [], [], []
    for _ in range(runs):
        w0, t0, c0 = time.perf_counter(), time.thread_time(), time.process_time()
        fn()
        cpu.append(time.process_time() - c0)
        thread.append(time.thread_time() - t0)
        wall.append(time.perf_counter() - w0)
    return wall, thread, cpu


def _stats(samples: list[float]) -> str:
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered) * 1000:6.2f} / {p90 * 1000:6.2f}"


def _line(label: str, fn: Callable[[], object], runs: int, size: int | None = None) -> None:
    fn()  # warm up
    wall, thread, cpu = _measure(fn, runs)
    tail = f"  {size / 1024:6.1f} KB" if size is not None else ""
    print(f"{label:<22} wall {_stats(wall)}  thread {_stats(thread)}  cpu {_stats(cpu)}"
          f"{tail}")


def _mid_game(variant: str, players: int, options: rules.Options | None = None
              ) -> tuple[rules.View, list[rules.Event]]:
    def want(game: rules.GameState, events: list[rules.Event]) -> bool:
        kinds = {e.kind for e in events}
        return game.turn >= 12 and bool({"moved_in", "moved"} & kinds)

    game, events = find(variant, players, want, options=options)
    return rules.view_for(game, None), events


def _duel_view() -> rules.View:
    def want(game: rules.GameState, events: list[rules.Event]) -> bool:
        b = rules.view_for(game, None).battle
        return b is not None and b.stage == "duel" and len(b.attacker_cards) >= 2

    game, _ = find("european_war", 4, want)
    return rules.view_for(game, None)


def main() -> None:
    """Print the timings and sizes of a mid-game board (each variant), a hand, a duel."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=100)
    args = parser.parse_args()
    runs = max(50, args.runs)
    print(f"{runs} renders each; median / p90 in ms: wall time, calling thread's CPU time,"
          " process CPU time; PNG size")
    for variant, players, options in (("european_war", 4, None),
                                      ("world_war_5", 4, None)):
        view, events = _mid_game(variant, players, options)
        size = len(render.board_png(view, NAMES, events))
        _line(f"board {variant}", lambda v=view, e=events: render.board_png(v, NAMES, e),
              runs, size)
        _line("  draw only", lambda v=view, e=events: board_image(v, NAMES, e), runs)
        image = board_image(view, NAMES, events)
        pal = board_palette(view.board_id)
        _line("  encode only", lambda i=image, p=pal: png_bytes(i, p), runs)
    hand = [rules.cards.parse_card(c) for c in ("3♣", "7♦", "10♥", "J♠", "Q♥", "K♣", "A♦")]
    _line("hand (7 cards)", lambda: render.hand_png(hand, title="Your hand"), runs,
          len(render.hand_png(hand, title="Your hand")))
    duel = _duel_view()
    _line("duel (in progress)", lambda: render.duel_png(duel, NAMES), runs,
          len(render.duel_png(duel, NAMES)))


if __name__ == "__main__":
    main()
