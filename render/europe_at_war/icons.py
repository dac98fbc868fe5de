"""Unit symbols, after the military map signs: a frame with a cross for infantry, a
diagonal for cavalry, a ball for artillery; a star for a General, an anchor for an
Admiral, a ship's hull for ships, a tower for a Fortification. Drawn 4x larger and
reduced (antialiased), cached by type, size and colour.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render.palette import RGB

from .catalogue import N_

_SS = 4

TYPE_NAMES: dict[str, str] = {
    "G": N_("General"),
    "D": N_("Admiral"),
    "S": N_("ship"),
    "H": N_("heavy infantry"),
    "L": N_("light infantry"),
    "CH": N_("heavy cavalry"),
    "CL": N_("light cavalry"),
    "C/H": N_("dragoons"),
    "C": N_("cavalry"),
    "A": N_("artillery"),
    "F": N_("Fortification"),
}
"""What each type's symbol stands for (the panel's legend), in English: translate it
where it is drawn."""

LEGEND = ("G", "D", "S", "H", "L", "CH", "CL", "C/H", "A", "F")


def _star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    pts = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * 0.45
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


@lru_cache(maxsize=128)
def icon(unit_type: str, size: int, colour: RGB) -> Image.Image:
    """The symbol of ``unit_type`` (a ``units.json`` type code), ``size`` pixels square,
    drawn in ``colour`` on transparency (RGBA)."""
    s = size * _SS
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    ink = (*colour, 255)
    w = max(_SS, round(s / 9))
    m = s * 0.12
    box = (m, s * 0.22, s - m, s * 0.78)
    if unit_type == "G":
        d.polygon(_star(s / 2, s / 2 + s * 0.04, s * 0.48), fill=ink)
    elif unit_type == "D":
        cx = s / 2
        d.ellipse((cx - s * 0.1, s * 0.06, cx + s * 0.1, s * 0.26), outline=ink, width=w)
        d.line([(cx, s * 0.26), (cx, s * 0.9)], fill=ink, width=w)
        d.line([(cx - s * 0.22, s * 0.4), (cx + s * 0.22, s * 0.4)], fill=ink, width=w)
        d.arc((s * 0.14, s * 0.42, s * 0.86, s * 0.92), 20, 160, fill=ink, width=w)
    elif unit_type == "S":
        d.polygon(
            [(s * 0.06, s * 0.62), (s * 0.94, s * 0.62), (s * 0.78, s * 0.86), (s * 0.2, s * 0.86)],
            fill=ink,
        )
        d.line([(s * 0.5, s * 0.1), (s * 0.5, s * 0.62)], fill=ink, width=w)
        d.polygon([(s * 0.54, s * 0.14), (s * 0.86, s * 0.54), (s * 0.54, s * 0.54)], fill=ink)
        d.polygon([(s * 0.46, s * 0.22), (s * 0.46, s * 0.54), (s * 0.2, s * 0.54)], fill=ink)
    elif unit_type == "F":
        d.rectangle((s * 0.18, s * 0.3, s * 0.82, s * 0.9), fill=ink)
        for k in range(3):
            x0 = s * (0.18 + k * 0.245)
            d.rectangle((x0, s * 0.12, x0 + s * 0.15, s * 0.3), fill=ink)
    else:
        d.rectangle(box, outline=ink, width=w)
        x0, y0, x1, y1 = box
        if unit_type in ("H", "L"):
            d.line([(x0, y0), (x1, y1)], fill=ink, width=w)
            d.line([(x0, y1), (x1, y0)], fill=ink, width=w)
        if unit_type in ("C", "CH", "CL", "C/H"):
            d.line([(x0, y1), (x1, y0)], fill=ink, width=w * (2 if unit_type == "CH" else 1))
        if unit_type == "C/H":
            d.line([(x0, y0), ((x0 + x1) / 2, (y0 + y1) / 2)], fill=ink, width=w)
        if unit_type in ("L", "CL"):
            d.line([(x0, (y0 + y1) / 2), (x1, (y0 + y1) / 2)], fill=ink, width=w)
        if unit_type == "A":
            r = (y1 - y0) * 0.28
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
    return img.reduce(_SS)
