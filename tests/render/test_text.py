"""Names and text: glyphs the shipped font lacks are dropped, long text is cut to fit."""

from __future__ import annotations

from render.fonts import font
from render.pyramids import status
from render.text import clean, display_name, fit, has_glyph, short_name, wrap
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
