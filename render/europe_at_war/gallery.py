"""Sample images of Europe at War for people to look at:
``python -m render.europe_at_war.gallery DIR [LANGUAGE]``.

Writes (all file names start with ``ea_``): the start of a five-player game in the full
map and each of the nine crops; a position with a battle under way and the plan's arrows
(``battle_map``) in every frame; the crop a channel is sent after that action; the
battle under way and the battle once decided; the compact map of a three-player game
with a battle under way. Positions come from seeded playouts of random legal actions
(moves, battles and cards preferred, so that something happens), so the set is the
same on every run. :func:`samples` lists them.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import rules
from rules import i18n
from rules.europe_at_war.game import EaGame
from rules.europe_at_war.options import Options
from rules.europe_at_war.view import view_for

from . import FRAMES, battle_png, board_png

NAMES: tuple[str, ...] = ("Ada", "Bartholomew the Magnificent", "Chloé", "Dmitri", "Eve")

_KEEN = ("move", "drop", "fight", "battle_card", "play", "play_at", "buy")

Want = Callable[[Any, list[rules.Event]], bool]


def playout(
    players: int, seed: int, want: Want, compact: bool = False, max_steps: int = 6000
) -> tuple[Any, list[rules.Event]] | None:
    """Play random legal actions (the keen kinds preferred) from a new game until
    ``want(game, events)`` holds; the game and its last action's public events, or
    ``None`` if it never held."""
    game, events = EaGame().new_game([None] * players, seed, Options(compact_map=compact))
    events = [e for e in events if e.to is None]
    rng = random.Random(seed)
    for _ in range(max_steps):
        if want(game, events):
            return game, events
        if game.over:
            return None
        d = game.deciders()[0]
        actions = game.legal_actions(d.seat)
        keen = [a for a in actions if getattr(a, "kind", "") in _KEEN]
        action = rng.choice(keen if keen and rng.random() < 0.7 else actions)
        events = [e for e in game.apply(d.seat, action) if e.to is None]
    return None


def _find(players: int, want: Want, compact: bool = False) -> tuple[Any, list[rules.Event]]:
    for seed in range(1, 60):
        found = playout(players, seed, want, compact)
        if found is not None:
            return found
    raise RuntimeError("no playout reached the wanted position")


def _battle_under_way(game: Any, events: list[rules.Event]) -> bool:
    v = view_for(game, None)
    return v.battle is not None and bool(v.plan)


def _battle_decided(game: Any, events: list[rules.Event]) -> bool:
    return any(e.kind == "battle_result" for e in events)


def samples() -> Iterator[tuple[str, bytes]]:
    """Each sample's file name and PNG bytes."""
    start, _ = _find(5, lambda g, e: True)
    view = view_for(start, None)
    for key in FRAMES:
        yield f"ea_start_{key}.png", board_png(view, NAMES, (), key)
    mid, events = _find(5, _battle_under_way)
    view = view_for(mid, None)
    for key in FRAMES:
        yield f"ea_battle_map_{key}.png", board_png(view, NAMES, events, key)
    yield "ea_battle_map_after_action.png", board_png(view, NAMES, events)
    yield "ea_battle_under_way.png", battle_png(view, NAMES, None, events)
    decided, events = _find(5, _battle_decided)
    result = next(e for e in events if e.kind == "battle_result")
    yield "ea_battle_decided.png", battle_png(view_for(decided, None), NAMES, result, events)
    compact, _ = _find(3, lambda g, e: view_for(g, None).battle is not None, compact=True)
    yield "ea_compact_full.png", board_png(view_for(compact, None), NAMES[:3], (), "full")


def main(argv: list[str] | None = None) -> None:
    """Write every sample into the directory named by the first argument, its words in
    the language the second names (en, de, fr or cs; English by default)."""
    args = sys.argv[1:] if argv is None else argv
    given = args[1:]
    if not 1 <= len(args) <= 2 or any(i18n.supported(tag) != tag for tag in given):
        raise SystemExit("usage: python -m render.europe_at_war.gallery DIR [en|de|fr|cs]")
    out = Path(args[0])
    out.mkdir(parents=True, exist_ok=True)
    with i18n.use(given[0] if given else None):
        for name, data in samples():
            (out / name).write_bytes(data)
            print(f"{name}  {len(data) / 1024:.0f} KB")


if __name__ == "__main__":
    main()
