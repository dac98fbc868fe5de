"""The board image's side panel: turn, what is being decided, the seats, deck or dice.

Drawn from the public part of a view only: seat names, powers, colours, hand sizes,
supplies, open decisions, draw-pile and discard counts (European War), the last battle's
dice (World War 5). Layout, top to bottom: title and turn number; a status box (what
the game waits for); one row per seat in play order; a footer (deck, or dice).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image, ImageDraw

import rules
from render import shapes
from render.fonts import font
from render.text import display_name, fit, put, put_words, width, wrap
from rules import pyramids

from . import layout, palette, pyramid
from .status import TITLES, seat_tag, status

LEFT = layout.PANEL_BOX[0] + 16
RIGHT = layout.PANEL_BOX[2] - 14
WIDTH = RIGHT - LEFT
BOTTOM = layout.PANEL_BOX[3] - 12

STATUS_TOP = 74
STATUS_HEIGHT = 78
ROWS_TOP = STATUS_TOP + STATUS_HEIGHT + 12
ROW_GAP = 6
ROW_HEIGHT: dict[str, int] = {"european_war": 84, "world_war_5": 62}
SUPPLY_SCALE = 0.38
SUPPLY_GAP = 5
BOX_LEFT = layout.PANEL_BOX[0] + 2
"""Left edge of every element's box (the panel's edge strip is left of it)."""

Element = Callable[
    [Image.Image, tuple[Any, ...], tuple[int, int, int, int], Callable[[], None]], None
]
"""``element(canvas, key, box, draw)``: ``draw()`` draws one part of the panel on
``canvas``, whose pixels all lie in ``box`` (over the plain panel background) and depend
only on ``key``; a cache may reuse the pixels it kept for that key instead of calling
``draw``."""


def _element(
    element: Element | None,
    canvas: Image.Image,
    key: tuple[Any, ...],
    box: tuple[int, int, int, int],
    draw: Callable[[], None],
) -> None:
    if element is None:
        draw()
    else:
        element(canvas, key, box, draw)


TAG_COLOURS: dict[str, tuple[palette.RGB, palette.RGB]] = {
    "winner": (palette.GOLD, palette.BLACK),
    "eliminated": (palette.PANEL_FAINT, palette.WHITE),
    "to play": (palette.GOLD, palette.BLACK),
    "placing": (palette.GOLD, palette.BLACK),
    "duel": (palette.ALERT, palette.WHITE),
    "retreat": (palette.ALERT, palette.WHITE),
    "diplomacy": (palette.hex_rgb("#4f7fd1"), palette.WHITE),
}
"""Pill colours (background, text) per seat tag."""


def _spaced(text: str) -> str:
    return "\u200a".join(text)


def _pill(
    canvas: Image.Image,
    text: str,
    right: float,
    top: float,
    fill: palette.RGB,
    ink: palette.RGB,
) -> float:
    """A tag pill whose right edge is ``right``; returns its left edge."""
    f = font(11, bold=True)
    w = round(width(text, f)) + 14
    left = right - w
    shapes.paste(canvas, shapes.rounded(w, 18, 9, fill), (left, top))
    put(canvas, (left + w / 2, top + 9.5), text, f, ink, "mm")
    return left


def _card_icon(canvas: Image.Image, xy: tuple[float, float], w: int = 14, h: int = 19) -> None:
    shapes.paste(canvas, shapes.rounded(w, h, 3, palette.CARD_FACE, palette.CARD_EDGE), xy)


def _header_key(view: pyramids.View) -> tuple[str, str, str]:
    title = TITLES.get(view.variant, view.variant.replace("_", " ").title())
    if view.phase == "setup":
        big, small = "Setup", ""
    else:
        big = f"Turn {view.turn}"
        small = f"round {view.round}" + (f" of {view.round_limit}" if view.round_limit else "")
    return (_spaced(title.upper()), big, small)


def _header(canvas: Image.Image, title: str, big: str, small: str) -> None:
    put(canvas, (LEFT, 16), title, font(12, bold=True), palette.PANEL_MUTED)
    put(canvas, (LEFT, 60), big, font(26, bold=True), palette.PANEL_TEXT, "ls")
    if small:
        put(canvas, (RIGHT, 60), small, font(13), palette.PANEL_MUTED, "rs")


def _status_key(
    view: pyramids.View, names: Sequence[str]
) -> tuple[palette.RGB, palette.RGB, str, tuple[str, ...]]:
    """(accent, headline colour, headline, detail lines) of the status box."""
    st = status(view, names)
    accent = (
        palette.GOLD
        if view.over or st.seat is None
        else palette.side_colour(pyramid.side_of(view, st.seat)).fill
    )
    x = LEFT + 22
    headline = fit(st.headline, RIGHT - x - 10, font(18, bold=True))
    lines = tuple(wrap(st.detail, RIGHT - x - 10, font(13), 2))
    return (accent, palette.GOLD if view.over else palette.PANEL_TEXT, headline, lines)


def _status_box(
    canvas: Image.Image,
    accent: palette.RGB,
    head_colour: palette.RGB,
    headline: str,
    lines: tuple[str, ...],
) -> None:
    shapes.paste(
        canvas, shapes.rounded(WIDTH, STATUS_HEIGHT, 8, palette.PANEL_CARD), (LEFT, STATUS_TOP)
    )
    shapes.paste(
        canvas, shapes.rounded(5, STATUS_HEIGHT - 16, 2, accent), (LEFT + 8, STATUS_TOP + 8)
    )
    x = LEFT + 22
    put(canvas, (x, STATUS_TOP + 10), headline, font(18, bold=True), head_colour)
    detail_font = font(13)
    for i, line in enumerate(lines):
        put_words(canvas, (x, STATUS_TOP + 38 + i * 17), line, detail_font, palette.PANEL_MUTED)


def _supply(
    canvas: Image.Image,
    side: str,
    supply: tuple[int, int, int],
    x: float,
    base: float,
    dim: bool,
) -> float:
    """Three mini pyramids (small, medium, large), each followed by its count in supply.

    ``base`` is the pyramids' (and the counts') baseline; returns the right end.
    """
    f = font(13, bold=True)
    ink = palette.PANEL_FAINT if dim else palette.PANEL_TEXT
    scale = SUPPLY_SCALE
    for size, count in zip((1, 2, 3), supply, strict=True):
        sp = pyramid.sprite(side, size, scale, ghost=not count)
        top = base - pyramid.BASE_Y * scale
        sx = x - sp.width / 2 + pyramid.PYRAMID_SIZE[size][0] * scale / 2
        canvas.paste(sp, (round(sx), round(top)), sp)
        x += pyramid.PYRAMID_SIZE[size][0] * scale + 2
        put(canvas, (x, base), f"×{count}", f, ink if count else palette.PANEL_FAINT, "ls")
        x += width("×0", f) + SUPPLY_GAP
    return x - SUPPLY_GAP


def supply_width() -> float:
    """Width of the supply group drawn by :func:`_supply`."""
    f = font(13, bold=True)
    return (
        sum(
            pyramid.PYRAMID_SIZE[z][0] * SUPPLY_SCALE + 2 + width("×0", f) + SUPPLY_GAP
            for z in (1, 2, 3)
        )
        - SUPPLY_GAP
    )


def _seat_key(
    view: pyramids.View, names: Sequence[str], seat: int, top: int, height: int
) -> tuple[Any, ...]:
    """Everything a seat row shows (the arguments of :func:`_seat_row` after the canvas)."""
    sv = view.seats[seat]
    cards = view.variant == "european_war"
    foe = display_name(names, sv.arch_enemy) if cards and len(view.seats) > 1 else None
    own = display_name(names, seat)
    return (seat, sv, cards, seat_tag(view, seat), view.over, own, foe, top, height)


def _seat_row(
    canvas: Image.Image,
    seat: int,
    sv: pyramids.SeatView,
    cards: bool,
    tag: str | None,
    over: bool,
    own_name: str,
    foe: str | None,
    top: int,
    height: int,
) -> None:
    """One seat: its piece as a colour key, name, power, tag, supply (and cards, foe)."""
    draw = ImageDraw.Draw(canvas)
    active = tag == "winner" or (not over and tag in ("to play", "placing", "duel", "retreat"))
    dim = sv.eliminated or (over and tag != "winner")
    bg = palette.PANEL_CARD_ACTIVE if active else palette.PANEL_CARD
    shapes.paste(canvas, shapes.rounded(WIDTH, height, 8, bg), (LEFT, top))
    if active:
        shapes.paste(canvas, shapes.rounded(4, height - 16, 2, palette.GOLD), (LEFT + 3, top + 8))
    key_scale = 0.62 if height >= 70 else 0.52
    sp = pyramid.sprite(sv.power, 3, key_scale)
    canvas.paste(sp, (LEFT + 10, round(top + height / 2 - sp.height / 2) + 1), sp)
    x = LEFT + 54
    text_right = RIGHT - 10
    ink = palette.PANEL_FAINT if sv.eliminated else palette.PANEL_TEXT
    name_font = font(17, bold=True)
    line1 = top + 25
    line2 = top + (46 if cards else 48)
    right1: float = text_right
    if cards:
        count = str(sv.hand_size)
        hf = font(16, bold=True)
        hand_w = width(count, hf) + 20
        _card_icon(canvas, (text_right - hand_w, line1 - 16))
        put(canvas, (text_right, line1), count, hf, ink, "rs")
        right1 = text_right - hand_w - 8
    tag_right: float = text_right
    if tag:
        bg_ink = TAG_COLOURS.get(tag, (palette.PANEL_FAINT, palette.WHITE))
        label = "★ winner" if tag == "winner" else tag
        if cards:
            tag_right = _pill(canvas, label, text_right, line2 - 14, *bg_ink) - 6
        else:
            right1 = _pill(canvas, label, text_right, line1 - 15, *bg_ink) - 6
    name = fit(own_name, right1 - x, name_font)
    put(canvas, (x, line1), name, name_font, ink, "ls")
    if sv.eliminated:
        w = width(name, name_font)
        draw.line([(x, line1 - 6), (x + w, line1 - 6)], fill=palette.PANEL_MUTED, width=2)
    fam = palette.family_for(sv.power)
    power_colour = palette.PANEL_FAINT if dim else palette.on_dark(fam.base)
    pf = font(13)
    if cards:
        put(canvas, (x, line2), fit(sv.power_name, tag_right - x, pf), pf, power_colour, "ls")
        line3 = top + height - 12
        end = _supply(canvas, sv.power, sv.supply, x, line3, dim)
        if foe is not None:
            ff = font(12)
            label = fit(f"foe: {foe}", text_right - end - 10, ff)
            if len(label) > 6:
                put(canvas, (text_right, line3), label, ff, palette.PANEL_MUTED, "rs")
    else:
        sx = text_right - supply_width()
        put(canvas, (x, line2), fit(sv.power_name, sx - x - 8, pf), pf, power_colour, "ls")
        _supply(canvas, sv.power, sv.supply, sx, line2, dim)


DECK_HEIGHT = 62
DICE_HEIGHT = 128


def _deck_key(view: pyramids.View) -> tuple[int, int, int | None]:
    return (view.pile_size, len(view.discard), view.discard[-1] if view.discard else None)


def _deck_footer(canvas: Image.Image, pile: int, discards: int, top_card: int | None) -> None:
    height = DECK_HEIGHT
    top = BOTTOM - height
    half = (WIDTH - 8) // 2
    big = font(22, bold=True)
    small = font(12)
    for i, (label, count) in enumerate((("draw pile", pile), ("discard", discards))):
        x = LEFT + i * (half + 8)
        shapes.paste(canvas, shapes.rounded(half, height, 8, palette.PANEL_CARD), (x, top))
        # a little stack of cards
        for k in range(3 if count else 1):
            _card_icon(canvas, (x + 12 + k * 3, top + 14 - k * 2), 24, 34)
        if i == 0 and count:
            shapes.paste(
                canvas, shapes.rounded(18, 28, 3, palette.hex_rgb("#3d5a99")), (x + 21, top + 13)
            )
        if i == 1 and top_card is not None:
            red = pyramids.cards.suit(top_card) in (1, 2)
            put(
                canvas,
                (x + 30, top + 24),
                pyramids.cards.card_name(top_card),
                font(11, bold=True),
                palette.CARD_RED if red else palette.CARD_BLACK,
                "mm",
            )
        put(canvas, (x + 52, top + 33), str(count), big, palette.PANEL_TEXT, "ls")
        put(canvas, (x + 52, top + 50), label, small, palette.PANEL_MUTED, "ls")


Side = tuple[str, tuple[int, ...], str]
"""One side of the last battle: the seat's side (power), dice, display name."""


def _dice_key(view: pyramids.View, names: Sequence[str]) -> tuple[bool, Side, Side] | None:
    """The last battle as the dice footer shows it (``None``: no battle yet)."""
    roll = view.last_roll
    if not roll:
        return None
    sides = []
    for side in ("attacker", "defender"):
        seat = int(roll[side])
        dice = tuple(int(v) for v in roll.get(f"{side}_dice", []))
        sides.append((pyramid.side_of(view, seat), dice, display_name(names, seat)))
    return (bool(roll.get("attacker_won")), sides[0], sides[1])


def _titled_card(canvas: Image.Image, top: int, height: int, title: str) -> None:
    """A panel card ``height`` pixels high at ``top``, headed by ``title`` in small caps."""
    shapes.paste(canvas, shapes.rounded(WIDTH, height, 8, palette.PANEL_CARD), (LEFT, top))
    put(canvas, (LEFT + 12, top + 10), _spaced(title), font(11, bold=True), palette.PANEL_MUTED)


def _dice_footer(canvas: Image.Image, battle: tuple[bool, Side, Side] | None) -> None:
    height = DICE_HEIGHT
    top = BOTTOM - height
    _titled_card(canvas, top, height, "LAST BATTLE")
    if battle is None:
        put(canvas, (LEFT + 12, top + 50), "No battle yet", font(14), palette.PANEL_FAINT)
        return
    won, attacker, defender = battle
    y = top + 32
    for role, (side, dice, name) in (("attacker", attacker), ("defender", defender)):
        sp = pyramid.sprite(side, max(1, min(3, len(dice) or 1)), 0.42)
        canvas.paste(sp, (LEFT + 6, y - 6), sp)
        x = LEFT + 40
        for v in dice:
            shapes.paste(
                canvas,
                shapes.die(v, 24, palette.DIE_FACE, palette.DIE_PIP, palette.CARD_EDGE),
                (x, y),
            )
            x += 28
        total = sum(dice)
        put(
            canvas,
            (LEFT + 136, y + 18),
            f"= {total}",
            font(16, bold=True),
            palette.PANEL_TEXT,
            "ls",
        )
        nf = font(12)
        who = fit(f"{name} ({role})", RIGHT - (LEFT + 186) - 6, nf)
        put(canvas, (LEFT + 186, y + 17), who, nf, palette.PANEL_MUTED, "ls")
        y += 32
    verdict = "Attacker wins" if won else "Defence holds"
    put(
        canvas,
        (LEFT + 12, top + height - 12),
        verdict,
        font(14, bold=True),
        palette.GOLD if won else palette.PANEL_TEXT,
        "ls",
    )


SKIPPED_EVENTS = frozenset({"turn_start", "let_pass", "setup_done"})
"""Events the last-action box leaves out (the status box already says whose turn it is)."""


def last_action_lines(
    view: pyramids.View, names: Sequence[str], events: Sequence[rules.Event]
) -> list[str]:
    """The public events of the last action in words (``pyramids.describe``, channel view)."""
    from rules.pyramids.describe import describe_all

    shown = [e for e in events if e.to is None and e.kind not in SKIPPED_EVENTS]
    if not shown:
        return []
    clean_names = [display_name(names, s) for s in range(len(view.seats))]
    try:
        return describe_all(shown, pyramids.load_board(view.board_id), clean_names, None)
    except (KeyError, IndexError, TypeError):
        return []  # an event of an unexpected shape: say nothing rather than fail


LINE_HEIGHT = 17


def _last_action_key(
    view: pyramids.View, names: Sequence[str], events: Sequence[rules.Event], top: int, bottom: int
) -> tuple[str, ...]:
    """The lines of the last-action box that fit between ``top`` and ``bottom`` (none:
    no box)."""
    sentences = last_action_lines(view, names, events)
    if not sentences or bottom - top < 30 + 2 * LINE_HEIGHT:
        return ()
    f = font(13)
    text_width = WIDTH - 24
    room = (bottom - top - 36) // LINE_HEIGHT
    lines: list[str] = []
    for sentence in sentences:
        lines += wrap(sentence, text_width, f, 99)
    if len(lines) > room:
        lines = lines[:room]
        lines[-1] = fit(lines[-1] + " …", text_width, f)
    return tuple(lines)


def _last_action_box(canvas: Image.Image, lines: tuple[str, ...], top: int) -> None:
    f = font(13)
    height = 36 + len(lines) * LINE_HEIGHT
    _titled_card(canvas, top, height, "LAST ACTION")
    for i, line in enumerate(lines):
        put_words(canvas, (LEFT + 12, top + 30 + i * LINE_HEIGHT), line, f, palette.PANEL_TEXT)


def draw_panel(
    canvas: Image.Image,
    view: pyramids.View,
    names: Sequence[str],
    events: Sequence[rules.Event] = (),
    element: Element | None = None,
) -> None:
    """Draw the side panel of ``view`` onto the board image ``canvas`` (in place).

    ``events`` (the last action's) are described in words when there is room; only
    public ones are used. With ``element``, each part of the panel (header, status box,
    seat rows, last action, footer) goes through it with its key and box (see
    :data:`Element`); nothing else is drawn on the panel.
    """
    right = layout.PANEL_BOX[2]
    header = _header_key(view)
    _element(
        element,
        canvas,
        ("header", *header),
        (BOX_LEFT, 0, right, STATUS_TOP),
        lambda: _header(canvas, *header),
    )
    st = _status_key(view, names)
    _element(
        element,
        canvas,
        ("status", *st),
        (BOX_LEFT, STATUS_TOP, right, STATUS_TOP + STATUS_HEIGHT),
        lambda: _status_box(canvas, *st),
    )
    height = ROW_HEIGHT.get(view.variant, 84)
    footer = DECK_HEIGHT if view.variant == "european_war" else DICE_HEIGHT
    n = len(view.seats)
    room = BOTTOM - footer - 12 - ROWS_TOP
    if n:
        height = min(height, (room - ROW_GAP * (n - 1)) // n)
    for seat in range(n):
        top = ROWS_TOP + seat * (height + ROW_GAP)
        row = _seat_key(view, names, seat, top, height)
        _element(
            element,
            canvas,
            ("seat", *row),
            (BOX_LEFT, top, right, top + height),
            lambda row=row: _seat_row(canvas, *row),  # type: ignore[misc]
        )
    rows_end = ROWS_TOP + n * (height + ROW_GAP) + 6
    lines = _last_action_key(view, names, events, rows_end, BOTTOM - footer - 12)
    if lines:
        _element(
            element,
            canvas,
            ("last action", rows_end, *lines),
            (BOX_LEFT, rows_end, right, rows_end + 36 + len(lines) * LINE_HEIGHT),
            lambda: _last_action_box(canvas, lines, rows_end),
        )
    if view.variant == "european_war":
        deck = _deck_key(view)
        _element(
            element,
            canvas,
            ("deck", *deck),
            (BOX_LEFT, BOTTOM - DECK_HEIGHT, right, BOTTOM),
            lambda: _deck_footer(canvas, *deck),
        )
    else:
        battle = _dice_key(view, names)
        _element(
            element,
            canvas,
            ("dice", battle),
            (BOX_LEFT, BOTTOM - DICE_HEIGHT, right, BOTTOM),
            lambda: _dice_footer(canvas, battle),
        )
