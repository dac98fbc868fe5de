"""Geometry of the board image: where the map and the side panel go.

The board image is ``BOARD_SIZE`` pixels. The map fills ``MAP_BOX`` (the left part) and
the side panel fills ``PANEL_BOX`` (the right part). A board JSON gives every field's
anchor as normalised ``(x, y)`` in 0..1 over the map; :func:`to_px` turns it into
pixels. The anchor is reserved for the field's pieces: :func:`piece_box` is the box
that other drawings (names, harbours) keep clear of, and a field's name goes
``NAME_OFFSET_Y`` pixels below the anchor (see :func:`name_origin`).
"""

from __future__ import annotations

Box = tuple[int, int, int, int]
"""A pixel box ``(left, top, right, bottom)``; right and bottom are exclusive."""

BOARD_SIZE: tuple[int, int] = (1280, 800)
MAP_BOX: Box = (0, 0, 960, 800)
PANEL_BOX: Box = (960, 0, 1280, 800)

MAP_WIDTH: int = MAP_BOX[2] - MAP_BOX[0]
MAP_HEIGHT: int = MAP_BOX[3] - MAP_BOX[1]

PIECE_WIDTH: int = 60
"""Width of the box reserved for a field's pieces, centred on the anchor."""
PIECE_HEIGHT: int = 70
"""Height of the box reserved for a field's pieces (a stacked pyramid), centred on the anchor."""

NAME_OFFSET_Y: int = 38
"""Distance in pixels from the anchor down to the top of the field's name.

Just clear of the bottom of the piece box (``PIECE_HEIGHT / 2`` below the anchor).
"""

SUPERSAMPLE: int = 2
"""The static layer is drawn this many times larger, then downscaled once (antialiasing)."""


def to_px(x: float, y: float) -> tuple[float, float]:
    """Map normalised board coordinates (0..1, x east, y south) to map pixels.

    Args:
        x: normalised x, 0 at the map's west edge and 1 at its east edge.
        y: normalised y, 0 at the map's north edge and 1 at its south edge.

    Returns:
        ``(px, py)`` in board-image pixels (the map starts at ``MAP_BOX``'s corner).
    """
    return (MAP_BOX[0] + x * MAP_WIDTH, MAP_BOX[1] + y * MAP_HEIGHT)


def piece_box(x: float, y: float) -> tuple[float, float, float, float]:
    """Return the pixel box reserved for the pieces of the field anchored at ``(x, y)``.

    Args:
        x: normalised anchor x.
        y: normalised anchor y.

    Returns:
        ``(left, top, right, bottom)`` in board-image pixels, centred on the anchor.
    """
    px, py = to_px(x, y)
    half_w, half_h = PIECE_WIDTH / 2, PIECE_HEIGHT / 2
    return (px - half_w, py - half_h, px + half_w, py + half_h)


def name_origin(x: float, y: float) -> tuple[float, float]:
    """Return the preferred top-centre point of a field's name (just below the piece box).

    The static layer may move a name elsewhere around the anchor when this spot would
    collide with another field's pieces or name; it never puts it over a piece box.

    Args:
        x: normalised anchor x.
        y: normalised anchor y.

    Returns:
        ``(centre_x, top_y)`` in board-image pixels.
    """
    px, py = to_px(x, y)
    return (px, py + NAME_OFFSET_Y)
