"""Small Pillow drawing helpers: polygons with holes, strokes, dashes, curves, halo text."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from .palette import RGB, RGBA

Point = tuple[float, float]

Ring = tuple[float, ...]
"""A closed ring as a flat tuple ``(x0, y0, x1, y1, ...)``, not repeating its first point."""
Polygon = tuple[Ring, ...]
"""The exterior ring first, then its holes."""
Region = tuple[Polygon, ...]
"""One or more polygons."""
Line = tuple[float, ...]
"""An open polyline as a flat tuple ``(x0, y0, x1, y1, ...)``."""


def points(ring: Ring) -> list[Point]:
    """Return a flat ring or line as a list of ``(x, y)`` points."""
    return [(ring[i], ring[i + 1]) for i in range(0, len(ring) - 1, 2)]


def scaled(ring: Ring, scale: float) -> list[Point]:
    """Return a flat ring (or line) as ``(x, y)`` points multiplied by ``scale``."""
    return [(x * scale, y * scale) for x, y in points(ring)]


def fill_region(image: Image.Image, region: Region, colour: RGB, scale: float) -> None:
    """Fill a region's polygons (holes left untouched) on ``image`` in ``colour``."""
    draw = ImageDraw.Draw(image)
    for poly in region:
        if len(poly) == 1:
            draw.polygon(scaled(poly[0], scale), fill=colour)
            continue
        mask = Image.new("L", image.size, 0)
        mdraw = ImageDraw.Draw(mask)
        mdraw.polygon(scaled(poly[0], scale), fill=255)
        for hole in poly[1:]:
            mdraw.polygon(scaled(hole, scale), fill=0)
        image.paste(colour, (0, 0), mask)


def stroke_ring(
    draw: ImageDraw.ImageDraw,
    ring: Ring,
    colour: RGB,
    width: int,
    scale: float,
    closed: bool = True,
) -> None:
    """Draw a ring's (or an open line's) outline with round joints."""
    pts = scaled(ring, scale)
    if len(pts) < 2:
        return
    if closed:
        pts.append(pts[0])
    draw.line(pts, fill=colour, width=width, joint="curve")
    if width > 2:
        r = width / 2
        for x, y in (pts[0], pts[-1]):
            draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)


def polyline_length(pts: Sequence[Point]) -> float:
    """Total length of a polyline."""
    return sum(math.dist(pts[i], pts[i + 1]) for i in range(len(pts) - 1))


def dashed_line(
    draw: ImageDraw.ImageDraw,
    pts: Sequence[Point],
    colour: RGB | RGBA | int,
    width: int,
    dash: float,
    gap: float,
) -> None:
    """Draw a polyline as dashes of length ``dash`` separated by ``gap`` (pixels);
    ``colour`` is an int on a one-band image (a mask)."""
    on = True
    left = dash
    for i in range(len(pts) - 1):
        (x0, y0), (x1, y1) = pts[i], pts[i + 1]
        seg = math.dist((x0, y0), (x1, y1))
        pos = 0.0
        while pos < seg:
            step = min(left, seg - pos)
            if on:
                t0, t1 = pos / seg, (pos + step) / seg
                draw.line(
                    [
                        (x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0),
                        (x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1),
                    ],
                    fill=colour,
                    width=width,
                )
            pos += step
            left -= step
            if left <= 1e-9:
                on = not on
                left = dash if on else gap


def quadratic_curve(a: Point, via: Point, b: Point, steps: int = 32) -> list[Point]:
    """Points of the quadratic Bezier curve from ``a`` to ``b`` passing through ``via``."""
    cx = 2 * via[0] - (a[0] + b[0]) / 2
    cy = 2 * via[1] - (a[1] + b[1]) / 2
    out = []
    for i in range(steps + 1):
        t = i / steps
        u = 1 - t
        out.append(
            (
                u * u * a[0] + 2 * u * t * cx + t * t * b[0],
                u * u * a[1] + 2 * u * t * cy + t * t * b[1],
            )
        )
    return out


def trim_polyline(pts: Sequence[Point], start: float, end: float) -> list[Point]:
    """Cut ``start`` pixels off the beginning and ``end`` off the end of a polyline."""
    total = polyline_length(pts)
    if start + end >= total:
        return []
    out: list[Point] = []
    walked = 0.0
    lo, hi = start, total - end
    for i in range(len(pts) - 1):
        p, q = pts[i], pts[i + 1]
        seg = math.dist(p, q)
        if seg == 0:
            continue
        s0, s1 = walked, walked + seg
        a, b = max(lo, s0), min(hi, s1)
        if a < b:
            pa = (p[0] + (q[0] - p[0]) * (a - s0) / seg, p[1] + (q[1] - p[1]) * (a - s0) / seg)
            pb = (p[0] + (q[0] - p[0]) * (b - s0) / seg, p[1] + (q[1] - p[1]) * (b - s0) / seg)
            if not out:
                out.append(pa)
            out.append(pb)
        walked = s1
    return out


def halo_text(
    draw: ImageDraw.ImageDraw,
    xy: Point,
    text: str,
    font: ImageFont.FreeTypeFont,
    fill: RGB,
    halo: RGB,
    halo_width: int,
    anchor: str = "ma",
    align: str = "center",
    spacing: int = 0,
) -> None:
    """Draw text with an outline (halo) so that it reads on any background."""
    draw.multiline_text(
        xy,
        text,
        font=font,
        fill=fill,
        anchor=anchor,
        align=align,
        spacing=spacing,
        stroke_width=halo_width,
        stroke_fill=halo,
    )
