"""Arrows for the last action: a move, a voyage, an attack, a retreat.

Arrows go from one field's anchor to another's, gently curved, stopping short of both
piece boxes so that no piece is covered. Each is drawn on a small supersampled overlay
(antialiased) and pasted onto the board. Styles:

- ``move``: a solid arrow in the mover's colour (its side's piece colours);
- ``sea``: the same, dashed, with an anchor badge half-way (a voyage between harbours,
  along its sea route);
- ``attack``: a broad arrow in the attacker's colour (the board adds a crossed-swords
  badge on the attacked field);
- ``retreat``: a thin dashed arrow in the defender's colour.

A link that crosses the map's east-west edge (World War 5's Pacific lanes) is drawn as
two halves: out of the map on one side, back in on the other. An arrow given a route
(over land, round the sea) follows it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from . import palette
from .drawing import Point, dashed_line, polyline_length, quadratic_curve, trim_polyline
from .fonts import font

_SS = 2
"""Supersampling factor of arrow overlays."""

Box = tuple[float, float, float, float]
Frame = tuple[int, int, int, int]
"""The map's pixel box ``(left, top, right, bottom)``: arrows are clipped to it, and a
wrapping link crosses its east-west edge."""

START_GAP = 24.0
"""Pixels left free between the source anchor and the arrow's tail."""
END_GAP = 31.0
"""Pixels left free between the arrow's tip and the target anchor (the piece box edge)."""
BENDS: tuple[float, ...] = (0.16, -0.16, 0.32, -0.32, 0.5, -0.5, 0.0)
"""Bends tried for an arrow between anchors, as a share of its length (first wins ties)."""
MAX_BEND = 70.0
HARBOUR_GAP = 13.0
"""A voyage starts and ends this far from the harbour symbols' centres."""
BADGE_MIN_LENGTH = 110.0
"""Arrows shorter than this carry no badge (it would hide them)."""
MIN_BODY = 44.0
"""Shortest arrow; between close neighbours the gaps shrink to keep this much."""


@dataclass(frozen=True)
class Style:
    """How one kind of arrow looks (board pixels)."""

    width: float
    head_length: float
    head_width: float
    dashed: bool
    badge: str | None


STYLES: dict[str, Style] = {
    "move": Style(6.0, 17.0, 19.0, False, None),
    "sea": Style(6.0, 17.0, 19.0, True, "⚓"),
    "attack": Style(9.0, 22.0, 26.0, False, None),
    "retreat": Style(4.0, 13.0, 15.0, True, None),
}


@dataclass(frozen=True)
class Arrow:
    """An arrow to draw: kind (a key of :data:`STYLES`), colours (the fill and outline of
    the side that acted), ends in pixels."""

    kind: str
    colour: palette.PieceColour
    src: Point
    dst: Point
    wraps: bool = False
    """The link crosses the map's east-west edge."""
    exits: tuple[float, float] | None = None
    """For a link across the edge: the y where it leaves the map on ``src``'s side and
    where it comes back on ``dst``'s (none: where the straight line crosses)."""
    via: tuple[Point, ...] = ()
    """A route to follow instead of ``src`` - ``dst``: a voyage's, harbour to harbour
    (``sea``), or one over land, anchor to anchor (other kinds); none: a gentle curve
    between the anchors."""


def _covered(pts: Sequence[Point], avoid: Sequence[Box], pad: float) -> int:
    """How many of ``pts`` fall inside some box of ``avoid`` (grown by ``pad``)."""
    return sum(
        1
        for x, y in pts
        if any(b[0] - pad < x < b[2] + pad and b[1] - pad < y < b[3] + pad for b in avoid)
    )


def path(arrow: Arrow, frame: Frame, avoid: Sequence[Box] = ()) -> list[list[Point]]:
    """The arrow's body as one polyline (or two for a wrapping link, which leaves
    ``frame``, the map's box, by one side and comes back by the other), trimmed at both
    ends.

    Between anchors the body is a gentle curve; of a few bends (either side, more or
    less) it takes the one that crosses the fewest ``avoid`` boxes (names, other
    pieces). The last polyline ends at the tip. Empty when the fields are too close.
    """
    a, b = arrow.src, arrow.dst
    if arrow.wraps:
        west, east = float(frame[0]), float(frame[2])
        width = east - west
        east_first = a[0] > b[0]
        b_shift = (b[0] + width, b[1]) if east_first else (b[0] - width, b[1])
        edge_x = east if east_first else west
        t = (edge_x - a[0]) / (b_shift[0] - a[0])
        y_out = y_back = a[1] + t * (b[1] - a[1])
        if arrow.exits is not None:
            y_out, y_back = arrow.exits
        out = trim_polyline([a, (edge_x, y_out)], START_GAP, 0.0)
        back = trim_polyline([(west + east - edge_x, y_back), b], 0.0, END_GAP)
        return [p for p in (out, back) if len(p) >= 2]
    if len(arrow.via) >= 2:
        # a voyage: from harbour symbol to harbour symbol (each next to its piece);
        # a route over land: from anchor to anchor, clear of both pieces
        gaps = (HARBOUR_GAP, HARBOUR_GAP + 2) if arrow.kind == "sea" else (START_GAP, END_GAP)
        routed = trim_polyline(list(arrow.via), *gaps)
        if len(routed) >= 2:
            return [routed]
    length = math.dist(a, b)
    start, end = START_GAP, END_GAP
    if length - start - end < MIN_BODY:
        # close neighbours: shorten both gaps alike (the arrow may touch the pieces)
        k = max(0.0, length - MIN_BODY) / (start + end)
        start, end = start * k, end * k
    if length - start - end < 12:
        return []
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    nx, ny = -(b[1] - a[1]) / length, (b[0] - a[0]) / length
    # every bend stays within MAX_BEND of the straight line: other boxes cannot count
    reach = MAX_BEND + 4.0
    low_x, high_x = min(a[0], b[0]) - reach, max(a[0], b[0]) + reach
    low_y, high_y = min(a[1], b[1]) - reach, max(a[1], b[1]) + reach
    avoid = [q for q in avoid if q[0] < high_x and q[2] > low_x and q[1] < high_y and q[3] > low_y]
    best: tuple[float, list[Point]] | None = None
    for rank, bend in enumerate(BENDS):
        offset = max(-MAX_BEND, min(MAX_BEND, bend * length))
        via = (mx + nx * offset, my + ny * offset)
        body = trim_polyline(quadratic_curve(a, via, b, steps=18), start, end)
        if len(body) < 2:
            continue
        cost = _covered(body, avoid, 3.0) + 0.3 * rank
        if best is None or cost < best[0]:
            best = (cost, body)
        if cost < 0.5:
            break
    return [best[1]] if best is not None else []


def _head(tip: Point, before: Point, style: Style, grow: float) -> list[Point]:
    dx, dy = tip[0] - before[0], tip[1] - before[1]
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    length, half = style.head_length + grow * 1.5, style.head_width / 2 + grow
    tip_x, tip_y = tip[0] + ux * grow, tip[1] + uy * grow
    bx, by = tip_x - ux * length, tip_y - uy * length
    return [(tip_x, tip_y), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)]


def _shorten(pts: list[Point], by: float) -> list[Point]:
    out = trim_polyline(pts, 0.0, by)
    return out if len(out) >= 2 else pts


def _point_at(pts: Sequence[Point], frac: float) -> Point:
    target = polyline_length(pts) * frac
    walked = 0.0
    for i in range(len(pts) - 1):
        seg = math.dist(pts[i], pts[i + 1])
        if walked + seg >= target and seg > 0:
            t = (target - walked) / seg
            return (
                pts[i][0] + (pts[i + 1][0] - pts[i][0]) * t,
                pts[i][1] + (pts[i + 1][1] - pts[i][1]) * t,
            )
        walked += seg
    return pts[-1]


def _badge_spot(pts: Sequence[Point], avoid: Sequence[Box]) -> Point:
    """The point of ``pts`` nearest its middle whose badge covers none of ``avoid``."""
    r = 16
    for frac in (0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74, 0.2, 0.8):
        x, y = _point_at(pts, frac)
        if not any(x + r > b[0] and x - r < b[2] and y + r > b[1] and y - r < b[3] for b in avoid):
            return (x, y)
    return _point_at(pts, 0.5)


STRIP = 24
"""Rows of a mask laid on at once: a slanted arrow covers little of its bounding box, so
each strip is trimmed to what it covers (an empty pixel changes nothing)."""

ARROW_MASKS = 256
"""Arrows kept per process as their laid-out masks (~16 KB each on average, so ~4 MB):
the same move between the same fields recurs (73% of the arrows of 1,600 playout boards
drawn in one process were found here), and drawing one anew costs ~1.5 ms."""

Strips = tuple[tuple[tuple[int, int, int, int], Image.Image], ...]
"""A coverage mask cut into strips trimmed to what they cover: (box on the board, mask)."""


def _strips(mask: Image.Image, left: int, top: int) -> Strips:
    """Cut ``mask`` (top left at ``(left, top)`` on the board) into trimmed strips."""
    out = []
    for y in range(0, mask.height, STRIP):
        strip = mask.crop((0, y, mask.width, min(mask.height, y + STRIP)))
        used = strip.getbbox()
        if used:
            x0, y0, x1, y1 = used
            out.append(((left + x0, top + y + y0, left + x1, top + y + y1), strip.crop(used)))
    return tuple(out)


Parts = tuple[tuple[Point, ...], ...]


@lru_cache(maxsize=ARROW_MASKS)
def _layers(
    kind: str, parts: Parts, badge_at: Point | None, box: tuple[int, int, int, int]
) -> tuple[tuple[str, Strips], ...]:
    """The arrow's coverage masks, in drawing order, each with the role of its colour
    (``outline``, ``fill``, ``face``, ``sign``); they depend on the arguments alone."""
    style = STYLES[kind]
    left, top, right, bottom = box
    size = ((right - left) * _SS, (bottom - top) * _SS)

    def big(pts: Sequence[Point]) -> list[Point]:
        return [((x - left) * _SS, (y - top) * _SS) for x, y in pts]

    last = list(parts[-1])
    body_end = _point_at(last, 1.0)
    before = _point_at(last, max(0.0, 1 - (style.head_length + 4) / polyline_length(last)))
    # one antialiased coverage mask per colour, laid on in order (an RGBA overlay costs
    # twice as much: reducing it converts to premultiplied alpha and back)
    layers: list[tuple[str, Image.Image]] = []
    ring = 2.0
    for grow, role in ((ring, "outline"), (0.0, "fill")):
        mask = Image.new("L", size, 0)
        draw = ImageDraw.Draw(mask)
        w = round((style.width + 2 * grow) * _SS)
        for i, part in enumerate(parts):
            pts = _shorten(list(part), style.head_length * 0.6) if i == len(parts) - 1 else part
            if style.dashed:
                dashed_line(draw, big(pts), 255, w, 15.0 * _SS, 8.0 * _SS)
            else:
                draw.line(big(pts), fill=255, width=w, joint="curve")
            r = w / 2
            for x, y in big(pts[:1]):
                draw.ellipse((x - r, y - r, x + r, y + r), fill=255)
        draw.polygon(big(_head(body_end, before, style, grow)), fill=255)
        layers.append((role, mask))
    if style.badge and badge_at is not None:
        r = 13 * _SS
        cx, cy = (badge_at[0] - left) * _SS, (badge_at[1] - top) * _SS
        rim, face, sign = (Image.new("L", size, 0) for _ in range(3))
        ImageDraw.Draw(rim).ellipse(
            (cx - r - 2 * _SS, cy - r - 2 * _SS, cx + r + 2 * _SS, cy + r + 2 * _SS), fill=255
        )
        ImageDraw.Draw(face).ellipse((cx - r, cy - r, cx + r, cy + r), fill=255)
        ImageDraw.Draw(sign).text(
            (cx, cy + _SS), style.badge, font=font(17 * _SS), fill=255, anchor="mm"
        )
        layers += [("outline", rim), ("face", face), ("sign", sign)]
    return tuple((role, _strips(mask.reduce(_SS), left, top)) for role, mask in layers)


def draw_arrow(
    canvas: Image.Image, arrow: Arrow, frame: Frame, avoid: Sequence[Box] = ()
) -> tuple[int, int, int, int] | None:
    """Draw ``arrow`` onto the RGB ``canvas`` (antialiased), clipped to ``frame`` (the map).

    A badge (voyages) goes where it covers none of the ``avoid`` boxes (piece boxes,
    names) if it can. Returns the box the arrow was drawn in (``None``: nothing drawn).
    """
    style = STYLES[arrow.kind]
    parts = path(arrow, frame, avoid)
    if not parts:
        return None
    colour = arrow.colour
    margin = style.head_width + 16
    xs = [x for part in parts for x, _ in part]
    ys = [y for part in parts for _, y in part]
    left = max(frame[0], math.floor(min(xs) - margin))
    top = max(frame[1], math.floor(min(ys) - margin))
    right = min(frame[2], math.ceil(max(xs) + margin))
    bottom = min(frame[3], math.ceil(max(ys) + margin))
    if right <= left or bottom <= top:
        return None
    badge_at = None
    if style.badge and sum(polyline_length(p) for p in parts) >= BADGE_MIN_LENGTH:
        badge_at = _badge_spot(parts[0], avoid)
    paints = {
        "outline": colour.outline,
        "fill": colour.fill,
        "face": palette.PANEL_BACKGROUND,
        "sign": palette.WHITE,
    }
    key = tuple(tuple(part) for part in parts)
    for role, strips in _layers(arrow.kind, key, badge_at, (left, top, right, bottom)):
        for box, mask in strips:
            canvas.paste(paints[role], box, mask)
    return (left, top, right, bottom)
