"""Europe at War's images: render and encode time of the full map, each crop and the
battle, and their PNG sizes, over distinct positions of computer-player games.

Run by hand:  python -m benchmarks.europe_at_war_render [--positions 120] [--players 3 5]
[--language de]

Static layers (label images, hatch masks, names) are built before timing, as a worker
process does once. Each position is drawn once per frame, in order, so the map layer
(the owners' fills, cached for the last few positions) is repainted where territories
changed hands since the frame's last board: these are the real costs of a game's
boards, not a warm cache's. The ``new map`` lines draw each position with no map of
it or of any other position kept (a worker's first board of a frame, or a board of a
game other than the last one drawn there): the worst case. Each
line gives the median and 90th percentile of wall time and of this thread's CPU time
(PNG bytes included), then the PNG size (median, p90, max). Aims (issue 21): full map
<= 60 ms; a crop <= 30 ms and <= 300 KB. Everything is drawn in ``--language``; the
``names in ...`` line first times each frame's names drawn in that language over label
images already built (what a worker pays once per frame and language).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from ai.europe_at_war import EaPlayer
from benchmarks.stats import percentile
from render.europe_at_war import FRAMES, battle_png, board_png, warm_up
from render.europe_at_war.board import forget_maps
from render.europe_at_war.static import static
from rules import Event, i18n
from rules.europe_at_war.game import EaGame
from rules.europe_at_war.options import Options
from rules.europe_at_war.view import view_for

NAMES = ["Ada", "Bartholomew", "Chloé", "Dmitri", "Eve"]


def positions(
    count: int, players: int, compact: bool, seed: int = 1
) -> list[tuple[Any, list[Event]]]:
    """``count`` positions (every 7th decision) of games between computer players,
    each with its last action's public events."""
    game = EaGame()
    bot = EaPlayer()
    out: list[tuple[Any, list[Event]]] = []
    while len(out) < count:
        g, _ = game.new_game([None] * players, seed, Options(compact_map=compact))
        steps = 0
        while not g.over and len(out) < count:
            d = g.deciders()[0]
            action = bot.choose(g.view_for(d.seat), g.legal_actions(d.seat), "normal", steps)
            events = [e for e in g.apply(d.seat, action) if e.to is None]
            steps += 1
            if steps % 7 == 0:
                out.append((view_for(g, None), events))
        seed += 1
    return out


def _line(label: str, fn: Callable[[], bytes], runs: Sequence[int]) -> None:
    wall, cpu, size = [], [], []
    for _ in runs:
        w0, c0 = time.perf_counter(), time.thread_time()
        data = fn()
        cpu.append(time.thread_time() - c0)
        wall.append(time.perf_counter() - w0)
        size.append(len(data))
    print(
        f"{label:<22} wall {statistics.median(wall) * 1000:6.1f} / "
        f"{percentile(wall, 90) * 1000:6.1f} ms  cpu {statistics.median(cpu) * 1000:6.1f} / "
        f"{percentile(cpu, 90) * 1000:6.1f} ms  PNG {statistics.median(size) / 1024:5.0f} / "
        f"{percentile(size, 90) / 1024:5.0f} / {max(size) / 1024:5.0f} KB"
    )


def main(argv: list[str] | None = None) -> None:
    """Print the lines described in the module docstring."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 5])
    parser.add_argument("--language", default=i18n.DEFAULT, choices=i18n.LOCALES)
    args = parser.parse_args(argv)
    warm_up()
    for compact in (False, True):
        for key in FRAMES:
            static(key, compact, i18n.DEFAULT)
    with open("/proc/loadavg", encoding="ascii") as fh:
        print(f"load average: {fh.read().strip()}")
    if args.language != i18n.DEFAULT:
        frames = iter([(key, compact) for compact in (False, True) for key in FRAMES])

        def names() -> bytes:
            key, compact = next(frames)
            static(key, compact, args.language)
            return b""

        _line(f"names in {args.language}", names, range(2 * len(FRAMES)))
    with i18n.use(args.language):
        _boards(args.positions, args.players)


def _boards(count: int, players_counts: Sequence[int]) -> None:
    """The lines of each table size and map, in the current language."""
    for players in players_counts:
        for compact in (False, True):
            found = positions(count, players, compact)
            print(
                f"--- {players} players, {'compact' if compact else 'default'} map, "
                f"{len(found)} positions (median / p90)"
            )
            for key in FRAMES:
                it = iter(found)

                def draw(key: str = key, it: Any = it) -> bytes:
                    view, events = next(it)
                    return board_png(view, NAMES, events, key)

                _line(key, draw, range(len(found)))
            for key in ("full", "germany"):
                it = iter(found)

                def anew(key: str = key, it: Any = it) -> bytes:
                    view, events = next(it)
                    forget_maps()
                    return board_png(view, NAMES, events, key)

                _line(f"{key}, new map", anew, range(len(found)))
            it = iter(found)

            def after_action(it: Any = it) -> bytes:
                view, events = next(it)
                return board_png(view, NAMES, events)

            _line("after an action", after_action, range(len(found)))
            battles = [(v, e) for v, e in found if v.battle is not None]
            if battles:
                bit = iter(battles)

                def battle(bit: Any = bit) -> bytes:
                    view, events = next(bit)
                    return battle_png(view, NAMES, None, events)

                _line("battle", battle, range(len(battles)))


if __name__ == "__main__":
    main()
