"""The static layers of one frame (the full map or a crop), drawn once per process.

- The **label image**: one byte per pixel naming what is there: a territory (its index
  + 1 in the shapes' order), or one of the codes below (sea, a sea zone's edge, neutral
  land, wasteland, borders, coast). A board's map is this image with each seat's
  pattern lines set to an index of their own and a palette that gives each territory
  its owner's tint (:func:`.board.map_layer`), so a position's fills cost one palette
  lookup.
- The **hatch masks**: each seat's pattern (one per process, cut to each frame).
- The **overlay**: names, cities, straits and crossings, as small tiles pasted through
  their alpha (most of a frame has none). Its names are in a language: a frame's
  overlay is drawn once per language (the label image once for all).

Borders are found on the label image itself (where the territory, or the country,
changes from one pixel to the next), so they follow the fills exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from render.drawing import Region, dashed_line
from render.fonts import font
from rules import i18n

from . import colours as C
from .layout import Frame, frame
from .shapes import Shapes, load_shapes

SEA = 0
HATCHED = 232
"""Not in the label image: ``HATCHED + seat`` marks a seat's pattern lines on a board's
map (:func:`.board.map_layer`); territories' labels stay below it."""
SEA_EDGE = 248
TERRITORY_BORDER = 250
COUNTRY_BORDER = 251
COAST = 252
WASTELAND = 253
NEUTRAL = 254

HATCH_STEP = 7
"""Pixels between two lines (or dots) of a seat's pattern."""
TILE = 64
"""Overlay tiles are this many pixels square."""


@dataclass(frozen=True)
class Static:
    """One frame's static layers."""

    frame: Frame
    territories: tuple[str, ...]
    """Territory ids, in label order (label ``k + 1`` is ``territories[k]``)."""
    label: Image.Image
    """``L``: what is at each pixel (see the module docstring)."""
    overlay: tuple[tuple[tuple[int, int], Image.Image], ...]
    """(top-left, RGBA tile) pairs of names, cities and links."""
    names: tuple[str, ...] = ()
    """Every name the overlay writes, as written (sea zones, then territories)."""


def _polygons(
    region: Region, f: Frame
) -> list[tuple[list[tuple[float, float]], list[list[tuple[float, float]]]]]:
    out = []
    for poly in region:
        rings = [[f.at(ring[i], ring[i + 1]) for i in range(0, len(ring), 2)] for ring in poly]
        xs = [x for x, _ in rings[0]]
        ys = [y for _, y in rings[0]]
        if max(xs) < 0 or max(ys) < 0 or min(xs) > f.size[0] or min(ys) > f.size[1]:
            continue
        out.append((rings[0], rings[1:]))
    return out


def _area(ring: list[tuple[float, float]]) -> float:
    total = 0.0
    for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1], strict=True):
        total += x0 * y1 - x1 * y0
    return abs(total) / 2


def _label_image(shapes: Shapes, f: Frame, order: tuple[str, ...]) -> Image.Image:
    img = Image.new("L", f.size, SEA)
    draw = ImageDraw.Draw(img)
    for region in shapes.neutral.values():
        for outer, holes in _polygons(region, f):
            draw.polygon(outer, fill=NEUTRAL)
            for h in holes:
                draw.polygon(h, fill=SEA)
    for outer, _holes in _polygons(shapes.wasteland, f):
        draw.polygon(outer, fill=WASTELAND)
    pieces = []
    for k, tid in enumerate(order):
        for outer, holes in _polygons(shapes.territories[tid].region, f):
            pieces.append((_area(outer), k + 1, outer, holes))
    pieces.sort(key=lambda p: -p[0])
    for _, value, outer, holes in pieces:
        draw.polygon(outer, fill=value)
        for h in holes:
            draw.polygon(h, fill=SEA)
    # sea-zone edges, on the water only
    edges = Image.new("L", f.size, 0)
    edraw = ImageDraw.Draw(edges)
    for sea in shapes.seas.values():
        for outer, _holes in _polygons(sea.region, f):
            edraw.line([*outer, outer[0]], fill=255, width=1)
    water = img.point([255] + [0] * 255)  # before any edge is marked
    img.paste(SEA_EDGE, (0, 0), ImageChops.multiply(edges, water))
    _borders(img, shapes, order)
    return img


def _changes(img: Image.Image, dx: int, dy: int) -> Image.Image:
    """255 where a pixel differs from its neighbour (dx, dy) away."""
    moved = ImageChops.offset(img, dx, dy)
    return ImageChops.difference(img, moved).point([0] + [255] * 255)


def _borders(img: Image.Image, shapes: Shapes, order: tuple[str, ...]) -> None:
    """Mark territory borders, country borders (two pixels) and coasts on ``img``."""
    country_of = {tid: t for tid, t in zip(order, _countries(shapes, order), strict=True)}
    countries = sorted(set(country_of.values()))
    lut = [0] * 256
    for k, tid in enumerate(order):
        lut[k + 1] = countries.index(country_of[tid]) + 1
    lut[WASTELAND] = 250
    lut[NEUTRAL] = 251
    country = img.point(lut)
    land = img.point([0 if v in (SEA, SEA_EDGE) else 255 for v in range(256)])
    territory = img.point([0] + [255] * (len(order)) + [0] * (255 - len(order)))
    t_edges = Image.new("L", img.size, 0)
    c_edges = Image.new("L", img.size, 0)
    coast = Image.new("L", img.size, 0)
    for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
        both = ImageChops.multiply(land, ImageChops.offset(land, dx, dy))
        t_edges = ImageChops.lighter(t_edges, ImageChops.multiply(_changes(img, dx, dy), both))
        c_edges = ImageChops.lighter(c_edges, ImageChops.multiply(_changes(country, dx, dy), both))
        sea_next = ImageChops.invert(ImageChops.offset(land, dx, dy))
        coast = ImageChops.lighter(coast, ImageChops.multiply(sea_next, land))
    # a territory's own border pixels only (not the neutral land's side)
    t_edges = ImageChops.multiply(t_edges, territory)
    half = ImageChops.multiply(t_edges, _changes(img, 1, 0))
    half = ImageChops.lighter(half, ImageChops.multiply(t_edges, _changes(img, 0, 1)))
    img.paste(TERRITORY_BORDER, (0, 0), half)
    img.paste(COUNTRY_BORDER, (0, 0), c_edges)
    img.paste(COAST, (0, 0), coast)


def _countries(shapes: Shapes, order: tuple[str, ...]) -> list[str]:
    from rules.europe_at_war.data import game_map

    m = game_map(shapes.map_file == "map_compact.json")
    return [m.territories[tid].country for tid in order]


HATCH_SIZE = (1200, 1100)
"""The hatch masks cover the largest frame; a smaller one takes their top-left part."""


@lru_cache(maxsize=len(C.PATTERNS))
def hatch(pattern: int) -> Image.Image:
    """The ``L`` mask of pattern ``pattern`` (an index of :data:`colours.PATTERNS`),
    :data:`HATCH_SIZE` large (cut it to a frame's size)."""
    return _hatch(HATCH_SIZE, C.PATTERNS[pattern])


def _hatch(size: tuple[int, int], pattern: str) -> Image.Image:
    w, h = size
    img = Image.new("L", size, 0)
    draw = ImageDraw.Draw(img)
    s = HATCH_STEP
    if pattern in ("rising", "cross"):
        for k in range(-h, w + h, s):
            draw.line([(k, h), (k + h, 0)], fill=255, width=2)
    if pattern in ("falling", "cross"):
        for k in range(-h, w + h, s):
            draw.line([(k, 0), (k + h, h)], fill=255, width=2)
    if pattern == "rows":
        for y in range(0, h, s):
            draw.line([(0, y), (w, y)], fill=255, width=2)
    if pattern == "dots":
        for y in range(2, h, s):
            for x in range(2 + (y // s % 2) * (s // 2), w, s):
                draw.rectangle((x, y, x + 2, y + 2), fill=255)
    return img


def _overlay(
    shapes: Shapes, f: Frame, order: tuple[str, ...]
) -> tuple[Image.Image, tuple[str, ...]]:
    """The overlay of frame ``f`` in the current language, and the names it writes."""
    from rules.europe_at_war.data import game_map

    m = game_map(shapes.map_file == "map_compact.json")
    over = Image.new("RGBA", f.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(over)
    link_w = 2 if f.detailed else 1
    for link in shapes.links:
        a = f.at(link.line[0], link.line[1])
        b = f.at(link.line[2], link.line[3])
        dashed_line(draw, [a, b], (*C.LINK, 255), link_w + 1, 5, 3)
        for x, y in (a, b):
            r = link_w + 1
            draw.ellipse((x - r, y - r, x + r, y + r), fill=(*C.LINK, 255))
    for tid in order:
        t = m.territories[tid]
        if not t.city:
            continue
        x, y = f.at(*shapes.territories[tid].label)
        r = 4 if f.detailed else 3
        if t.type == "capital":
            draw.rectangle(
                (x - r, y - r, x + r, y + r), fill=(*C.CITY, 255), outline=(*C.HALO, 255)
            )
        else:
            draw.ellipse((x - r, y - r, x + r, y + r), fill=(*C.CITY, 255), outline=(*C.HALO, 255))
    written: list[str] = []
    sea_font = font(15 if f.detailed else 13, bold=True)
    for sid, sea in shapes.seas.items():
        x, y = f.at(*sea.label)
        if 0 <= x < f.size[0] and 0 <= y < f.size[1]:
            name = m.name(sid)
            written.append(name)
            half = sea_font.getlength(name) / 2 + 4
            x = min(max(x, half), f.size[0] - half)
            draw.text(
                (x, y - 24),
                name,
                font=sea_font,
                fill=(*C.SEA_TEXT, 255),
                anchor="mm",
                stroke_width=2,
                stroke_fill=(*C.SEA, 255),
            )
    if f.detailed:
        name_font = font(12, bold=True)
        for tid in order:
            x, y = f.at(*shapes.territories[tid].label)
            sx, sy = f.at(*shapes.territories[tid].stack)
            if abs(sx - x) < 30 and abs(sy - y) < 16:
                x, y = sx, sy + 20
            else:
                y += 10
            if not (0 <= x < f.size[0] and 0 <= y < f.size[1]):
                continue
            name = short_name(m.name(tid))
            written.append(name)
            draw.text(
                (x, y),
                name,
                font=name_font,
                fill=(*C.NAME, 255),
                anchor="mm",
                stroke_width=2,
                stroke_fill=(*C.HALO, 255),
            )
    return over, tuple(written)


def short_name(name: str) -> str:
    """A territory's name as the map writes it: its first place ("Kiel, Altona &
    Holstein" is "Kiel, Altona", "Westphalia (Munster & Kassel)" is "Westphalia")."""
    for cut in (" & ", " ("):
        name = name.split(cut)[0]
    return name


def _tiles(over: Image.Image) -> tuple[tuple[tuple[int, int], Image.Image], ...]:
    alpha = over.getchannel("A")
    tiles = []
    for top in range(0, over.height, TILE):
        for left in range(0, over.width, TILE):
            box = (left, top, min(left + TILE, over.width), min(top + TILE, over.height))
            if alpha.crop(box).getbbox() is not None:
                tiles.append(((left, top), over.crop(box)))
    return tuple(tiles)


def static(key: str, compact: bool, language: str | None = None) -> Static:
    """The static layers of frame ``key`` (``full`` or a crop's id), its names in
    ``language`` (default: the current one), cached per process."""
    return _static(key, compact, i18n.choose(language or i18n.current()))


@lru_cache(maxsize=24)
def _labels(key: str, compact: bool) -> Static:
    """Frame ``key``'s label image (the same in every language), without an overlay."""
    shapes = load_shapes(compact)
    f = frame(key, compact)
    order = tuple(shapes.territories)
    if len(order) >= HATCHED:
        raise ValueError(f"{len(order)} territories: labels would reach {HATCHED}")
    return Static(f, order, _label_image(shapes, f, order), ())


@lru_cache(maxsize=48)
def _static(key: str, compact: bool, language: str) -> Static:
    # every frame of both maps in two or three languages (about 11 MB of names a map and
    # language); a name layer dropped is drawn again in 10-70 ms
    base = _labels(key, compact)
    with i18n.use(language):
        over, names = _overlay(load_shapes(compact), base.frame, base.territories)
    return Static(base.frame, base.territories, base.label, _tiles(over), names)
