"""Where things go on Europe at War's images: the full map, the nine regional crops and
the side panel.

A *frame* is one picture of the map: the full map at scale 1 (the baked shapes' own
pixels), or a crop, a lon/lat box drawn larger. Each frame maps board pixels to its own
pixels by a scale and an offset.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .catalogue import N_
from .shapes import Shapes, load_shapes

PANEL_WIDTH = 300
"""The side panel, right of the map."""
CROP_MAX = (1000, 860)
"""A crop's map is drawn as large as fits in this box."""


@dataclass(frozen=True)
class Region:
    """A regional crop: its id (the ``/map`` choice), its name (in English: translate it
    where it is shown), and its lon/lat box."""

    id: str
    name: str
    lon_min: float
    lon_max: float
    lat_min: float
    lat_max: float


REGIONS: tuple[Region, ...] = (
    Region("british_isles", N_("British Isles"), -11.0, 3.0, 49.3, 59.5),
    Region("iberia", N_("Iberia"), -10.2, 4.5, 35.5, 44.3),
    Region("france", N_("France and the Low Countries"), -5.5, 9.5, 42.0, 54.0),
    Region("germany", N_("Germany and the Alps"), 4.5, 20.0, 45.3, 55.8),
    Region("italy", N_("Italy"), 5.5, 19.5, 36.3, 47.6),
    Region("scandinavia", N_("Scandinavia and the Baltic"), 4.0, 31.0, 53.5, 65.0),
    Region("poland_russia", N_("Poland and Russia"), 13.5, 45.0, 45.5, 61.0),
    Region("balkans", N_("The Balkans and Anatolia"), 13.0, 45.0, 33.0, 48.8),
    Region("north_africa", N_("North Africa"), 7.0, 36.0, 30.0, 38.5),
)
"""The nine crops, in the order ``/map`` offers them."""

REGION_IDS = tuple(r.id for r in REGIONS)


def region(region_id: str) -> Region:
    """The crop called ``region_id``.

    Raises:
        KeyError: no crop has that id.
    """
    for r in REGIONS:
        if r.id == region_id:
            return r
    raise KeyError(region_id)


@dataclass(frozen=True)
class Frame:
    """One picture of the map: ``scale`` board pixels to its pixels, ``left``/``top``
    the board pixel at its top-left corner, ``size`` its map's size (the panel is
    beside it)."""

    key: str
    """``full``, or a crop's id."""
    compact: bool
    scale: float
    left: float
    top: float
    size: tuple[int, int]

    def at(self, x: float, y: float) -> tuple[float, float]:
        """A board pixel in this frame's pixels."""
        return ((x - self.left) * self.scale, (y - self.top) * self.scale)

    @property
    def detailed(self) -> bool:
        """A crop: names, cities and every stack drawn at full size."""
        return self.key != "full"

    @property
    def image_size(self) -> tuple[int, int]:
        """The whole image: the map and the panel."""
        return (self.size[0] + PANEL_WIDTH, self.size[1])


@lru_cache(maxsize=32)
def frame(key: str, compact: bool) -> Frame:
    """The frame ``key`` (``full`` or a crop's id) of the default or compact map.

    Raises:
        KeyError: an unknown crop.
    """
    shapes = load_shapes(compact)
    if key == "full":
        return Frame("full", compact, 1.0, 0.0, 0.0, shapes.frame)
    r = region(key)
    x0, y0 = shapes.project(r.lon_min, r.lat_max)
    x1, y1 = shapes.project(r.lon_max, r.lat_min)
    scale = min(CROP_MAX[0] / (x1 - x0), CROP_MAX[1] / (y1 - y0))
    size = (round((x1 - x0) * scale), round((y1 - y0) * scale))
    return Frame(key, compact, scale, x0, y0, size)


def covering(shapes: Shapes, spaces: set[str], compact: bool) -> Frame:
    """The smallest crop showing every space of ``spaces`` (at its label), or the full
    map when none does (or ``spaces`` is empty)."""
    points = []
    for s in spaces:
        t = shapes.territories.get(s)
        place = t.stack if t is not None else shapes.seas[s].label if s in shapes.seas else None
        if place is not None:
            points.append(place)
    if not points:
        return frame("full", compact)
    best: Frame | None = None
    for r in REGIONS:
        f = frame(r.id, compact)
        margin = 14 / f.scale
        w, h = f.size[0] / f.scale, f.size[1] / f.scale
        if all(
            f.left + margin <= x <= f.left + w - margin
            and f.top + margin <= y <= f.top + h - margin
            for x, y in points
        ) and (best is None or f.scale > best.scale):
            best = f
    return best or frame("full", compact)
