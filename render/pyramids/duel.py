"""The duel image: both pieces, the cards played face up, totals, allowance, result.

Attacker on the left, defender on the right. Each side shows its piece (declared size),
its player, one slot per card it may play (EW-16: as many as the piece's pips) filled
with the cards played so far, and its running total. The bar at the bottom says who is
to play, or the result once the duel is over (EW-18: the attacker needs strictly more).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

import rules
from render import shapes
from render.fonts import font
from render.text import display_name, fit_name, fit_text, name_levels, put
from rules import pyramids
from rules.pyramids import cards as C

from . import palette, pyramid
from .cards import CARD_HEIGHT, CARD_WIDTH, SHADOW, card_sprite, empty_slot
from .catalogue import _, n_
from .status import field_name, names_of

CARD_LIMIT: dict[int, int] = {1: 1, 2: 2, 3: 3}
"""EW-16: cards a piece may play, by size (as ``pyramids.european_war.CARD_LIMIT``; not
imported from there, because importing that module alone leaves World War 5
unregistered in ``pyramids.variant``)."""

SIZE: tuple[int, int] = (1000, 560)
COLUMN_WIDTH = 452
COLUMNS: tuple[int, int] = (24, SIZE[0] - 24 - COLUMN_WIDTH)
CARDS_TOP = 196
SLOT_STEP = CARD_WIDTH + 12


@dataclass(frozen=True)
class Side:
    """One side of a duel."""

    seat: int
    size: int
    cards: tuple[int, ...]
    limit: int
    done: bool

    @property
    def total(self) -> int:
        """Sum of the duel values of the cards played."""
        return sum(C.duel_value(c) for c in self.cards)


@dataclass(frozen=True)
class Duel:
    """A duel as drawn: both sides, where, the stage, who plays, the result if over."""

    attacker: Side
    defender: Side
    src: str
    dst: str
    stage: str
    to_play: int | None
    waiting_for: tuple[int, ...]
    attacker_won: bool | None


def _sizes(
    view: pyramids.View, data: dict[str, object], events: Sequence[rules.Event]
) -> tuple[int, int]:
    att, dfn = int(data["attacker"]), int(data["defender"])  # type: ignore[call-overload]  # event data is JSON
    src, dst = data["src"], data["dst"]
    b = view.battle
    if b is not None and (b.src, b.dst) == (src, dst):
        return b.attacker_size, b.defender_size
    for e in events:
        if (
            e.to is None
            and e.kind == "attack_declared"
            and (e.data.get("src"), e.data.get("dst")) == (src, dst)
        ):
            return int(e.data["size"]), int(e.data["defender_size"])
    a_piece = view.pieces.get(str(src))
    if a_piece is None or a_piece[0] != att:
        a_piece = view.pieces.get(str(dst))
    d_piece = view.pieces.get(str(dst))
    a_cards = data.get("attacker_cards") or ()
    d_cards = data.get("defender_cards") or ()
    a_size = a_piece[1] if a_piece is not None and a_piece[0] == att else 0
    d_size = d_piece[1] if d_piece is not None and d_piece[0] == dfn else 0
    a_size = max(a_size, len(a_cards), 1)  # type: ignore[arg-type]  # a JSON list
    d_size = max(d_size, len(d_cards), 1)  # type: ignore[arg-type]  # a JSON list
    return min(a_size, 3), min(d_size, 3)


def duel_from(
    view: pyramids.View, result: rules.Event | None = None, events: Sequence[rules.Event] = ()
) -> Duel | None:
    """Gather what to draw: from a ``duel_over`` event if given, else ``view.battle``."""
    if result is not None and result.kind == "duel_over" and result.to is None:
        d = result.data
        a_size, d_size = _sizes(view, d, events)
        a_cards = tuple(int(c) for c in d.get("attacker_cards", ()))
        d_cards = tuple(int(c) for c in d.get("defender_cards", ()))
        return Duel(
            Side(int(d["attacker"]), a_size, a_cards, max(CARD_LIMIT[a_size], len(a_cards)), True),
            Side(int(d["defender"]), d_size, d_cards, max(CARD_LIMIT[d_size], len(d_cards)), True),
            str(d["src"]),
            str(d["dst"]),
            "over",
            None,
            (),
            bool(d["attacker_won"]),
        )
    b = view.battle
    if b is None:
        return None
    return Duel(
        Side(b.attacker, b.attacker_size, b.attacker_cards, b.attacker_limit, b.attacker_done),
        Side(b.defender, b.defender_size, b.defender_cards, b.defender_limit, b.defender_done),
        b.src,
        b.dst,
        b.stage,
        b.to_play,
        b.waiting_for,
        None,
    )


def _side_state(duel: Duel, side: Side) -> str:
    if duel.stage == "over":
        played = len(side.cards)
        return n_("{n} card played", "{n} cards played", played).format(n=played)
    if duel.stage == "diplomacy":
        return _("waiting for diplomacy")
    if duel.stage == "retreat":
        return _("duel over")
    left = side.limit - len(side.cards)
    if duel.to_play == side.seat:
        return n_(
            "to play · {n} more card allowed", "to play · {n} more cards allowed", left
        ).format(n=left)
    if side.done:
        return _("stopped")
    if left <= 0:
        return _("all cards played")
    return n_("{n} more card allowed", "{n} more cards allowed", left).format(n=left)


def _piece_words(size: int, attacker: bool, field: str) -> str:
    """ "medium piece from France + Benelux", "large piece holding Italy"."""
    if attacker:
        words = {
            1: _("small piece from {field}"),
            2: _("medium piece from {field}"),
            3: _("large piece from {field}"),
        }
    else:
        words = {
            1: _("small piece holding {field}"),
            2: _("medium piece holding {field}"),
            3: _("large piece holding {field}"),
        }
    return words[size].format(field=field)


def _column(
    img: Image.Image,
    view: pyramids.View,
    names: Sequence[str],
    duel: Duel,
    side: Side,
    attacker: bool,
) -> None:
    x0 = COLUMNS[0] if attacker else COLUMNS[1]
    won = (
        duel.attacker_won
        if attacker
        else (None if duel.attacker_won is None else not duel.attacker_won)
    )
    outline = palette.GOLD if won else None
    box = shapes.rounded(COLUMN_WIDTH, 388, 12, palette.PANEL_CARD, outline, 3 if won else 1)
    shapes.paste(img, box, (x0, 76))
    power = pyramid.side_of(view, side.seat)
    colour = palette.side_colour(power)
    pyramid.paste(img, power, side.size, (x0 + 52, 130), scale=1.25)
    tx = x0 + 104
    role = _("ATTACKER") if attacker else _("DEFENDER")
    put(
        img,
        (tx, 98),
        "\u200a".join(role),
        font(12, bold=True),
        palette.on_dark(colour.fill) if max(colour.fill) > 60 else palette.PANEL_MUTED,
    )
    name, nf = fit_name(
        display_name(names, side.seat), x0 + COLUMN_WIDTH - tx - 14, NAME_SIZES, bold=True
    )
    put(img, (tx, 132), name, nf, palette.PANEL_TEXT, "ls")
    where = field_name(view, duel.src if attacker else duel.dst)
    words = _piece_words(side.size, attacker, where)
    text, sub = fit_text((words,), x0 + COLUMN_WIDTH - tx - 14, (14, 13, 12))
    put(img, (tx, 156), text, sub, palette.PANEL_MUTED, "ls")
    put(
        img,
        (tx, 176),
        n_("up to {n} card", "up to {n} cards", side.limit).format(n=side.limit),
        font(13),
        palette.PANEL_FAINT,
        "ls",
    )
    slots = max(side.limit, len(side.cards))
    row_w = slots * CARD_WIDTH + (slots - 1) * 12
    left = x0 + (COLUMN_WIDTH - row_w) / 2
    for i in range(slots):
        x = round(left + i * SLOT_STEP)
        sp = (
            card_sprite(side.cards[i])
            if i < len(side.cards)
            else empty_slot(_("stopped") if side.done and duel.stage == "duel" else "")
        )
        img.paste(sp, (x - SHADOW, CARDS_TOP - SHADOW), sp)
    ty = CARDS_TOP + CARD_HEIGHT + 22
    put(
        img,
        (x0 + COLUMN_WIDTH / 2, ty + 28),
        str(side.total),
        font(44, bold=True),
        palette.GOLD if won else palette.PANEL_TEXT,
        "ms",
    )
    put(
        img,
        (x0 + COLUMN_WIDTH / 2, ty + 50),
        _side_state(duel, side),
        font(14),
        palette.PANEL_MUTED,
        "ms",
    )


NAME_SIZES = (24, 22, 20)
"""Sizes a player's name (bold) and the footer's line may shrink to."""
LINE_SIZES = NAME_SIZES
SUB_SIZES = (15, 14, 13)


def _footer_words(names: Sequence[str], duel: Duel) -> tuple[str, str, bool]:
    """The footer's line and sub-line with these ``names``, and whether it is the result."""
    att, dfn = duel.attacker, duel.defender
    a_name, d_name = display_name(names, att.seat), display_name(names, dfn.seat)
    if duel.stage == "over" or duel.attacker_won is not None:
        if duel.attacker_won:
            return (
                _("{winner} wins {total} to {other}").format(
                    winner=a_name, total=att.total, other=dfn.total
                ),
                _("{loser}'s piece retreats, or shrinks if it cannot").format(loser=d_name),
                True,
            )
        tie = att.total == dfn.total
        sub = (
            _("A tie: the attacker needs strictly more (EW-18); nothing moves")
            if tie
            else _("The attack fails; nothing moves")
        )
        line = _("{defender} holds {total} to {other}").format(
            defender=d_name, total=dfn.total, other=att.total
        )
        return (line, sub, True)
    if duel.stage == "diplomacy":
        line = _("Diplomacy: anyone else may stop the attack with a K")
        sub = (
            _("Waiting for {names}").format(names=names_of(names, duel.waiting_for))
            if duel.waiting_for
            else ""
        )
        return (line, sub, False)
    if duel.stage == "retreat":
        line = _("{winner} won: {loser} chooses where to retreat").format(
            winner=a_name, loser=d_name
        )
        return (line, "", False)
    turn = duel.to_play if duel.to_play is not None else att.seat
    sub = _("Cards are played face up; figures count 4; the attacker needs more to win")
    return (_("{who} to play").format(who=display_name(names, turn)), sub, False)


def _footer(img: Image.Image, names: Sequence[str], duel: Duel) -> None:
    seats = max(duel.attacker.seat, duel.defender.seat, *duel.waiting_for, 0) + 1
    levels = [
        _footer_words(level, duel)
        for level in name_levels([display_name(names, s) for s in range(seats)])
    ]
    over = levels[0][2]
    cx = SIZE[0] / 2
    lines = tuple(dict.fromkeys(w[0] for w in levels))
    line, big = fit_text(lines, SIZE[0] - 60, LINE_SIZES, bold=True)
    put(img, (cx, 506), line, big, palette.GOLD if over else palette.PANEL_TEXT, "ms")
    if levels[0][1]:
        sub, small = fit_text(tuple(dict.fromkeys(w[1] for w in levels)), SIZE[0] - 60, SUB_SIZES)
        put(img, (cx, 534), sub, small, palette.PANEL_MUTED, "ms")


def duel_image(
    view: pyramids.View,
    names: Sequence[str],
    result: rules.Event | None = None,
    *,
    events: Sequence[rules.Event] = (),
) -> Image.Image:
    """Draw the duel of ``view`` (or of the ``duel_over`` event ``result``), RGB ``SIZE``."""
    img = Image.new("RGB", SIZE, palette.PANEL_BACKGROUND)
    duel = duel_from(view, result, events)
    put(img, (24, 22), "\u200a".join(_("DUEL")), font(13, bold=True), palette.PANEL_MUTED)
    if duel is None:
        put(
            img,
            (SIZE[0] / 2, SIZE[1] / 2),
            _("No duel in progress"),
            font(26, bold=True),
            palette.PANEL_MUTED,
            "mm",
        )
        return img
    title = _("{src} attacks {dst}").format(
        src=field_name(view, duel.src), dst=field_name(view, duel.dst)
    )
    text, tf = fit_text((title,), SIZE[0] - 220, (24, 22, 20), bold=True)
    put(img, (24, 58), text, tf, palette.PANEL_TEXT, "ls")
    score = f"{duel.attacker.total} : {duel.defender.total}"
    put(img, (SIZE[0] - 24, 58), score, font(30, bold=True), palette.PANEL_TEXT, "rs")
    _column(img, view, names, duel, duel.attacker, True)
    _column(img, view, names, duel, duel.defender, False)
    put(
        img,
        (SIZE[0] / 2, CARDS_TOP + CARD_HEIGHT / 2),
        _("vs"),
        font(22, bold=True),
        palette.PANEL_FAINT,
        "mm",
    )
    _footer(img, names, duel)
    return img
