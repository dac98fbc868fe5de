"""The baked map polygons (``render/pyramids/data/<board>_regions.json``), by ``tools/bake_maps``.

Coordinates are map pixels (960x800 frame, x east, y south). A *ring* is a flat tuple
``(x0, y0, x1, y1, ...)`` (not repeating its first point); a *polygon* is a tuple of
rings, the exterior first and then its holes; a region is a tuple of polygons (the
types are the drawing kit's, :mod:`render.drawing`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from render.drawing import Line, Region, Ring

DATA_DIR: Path = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class Border:
    """The border between two regions (a field id, or ``neutral:<country name>``)."""

    a: str
    b: str
    kind: str
    """``field`` (two fields of one owner), ``power`` (two owners) or ``neutral``."""
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Regions:
    """One board's baked geography."""

    board_id: str
    frame: tuple[int, int]
    fields: dict[str, Region]
    """Field (territory) id -> its land, in the board file's order."""
    neutral: dict[str, Region]
    """Natural Earth country name -> neutral land (in no field)."""
    neutral_labels: dict[str, tuple[float, float]]
    """Neutral-area name -> where its label goes (inside that land)."""
    borders: tuple[Border, ...]
    """Every stretch of border between two regions."""
    vertex_count: int


def _region(raw: list[list[list[float]]]) -> Region:
    return tuple(tuple(tuple(float(v) for v in ring) for ring in poly) for poly in raw)


def regions_path(board_id: str) -> Path:
    """Return the path of a board's baked regions file."""
    return DATA_DIR / f"{board_id}_regions.json"


@lru_cache(maxsize=8)
def load_regions(board_id: str) -> Regions:
    """Load a board's baked polygons (cached per process).

    Raises:
        FileNotFoundError: if no regions file was baked for ``board_id``.
        ValueError: if the file is malformed.
    """
    path = regions_path(board_id)
    if not path.exists():
        raise FileNotFoundError(f"no baked map for board {board_id!r} ({path.name})")
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        return Regions(
            board_id=str(doc["board"]),
            frame=(int(doc["frame"][0]), int(doc["frame"][1])),
            fields={k: _region(v) for k, v in doc["fields"].items()},
            neutral={k: _region(v) for k, v in doc["neutral"].items()},
            neutral_labels={
                k: (float(v[0]), float(v[1])) for k, v in doc["neutral_labels"].items()
            },
            borders=tuple(
                Border(
                    str(b["a"]),
                    str(b["b"]),
                    str(b["kind"]),
                    tuple(tuple(float(c) for c in line) for line in b["lines"]),
                )
                for b in doc["borders"]
            ),
            vertex_count=int(doc["vertex_count"]),
        )
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"malformed regions file {path.name}: {exc!r}") from exc


def ring_contains(ring: Ring, x: float, y: float) -> bool:
    """Even-odd test: is ``(x, y)`` inside the closed ring?"""
    inside = False
    n = len(ring) // 2
    j = n - 1
    for i in range(n):
        xi, yi = ring[2 * i], ring[2 * i + 1]
        xj, yj = ring[2 * j], ring[2 * j + 1]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def region_contains(region: Region, x: float, y: float) -> bool:
    """Is ``(x, y)`` inside the region (inside an exterior and outside its holes)?"""
    for poly in region:
        if ring_contains(poly[0], x, y) and not any(ring_contains(h, x, y) for h in poly[1:]):
            return True
    return False


def _segment_distance(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def region_distance(region: Region, x: float, y: float) -> float:
    """Distance in pixels from ``(x, y)`` to the region (0 inside it)."""
    if region_contains(region, x, y):
        return 0.0
    best = math.inf
    for poly in region:
        for ring in poly:
            n = len(ring) // 2
            for i in range(n):
                j = (i + 1) % n
                d = _segment_distance(
                    x, y, ring[2 * i], ring[2 * i + 1], ring[2 * j], ring[2 * j + 1]
                )
                best = min(best, d)
    return best


def ring_area(ring: Ring) -> float:
    """Unsigned area of a ring (shoelace formula), in square pixels."""
    n = len(ring) // 2
    total = 0.0
    for i in range(n):
        j = (i + 1) % n
        total += ring[2 * i] * ring[2 * j + 1] - ring[2 * j] * ring[2 * i + 1]
    return abs(total) / 2.0


def region_area(region: Region) -> float:
    """Area of a region (exteriors minus holes), in square pixels."""
    return sum(ring_area(p[0]) - sum(ring_area(h) for h in p[1:]) for p in region)
