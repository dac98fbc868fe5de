"""A person's rating over time as a small line chart (``/stats``): one line per game kind,
dated along the bottom, the rating up the side, the kinds in a legend. Game-independent:
the caller names the kinds.

The lines are drawn at :data:`SUPERSAMPLE` times the size and scaled down, so they are
smooth; the text is drawn at full size through :func:`render.text.put` (a test records
it), in the current language (:mod:`rules.i18n`): its words, dates and decimal separator.
Equal inputs in one language give equal bytes.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from PIL import Image, ImageDraw, ImageFont

from .catalogue import _, n_, p_
from .encode import png_bytes
from .fonts import font
from .palette import RGB, hex_rgb, mix
from .text import ELLIPSIS, clean, fit_text, label_forms, name_forms, put, width

Scale = Callable[[float], float]

WIDTH, HEIGHT = 640, 300
SUPERSAMPLE = 3
BACKGROUND: RGB = hex_rgb("#f7f5ef")
PLOT: RGB = hex_rgb("#ffffff")
GRID: RGB = hex_rgb("#e3dfd3")
ZERO: RGB = hex_rgb("#b9b3a3")
INK: RGB = hex_rgb("#1e1e24")
MUTED: RGB = hex_rgb("#5f5b52")
COLOURS: tuple[RGB, ...] = tuple(
    hex_rgb(c) for c in ("#2f6db5", "#d9822b", "#3d9a50", "#9b59b6", "#c0392b", "#16a085")
)
"""The lines' colours, one per game kind in order (repeated past six)."""
DAY = 86400.0
LEFT, RIGHT, TOP, BOTTOM = 52, 16, 58, 30
"""The plot's margins: rating labels on the left, the title and legend above, dates
below."""
DOTS_UP_TO = 40
"""Games per line up to which each is marked with a dot."""


@dataclass(frozen=True, slots=True)
class Series:
    """One line: a game kind's name and (when, rating) after each rated game, in order."""

    label: str
    points: tuple[tuple[float, float], ...]


def _title_forms(name: str) -> tuple[str, ...]:
    titled = _("{name} — rating over time")
    return tuple(titled.format(name=n) for n in name_forms(name)) + (_("Rating over time"),)


def _month(number: int) -> str:
    """The month ``number`` (1-12), abbreviated as a date on the chart writes it."""
    months = (
        p_("month", "Jan"),
        p_("month", "Feb"),
        p_("month", "Mar"),
        p_("month", "Apr"),
        p_("month", "May"),
        p_("month", "Jun"),
        p_("month", "Jul"),
        p_("month", "Aug"),
        p_("month", "Sep"),
        p_("month", "Oct"),
        p_("month", "Nov"),
        p_("month", "Dec"),
    )
    return months[number - 1]


def _decimal(text: str) -> str:
    """A number written with the language's decimal separator."""
    return text.replace(".", p_("decimal separator", "."))


def _step(span: float, ticks: int = 5) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about ``ticks`` ticks."""
    raw = span / ticks
    power = 10.0 ** math.floor(math.log10(raw))
    return next(float(m * power) for m in (1, 2, 5, 10) if m * power >= raw)


def _value_range(values: Sequence[float]) -> tuple[float, float, float]:
    """(low, high, step) of the rating axis: round ticks around every value."""
    low, high = min(values), max(values)
    pad = max(0.5, (high - low) * 0.06)  # no point on the plot's edge
    low, high = low - pad, high + pad
    step = _step(high - low)
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


def _time_range(times: Sequence[float]) -> tuple[float, float]:
    first, last = min(times), max(times)
    if last - first < 60:
        return first - DAY / 2, last + DAY / 2
    pad = (last - first) * 0.03
    return first - pad, last + pad


def _date(when: float, span: float) -> str:
    """A tick's date (with the time of day, in UTC, on a chart of less than two days)."""
    t = datetime.fromtimestamp(when, UTC)
    if span < 2 * DAY:
        return _("{day} {month}, {time} UTC").format(
            day=t.day, month=_month(t.month), time=f"{t.hour:02d}:{t.minute:02d}"
        )
    return _("{day} {month} {year}").format(day=t.day, month=_month(t.month), year=t.year)


def _number(value: float, step: float) -> str:
    """A tick's rating (never "-0")."""
    value = 0.0 if abs(value) < step / 1000 else value
    return f"{value:.0f}" if step >= 1 else _decimal(f"{value:.1f}")


@dataclass(frozen=True, slots=True)
class Axes:
    """Where a chart puts a (when, rating) point: the time span along the plot, the
    rating span up it (between round ticks ``step`` apart)."""

    first: float
    last: float
    low: float
    high: float
    step: float

    def x(self, when: float) -> float:
        """The pixel column of a time."""
        return LEFT + (when - self.first) / (self.last - self.first) * (WIDTH - RIGHT - LEFT)

    def y(self, value: float) -> float:
        """The pixel row of a rating."""
        bottom = HEIGHT - BOTTOM
        return bottom - (value - self.low) / (self.high - self.low) * (bottom - TOP)

    def ticks(self) -> list[float]:
        """The ratings marked on the side, lowest first."""
        count = round((self.high - self.low) / self.step)
        return [self.low + i * self.step for i in range(count + 1)]


def axes(series: Sequence[Series]) -> Axes:
    """The axes of a chart of ``series`` (at least one point among them)."""
    values = [v for s in series for _t, v in s.points]
    times = [t for s in series for t, _v in s.points]
    return Axes(*_time_range(times), *_value_range(values))


def rating_chart(name: str, series: Sequence[Series]) -> bytes:
    """The PNG of ``name``'s rating over time in each of ``series`` (lines without
    points are left out).

    Raises:
        ValueError: no series has a point.
    """
    lines = [s for s in series if s.points]
    if not lines:
        raise ValueError("a rating chart needs at least one rated game")
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM
    draw.rectangle((x0, y0, x1, y1), fill=PLOT, outline=GRID)

    title, f = fit_text(_title_forms(name), WIDTH - 24, (17, 15, 13), bold=True, name=True)
    put(image, (12, 10), title, f, INK)

    frame = axes(lines)
    small = font(11)
    for tick in frame.ticks():
        y = round(frame.y(tick))
        draw.line((x0 + 1, y, x1 - 1, y), fill=ZERO if abs(tick) < frame.step / 2 else GRID)
        put(image, (x0 - 6, y), _number(tick, frame.step), small, MUTED, anchor="rm")

    _date_ticks(image, frame.x, [t for s in lines for t, _v in s.points], small)
    _legend(image, lines, y0 - 8)
    _lines(image, lines, frame.x, frame.y)
    return png_bytes(image)


def _date_ticks(
    image: Image.Image,
    x_of: Scale,
    times: Sequence[float],
    f: ImageFont.FreeTypeFont,
) -> None:
    """Dates below the plot: the first and the last game's, and between them as many
    evenly spaced ones as fit without touching."""
    draw = ImageDraw.Draw(image)
    start, end = min(times), max(times)
    span = end - start
    for count in (5, 4, 3, 2, 1):
        if count > 1 and span < 60:
            continue
        whens = [start + span * i / max(1, count - 1) for i in range(count)]
        labels = [_date(w, span) for w in whens]
        xs = [x_of(w) for w in whens]
        boxes = []
        for i, (label, x) in enumerate(zip(labels, xs, strict=True)):
            w = width(label, f)
            left = x - w / 2
            if count > 1 and i == 0:
                left = x
            elif count > 1 and i == count - 1:
                left = x - w
            boxes.append((max(2.0, min(left, WIDTH - 2 - w)), w))
        if all(a[0] + a[1] + 12 <= b[0] for a, b in itertools.pairwise(boxes)):
            break
    for (left, _w), label, x in zip(boxes, labels, xs, strict=True):
        draw.line((round(x), HEIGHT - BOTTOM, round(x), HEIGHT - BOTTOM + 3), fill=ZERO)
        put(image, (left, HEIGHT - BOTTOM + 6), label, f, MUTED)


def _legend(image: Image.Image, lines: Sequence[Series], baseline: float) -> None:
    """The kinds' names with their colours, right to left along the plot's top edge."""
    draw = ImageDraw.Draw(image)
    x = float(WIDTH - RIGHT)
    room = WIDTH - RIGHT - LEFT
    share = room / len(lines) - 24
    for i in reversed(range(len(lines))):
        label, f = fit_text(label_forms(lines[i].label), share, (13, 12, 11))
        w = width(label, f)
        put(image, (x, baseline), label, f, INK, anchor="rs")
        colour = COLOURS[i % len(COLOURS)]
        draw.rounded_rectangle((x - w - 16, baseline - 9, x - w - 6, baseline - 1), 2, fill=colour)
        x -= w + 30


def _lines(image: Image.Image, lines: Sequence[Series], x_of: Scale, y_of: Scale) -> None:
    """Each kind's line (and dots, for few games), drawn large and scaled down."""
    k = SUPERSAMPLE
    layer = Image.new("RGBA", (WIDTH * k, HEIGHT * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    for i, s in enumerate(lines):
        colour = COLOURS[i % len(COLOURS)]
        pts = [(x_of(t) * k, y_of(v) * k) for t, v in s.points]
        if len(pts) > 1:
            draw.line(pts, fill=(*colour, 255), width=2 * k, joint="curve")
        if len(pts) <= DOTS_UP_TO:
            r = 3.2 * k
            edge = mix(colour, (255, 255, 255), 0.75)
            for x, y in pts:
                box = (x - r, y - r, x + r, y + r)
                draw.ellipse(box, fill=(*colour, 255), outline=(*edge, 255), width=k)
    small = layer.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)
    image.paste(small, (0, 0), small)


def rating_chart_text(name: str, series: Sequence[Series]) -> str:
    """The chart in words (its alt text): each kind's rating now, after how many rated
    games, and where it started."""
    parts = []
    for s in series:
        if not s.points:
            continue
        (t0, v0), (_t1, v1) = s.points[0], s.points[-1]
        games = len(s.points)
        parts.append(
            n_(
                "{kind} {rating} after {n} rated game ({first} after the first, {date})",
                "{kind} {rating} after {n} rated games ({first} after the first, {date})",
                games,
            ).format(
                kind=clean(s.label),
                rating=_decimal(f"{v1:.1f}"),
                n=games,
                first=_decimal(f"{v0:.1f}"),
                date=_date(t0, 2 * DAY),
            )
        )
    who = clean(name)
    ratings = "; ".join(parts)
    if who:
        text = _("{name}'s rating over time: {ratings}.").format(name=who, ratings=ratings)
    else:
        text = _("This player's rating over time: {ratings}.").format(ratings=ratings)
    return text if len(text) <= 1000 else text[:999] + ELLIPSIS
