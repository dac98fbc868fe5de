"""Names and text: glyphs the shipped font lacks are dropped; long text shrinks, wraps and
is abbreviated by rule, never cut mid-word."""

from __future__ import annotations

import random
import string

from render.fonts import font
from render.pyramids import status
from render.text import (
    ELLIPSIS,
    clean,
    clip,
    display_name,
    fit_label,
    fit_name,
    fit_paragraph,
    fit_text,
    has_glyph,
    label_forms,
    name_forms,
    name_levels,
    paragraph,
    put,
    put_words,
    recording,
    short_name,
    width,
    wrap_lines,
)
from rules import i18n
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
    seats = {}
    for locale in i18n.LOCALES:
        with i18n.use(locale):
            seats[locale] = display_name(["Ada", ""], 1)
    assert seats == {"en": "Seat 2", "de": "Platz 2", "fr": "Place 2", "cs": "Místo 2"}


def test_a_name_has_forms_made_by_one_rule() -> None:
    assert name_forms("Ada") == ("Ada",)
    assert name_forms("Bartholomew the Magnificent") == (
        "Bartholomew the Magnificent",
        "Bartholomew M.",
        "Bartholomew",
    )
    assert name_forms(" Chloé  🙂 ") == ("Chloé",)
    assert name_forms("Wolfeschlegelsteinhausen Bergerdorff") == (
        "Wolfeschlegelsteinhausen Bergerdorff",
        "Wolfeschlegelsteinhausen B.",
        "Wolfeschlegelsteinhausen",
        "Wolfeschleg.",
    )
    assert name_levels(["Ada", "Bartholomew the Magnificent"]) == [
        ["Ada", "Bartholomew the Magnificent"],
        ["Ada", "Bartholomew M."],
        ["Ada", "Bartholomew"],
    ]
    assert label_forms("Central Powers (Germany and Austria-Hungary)") == (
        "Central Powers (Germany and Austria-Hungary)",
        "Central Powers",
    )
    assert label_forms("Russian Empire") == ("Russian Empire",)


def test_fitting_shrinks_then_abbreviates_and_never_cuts_a_name_mid_word() -> None:
    sizes = (17, 16, 15, 14)
    name = "Bartholomew the Magnificent"
    assert fit_name(name, 400, sizes, bold=True) == (name, font(17, bold=True))
    shrunk = font(15, bold=True).getlength(name) + 1
    assert fit_name(name, shrunk, sizes, bold=True) == (name, font(15, bold=True))
    text, f = fit_name(name, 150, sizes, bold=True)
    assert text == "Bartholomew M." and f.getlength(text) <= 150
    text, f = fit_name(name, 110, sizes, bold=True)
    assert text == "Bartholomew" and f.getlength(text) <= 110
    # the last resort: the first word's first letters and a period
    text, f = fit_name(name, 60, sizes, bold=True)
    assert text.endswith(".") and "Bartholomew".startswith(text[:-1]) and f.size == 14
    assert f.getlength(text) <= 60
    label, f = fit_label("Central Powers (Germany and Austria-Hungary)", 150, (13, 12, 11))
    assert label == "Central Powers" and f.size == 13


def test_clip_leaves_out_whole_words() -> None:
    f = font(13)
    assert clip("Ada", 200, f) == "Ada"
    text = "Bartholomew the Magnificent rolled five dice"
    cut = clip(text, 150, f)
    assert cut.endswith(" " + ELLIPSIS) and f.getlength(cut) <= 150
    assert text.startswith(cut[:-2]) and text[len(cut) - 2] == " "
    assert fit_text((text,), 150, (13, 12)) == (clip(text, 150, font(12)), font(12))


def test_wrap_lines_keeps_every_word_and_fits_what_can_fit() -> None:
    f = font(13)
    text = "Dmitri's medium on South Balkans shrank to a small after a long duel."
    lines = wrap_lines(text, 150, f)
    assert len(lines) > 1 and " ".join(lines) == text
    assert all(f.getlength(line) <= 150 for line in lines)
    assert wrap_lines("W" * 40 + " x", 150, f) == ["W" * 40, "x"]  # too wide: a line alone


def test_a_paragraph_shrinks_then_takes_shorter_names() -> None:
    long = "Bartholomew the Magnificent attacks Chloé on North Australia."
    short = "Bartholomew M. attacks Chloé on North Australia."
    layouts = ((13, 1, False), (12, 1, False), (11, 2, False))
    lines, f = fit_paragraph((long, short), 500, layouts) or ((), font(1))
    assert lines == (long,) and f.size == 13
    lines, f = fit_paragraph((long, short), 330, layouts) or ((), font(1))
    assert lines == (short,) and f.size in (13, 12)
    lines, f = fit_paragraph((long, short), 200, layouts) or ((), font(1))
    assert f.size == 11 and " ".join(lines) == long and len(lines) == 2
    assert fit_paragraph((long,), 60, layouts) is None
    lines, f = paragraph((long,), 60, layouts)
    assert len(lines) == 2 and lines[-1].endswith(ELLIPSIS) and f.size == 11


def test_recording_sees_every_string_drawn() -> None:
    from PIL import Image

    canvas = Image.new("RGB", (200, 40))
    with recording() as drawn:
        put(canvas, (0, 0), "Ada", font(13), (255, 255, 255))
        put_words(canvas, (0, 20), "Bartholomew M. to play", font(13), (255, 255, 255))
        with recording() as inner:
            put(canvas, (0, 0), "inner", font(13), (255, 255, 255))
    assert drawn == ["Ada", "Bartholomew M. to play"] and inner == ["inner"]
    put(canvas, (0, 0), "not recorded", font(13), (255, 255, 255))
    assert drawn == ["Ada", "Bartholomew M. to play"]


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
    """What :func:`wrap_lines` relies on to measure a line by its words."""
    chars = [chr(c) for c in range(0x21, 0x3000) if not chr(c).isspace() and has_glyph(chr(c))]
    for f in (font(13), font(12), font(17, bold=True), font(11, bold=True)):
        space = f.getlength(" ")
        for c in chars:
            alone = f.getlength(c)
            assert f.getlength(c + " ") <= alone + space, (c, f.size)
            assert f.getlength(" " + c) <= space + alone, (c, f.size)
        assert f.getlength(" \u0301") < space + f.getlength("\u0301")  # a mark: narrower


def test_wrap_lines_keeps_every_word_and_each_line_fits_when_drawn_whole() -> None:
    """Lines are measured by summed word widths (never narrower than the line drawn
    whole: see the test above); each line fits, or is one word too wide alone, and no
    line could have taken the next line's first word."""
    rng = random.Random(5)
    vocabulary = [
        "Ada", "Chloé", "attacks", "9♥", "(total", "9).", "Bartholomew", "W" * 30, "Ж",
        "\u0301x", "e\u0301", "—", "…", "Zoë", "ﬁne", "i", "mmmmmmmm", "→", "x̧",
    ]  # fmt: skip
    for _ in range(600):
        text = " ".join(rng.choice(vocabulary) for _ in range(rng.randrange(1, 14)))
        f = font(rng.choice((13, 17)), bold=rng.random() < 0.3)
        max_width = rng.choice((40, 90, 150, 280))
        lines = wrap_lines(text, max_width, f)
        assert " ".join(lines) == clean(text)
        for i, line in enumerate(lines):
            words = line.split(" ")
            summed = sum(width(w, f) for w in words) + width(" ", f) * (len(words) - 1)
            assert f.getlength(line) <= summed + 0.01
            assert summed <= max_width or len(words) == 1, (text, line)
            if i + 1 < len(lines):
                after = summed + width(" ", f) + width(lines[i + 1].split(" ")[0], f)
                assert after > max_width, (text, line)
