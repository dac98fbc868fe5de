"""The rating chart of ``/stats`` (``render.chart``): each kind's line where its points
are, in its colour; every text drawn whole (the title, the ratings up the side, the dates
along the bottom, the legend); the same bytes for the same inputs; and its words."""

from __future__ import annotations

import math

import pytest
from PIL import Image

from render.chart import (
    COLOURS,
    HEIGHT,
    WIDTH,
    Series,
    axes,
    rating_chart,
    rating_chart_text,
)
from render.fonts import font
from render.text import ELLIPSIS, recording, width
from rules import i18n
from tests.render.helpers import decode

T = 1_767_225_600.0  # 1 Jan 2026, 00:00 UTC
DAY = 86400.0
EW = Series("European War", ((T, 0.4), (T + 3 * DAY, 2.9), (T + 9 * DAY, 1.7), (T + 20 * DAY, 6.2)))
WW = Series("World War 5", ((T + 5 * DAY, -1.5), (T + 12 * DAY, 0.8)))


def near(a: tuple[int, ...], b: tuple[int, ...], tolerance: float = 60) -> bool:
    return math.dist(a[:3], b[:3]) <= tolerance


def drawn_at(image: Image.Image, x: float, y: float, colour: tuple[int, int, int]) -> bool:
    """Whether ``colour`` is drawn at (x, y) or a pixel next to it."""
    cx, cy = round(x), round(y)
    return any(
        near(image.getpixel((cx + dx, cy + dy)), colour)  # type: ignore[arg-type]
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
    )


def test_each_line_runs_through_its_points_in_its_colour() -> None:
    image = decode(rating_chart("Ada", [EW, WW]))
    assert image.size == (WIDTH, HEIGHT)
    frame = axes([EW, WW])
    for series, colour in ((EW, COLOURS[0]), (WW, COLOURS[1])):
        for when, value in series.points:
            assert drawn_at(image, frame.x(when), frame.y(value), colour), (series.label, when)
        # halfway along its first segment the line is there too
        (t0, v0), (t1, v1) = series.points[:2]
        assert drawn_at(image, frame.x((t0 + t1) / 2), frame.y((v0 + v1) / 2), colour)
    # the other colour is nowhere near a line's point of its own
    assert not drawn_at(image, frame.x(EW.points[-1][0]), frame.y(EW.points[-1][1]), COLOURS[1])
    # every point is inside the plot, none on its edge
    for s in (EW, WW):
        for when, value in s.points:
            assert 52 < frame.x(when) < WIDTH - 16 and 58 < frame.y(value) < HEIGHT - 30


def test_the_text_is_drawn_whole() -> None:
    with recording() as drawn:
        rating_chart("Bartholomew the Magnificent", [EW, WW])
    assert drawn[0] == "Bartholomew the Magnificent — rating over time"
    assert "European War" in drawn and "World War 5" in drawn
    assert {"-2", "0", "2", "4", "6"} <= set(drawn)
    assert "1 Jan 2026" in drawn and "21 Jan 2026" in drawn
    assert not any(text.endswith(ELLIPSIS) for text in drawn)


def test_a_long_name_takes_a_shorter_form_and_one_game_is_a_dot() -> None:
    one = Series("European War", ((T + 3600 * 13.5, 3.36),))
    with recording() as drawn:
        image = decode(rating_chart("Bartholomew " + "the Magnificent " * 6 + "Smith", [one]))
    assert drawn[0] == "Bartholomew S. — rating over time"
    assert "1 Jan, 13:30 UTC" in drawn  # a chart of less than two days tells the time
    frame = axes([one])
    assert drawn_at(image, frame.x(one.points[0][0]), frame.y(3.36), COLOURS[0])
    assert frame.low < 3.36 < frame.high and "-0" not in drawn


def test_same_inputs_same_bytes_and_no_points_no_chart() -> None:
    assert rating_chart("Eve", [EW]) == rating_chart("Eve", [EW, Series("World War 5", ())])
    with pytest.raises(ValueError, match="at least one rated game"):
        rating_chart("Eve", [Series("European War", ())])


def test_the_chart_in_words() -> None:
    assert rating_chart_text("Chloé 🙂", [EW, WW, Series("Other", ())]) == (
        "Chloé's rating over time: European War 6.2 after 4 rated games (0.4 after the "
        "first, 1 Jan 2026); World War 5 0.8 after 2 rated games (-1.5 after the first, "
        "6 Jan 2026)."
    )


LONGEST = "Bartholomew the Magnificent"
TITLES = {
    "en": f"{LONGEST} — rating over time",
    "de": f"{LONGEST} — Wertung im Verlauf",
    "fr": f"{LONGEST} — classement Elo au fil du temps",
    "cs": f"{LONGEST} — vývoj hodnocení",
}
"""The title each language draws for a long name: in full, at one of its sizes."""
DATES = {
    "en": ("1 Jan 2026", "21 Jan 2026", "1 Jan, 13:30 UTC"),
    "de": ("1. Jan. 2026", "21. Jan. 2026", "1. Jan., 13:30 UTC"),
    "fr": ("1 janv. 2026", "21 janv. 2026", "1 janv., 13:30 UTC"),
    "cs": ("1. led 2026", "21. led 2026", "1. led, 13:30 UTC"),
}


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_every_language_draws_its_words_whole_inside_the_chart(locale: str) -> None:
    """The title, the dates and the ratings in the chart's language, each drawn as meant
    (no word left out) and inside the image; a tenth of a rating with the language's
    decimal separator."""
    with i18n.use(locale), recording() as drawn:
        image = decode(rating_chart(LONGEST, [EW, WW]))
    assert image.size == (WIDTH, HEIGHT)
    assert drawn[0] == TITLES[locale]
    assert width(drawn[0], font(13, bold=True)) <= WIDTH - 24
    first, last, _time = DATES[locale]
    assert first in drawn and last in drawn
    assert not any(text.endswith(ELLIPSIS) for text in drawn)
    assert all(width(text, font(11)) <= WIDTH - 4 for text in drawn[1:])
    one = Series("European War", ((T + 3600 * 13.5, 3.36), (T + 3600 * 14, 3.41)))
    with i18n.use(locale), recording() as drawn:
        rating_chart("Ada", [one])
    assert DATES[locale][2] in drawn
    point = "." if locale == "en" else ","
    assert any(text.startswith("3" + point) for text in drawn), drawn


def test_the_chart_in_words_in_every_language() -> None:
    said = {}
    for locale in i18n.LOCALES:
        with i18n.use(locale):
            said[locale] = rating_chart_text("Chloé", [EW, Series("World War 5", (WW.points[0],))])
            nobody = rating_chart_text("", [EW])
        assert nobody != said[locale] and "{" not in said[locale] + nobody
    assert said["de"] == (
        "Wertung von Chloé im Verlauf: European War 6,2 nach 4 gewerteten Partien (0,4 nach der "
        "ersten, 1. Jan. 2026); World War 5 -1,5 nach 1 gewerteten Partie (-1,5 nach der "
        "ersten, 6. Jan. 2026)."
    )
    assert said["cs"].startswith(
        "Vývoj hodnocení hráče Chloé: European War 6,2 po 4 hodnocených hrách (0,4 po první, "
        "1. led 2026); World War 5 -1,5 po 1 hodnocené hře"
    )
    assert said["fr"].startswith("Classement Elo de Chloé au fil du temps : European War 6,2")
