"""Sea routes for voyage arrows: from harbour to harbour around the land, not across it.

The land (every field and neutral area of the baked map) is rasterised once per board
onto a coarse grid; a route is the cheapest 8-connected water path between the two
harbour symbols (A*; water next to land costs more, so routes keep off the coasts where
the sea allows), pulled straight where the water allows and rounded off (Chaikin).

Searching costs 10-46 ms a route, so the routes of every pair of harbours that a voyage
may join (``Board.sea_reach``) are baked into ``render/pyramids/data/<board>_sea_routes.json``
(``tools/bake_sea_routes.py`` writes them; a test checks them against a fresh search);
any other pair is searched when first asked for. Routes are cached per pair.
"""

from __future__ import annotations

import heapq
import itertools
import json
import math
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

from render.drawing import Point, scaled

from . import layout
from .boards import board as load_board
from .regions import DATA_DIR, load_regions
from .static_layer import harbour_spots

CELL = 6
"""Grid cell size, board pixels."""
COAST_COST = 3.0
"""Cost of a step onto water that touches land (open water: 1)."""
LAND_COST = 40.0
"""Cost of a step over land: allowed, so that straits too narrow for the grid (the
Danish straits) still let a route through, but only where it must."""


@lru_cache(maxsize=4)
def _water(board_id: str) -> tuple[bytes, int, int]:
    """The water grid: one byte per cell, 0 for land, 1 for open water, 2 for water
    touching land."""
    width, height = layout.MAP_WIDTH // CELL, layout.MAP_HEIGHT // CELL
    land = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(land)
    regions = load_regions(board_id)
    for region in list(regions.fields.values()) + list(regions.neutral.values()):
        for poly in region:
            draw.polygon(scaled(poly[0], 1 / CELL), fill=255)
    near = land.filter(ImageFilter.MaxFilter(3)).tobytes()
    cells = bytes(0 if v else (2 if n else 1) for v, n in zip(land.tobytes(), near, strict=True))
    return cells, width, height


_COSTS = (LAND_COST, 1.0, COAST_COST)


def _nearest_water(grid: bytes, width: int, height: int, x: int, y: int) -> tuple[int, int]:
    best: tuple[float, int, int] | None = None
    for r in range(0, max(width, height)):
        for cy in range(max(0, y - r), min(height, y + r + 1)):
            for cx in range(max(0, x - r), min(width, x + r + 1)):
                if grid[cy * width + cx]:
                    d = math.hypot(cx - x, cy - y)
                    if best is None or d < best[0]:
                        best = (d, cx, cy)
        if best is not None:
            return best[1], best[2]
    return x, y


def line_clear(
    grid: bytes, width: int, a: tuple[int, int], b: tuple[int, int], clear: bytes = b"\x01\x02"
) -> bool:
    """Whether every cell on the straight line from ``a`` to ``b`` holds a value of
    ``clear`` (by default: water)."""
    steps = max(abs(b[0] - a[0]), abs(b[1] - a[1]), 1)
    for i in range(steps + 1):
        x = round(a[0] + (b[0] - a[0]) * i / steps)
        y = round(a[1] + (b[1] - a[1]) * i / steps)
        if grid[y * width + x] not in clear:
            return False
    return True


def astar(
    grid: bytes,
    width: int,
    height: int,
    start: tuple[int, int],
    goal: tuple[int, int],
    costs: tuple[float, ...] = _COSTS,
) -> list[tuple[int, int]] | None:
    """The cheapest 8-connected path of cells from ``start`` to ``goal``: a step onto a
    cell holding value ``v`` costs ``costs[v]`` (times 1.414 diagonally); ``None`` when
    there is none."""
    moves = [
        (-1, 0, 1.0),
        (1, 0, 1.0),
        (0, -1, 1.0),
        (0, 1, 1.0),
        (-1, -1, 1.414),
        (1, -1, 1.414),
        (-1, 1, 1.414),
        (1, 1, 1.414),
    ]
    frontier: list[tuple[float, float, tuple[int, int]]] = [(0.0, 0.0, start)]
    came: dict[tuple[int, int], tuple[int, int] | None] = {start: None}
    cost: dict[tuple[int, int], float] = {start: 0.0}
    while frontier:
        _, g, node = heapq.heappop(frontier)
        if node == goal:
            path = [node]
            while came[path[-1]] is not None:
                prev = came[path[-1]]
                assert prev is not None
                path.append(prev)
            return path[::-1]
        if g > cost.get(node, math.inf):
            continue
        x, y = node
        for dx, dy, step in moves:
            nx, ny = x + dx, y + dy
            if not (0 <= nx < width and 0 <= ny < height):
                continue
            ng = g + step * costs[grid[ny * width + nx]]
            if ng < cost.get((nx, ny), math.inf):
                cost[(nx, ny)] = ng
                came[(nx, ny)] = node
                h = math.hypot(goal[0] - nx, goal[1] - ny)
                heapq.heappush(frontier, (ng + h, ng, (nx, ny)))
    return None


def chaikin(pts: list[Point], rounds: int = 2) -> list[Point]:
    """``pts`` rounded off by Chaikin's corner cutting (its ends kept)."""
    for _ in range(rounds):
        if len(pts) < 3:
            return pts
        out = [pts[0]]
        for (x0, y0), (x1, y1) in itertools.pairwise(pts):
            out.append((0.75 * x0 + 0.25 * x1, 0.75 * y0 + 0.25 * y1))
            out.append((0.25 * x0 + 0.75 * x1, 0.25 * y0 + 0.75 * y1))
        out.append(pts[-1])
        pts = out
    return pts


@lru_cache(maxsize=256)
def sea_route(board_id: str, src: str, dst: str) -> tuple[Point, ...]:
    """Waypoints (board pixels) of a voyage from ``src``'s harbour to ``dst``'s.

    Empty when either field has no harbour symbol (the arrow then goes straight).
    """
    baked = _baked(board_id).get((src, dst))
    return baked if baked is not None else search_route(board_id, src, dst)


def baked_path(board_id: str) -> Path:
    """Where a board's baked sea routes are kept."""
    return DATA_DIR / f"{board_id}_sea_routes.json"


@lru_cache(maxsize=4)
def _baked(board_id: str) -> dict[tuple[str, str], tuple[Point, ...]]:
    path = baked_path(board_id)
    if not path.exists():
        return {}
    routes = json.loads(path.read_text())
    return {(src, dst): tuple((float(x), float(y)) for x, y in pts) for src, dst, pts in routes}


def voyage_pairs(board_id: str) -> list[tuple[str, str]]:
    """Every (from, to) pair of fields with harbour symbols that a voyage may join."""
    spots = harbour_spots(board_id)
    b = load_board(board_id)
    return [
        (src, dst)
        for src in spots
        for dst in b.sea_reach.get(src, ())
        if dst in spots and dst != src
    ]


def bake(board_id: str) -> Path:
    """Search every :func:`voyage_pairs` route and write them to :func:`baked_path`
    (JSON floats read back exactly, so baked and searched routes are equal)."""
    routes = [[src, dst, search_route(board_id, src, dst)] for src, dst in voyage_pairs(board_id)]
    path = baked_path(board_id)
    path.write_text(json.dumps(routes, separators=(",", ":")) + "\n")
    return path


def search_route(board_id: str, src: str, dst: str) -> tuple[Point, ...]:
    """:func:`sea_route` by searching the water grid (no baked route)."""
    spots = harbour_spots(board_id)
    if src not in spots or dst not in spots:
        return ()
    grid, width, height = _water(board_id)

    def cell(p: Point) -> tuple[int, int]:
        return (
            min(width - 1, max(0, int(p[0] // CELL))),
            min(height - 1, max(0, int(p[1] // CELL))),
        )

    a = _nearest_water(grid, width, height, *cell(spots[src]))
    b = _nearest_water(grid, width, height, *cell(spots[dst]))
    path = astar(grid, width, height, a, b)
    if path is None:
        return ()
    pulled = [path[0]]
    i = 0
    while i < len(path) - 1:
        j = len(path) - 1
        while j > i + 1 and not line_clear(grid, width, path[i], path[j]):
            j -= 1
        pulled.append(path[j])
        i = j
    centre = [((x + 0.5) * CELL, (y + 0.5) * CELL) for x, y in pulled]
    return tuple(chaikin([spots[src], *centre, spots[dst]]))
