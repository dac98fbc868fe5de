"""Land routes for arrows along land links: over land, not across the sea.

Two fields joined by a land link touch, but the straight line between their anchors may
cross water (North Africa to the Middle East runs along the coast of Egypt, not over
the Mediterranean; South Russia to Anatolia goes round the Black Sea by the Caucasus).
For such a link, the arrow of a move, an attack or a retreat follows a route over land:
the cheapest 8-connected path on a coarse grid of the baked map from anchor to anchor
(A*; the two fields' own land is cheapest, other land a little dearer, water dear but
allowed, so a narrow strait is crossed where it must be), pulled straight where the
land allows and rounded off (Chaikin). A link whose straight line stays on land (nearly
all) has no route: its arrow is the usual gentle curve.

Searching costs about as much as a sea route, so the routes of every land link that
needs one are baked into ``render/pyramids/data/<board>_land_routes.json``
(``tools/bake_sea_routes.py`` writes them with the sea routes; a test checks them
against a fresh search).

A link crossing a little water (the top of the Gulf of Bothnia, the corner of the
Levant) keeps its curve: going round would be a long detour for a few pixels of sea.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw

from render.drawing import Point, scaled

from . import layout
from .boards import board as load_board
from .boards import has_arcade_variant
from .regions import DATA_DIR, load_regions
from .searoutes import CELL, astar, chaikin, line_clear

OWN_COST = 1.0
"""A step over either field's own land."""
OTHER_LAND_COST = 1.6
"""A step over any other land (a neutral country, a third field)."""
WATER_COST = 30.0
"""A step over water: allowed (a narrow strait), but only where it must be."""
WATER_LIMIT = 36.0
"""A link whose straight line crosses more water than this (pixels) gets a route."""
NEUTRAL = 255
"""The grid value of neutral land (fields are numbered from 1; 0 is water)."""
LAND_KINDS = frozenset({"land", "internal"})
"""The links walked over land (straits and sea lanes are drawn as dashes instead)."""


@lru_cache(maxsize=4)
def _land(board_id: str) -> tuple[bytes, int, int, dict[str, int]]:
    """The land grid: one byte per cell, 0 for water, ``NEUTRAL`` for neutral land,
    else the number of the field it belongs to; and each field's number."""
    width, height = layout.MAP_WIDTH // CELL, layout.MAP_HEIGHT // CELL
    grid = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(grid)
    regions = load_regions(board_id)
    for region in regions.neutral.values():
        for poly in region:
            draw.polygon(scaled(poly[0], 1 / CELL), fill=NEUTRAL)
    numbers = {fid: i + 1 for i, fid in enumerate(regions.fields)}
    for fid, region in regions.fields.items():
        for poly in region:
            draw.polygon(scaled(poly[0], 1 / CELL), fill=numbers[fid])
    return grid.tobytes(), width, height, numbers


def _cell(p: Point, width: int, height: int) -> tuple[int, int]:
    return (min(width - 1, max(0, int(p[0] // CELL))), min(height - 1, max(0, int(p[1] // CELL))))


def _anchor(board_id: str, fid: str) -> Point:
    f = load_board(board_id).fields[fid]
    return layout.to_px(f.x, f.y)


def water_crossed(board_id: str, src: str, dst: str) -> float:
    """How much of the straight line between two anchors lies over water (pixels)."""
    grid, width, height, _ = _land(board_id)
    a, b = _anchor(board_id, src), _anchor(board_id, dst)
    length = math.dist(a, b)
    steps = max(1, math.ceil(length / 2))
    wet = 0
    for i in range(steps + 1):
        x, y = _cell(
            (a[0] + (b[0] - a[0]) * i / steps, a[1] + (b[1] - a[1]) * i / steps), width, height
        )
        wet += grid[y * width + x] == 0
    return wet * length / (steps + 1)


def land_pairs(board_id: str) -> list[tuple[str, str]]:
    """Every (from, to) pair of fields joined by a land link (either printing of the
    board) whose straight line crosses more than ``WATER_LIMIT`` pixels of water."""
    pairs: list[tuple[str, str]] = []
    for arcade in (False, True) if has_arcade_variant(board_id) else (False,):
        for lk in load_board(board_id, arcade).links:
            if lk.kind not in LAND_KINDS or lk.wraps_map_edge:
                continue
            for src, dst in ((lk.a, lk.b), (lk.b, lk.a)):
                if (src, dst) not in pairs and water_crossed(board_id, src, dst) > WATER_LIMIT:
                    pairs.append((src, dst))
    return pairs


def search_route(board_id: str, src: str, dst: str) -> tuple[Point, ...]:
    """The route over land from ``src``'s anchor to ``dst``'s (board pixels), searched."""
    grid, width, height, numbers = _land(board_id)
    costs = [OTHER_LAND_COST] * 256
    costs[0] = WATER_COST
    costs[numbers[src]] = costs[numbers[dst]] = OWN_COST
    a, b = _anchor(board_id, src), _anchor(board_id, dst)
    path = astar(
        grid, width, height, _cell(a, width, height), _cell(b, width, height), tuple(costs)
    )
    if path is None:
        return ()
    land = bytes(range(1, 256))
    pulled = [path[0]]
    i = 0
    while i < len(path) - 1:
        j = len(path) - 1
        while j > i + 1 and not line_clear(grid, width, path[i], path[j], land):
            j -= 1
        pulled.append(path[j])
        i = j
    centres = [((x + 0.5) * CELL, (y + 0.5) * CELL) for x, y in pulled[1:-1]]
    return tuple(chaikin([a, *centres, b]))


def baked_path(board_id: str) -> Path:
    """Where a board's baked land routes are kept."""
    return DATA_DIR / f"{board_id}_land_routes.json"


@lru_cache(maxsize=4)
def _baked(board_id: str) -> dict[tuple[str, str], tuple[Point, ...]]:
    path = baked_path(board_id)
    if not path.exists():
        return {}
    routes = json.loads(path.read_text())
    return {(src, dst): tuple((float(x), float(y)) for x, y in pts) for src, dst, pts in routes}


def bake(board_id: str) -> Path:
    """Search every :func:`land_pairs` route and write them to :func:`baked_path`."""
    routes = [[src, dst, search_route(board_id, src, dst)] for src, dst in land_pairs(board_id)]
    path = baked_path(board_id)
    path.write_text(json.dumps(routes, separators=(",", ":")) + "\n")
    return path


def land_route(board_id: str, src: str, dst: str) -> tuple[Point, ...]:
    """The baked route over land of an arrow from ``src`` to ``dst`` (anchor to anchor),
    or ``()``: the two are not joined by a land link that needs one (a gentle curve)."""
    return _baked(board_id).get((src, dst), ())
