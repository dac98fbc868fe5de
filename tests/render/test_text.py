"""Names and text: glyphs the shipped font lacks are dropped, long text is cut to fit."""

from __future__ import annotations

import random
import string

from PIL import ImageFont

from render.fonts import font
from render.pyramids import status
from render.text import (
    clean,
    display_name,
    fit,
    has_glyph,
    short_name,
    width,
    wrap,
)
from tests.render.helpers import made_up_view


def test_clean_drops_what_the_font_cannot_draw() -> None:
    assert has_glyph("é") and has_glyph("Ж") and has_glyph("♠")
    assert not has_glyph("中")
    assert clean("  Zoë \u4e2d\u6587  the\tGreat\x00 ") == "Zoë the Great"


def test_display_name_falls_back_to_the_seat_number() -> None:
    assert display_name(["Ada", "中文", ""], 0) == "Ada"
    assert display_name(["Ada", "中文", ""], 1) == "Seat 2"
    assert display_name(["Ada", "中文", ""], 2) == "Seat 3"
    assert display_name(["Ada"], 4) == "Seat 5"
    assert short_name(["y" * 80], 0) == "y" * 31 + "…"


def test_fit_cuts_with_an_ellipsis() -> None:
    f = font(17, bold=True)
    assert fit("Ada", 200, f) == "Ada"
    cut = fit("Bartholomew the Magnificent", 100, f)
    assert cut.endswith("…") and f.getlength(cut) <= 100
    assert fit("W" * 50, 1, f) == "…"


def test_wrap_keeps_within_width_and_line_count() -> None:
    f = font(13)
    text = "Dmitri's medium on South Balkans shrank to a small after a long duel."
    lines = wrap(text, 150, f, 3)
    assert 1 < len(lines) <= 3
    assert all(f.getlength(line) <= 150 for line in lines)
    assert " ".join(lines).replace("…", "").split()[0] == "Dmitri's"


def test_status_words() -> None:
    view = made_up_view("european_war", {})
    st = status.status(view, ["Ada", "Bob", "Cy", "Di"])
    assert st.headline == "Ada to play" and st.seat == 0
    assert status.names_of(["Ada", "Bob", "Cy"], [0, 1, 2]) == "Ada, Bob and Cy"
    over = made_up_view(
        "european_war",
        {},
        over=True,
        winners=(1,),
        phase="over",
        deciders=(),
        end_reason="occupation",
    )
    assert status.status(over, ["Ada", "Bob"]).detail == "Bob wins (by occupation)"
    assert status.seat_tag(over, 1) == "winner"


def test_every_printable_ascii_character_is_drawn_so_ascii_text_is_only_spaced() -> None:
    assert all(has_glyph(c) for c in string.printable if not c.isspace())
    assert clean("  Ada   the\tGreat ") == "Ada the Great"
    assert clean("Ada  (x2)!") == "Ada (x2)!" and clean("") == ""


def test_the_font_never_draws_words_wider_for_a_space_between_them() -> None:
    """What :func:`wrap` relies on to measure a line by its words."""
    chars = [chr(c) for c in range(0x21, 0x3000) if not chr(c).isspace() and has_glyph(chr(c))]
    for f in (font(13), font(12), font(17, bold=True), font(11, bold=True)):
        space = f.getlength(" ")
        for c in chars:
            alone = f.getlength(c)
            assert f.getlength(c + " ") <= alone + space, (c, f.size)
            assert f.getlength(" " + c) <= space + alone, (c, f.size)
        assert f.getlength(" \u0301") < space + f.getlength("\u0301")  # a mark: narrower


def _wrap_fitting_every_line(
    text: str, max_width: float, f: ImageFont.FreeTypeFont, max_lines: int
) -> list[str]:
    """The plain way: lines from summed word widths, each then cut with fit()."""
    words = clean(text).split(" ")
    space = width(" ", f)
    lines: list[str] = []
    current: list[str] = []
    used = 0.0
    for i, word in enumerate(words):
        w = width(word, f)
        if not current or used + space + w <= max_width:
            used = w if not current else used + space + w
            current.append(word)
            continue
        lines.append(" ".join(current))
        if len(lines) == max_lines - 1:
            current = words[i:]
            break
        current, used = [word], w
    if current:
        lines.append(" ".join(current))
    return [fit(line, max_width, f) for line in lines[:max_lines]]


def test_wrap_gives_the_lines_of_fitting_every_line() -> None:
    rng = random.Random(5)
    vocabulary = [
        "Ada", "Chloé", "attacks", "9♥", "(total", "9).", "Bartholomew", "W" * 30, "Ж",
        "\u0301x", "e\u0301", "—", "…", "Zoë", "ﬁne", "i", "mmmmmmmm", "→", "x̧",
    ]  # fmt: skip
    for _ in range(600):
        text = " ".join(rng.choice(vocabulary) for _ in range(rng.randrange(1, 14)))
        f = font(rng.choice((13, 17)), bold=rng.random() < 0.3)
        max_width, max_lines = rng.choice((40, 90, 150, 280)), rng.choice((1, 2, 3, 99))
        assert wrap(text, max_width, f, max_lines) == _wrap_fitting_every_line(
            text, max_width, f, max_lines
        ), (text, max_width, max_lines)
