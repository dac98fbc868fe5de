"""The fixed PNG palettes (board, hand, duel), each built once per process.

A board's palette holds, exactly, every colour the dynamic drawings use (piece faces,
outlines, pips, panel text and boxes, marks, map labels), then the colours of a sample
board image: the static layer with a piece on every field, arrows, marks, a banner and
a full panel. The hand and duel palettes are made alike from sample hands and duels.
Mapping an image onto a fixed palette is fast (~1 ms for a board, far less than
adaptive quantizing) and keeps piece and card colours exact.
"""

from __future__ import annotations

import dataclasses
import os
import threading
from functools import lru_cache

from PIL import Image

import rules
from render.encode import fixed_palette
from rules import i18n, pyramids

from . import palette
from .board import board_image
from .duel import duel_image
from .hand import hand_image

_LOCK = threading.RLock()


def _fresh_lock() -> None:
    # a child forked while another thread builds a palette must not inherit a held lock
    global _LOCK
    _LOCK = threading.RLock()


os.register_at_fork(after_in_child=_fresh_lock)

SAMPLE_SEATS: dict[str, int] = {"european_war": 5, "world_war_5": 6}


def _sides(board_id: str) -> tuple[str, ...]:
    """The sides whose pieces a board shows (its powers or continents)."""
    return pyramids.load_board(board_id).power_order


def reserved_colours(board_id: str) -> list[palette.RGB]:
    """Colours that must survive mapping onto a board's palette exactly."""
    out: list[palette.RGB] = []
    for side in _sides(board_id):
        pc = palette.side_colour(side)
        out += [pc.fill, *palette.faces(pc.fill), pc.outline, pc.text]
    out += [
        palette.PANEL_BACKGROUND,
        palette.PANEL_EDGE,
        palette.PANEL_CARD,
        palette.PANEL_CARD_ACTIVE,
        palette.PANEL_RULE,
        palette.PANEL_TEXT,
        palette.PANEL_MUTED,
        palette.PANEL_FAINT,
        palette.GOLD,
        palette.ALERT,
        palette.WHITE,
        palette.BLACK,
        palette.TEXT,
        palette.CARD_FACE,
        palette.CARD_EDGE,
        palette.CARD_RED,
        palette.CARD_BLACK,
        palette.DIE_FACE,
        palette.DIE_PIP,
        *palette.HARBOUR.values(),
        palette.SEA_LABEL,
        palette.NEUTRAL_LABEL,
        palette.LINK,
        palette.HIGHLIGHT,
        palette.FIGURE_BANDS[11],
        palette.CARD_BADGE,
    ]
    for side in _sides(board_id):
        out.append(palette.on_dark(palette.family_for(side).base))
    # antialiasing ramps of panel text over the panel's boxes
    for bg in (palette.PANEL_BACKGROUND, palette.PANEL_CARD, palette.PANEL_CARD_ACTIVE):
        for ink in (palette.PANEL_TEXT, palette.PANEL_MUTED):
            out += [palette.mix(bg, ink, t / 5) for t in range(1, 5)]
    return out


def sample_view(board_id: str) -> pyramids.View:
    """A made-up view with a piece on every field (every seat, every size)."""
    variant = board_id
    n = SAMPLE_SEATS.get(board_id, 4)
    options = pyramids.Options(five_players=n > 4)
    game, _ = pyramids.new_game(variant, [None] * n, seed=1, options=options, arranged=True)
    view = pyramids.view_for(game, None)
    b = pyramids.load_board(board_id)
    pieces = {fid: (i % n, i % 3 + 1) for i, fid in enumerate(b.field_order)}
    return dataclasses.replace(view, pieces=pieces, phase="turn", turn=42, round=9)


def _sample_image(board_id: str, arcade: bool) -> Image.Image:
    view = sample_view(board_id)
    b = pyramids.load_board(board_id, arcade)
    order = list(b.field_order)
    events = [
        rules.Event("moved", {"seat": 0, "src": order[0], "dst": order[1], "by_sea": False}),
        rules.Event("attack_declared", {"seat": 1, "src": order[4], "dst": order[5]}),
        rules.Event("shrunk", {"seat": 2, "field": order[8], "from_size": 3, "to_size": 2}),
        rules.Event("destroyed", {"seat": 1, "field": order[10], "size": 2}),
    ]
    ended = dataclasses.replace(view, over=True, winners=(0, 1), phase="over")
    first = board_image(view, [f"Player {i}" for i in range(6)], events, pyramid_arcade=arcade)
    second = board_image(ended, [f"Player {i}" for i in range(6)], pyramid_arcade=arcade)
    sample = Image.new("RGB", (first.width * 2, first.height))
    sample.paste(first, (0, 0))
    sample.paste(second, (first.width, 0))
    return sample


@lru_cache(maxsize=8)
def _board_palette(board_id: str, arcade: bool) -> Image.Image:
    # drawn in English whatever the language asking first: every language maps its
    # boards onto the same palette, so equal boards give equal bytes
    with i18n.use(i18n.DEFAULT):
        sample = _sample_image(board_id, arcade)
    return fixed_palette(sample, reserved_colours(board_id))


def board_palette(board_id: str, pyramid_arcade: bool = False) -> Image.Image:
    """The fixed palette image of a board (cached per process; do not modify it)."""
    with _LOCK:
        return _board_palette(board_id, pyramid_arcade)


def _card_colours() -> list[palette.RGB]:
    out = [
        palette.PANEL_BACKGROUND,
        palette.PANEL_TEXT,
        palette.PANEL_MUTED,
        palette.PANEL_CARD,
        palette.PANEL_FAINT,
        palette.CARD_FACE,
        palette.CARD_EDGE,
        palette.CARD_RED,
        palette.CARD_BLACK,
        palette.CARD_BADGE,
        palette.WHITE,
        palette.GOLD,
        *palette.FIGURE_BANDS.values(),
    ]
    for ink in (palette.CARD_RED, palette.CARD_BLACK):
        out += [palette.mix(palette.CARD_FACE, ink, t / 6) for t in range(1, 6)]
    return out


@lru_cache(maxsize=1)
def _hand_palette() -> Image.Image:
    sides = _sides("european_war")
    with i18n.use(i18n.DEFAULT):
        return _hand_palette_of(sides)


def _hand_palette_of(sides: tuple[str, ...]) -> Image.Image:
    hands = [hand_image(list(range(52)), title="Sample hand: 52 cards")]
    hands += [hand_image([0], title="Sample", side=side) for side in sides]
    sample = Image.new("RGB", (max(h.width for h in hands), sum(h.height for h in hands)))
    top = 0
    for h in hands:
        sample.paste(h, (0, top))
        top += h.height
    reserved = _card_colours()
    for pc in (palette.side_colour(side) for side in sides):
        reserved += [pc.fill, *palette.faces(pc.fill), pc.outline, pc.text]
    return fixed_palette(sample, reserved)


def hand_palette() -> Image.Image:
    """The fixed PNG palette of hand images (cached per process; do not modify it)."""
    with _LOCK:
        return _hand_palette()


def _sample_duels() -> list[Image.Image]:
    view = sample_view("european_war")
    order = list(pyramids.load_board("european_war").field_order)
    out = []
    for k, (att, dfn, a_size, d_size) in enumerate(((0, 1, 3, 2), (2, 3, 2, 1), (4, 0, 1, 3))):
        a_cards = tuple(range(k, 52, 17))[:a_size]
        d_cards = tuple(range(k + 40, 52, 5))[: max(0, d_size - 1)]
        battle = pyramids.BattleView(
            stage="duel",
            attacker=att,
            defender=dfn,
            src=order[k],
            dst=order[k + 1],
            attacker_size=a_size,
            defender_size=d_size,
            attacker_cards=a_cards,
            defender_cards=d_cards,
            attacker_limit=a_size,
            defender_limit=d_size,
            attacker_total=0,
            defender_total=0,
            attacker_done=False,
            defender_done=k == 1,
            to_play=dfn,
            waiting_for=(),
            retreat_options=(),
        )
        out.append(
            duel_image(dataclasses.replace(view, battle=battle), [f"Player {i}" for i in range(6)])
        )
    return out


@lru_cache(maxsize=1)
def _duel_palette() -> Image.Image:
    with i18n.use(i18n.DEFAULT):
        duels = _sample_duels()
    sample = Image.new("RGB", (duels[0].width, duels[0].height * len(duels)))
    for i, img in enumerate(duels):
        sample.paste(img, (0, i * img.height))
    reserved = _card_colours()
    for pc in (palette.side_colour(side) for side in _sides("european_war")):
        reserved += [
            pc.fill,
            *palette.faces(pc.fill),
            pc.outline,
            pc.text,
            palette.on_dark(pc.fill),
        ]
    return fixed_palette(sample, reserved)


def duel_palette() -> Image.Image:
    """The fixed PNG palette of duel images (cached per process; do not modify it)."""
    with _LOCK:
        return _duel_palette()
