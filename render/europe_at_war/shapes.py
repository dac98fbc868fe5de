"""Europe at War's baked geography (``data/<map file>``, by ``tools/bake_europe_at_war``).

Coordinates are board pixels of the full map (x east, y south; the frame's size is in
the file). A region is a tuple of polygons, each its exterior ring then its holes, each
ring a flat tuple ``(x0, y0, x1, y1, ...)`` (the drawing kit's types, :mod:`render.drawing`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from render.drawing import Point, Region

DATA_DIR: Path = Path(__file__).resolve().parent / "data"
MAP_FILES = {False: "map.json", True: "map_compact.json"}
"""The shapes file of each map: the default one, and the compact one (EA-36)."""


@dataclass(frozen=True)
class Territory:
    """One territory's land, where its name goes and where its stack stands."""

    id: str
    label: Point
    stack: Point
    region: Region


@dataclass(frozen=True)
class Link:
    """An adjacency drawn as a line: a strait, or a crossing the land does not show."""

    a: str
    b: str
    kind: str
    """``strait`` or ``crossing``."""
    name: str
    line: tuple[float, float, float, float]


@dataclass(frozen=True)
class Sea:
    """One sea zone: its water and where its name (and its fleets) go."""

    id: str
    label: Point
    region: Region


@dataclass(frozen=True)
class Shapes:
    """One map's geography."""

    map_file: str
    frame: tuple[int, int]
    lon_lat: tuple[float, float, float, float]
    """The frame's lon_min, lon_max, lat_min, lat_max."""
    territories: dict[str, Territory]
    links: tuple[Link, ...]
    seas: dict[str, Sea]
    wasteland: Region
    """Land no territory may take without touching one it is not adjacent to."""
    neutral: dict[str, Region]
    """Land of no country of the game, by name."""

    def project(self, lon: float, lat: float) -> Point:
        """A lon/lat point in board pixels."""
        lon0, lon1, lat0, lat1 = self.lon_lat
        w, h = self.frame
        return ((lon - lon0) * w / (lon1 - lon0), (lat1 - lat) * h / (lat1 - lat0))


def _region(raw: list[list[list[float]]]) -> Region:
    return tuple(tuple(tuple(float(v) for v in ring) for ring in poly) for poly in raw)


def _point(raw: list[float]) -> Point:
    return (float(raw[0]), float(raw[1]))


@lru_cache(maxsize=2)
def load_shapes(compact: bool = False) -> Shapes:
    """The shapes of the default map, or of the compact one (cached per process).

    Raises:
        ValueError: the file is malformed.
    """
    path = DATA_DIR / MAP_FILES[compact]
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        proj = doc["projection"]
        return Shapes(
            map_file=str(doc["map"]),
            frame=(int(doc["frame"][0]), int(doc["frame"][1])),
            lon_lat=(
                float(proj["lon_min"]),
                float(proj["lon_max"]),
                float(proj["lat_min"]),
                float(proj["lat_max"]),
            ),
            territories={
                tid: Territory(tid, _point(t["label"]), _point(t["stack"]), _region(t["polygons"]))
                for tid, t in doc["territories"].items()
            },
            links=tuple(
                Link(
                    str(x["a"]),
                    str(x["b"]),
                    str(x["kind"]),
                    str(x["name"]),
                    (
                        float(x["line"][0]),
                        float(x["line"][1]),
                        float(x["line"][2]),
                        float(x["line"][3]),
                    ),
                )
                for x in doc["links"]
            ),
            seas={
                sid: Sea(sid, _point(s["label"]), _region(s["polygons"]))
                for sid, s in doc["seas"].items()
            },
            wasteland=_region(doc["wasteland"]),
            neutral={name: _region(r) for name, r in doc["neutral"].items()},
        )
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"malformed shapes file {path.name}: {exc!r}") from exc


def shared_borders(regions: dict[str, Region]) -> set[frozenset[str]]:
    """The pairs of regions whose outlines share a stretch of border (an edge with the
    same two ends: the baked shapes are a coverage, so neighbours share their vertices)."""
    owners: dict[tuple[Point, Point], set[str]] = {}
    for rid, region in regions.items():
        for poly in region:
            for ring in poly:
                pts = [(ring[i], ring[i + 1]) for i in range(0, len(ring), 2)]
                for p, q in zip(pts, pts[1:] + pts[:1], strict=True):
                    owners.setdefault((p, q) if p <= q else (q, p), set()).add(rid)
    pairs: set[frozenset[str]] = set()
    for ids in owners.values():
        if len(ids) > 1:
            pairs.update(frozenset((a, b)) for a in ids for b in ids if a < b)
    return pairs
