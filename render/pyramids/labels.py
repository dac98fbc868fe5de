"""Placing field names so they never cover a field's piece spot.

A name goes just below its anchor (``layout.NAME_OFFSET_Y``) when that spot is free;
otherwise it tries the name on two lines, shifted sideways, above the anchor, then
beside it, and keeps the first spot that touches no piece box, no harbour symbol, no
other label and stays on the map (or, failing that, the spot with the least overlap).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from . import layout

Rect = tuple[float, float, float, float]

_PAD = 3.0
"""Clearance kept around every label, in pixels."""


@dataclass(frozen=True)
class Label:
    """A placed label: its text (``\\n`` between lines) and its box in board pixels."""

    key: str
    text: str
    box: Rect

    @property
    def top_centre(self) -> tuple[float, float]:
        """The point to draw the text at with Pillow's ``"ma"`` anchor."""
        return ((self.box[0] + self.box[2]) / 2, self.box[1])


@dataclass(frozen=True)
class LabelStyle:
    """How labels are measured: font (at ``scale`` times the board size) and spacing."""

    font: ImageFont.FreeTypeFont
    scale: int
    halo: int
    """Halo (stroke) width at the drawing scale."""
    spacing: int
    """Line spacing at the drawing scale."""


_MEASURE = ImageDraw.Draw(Image.new("L", (1, 1)))


def measure(text: str, style: LabelStyle) -> tuple[float, float]:
    """Return the width and height (board pixels) of ``text`` drawn in ``style``."""
    left, top, right, bottom = _MEASURE.multiline_textbbox(
        (0, 0),
        text,
        font=style.font,
        anchor="ma",
        align="center",
        spacing=style.spacing,
        stroke_width=style.halo,
    )
    return ((right - left) / style.scale, (bottom - top) / style.scale)


def two_lines(name: str) -> str | None:
    """Split a name at the space that best balances two lines (None if it has no space)."""
    words = name.split(" ")
    if len(words) < 2:
        return None
    best = min(
        range(1, len(words)),
        key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))),
    )
    return " ".join(words[:best]) + "\n" + " ".join(words[best:])


def _overlap(a: Rect, b: Rect) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _outside(box: Rect, bounds: Rect) -> float:
    area = (box[2] - box[0]) * (box[3] - box[1])
    return area - _overlap(box, bounds)


def _candidates(
    text_options: list[str], ax: float, ay: float, style: LabelStyle
) -> list[tuple[str, Rect]]:
    below = ay + layout.NAME_OFFSET_Y
    above = ay - layout.NAME_OFFSET_Y
    side = layout.PIECE_WIDTH / 2 + 4
    out: list[tuple[str, Rect]] = []
    sized = [(t, *measure(t, style)) for t in text_options]
    for vertical in ("below", "above"):
        for frac in (0.0, -1 / 3, 1 / 3, -2 / 3, 2 / 3):
            for text, w, h in sized:
                cx = ax + frac * w
                top = below if vertical == "below" else above - h
                out.append((text, (cx - w / 2, top, cx + w / 2, top + h)))
    for text, w, h in sized:
        out.append((text, (ax + side, ay - h / 2, ax + side + w, ay + h / 2)))
        out.append((text, (ax - side - w, ay - h / 2, ax - side, ay + h / 2)))
    return out


def place_names(
    names: Sequence[tuple[str, str, float, float]],
    style: LabelStyle,
    obstacles: Sequence[Rect],
    bounds: Rect = (0.0, 0.0, float(layout.MAP_WIDTH), float(layout.MAP_HEIGHT)),
) -> list[Label]:
    """Place each ``(key, name, anchor_px_x, anchor_px_y)`` near its anchor.

    Every anchor's piece box (``layout.PIECE_WIDTH`` x ``layout.PIECE_HEIGHT``, centred)
    is an obstacle, as are ``obstacles`` (harbour symbols, fixed labels) and the names
    already placed. Names are placed in the order given.

    Returns:
        One :class:`Label` per name, in the same order.
    """
    hw, hh = layout.PIECE_WIDTH / 2, layout.PIECE_HEIGHT / 2
    blocked: list[Rect] = [(x - hw, y - hh, x + hw, y + hh) for _, _, x, y in names]
    blocked += list(obstacles)
    inner = (bounds[0] + 2, bounds[1] + 2, bounds[2] - 2, bounds[3] - 2)
    placed: list[Label] = []
    for key, name, ax, ay in names:
        options = [name] + [t for t in (two_lines(name),) if t]
        best: tuple[float, str, Rect] | None = None
        for text, box in _candidates(options, ax, ay, style):
            padded = (box[0] - _PAD, box[1] - _PAD, box[2] + _PAD, box[3] + _PAD)
            cost = sum(_overlap(padded, r) for r in blocked) + 4 * _outside(box, inner)
            cost += sum(_overlap(padded, lab.box) for lab in placed)
            if best is None or cost < best[0]:
                best = (cost, text, box)
            if cost == 0:
                break
        assert best is not None
        placed.append(Label(key, best[1], best[2]))
    return placed
