"""Text that fits: names cleaned of glyphs the shipped font lacks, cut with an ellipsis;
and :func:`put`, which draws text from a per-process cache of rendered masks (the panel
draws the same strings on every board image: names, powers, labels, digits)."""

from __future__ import annotations

import math
import unicodedata
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from .fonts import font

ELLIPSIS = "…"


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """True when DejaVu Sans draws ``char`` (not its "missing glyph" box)."""
    if char in (" ", "\u200a"):
        return True
    probe = font(24)
    missing = _missing_mask()
    return bytes(probe.getmask(char)) != missing


@lru_cache(maxsize=1)
def _missing_mask() -> bytes:
    return bytes(font(24).getmask("\ue000"))  # a private-use code point: never drawn


@lru_cache(maxsize=2048)
def clean(text: str) -> str:
    """Drop control characters and glyphs the font cannot draw (emoji, CJK, ...).

    Runs of spaces left behind collapse to one; the result is stripped.
    """
    if text.isascii() and text.isprintable():  # the font draws every printable ASCII
        return " ".join(text.split())
    out = []
    for ch in unicodedata.normalize("NFC", text):
        if ch.isspace():
            out.append(" ")
            continue
        cat = unicodedata.category(ch)
        if cat.startswith("C"):
            continue
        if cat.startswith("M") or has_glyph(ch):
            out.append(ch)
    return " ".join("".join(out).split())


@lru_cache(maxsize=2048)
def fit(text: str, max_width: float, f: ImageFont.FreeTypeFont) -> str:
    """Return ``text`` (cleaned) cut with an ellipsis so that it is at most ``max_width`` wide."""
    text = clean(text)
    if f.getlength(text) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if f.getlength(text[:mid].rstrip() + ELLIPSIS) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS


def display_name(names: object, seat: int) -> str:
    """``names[seat]`` cleaned, or "Seat N" when missing or empty after cleaning."""
    try:
        raw = names[seat]  # type: ignore[index]  # any indexable; errors caught
    except (IndexError, KeyError, TypeError):
        raw = ""
    name = clean(str(raw)) if raw is not None else ""
    return name or f"Seat {seat + 1}"


@lru_cache(maxsize=4096)
def width(text: str, f: ImageFont.FreeTypeFont) -> float:
    """``f.getlength(text)``, cached."""
    return f.getlength(text)


def wrap(text: str, max_width: float, f: ImageFont.FreeTypeFont, max_lines: int) -> list[str]:
    """Greedy word wrap into at most ``max_lines`` lines, the last cut with an ellipsis.

    Line widths are summed from cached word widths. The shipped font never draws words
    wider for the space between them (it kerns nothing across a space; a combining mark
    after one only narrows: tests/render/test_text.py checks it), so a line whose sum
    fits is drawn as it is; any other line, and the last one when words are left over,
    is cut with :func:`fit`.
    """
    words = clean(text).split(" ")
    space = width(" ", f)
    lines: list[tuple[str, float]] = []
    current: list[str] = []
    used = 0.0
    for i, word in enumerate(words):
        w = width(word, f)
        if not current or used + space + w <= max_width:
            used = w if not current else used + space + w
            current.append(word)
            continue
        lines.append((" ".join(current), used))
        if len(lines) == max_lines - 1:
            current = words[i:]
            used = math.inf  # the words left over are cut to fit
            break
        current, used = [word], w
    if current:
        lines.append((" ".join(current), used))
    return [line if w <= max_width else fit(line, max_width, f) for line, w in lines[:max_lines]]


@lru_cache(maxsize=2048)
def _mask(text: str, f: ImageFont.FreeTypeFont, anchor: str) -> tuple[Image.Image, int, int]:
    # FreeType's box is whole pixels (Pillow's stubs say float)
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


def put(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    f: ImageFont.FreeTypeFont,
    fill: tuple[int, int, int],
    anchor: str = "la",
) -> None:
    """Draw one line of ``text`` at ``xy`` (rounded to whole pixels) like ``ImageDraw.text``.

    The rendered glyph mask is cached per (text, font, anchor); do not pass text that
    changes on every call (it would only churn the cache).
    """
    if not text:
        return
    mask, left, top = _mask(text, f, anchor)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    image.paste(fill, (x, y, x + mask.width, y + mask.height), mask)


def put_words(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    f: ImageFont.FreeTypeFont,
    fill: tuple[int, int, int],
) -> None:
    """Draw one line of ``text`` with its top left at ``xy``, word by word from cached
    masks (for text that differs on every image but is made of recurring words, where
    rendering each line anew costs ~7 µs a glyph). Words are spaced by their cached
    widths (kerning across a space is ignored, as in :func:`wrap`), each put on whole
    pixels."""
    x, y = xy
    space = width(" ", f)
    for word in text.split(" "):
        if word:
            put(image, (x, y), word, f, fill)
            x += width(word, f)
        x += space


def short_name(names: object, seat: int, limit: int = 32) -> str:
    """:func:`display_name` cut to at most ``limit`` characters (for plain text)."""
    name = display_name(names, seat)
    return name if len(name) <= limit else name[: limit - 1].rstrip() + ELLIPSIS
