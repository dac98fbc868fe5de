"""Links that leave the map's east or west edge (World War 5's Pacific lanes), and the
tags that say where each one goes.

Such a link is drawn as two halves: from its western field out of the map's west edge,
and from its eastern field out of the east edge. Where each half leaves, a small tag at
the edge names the field at the other end, where the line goes on ("North Asia"; with
too little room, its compass word abbreviated: "N. Asia"). A tag sits where its
half's straight line leaves the map if that spot is free; else it slides along the edge
to a spot clear of every piece spot, name, label and other tag, and the half is drawn
to the tag instead (still straight, a little steeper), so that a line always runs into
its own tag. Of the free spots, the one whose half crosses the fewest other piece spots
and names is taken, then the nearest. No two tags overlap and no two halves cross.
Arrows of moves along such a link follow the same halves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from render.fonts import font
from rules.pyramids.board import Board, Field

from . import layout
from .catalogue import p_

Rect = tuple[float, float, float, float]

TAG_SIZE = 10
"""Font size of the tags (regular)."""
TAG_HEIGHT = 15
TAG_PAD = 4
"""Room left and right of a tag's text."""
TAG_GAP = 2
"""Clearance kept around a tag."""
REACH = 160
"""How far (pixels) a tag may slide along the edge from where its line leaves."""


@dataclass(frozen=True)
class EdgeTag:
    """A tag at the map's edge: its text and box (board pixels)."""

    text: str
    box: Rect

    @property
    def centre_y(self) -> float:
        """Where the half-link meets the edge: the tag's middle."""
        return (self.box[1] + self.box[3]) / 2


@dataclass(frozen=True)
class EdgeLink:
    """A link across the map's east-west edge, as drawn."""

    west: str
    """The field whose half leaves by the west edge."""
    east: str
    """The field whose half leaves by the east edge."""
    west_tag: EdgeTag
    """At the west edge: names ``east``."""
    east_tag: EdgeTag
    """At the east edge: names ``west``."""

    def exits(self, src: str) -> tuple[float, float]:
        """For a move from ``src`` (one of the two fields) along this link: where it
        leaves the map (y, on ``src``'s edge) and where it comes back (y, on the other)."""
        if src == self.west:
            return (self.west_tag.centre_y, self.east_tag.centre_y)
        return (self.east_tag.centre_y, self.west_tag.centre_y)


def straight_exit(a: tuple[float, float], c: tuple[float, float]) -> float:
    """Where the straight link between ``a`` (western) and ``c`` (eastern), going west
    from ``a`` across the edge, meets it (y, board pixels)."""
    width = float(layout.MAP_WIDTH)
    c_west = (c[0] - width, c[1])
    t = a[0] / (a[0] - c_west[0])
    return a[1] + t * (c[1] - a[1])


COMPASS: dict[str, str] = {
    "North": "N.",
    "Northern": "N.",
    "South": "S.",
    "Southern": "S.",
    "East": "E.",
    "Eastern": "E.",
    "West": "W.",
    "Western": "W.",
    "Northeast": "NE",
    "Northwest": "NW",
    "Southeast": "SE",
    "Southwest": "SW",
}
"""How a tag with too little room abbreviates a name's leading compass word."""
SHORT_COST = 60.0
"""What taking the abbreviated tag costs, against one pixel of sliding."""


def tag_texts(name: str) -> tuple[str, ...]:
    """The words of a tag naming the field ``name``: in full, then (if it starts with a
    compass word) abbreviated ("Southern South America", "S. South America")."""
    first, _, rest = name.partition(" ")
    out = [name]
    if first in COMPASS and rest:
        out.append(f"{COMPASS[first]} {rest}")
    return tuple(out)


def _short_names() -> dict[str, str]:
    """Short names of the fields a tag names, in the current language (the same as the
    name in English, which :func:`tag_texts` abbreviates by its compass word)."""
    return {
        "Northern South America": p_("map tag", "Northern South America"),
        "Southern South America": p_("map tag", "Southern South America"),
        "Southwest Australia": p_("map tag", "Southwest Australia"),
        "North Australia": p_("map tag", "North Australia"),
        "East Australia": p_("map tag", "East Australia"),
        "North Asia": p_("map tag", "North Asia"),
        "East Asia": p_("map tag", "East Asia"),
    }


def tag_forms(field: Field) -> tuple[str, ...]:
    """The words of a tag naming ``field`` in the current language, longest first: its
    name (:func:`tag_texts`), then its short name if the language has one."""
    forms = list(tag_texts(field.name))
    short = _short_names().get(field.english, field.name)
    return tuple(dict.fromkeys((*forms, short)))


def _tag_width(text: str) -> float:
    return font(TAG_SIZE).getlength(text) + 2 * TAG_PAD


def _overlap(a: Rect, b: Rect) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


LINE_STEP = 4.0
"""Spacing of the points along a half that are checked against other boxes."""
CROSSING_COST = 5.0
"""What one such point inside another field's piece spot or name costs, against one
pixel of sliding."""

Segment = tuple[tuple[float, float], tuple[float, float]]


def _crossed(segment: Segment, boxes: Sequence[Rect]) -> int:
    """How many points of ``segment`` (one every ``LINE_STEP`` pixels) lie in ``boxes``."""
    (x0, y0), (x1, y1) = segment
    n = max(1, int(abs(x1 - x0) / LINE_STEP))
    count = 0
    for i in range(n + 1):
        x, y = x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n
        count += sum(1 for b in boxes if b[0] < x < b[2] and b[1] < y < b[3])
    return count


def _hits(segment: Segment, box: Rect) -> bool:
    """Whether ``segment`` passes through the inside of ``box`` (Liang-Barsky clipping)."""
    (x0, y0), (x1, y1) = segment
    dx, dy = x1 - x0, y1 - y0
    low, high = 0.0, 1.0
    for p, q in ((-dx, x0 - box[0]), (dx, box[2] - x0), (-dy, y0 - box[1]), (dy, box[3] - y0)):
        if p == 0:
            if q <= 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low >= high:
            return False
    return True


def _cross(a: Segment, b: Segment) -> bool:
    """Whether two segments cross (touching at a shared end does not count)."""
    if a[0] == b[0]:
        return False

    def side(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float]) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return (
        side(a[0], a[1], b[0]) * side(a[0], a[1], b[1]) < 0
        and side(b[0], b[1], a[0]) * side(b[0], b[1], a[1]) < 0
    )


def _place(
    texts: tuple[str, ...],
    anchor: tuple[float, float],
    west: bool,
    exit_y: float,
    placed: Sequence[tuple[EdgeTag, Segment]],
    obstacles: Sequence[Rect],
    crossing: Sequence[Rect],
) -> tuple[EdgeTag, Segment]:
    """The tag of the half from ``anchor`` whose straight line leaves at ``exit_y``, and
    that half: clear of the ``placed`` tags and halves (none crosses another, none runs
    under another field's tag), then of
    ``obstacles``, its half crossing as few of ``crossing`` (other piece spots, names)
    as it can, nearest ``exit_y``, in full words rather than abbreviated (``texts``)."""
    edge_x = 0.0 if west else float(layout.MAP_WIDTH)
    half = TAG_HEIGHT / 2
    # only what lies between the anchor and the edge can be crossed
    xs = (min(anchor[0], edge_x), max(anchor[0], edge_x))
    crossing = [b for b in crossing if b[0] < xs[1] and b[2] > xs[0]]
    best: tuple[float, EdgeTag, Segment] | None = None
    low, high = half + 1, layout.MAP_HEIGHT - half - 1
    for rank, text in enumerate(texts):
        w = _tag_width(text)
        left = 1.0 if west else layout.MAP_WIDTH - 1.0 - w
        for offset in range(-REACH, REACH + 1, 2):
            y = exit_y + offset
            if not low <= y <= high:
                continue
            box = (left, y - half, left + w, y + half)
            grown = (box[0] - TAG_GAP, box[1] - TAG_GAP, box[2] + TAG_GAP, box[3] + TAG_GAP)
            segment = (anchor, (edge_x, y))
            if any(
                _overlap(grown, t.box)
                or _cross(segment, s)
                # halves of one field may pass each other's tags: they lead to one place
                or (s[0] != anchor and (_hits(segment, t.box) or _hits(s, grown)))
                for t, s in placed
            ):
                continue
            cost = 1000 * sum(_overlap(grown, r) for r in obstacles) + abs(offset)
            cost += CROSSING_COST * _crossed(segment, crossing) + SHORT_COST * rank
            if best is None or cost < best[0]:
                best = (cost, EdgeTag(text, box), segment)
    if best is None:  # nowhere free of the other tags: where the line leaves
        text = texts[-1]
        w = _tag_width(text)
        left = 1.0 if west else layout.MAP_WIDTH - 1.0 - w
        y = min(max(exit_y, low), high)
        return EdgeTag(text, (left, y - half, left + w, y + half)), (anchor, (edge_x, y))
    return best[1], best[2]


def edge_links(
    board: Board,
    anchors: dict[str, tuple[float, float]],
    obstacles: Sequence[Rect],
    names: dict[str, Rect],
) -> tuple[EdgeLink, ...]:
    """Every link of ``board`` that wraps the map's edge, with its tags placed clear of
    ``obstacles`` and of each other, each half crossing as few other fields' piece spots
    and names as it can.

    Args:
        board: the board (its links' ``wraps_map_edge``).
        anchors: each field's anchor, board pixels.
        obstacles: boxes the tags keep clear of (piece spots, names, labels, symbols).
        names: each field's name box.
    """
    half_w, half_h = layout.PIECE_WIDTH / 2, layout.PIECE_HEIGHT / 2
    spots = {
        fid: (x - half_w, y - half_h, x + half_w, y + half_h) for fid, (x, y) in anchors.items()
    }
    found: list[tuple[str, str, float]] = []
    for lk in board.links:
        if not lk.wraps_map_edge:
            continue
        west, east = (lk.a, lk.b) if anchors[lk.a][0] <= anchors[lk.b][0] else (lk.b, lk.a)
        found.append((west, east, straight_exit(anchors[west], anchors[east])))
    placed: dict[tuple[str, str, bool], EdgeTag] = {}
    for is_west in (True, False):
        on_edge: list[tuple[EdgeTag, Segment]] = []
        for west, east, y in sorted(found, key=lambda f: (f[2], f[0], f[1])):
            own, other = (west, east) if is_west else (east, west)
            crossing = [b for f, b in spots.items() if f != own]
            crossing += [b for f, b in names.items() if f != own]
            texts = tag_forms(board.fields[other])
            tag, segment = _place(texts, anchors[own], is_west, y, on_edge, obstacles, crossing)
            placed[(west, east, is_west)] = tag
            on_edge.append((tag, segment))
    return tuple(
        EdgeLink(west, east, placed[(west, east, True)], placed[(west, east, False)])
        for west, east, _ in found
    )
