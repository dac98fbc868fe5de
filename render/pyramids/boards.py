"""Board facts the images need: the rules' :class:`~rules.board.Board` plus drawing extras.

The engine's board model carries fields, owners, anchors and links; the board files
also hold presentation-only data (harbour icon positions) read here.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from rules.pyramids.board import Board, load_board


def board(board_id: str, pyramid_arcade: bool = False) -> Board:
    """Return the validated board (cached by the rules package).

    Raises:
        rules.BoardError: unknown board id or invalid board file.
    """
    return load_board(board_id, pyramid_arcade)


@lru_cache(maxsize=8)
def _raw(board_id: str) -> dict[str, Any]:
    load_board(board_id)  # validates the id and the file first
    text = (
        resources.files("rules.pyramids").joinpath("boards", f"{board_id}.json").read_text("utf-8")
    )
    data: dict[str, Any] = json.loads(text)
    return data


def has_arcade_variant(board_id: str) -> bool:
    """True when the board has a Pyramid Arcade printing (World War 5)."""
    return bool(_raw(board_id).get("pyramid_arcade_variant"))


def harbour_icons(board_id: str) -> dict[str, tuple[float, float]]:
    """Return field id -> normalised ``(x, y)`` of its harbour symbol (fields with one).

    Raises:
        rules.BoardError: unknown board id.
    """
    raw = _raw(board_id)
    out: dict[str, tuple[float, float]] = {}
    for f in raw.get("fields") or raw.get("territories") or []:
        icon = f.get("harbour_icon")
        if f.get("harbour") and icon:
            out[f["id"]] = (float(icon["x"]), float(icon["y"]))
    return out


def lonlat_to_norm(b: Board, lon: float, lat: float) -> tuple[float, float]:
    """Convert a longitude/latitude to the board's normalised map coordinates."""
    cs = b.coordinate_system
    x = (lon - cs["lon_min"]) / (cs["lon_max"] - cs["lon_min"])
    y = (cs["lat_max"] - lat) / (cs["lat_max"] - cs["lat_min"])
    return (x, y)
