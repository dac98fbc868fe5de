"""The board image's side panel: turn, what is being decided, the seats, deck or dice.

Drawn from the public part of a view only: seat names, powers, colours, hand sizes,
supplies, open decisions, draw-pile and discard counts (European War), the last battle's
dice (World War 5). Layout, top to bottom: title and turn number; a status box (what
the game waits for); one row per seat in play order; a footer (deck, or dice).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

import rules
from render import shapes
from render.fonts import font
from render.text import (
    clean,
    clip,
    display_name,
    fit_name,
    fit_text,
    fits,
    label_forms,
    name_forms,
    name_levels,
    paragraph,
    put,
    put_words,
    width,
    wrap_lines,
)
from rules import pyramids
from rules.pyramids.words import short_power_name

from . import layout, palette, pyramid
from .catalogue import _
from .status import TITLES, seat_tag, status, tag_label

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
        big, small = _("Setup"), ""
    else:
        big = _("Turn {turn}").format(turn=view.turn)
        small = (
            _("round {round} of {limit}").format(round=view.round, limit=view.round_limit)
            if view.round_limit
            else _("round {round}").format(round=view.round)
        )
    return (_spaced(title.upper()), big, small)


def _header(canvas: Image.Image, title: str, big: str, small: str) -> None:
    put(canvas, (LEFT, 16), title, font(12, bold=True), palette.PANEL_MUTED)
    put(canvas, (LEFT, 60), big, font(26, bold=True), palette.PANEL_TEXT, "ls")
    if small:
        put(canvas, (RIGHT, 60), small, font(13), palette.PANEL_MUTED, "rs")


STATUS_DETAIL: tuple[tuple[int, int, bool], ...] = ((13, 2, False), (12, 2, False), (11, 3, False))
"""How the status box's detail may be set: (font size, lines, bold), first that fits."""
DETAIL_STEP: dict[int, int] = {13: 17, 12: 16, 11: 14}
"""Line step of the status detail, by font size."""


def seat_names(view: pyramids.View, names: Sequence[str]) -> list[str]:
    """Every seat's display name (cleaned, or "Seat N")."""
    return [display_name(names, s) for s in range(len(view.seats))]


def _status_key(
    view: pyramids.View, names: Sequence[str]
) -> tuple[palette.RGB, palette.RGB, str, int, tuple[str, ...], int]:
    """(accent, headline colour, headline, its size, detail lines, their size) of the
    status box: the names in the longest forms that let each fit."""
    levels = [status(view, level) for level in name_levels(seat_names(view, names))]
    st = levels[0]
    accent = (
        palette.GOLD
        if view.over or st.seat is None
        else palette.side_colour(pyramid.side_of(view, st.seat)).fill
    )
    text_width = RIGHT - (LEFT + 22) - 10
    headlines = tuple(dict.fromkeys(level.headline for level in levels))
    headline, head_font = fit_text(headlines, text_width, (18, 17, 16), bold=True)
    details = tuple(dict.fromkeys(level.detail for level in levels))
    lines, detail_font = paragraph(details, text_width, STATUS_DETAIL)
    return (
        accent,
        palette.GOLD if view.over else palette.PANEL_TEXT,
        headline,
        int(head_font.size),
        lines,
        int(detail_font.size),
    )


def _status_box(
    canvas: Image.Image,
    accent: palette.RGB,
    head_colour: palette.RGB,
    headline: str,
    head_size: int,
    lines: tuple[str, ...],
    detail_size: int,
) -> None:
    shapes.paste(
        canvas, shapes.rounded(WIDTH, STATUS_HEIGHT, 8, palette.PANEL_CARD), (LEFT, STATUS_TOP)
    )
    shapes.paste(
        canvas, shapes.rounded(5, STATUS_HEIGHT - 16, 2, accent), (LEFT + 8, STATUS_TOP + 8)
    )
    x = LEFT + 22
    baseline = STATUS_TOP + 10 + font(18, bold=True).getmetrics()[0]
    put(canvas, (x, baseline), headline, font(head_size, bold=True), head_colour, "ls")
    detail_font = font(detail_size)
    step = DETAIL_STEP.get(detail_size, detail_size + 4)
    first = STATUS_TOP + (38 if len(lines) < 3 else 36)
    for i, line in enumerate(lines):
        put_words(canvas, (x, first + i * step), line, detail_font, palette.PANEL_MUTED)


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
        label = tag_label(tag)
        if cards:
            tag_right = _pill(canvas, label, text_right, line2 - 14, *bg_ink) - 6
        else:
            right1 = _pill(canvas, label, text_right, line1 - 15, *bg_ink) - 6
    name, name_font = fit_name(own_name, right1 - x, NAME_SIZES, bold=True)
    put(canvas, (x, line1), name, name_font, ink, "ls")
    if sv.eliminated:
        w = width(name, name_font)
        draw.line([(x, line1 - 6), (x + w, line1 - 6)], fill=palette.PANEL_MUTED, width=2)
    fam = palette.family_for(sv.power)
    power_colour = palette.PANEL_FAINT if dim else palette.on_dark(fam.base)
    if cards:
        power, pf = fit_text(power_forms(sv), tag_right - x, POWER_SIZES)
        put(canvas, (x, line2), power, pf, power_colour, "ls")
        line3 = top + height - 12
        end = _supply(canvas, sv.power, sv.supply, x, line3, dim)
        if foe is not None:
            label, ff = _foe_label(foe, text_right - end - 10)
            put(canvas, (text_right, line3), label, ff, palette.PANEL_MUTED, "rs")
    else:
        sx = text_right - supply_width()
        power, pf = fit_text(power_forms(sv), sx - x - 8, POWER_SIZES)
        put(canvas, (x, line2), power, pf, power_colour, "ls")
        _supply(canvas, sv.power, sv.supply, sx, line2, dim)


NAME_SIZES = (17, 16, 15, 14)
"""Sizes a seat's name may shrink to before it is abbreviated (bold)."""
POWER_SIZES = (13, 12, 11, 10)
"""Sizes a seat's power may shrink to (each form at every size before the next form)."""


def power_forms(sv: pyramids.SeatView) -> tuple[str, ...]:
    """The forms a seat's power may be drawn in, longest first: its name, without a part
    in brackets, then its short name ("Großbritannien und Verbündete", "Großbritannien")."""
    return tuple(
        dict.fromkeys((*label_forms(sv.power_name), clean(short_power_name(sv.power_name))))
    )


FOE_SIZES = (12, 11)


def foe_label(name: str) -> str:
    """ "foe: " and the arch-enemy's name, in the current language."""
    return _("foe: {name}").format(name=name)


def _foe_label(foe: str, max_width: float) -> tuple[str, ImageFont.FreeTypeFont]:
    """ "foe: " and the arch-enemy's name in the longest form that fits."""
    return _fit_foe(foe, max_width, foe_label(""))


@lru_cache(maxsize=512)
def _fit_foe(foe: str, max_width: float, prefix: str) -> tuple[str, ImageFont.FreeTypeFont]:
    for form in name_forms(foe):
        for size in FOE_SIZES:
            if width(foe_label(form), font(size)) <= max_width:
                return foe_label(form), font(size)
    f = font(FOE_SIZES[-1])
    short, _size = fit_name(foe, max_width - width(prefix, f), FOE_SIZES[-1:])
    return foe_label(short), f


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
    for i, (label, count) in enumerate(((_("draw pile"), pile), (_("discard"), discards))):
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
    _titled_card(canvas, top, height, _("LAST BATTLE"))
    if battle is None:
        put(canvas, (LEFT + 12, top + 50), _("No battle yet"), font(14), palette.PANEL_FAINT)
        return
    won, attacker, defender = battle
    y = top + 32
    for role, (side, dice, name) in ((_("attacker"), attacker), (_("defender"), defender)):
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
        who, nf = fit_name(name, RIGHT - (LEFT + 186) - 6, (12, 11))
        put(canvas, (LEFT + 186, y + 11), who, nf, palette.PANEL_TEXT, "ls")
        put(canvas, (LEFT + 186, y + 24), role, font(10), palette.PANEL_MUTED, "ls")
        y += 32
    verdict = _("Attacker wins") if won else _("Defence holds")
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
    """The public events of the last action in words (``pyramids.describe``, channel
    view), one sentence each, oldest first; ``names`` are used as they are given."""
    from rules.pyramids.describe import describe_all

    shown = [e for e in events if e.to is None and e.kind not in SKIPPED_EVENTS]
    if not shown:
        return []
    clean_names = [display_name(names, s) for s in range(len(view.seats))]
    try:
        return describe_all(shown, pyramids.load_board(view.board_id), clean_names, None)
    except (KeyError, IndexError, TypeError):
        return []  # an event of an unexpected shape: say nothing rather than fail


ACTION_SIZES = (13, 12, 11)
"""Font sizes of the last-action box, largest first."""
ACTION_TOP = 28
"""From the box's top to its first line (the title is above)."""
ACTION_PAD = 6
"""Below the last line."""


def _action_step(size: int) -> int:
    return size + 4


def _last_action_key(
    view: pyramids.View, names: Sequence[str], events: Sequence[rules.Event], top: int, bottom: int
) -> tuple[int, tuple[str, ...]]:
    """The font size and lines of the last-action box between ``top`` and ``bottom``
    (no lines: no box). The events are told oldest first, each sentence from a new line,
    none cut: when they do not all fit, the names take shorter forms, then the font
    shrinks (and the names again), then the oldest whole sentences are left out (the
    newest always stays)."""
    levels = [
        last_action_lines(view, level, events) for level in name_levels(seat_names(view, names))
    ]
    count = len(levels[0])
    smallest = _action_step(ACTION_SIZES[-1])
    if not count or bottom - top < ACTION_TOP + 2 * smallest + ACTION_PAD:
        return (0, ())
    text_width = WIDTH - 24
    wrapped: dict[tuple[int, int], list[list[str]]] = {}

    def lines_of(level: int, size: int) -> list[list[str]]:
        key = (level, size)
        if key not in wrapped:
            f = font(size)
            wrapped[key] = [
                lines if fits(lines, text_width, f) else []
                for lines in (wrap_lines(sentence, text_width, f) for sentence in levels[level])
            ]
        return wrapped[key]

    for dropped in range(count):
        for size in ACTION_SIZES:
            for level in range(len(levels)):
                room = (bottom - top - ACTION_TOP - ACTION_PAD) // _action_step(size)
                kept = lines_of(level, size)[dropped:]
                if all(kept) and sum(len(lines) for lines in kept) <= room:
                    return (size, tuple(line for lines in kept for line in lines))
    # not even the newest sentence fits: its first lines, the last clipped at a word
    size = ACTION_SIZES[-1]
    room = (bottom - top - ACTION_TOP - ACTION_PAD) // _action_step(size)
    f = font(size)
    newest = wrap_lines(levels[-1][-1], text_width, f)
    first = newest[: room - 1] + [" ".join(newest[room - 1 :])]
    return (size, tuple(clip(line, text_width, f) for line in first))


def _action_height(size: int, lines: tuple[str, ...]) -> int:
    return ACTION_TOP + len(lines) * _action_step(size) + ACTION_PAD


def _last_action_box(canvas: Image.Image, size: int, lines: tuple[str, ...], top: int) -> None:
    f = font(size)
    step = _action_step(size)
    _titled_card(canvas, top, _action_height(size, lines), _("LAST ACTION"))
    for i, line in enumerate(lines):
        put_words(canvas, (LEFT + 12, top + ACTION_TOP + i * step), line, f, palette.PANEL_TEXT)


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
    size, lines = _last_action_key(view, names, events, rows_end, BOTTOM - footer - 12)
    if lines:
        _element(
            element,
            canvas,
            ("last action", rows_end, size, *lines),
            (BOX_LEFT, rows_end, right, rows_end + _action_height(size, lines)),
            lambda: _last_action_box(canvas, size, lines, rows_end),
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
