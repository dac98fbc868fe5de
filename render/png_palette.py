"""The fixed PNG palette of each board, built once per process.

It holds, exactly, every colour the dynamic drawings use (piece faces, outlines, pips,
panel text and boxes, marks, map labels), then the colours of a sample board image:
the static layer with a piece on every field, arrows, marks, a banner and a full panel.
Mapping a board image onto it is fast and keeps piece colours exact.
"""

from __future__ import annotations

import dataclasses
import threading
from functools import lru_cache

from PIL import Image

import rules

from . import palette
from .board import board_image
from .encode import fixed_palette

_LOCK = threading.Lock()

SAMPLE_SEATS: dict[str, int] = {"european_war": 5, "world_war_5": 6}


def reserved_colours() -> list[palette.RGB]:
    """Colours that must survive palette mapping exactly."""
    out: list[palette.RGB] = []
    for pc in palette.PIECE_COLOURS:
        out += [pc.fill, *palette.faces(pc.fill), pc.outline, pc.text]
    out += [
        palette.PANEL_BACKGROUND, palette.PANEL_EDGE, palette.PANEL_CARD,
        palette.PANEL_CARD_ACTIVE, palette.PANEL_RULE, palette.PANEL_TEXT,
        palette.PANEL_MUTED, palette.PANEL_FAINT, palette.GOLD, palette.ALERT,
        palette.WHITE, palette.BLACK, palette.TEXT, palette.CARD_FACE, palette.CARD_EDGE,
        palette.CARD_RED, palette.CARD_BLACK, palette.DIE_FACE, palette.DIE_PIP,
        *palette.HARBOUR.values(), palette.SEA_LABEL, palette.NEUTRAL_LABEL, palette.LINK,
    ]
    for fam in palette.FAMILIES.values():
        out.append(palette.on_dark(fam.base))
    # antialiasing ramps of panel text over the panel's boxes
    for bg in (palette.PANEL_BACKGROUND, palette.PANEL_CARD, palette.PANEL_CARD_ACTIVE):
        for ink in (palette.PANEL_TEXT, palette.PANEL_MUTED):
            out += [palette.mix(bg, ink, t / 5) for t in range(1, 5)]
    return out


def sample_view(board_id: str) -> rules.View:
    """A made-up view with a piece on every field (every seat, every size)."""
    variant = board_id
    n = SAMPLE_SEATS.get(board_id, 4)
    options = rules.Options(five_players=n > 4)
    game, _ = rules.new_game(variant, [None] * n, seed=1, options=options, arranged=True)
    view = rules.view_for(game, None)
    b = rules.load_board(board_id)
    pieces = {fid: (i % n, i % 3 + 1) for i, fid in enumerate(b.field_order)}
    return dataclasses.replace(view, pieces=pieces, phase="turn", turn=42, round=9)


def _sample_image(board_id: str, arcade: bool) -> Image.Image:
    view = sample_view(board_id)
    b = rules.load_board(board_id, arcade)
    order = list(b.field_order)
    events = [
        rules.Event("moved", {"seat": 0, "src": order[0], "dst": order[1], "by_sea": False}),
        rules.Event("attack_declared", {"seat": 1, "src": order[4], "dst": order[5]}),
        rules.Event("shrunk", {"seat": 2, "field": order[8], "from_size": 3, "to_size": 2}),
        rules.Event("destroyed", {"seat": 1, "field": order[10], "size": 2}),
    ]
    ended = dataclasses.replace(view, over=True, winners=(0, 1), phase="over")
    first = board_image(view, [f"Player {i}" for i in range(6)], events,
                        pyramid_arcade=arcade)
    second = board_image(ended, [f"Player {i}" for i in range(6)], pyramid_arcade=arcade)
    sample = Image.new("RGB", (first.width * 2, first.height))
    sample.paste(first, (0, 0))
    sample.paste(second, (first.width, 0))
    return sample


@lru_cache(maxsize=8)
def _board_palette(board_id: str, arcade: bool) -> Image.Image:
    return fixed_palette(_sample_image(board_id, arcade), reserved_colours())


def board_palette(board_id: str, pyramid_arcade: bool = False) -> Image.Image:
    """The fixed palette image of a board (cached per process; do not modify it)."""
    with _LOCK:
        return _board_palette(board_id, pyramid_arcade)
