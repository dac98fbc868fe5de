"""The board image: the static map, the pieces, the last action, the banner, the panel.

Everything is drawn from the public part of a view (the seat that asked makes no
difference) and from the public events of the last action (``event.to is None``).
Drawing order: glows under new pieces, arrows, ghosts of lost sizes, pieces, loss
marks, the game-over banner, the side panel.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image

import rules
from render import shapes
from render.arrows import Arrow, draw_arrow
from render.fonts import font
from render.text import display_name, fit_text, name_levels, put, short_name
from rules import i18n, pyramids
from rules.pyramids.state import size_label

from . import layout, marks, palette, pyramid
from .boards import has_arcade_variant
from .catalogue import _, n_
from .landroutes import land_route
from .panel import Element, draw_panel
from .searoutes import sea_route
from .static_layer import edge_links, fixed_label_boxes, name_labels, static_board
from .status import TITLES, end_reason, status, winners_text


@dataclass
class LastAction:
    """The public marks of the last action, collected from its events."""

    arrows: list[Arrow] = field(default_factory=list)
    glows: set[str] = field(default_factory=set)
    shrunk: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    """field -> (seat, from_size, to_size)."""
    destroyed: dict[str, tuple[int, int]] = field(default_factory=dict)
    """field -> (seat, size)."""
    sabotaged: set[str] = field(default_factory=set)
    attacked: set[str] = field(default_factory=set)
    """Fields attacked by the last action (or by the battle under way)."""


def _anchor(b: pyramids.Board, fid: str) -> tuple[float, float] | None:
    f = b.fields.get(fid)
    return layout.to_px(f.x, f.y) if f is not None else None


def _exits(board_id: str, src: str, dst: str) -> tuple[float, float] | None:
    """For a link across the map's edge: where it leaves and comes back, as drawn."""
    for edge in edge_links(board_id):
        if {edge.west, edge.east} == {src, dst}:
            return edge.exits(src)
    return None


def last_action(
    view: pyramids.View, events: Sequence[rules.Event], b: pyramids.Board
) -> LastAction:
    """Collect arrows and marks from the public events (private ones are ignored)."""
    out = LastAction()
    seen: set[tuple[str, str, str]] = set()

    def arrow(kind: str, seat: int, src: str, dst: str) -> None:
        a, c = _anchor(b, src), _anchor(b, dst)
        if a is None or c is None or (kind, src, dst) in seen:
            return
        if not 0 <= seat < len(view.seats):
            return
        seen.add((kind, src, dst))
        if kind == "sea":
            via = sea_route(view.board_id, src, dst)
        else:
            via = land_route(view.board_id, src, dst)
        colour = palette.side_colour(pyramid.side_of(view, seat))
        exits = _exits(view.board_id, src, dst)
        out.arrows.append(Arrow(kind, colour, a, c, exits is not None, exits, via))
        if kind == "attack":
            out.attacked.add(dst)

    attacks: set[tuple[str, str]] = set()
    public = [e for e in events if e.to is None]
    for e in public:
        if e.kind == "attack_declared":
            attacks.add((e.data["src"], e.data["dst"]))
    if view.battle is not None:
        attacks.add((view.battle.src, view.battle.dst))
        arrow("attack", view.battle.attacker, view.battle.src, view.battle.dst)
    for e in public:
        d = e.data
        try:
            if e.kind == "moved":
                arrow("sea" if d.get("by_sea") else "move", d["seat"], d["src"], d["dst"])
            elif e.kind == "attack_declared" or (
                e.kind == "moved_in" and (d["src"], d["dst"]) not in attacks
            ):
                arrow("attack", d["seat"], d["src"], d["dst"])
            elif e.kind == "retreated":
                arrow("retreat", d["seat"], d["src"], d["dst"])
            elif e.kind in ("placed", "conscripted", "grew", "built"):
                out.glows.add(d["field"])
            elif e.kind == "shrunk":
                out.shrunk[d["field"]] = (d["seat"], d["from_size"], d["to_size"])
            elif e.kind == "destroyed":
                out.destroyed[d["field"]] = (d["seat"], d["size"])
            elif e.kind == "sabotage":
                out.sabotaged.add(d["field"])
        except (KeyError, TypeError):
            continue  # an event of an unexpected shape draws nothing
    return out


BANNER_HEIGHT = 70
BANNER_WIDTHS = (360, 440, 520, 600)
"""The banner is as wide as its text needs, in a few steps (for cached placements)."""
_BANNER_STEP = 8


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _banner_candidates(board_id: str, width: int) -> tuple[tuple[float, int, int], ...]:
    """Every banner spot with the area of labels and harbours it covers, best first (the
    labels of the current language)."""
    return _banner_spots(board_id, width, i18n.current())


@lru_cache(maxsize=32)
def _banner_spots(board_id: str, width: int, locale: str) -> tuple[tuple[float, int, int], ...]:
    labels = [lab.box for lab in name_labels(board_id)] + fixed_label_boxes(board_id)
    out = []
    for left in range(layout.MAP_BOX[0] + 8, layout.MAP_BOX[2] - width - 7, _BANNER_STEP * 2):
        for top in range(
            layout.MAP_BOX[1] + 8, layout.MAP_BOX[3] - BANNER_HEIGHT - 7, _BANNER_STEP
        ):
            box = (left, top, left + width, top + BANNER_HEIGHT)
            centre = abs(left + width / 2 - layout.MAP_WIDTH / 2)
            cost = sum(_overlap(box, lab) for lab in labels) + top * 0.05 + centre * 0.02
            out.append((cost, left, top))
    return tuple(sorted(out))


def banner_box(view: pyramids.View, b: pyramids.Board, width: int) -> tuple[int, int, int, int]:
    """Where the game-over banner goes: the spot on the map covering the fewest pieces,
    then the fewest labels and harbour symbols (near the top centre first)."""
    pieces = [layout.piece_box(b.fields[f].x, b.fields[f].y) for f in view.pieces if f in b.fields]
    best: tuple[float, int, int] | None = None
    for cost, left, top in _banner_candidates(view.board_id, width):
        if best is not None and cost >= best[0]:
            break  # candidates are sorted: none later can do better
        box = (left, top, left + width, top + BANNER_HEIGHT)
        total = cost + 20 * sum(_overlap(box, p) for p in pieces)
        if best is None or total < best[0]:
            best = (total, left, top)
    assert best is not None
    _cost, left, top = best
    return (left, top, left + width, top + BANNER_HEIGHT)


def _draw_banner(
    canvas: Image.Image, view: pyramids.View, names: Sequence[str], b: pyramids.Board
) -> tuple[int, int, int, int]:
    """The game-over banner, on the emptiest part of the map; returns its box."""
    victory = not view.draw and bool(view.winners)
    title = _("VICTORY") if victory else _("DRAW")
    if victory:
        levels = name_levels([display_name(names, s) for s in range(len(view.seats))])
        lines = tuple(dict.fromkeys(winners_text(view, level) for level in levels))
    else:
        reason = end_reason(view)
        lines = (reason[:1].upper() + reason[1:] if reason else _("Nobody wins"),)
    winners = list(view.winners)[:6] if victory else []
    icons = 26 * len(winners) + (8 if winners else 0)
    need = font(17, bold=True).getlength(lines[0]) + icons + 56
    width = next((w for w in BANNER_WIDTHS if w >= need), BANNER_WIDTHS[-1])
    left, top, _right, _bottom = banner_box(view, b, width)
    shapes.paste(
        canvas,
        shapes.rounded(
            width, BANNER_HEIGHT, 14, palette.PANEL_BACKGROUND, palette.GOLD, 3, alpha=235
        ),
        (left, top),
    )
    put(
        canvas,
        (left + width / 2, top + 24),
        "\u200a".join(title),
        font(24, bold=True),
        palette.GOLD,
        "mm",
    )
    text, sub = fit_text(lines, width - 48 - icons, (17, 16, 15), bold=True)
    x = left + (width - sub.getlength(text) - icons) / 2
    for seat in winners:
        pyramid.paste(canvas, pyramid.side_of(view, seat), 3, (x + 12, top + 48), scale=0.42)
        x += 26
    if winners:
        x += 8
    put(canvas, (x, top + 56), text, sub, palette.PANEL_TEXT, "ls")
    return (left, top, left + width, top + BANNER_HEIGHT)


def _restore_names(
    canvas: Image.Image, board_id: str, arcade: bool, drawn: Sequence[tuple[int, int, int, int]]
) -> None:
    """Put field names and edge tags back over the arrows drawn in the ``drawn`` boxes
    (they stay readable; the arrow seems to pass under them). Pieces are drawn after."""
    static = static_board(board_id, arcade)
    tags = [t.box for e in edge_links(board_id, arcade) for t in (e.west_tag, e.east_tag)]
    for label in [lab.box for lab in name_labels(board_id)] + tags:
        box = (
            math.floor(label[0]),
            math.floor(label[1]),
            math.ceil(label[2]),
            math.ceil(label[3]),
        )
        if any(_overlap(box, d) for d in drawn):
            canvas.paste(static.crop(box), box)


def use_arcade(view: pyramids.View, pyramid_arcade: bool | None) -> bool:
    """Whether to draw the Pyramid Arcade printing: as asked, else as the game's options
    say; never for a board that has no such printing (European War)."""
    wanted = view.options.get("pyramid_arcade") if pyramid_arcade is None else pyramid_arcade
    return bool(wanted) and has_arcade_variant(view.board_id)


Box = tuple[int, int, int, int]
"""A pixel box (left, top, right, bottom), right and bottom exclusive."""


@dataclass
class Drawn:
    """A board drawn over its static layer, with what the encoder needs to know.

    ``canvas`` equals the static layer outside the ``dirty`` boxes. With
    ``lone_pieces``, the pieces in ``lone`` are *not* on the canvas: nothing else drawn
    touches their boxes, so each is the same patch over the static layer every time
    (the encoder pastes it from a cache, see :mod:`render.compose`).
    """

    canvas: Image.Image
    dirty: list[Box] = field(default_factory=list)
    lone: list[tuple[str, str, int, Box]] = field(default_factory=list)
    """(field, side, size, box) of each piece left off the canvas."""


def _sprite_box(sprite: Image.Image, centre: tuple[float, float]) -> Box:
    """Where ``marks.paste_centred`` / ``pyramid.paste`` put ``sprite`` (same rounding)."""
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    return (x, y, x + sprite.width, y + sprite.height)


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(box: Box) -> bool:
    return (
        box[0] >= layout.MAP_BOX[0]
        and box[1] >= layout.MAP_BOX[1]
        and box[2] <= layout.MAP_BOX[2]
        and box[3] <= layout.MAP_BOX[3]
    )


def board_image(
    view: pyramids.View,
    names: Sequence[str],
    events: Sequence[rules.Event] = (),
    *,
    pyramid_arcade: bool | None = None,
) -> Image.Image:
    """Draw the board of ``view`` as an RGB image of ``layout.BOARD_SIZE``.

    Only public data is used: pieces, seats, decisions, battle, counts, the last roll,
    and the public ``events`` of the last action.
    """
    return draw_board(view, names, events, use_arcade(view, pyramid_arcade)).canvas


def draw_board(
    view: pyramids.View,
    names: Sequence[str],
    events: Sequence[rules.Event],
    arcade: bool,
    *,
    lone_pieces: bool = False,
    element: Element | None = None,
    canvas: Image.Image | None = None,
) -> Drawn:
    """Draw the board (see :func:`board_image`) and say where it differs from the static
    layer; with ``lone_pieces``, leave pieces that nothing else touches off the canvas.
    With ``element``, the side panel's parts go through it (see :func:`draw_panel`) and
    the panel is left out of ``dirty``. ``canvas``: an image equal to the static layer to
    draw on (else a copy of the layer is made)."""
    b = pyramids.load_board(view.board_id, arcade)
    if canvas is None:
        canvas = static_board(view.board_id, arcade).copy()
    out = Drawn(canvas)
    act = last_action(view, events, b)
    for fid in sorted(act.glows):
        a = _anchor(b, fid)
        if a is not None and fid in view.pieces:
            out.dirty.append(_sprite_box(marks.glow(), a))
            marks.paste_centred(canvas, marks.glow(), a)
    labels = [lab.box for lab in name_labels(view.board_id)]
    boxes = {
        layout.to_px(b.fields[f].x, b.fields[f].y): layout.piece_box(b.fields[f].x, b.fields[f].y)
        for f in view.pieces
        if f in b.fields
    }
    drawn = []
    for arrow in act.arrows:
        others = [box for at, box in boxes.items() if at not in (arrow.src, arrow.dst)]
        box = draw_arrow(canvas, arrow, layout.MAP_BOX, labels + others)
        if box:
            drawn.append(box)
    out.dirty += drawn
    if drawn:
        _restore_names(canvas, view.board_id, arcade, drawn)
    ghosts: list[tuple[str, int, tuple[float, float]]] = []
    for fid, (seat, from_size, _to) in act.shrunk.items():
        a = _anchor(b, fid)
        if a is not None and 0 <= seat < len(view.seats) and from_size in (1, 2, 3):
            ghosts.append((pyramid.side_of(view, seat), from_size, a))
    for fid, (seat, size) in act.destroyed.items():
        a = _anchor(b, fid)
        if (
            a is not None
            and fid not in view.pieces
            and 0 <= seat < len(view.seats)
            and size in (1, 2, 3)
        ):
            ghosts.append((pyramid.side_of(view, seat), size, a))
    for side, size, a in ghosts:
        out.dirty.append(_sprite_box(pyramid.sprite(side, size, ghost=True), a))
        pyramid.paste(canvas, side, size, a, ghost=True)
    overlays = _marks(view, act, b)
    out.dirty += [_sprite_box(sprite, at) for sprite, at in overlays]
    pieces = []
    for fid in b.field_order:
        piece = view.pieces.get(fid)
        if piece is not None:
            a = _anchor(b, fid)
            assert a is not None
            side = pyramid.side_of(view, piece[0])
            pieces.append((fid, side, piece[1], _sprite_box(pyramid.sprite(side, piece[1]), a), a))
    others_drawn = list(out.dirty)
    for i, (fid, side, size, box, a) in enumerate(pieces):
        if (
            lone_pieces
            and not view.over
            and _inside(box)
            and not any(_meets(box, d) for d in others_drawn)
            and not any(_meets(box, p[3]) for j, p in enumerate(pieces) if j != i)
        ):
            out.lone.append((fid, side, size, box))
            continue
        out.dirty.append(box)
        pyramid.paste(canvas, side, size, a)
    for sprite, at in overlays:
        marks.paste_centred(canvas, sprite, at)
    if view.over:
        out.dirty.append(_draw_banner(canvas, view, names, b))
    draw_panel(canvas, view, names, events, element)
    if element is None:
        out.dirty.append(layout.PANEL_BOX)
    return out


def _marks(
    view: pyramids.View, act: LastAction, b: pyramids.Board
) -> list[tuple[Image.Image, tuple[float, float]]]:
    """The loss, sabotage and attack marks over the pieces: (sprite, centre), in order."""
    out = []
    for fid in act.shrunk:
        a = _anchor(b, fid)
        if a is not None:
            _seat, from_size, to_size = act.shrunk[fid]
            out.append(
                (marks.badge(f"−{from_size - to_size}", palette.ALERT), marks.corner(a, "tr"))
            )
    for fid in act.destroyed:
        a = _anchor(b, fid)
        if a is None:
            continue
        if fid in view.pieces:
            out.append((marks.badge("✕", palette.ALERT), marks.corner(a, "tr")))
        else:
            out.append((marks.cross(), a))
    for fid in sorted(act.sabotaged):
        a = _anchor(b, fid)
        if a is not None:
            out.append((marks.badge("J", palette.FIGURE_BANDS[11]), marks.corner(a, "tl")))
    for fid in sorted(act.attacked - act.sabotaged):
        a = _anchor(b, fid)
        if a is not None:
            out.append((marks.badge("⚔", palette.PANEL_BACKGROUND), marks.corner(a, "tl")))
    return out


def summary(view: pyramids.View, names: Sequence[str], limit: int = 1024) -> str:
    """A plain-text description of the board for screen readers (at most ``limit`` chars).

    Whose turn (or the result), then each occupied field with its piece, then per
    seat: power, hand size (European War), eliminated (World War 5). Names are cut to
    32 characters.
    """
    b = pyramids.load_board(view.board_id)
    short = [short_name(names, s) for s in range(len(view.seats))]
    st = status(view, short)
    title = TITLES.get(view.variant, b.name)
    opening = (
        _("{game}, setup. {headline}: {detail}.")
        if view.phase == "setup"
        else _("{game}, turn {turn}. {headline}: {detail}.")
    )
    parts = [opening.format(game=title, turn=view.turn, headline=st.headline, detail=st.detail)]
    occupied = []
    for fid in b.field_order:
        piece = view.pieces.get(fid)
        if piece is not None:
            seat, size = piece
            label = size_label(size) if size in (1, 2, 3) else "?"
            occupied.append(
                _("{field}: {player} {size}").format(
                    field=b.fields[fid].name, player=short_name(short, seat), size=label
                )
            )
    parts.append(
        _("Pieces: {pieces}.").format(pieces="; ".join(occupied))
        if occupied
        else _("Pieces: none.")
    )
    players = []
    for sv in view.seats:
        bits = [sv.power_name]
        if view.variant == "european_war":
            bits.append(n_("{n} card", "{n} cards", sv.hand_size).format(n=sv.hand_size))
        if sv.eliminated:
            bits.append(_("eliminated"))
        players.append(
            _("{name} ({power})").format(name=short_name(short, sv.seat), power=", ".join(bits))
        )
    parts.append(_("Players: {players}.").format(players="; ".join(players)))
    if view.variant == "european_war":
        parts.append(
            _("Draw pile {pile}, discard {discard}.").format(
                pile=view.pile_size, discard=len(view.discard)
            )
        )
    text = " ".join(parts)
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text
