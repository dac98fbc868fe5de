"""Text that fits, never cut mid-word; and :func:`put`, which draws text from a
per-process cache of rendered masks (the panel draws the same strings on every board
image: names, powers, labels, digits).

How text is made to fit a space, in this order:

- shrink: a few font sizes, largest first;
- names are abbreviated by one rule (:func:`name_forms`): in full, then the first word
  and the last word's initial, then the first word, then (a very long first word) its
  first letters and a period; a label may drop a part in brackets (:func:`label_forms`);
- sentences wrap at spaces onto the lines there are (:func:`fit_paragraph`), and their
  names take the shorter forms too (:func:`name_levels`);
- only when nothing else fits are whole words left out, marked with an ellipsis
  (:func:`clip`).

:func:`recording` lets a test see every string drawn, to compare it with the intended
one.
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from .catalogue import _
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


NAME_WORD_LIMIT = 12
"""A first word longer than this many characters is shortened to its first
``NAME_WORD_LIMIT - 1`` and a period in a name's shortest form."""


@lru_cache(maxsize=2048)
def name_forms(name: str) -> tuple[str, ...]:
    """The forms a (cleaned) name may be drawn in, longest first, each made by one rule:
    in full ("Bartholomew the Magnificent"); the first word and the last word's initial
    ("Bartholomew M."); the first word ("Bartholomew"); a first word longer than
    :data:`NAME_WORD_LIMIT` shortened to its first letters and a period. Nothing else
    ever shortens a name, except :func:`fit_text`'s last resort (fewer letters, the
    same period) where even that is too wide."""
    name = clean(name)
    words = name.split(" ")
    out = [name]
    first = words[0]
    if len(words) > 1:
        out += [f"{first} {words[-1][0]}.", first]
    if len(first) > NAME_WORD_LIMIT:
        out.append(first[: NAME_WORD_LIMIT - 1] + ".")
    return tuple(dict.fromkeys(out))


def name_levels(names: Sequence[str]) -> list[list[str]]:
    """The cleaned ``names`` at each level of abbreviation: level k gives each name its
    k-th form of :func:`name_forms` (or its last, if it has fewer). Text made of names
    (a sentence, a headline) is tried at level 0 first, then shorter."""
    forms = [name_forms(n) for n in names]
    depth = max((len(f) for f in forms), default=1)
    return [[f[min(k, len(f) - 1)] for f in forms] for k in range(depth)]


@lru_cache(maxsize=512)
def label_forms(text: str) -> tuple[str, ...]:
    """The forms a label may be drawn in: in full, then without a part in brackets
    ("Central Powers (Germany and Austria-Hungary)" -> "Central Powers")."""
    text = clean(text)
    out = [text]
    if "(" in text and text.endswith(")"):
        short = text[: text.index("(")].rstrip()
        if short:
            out.append(short)
    return tuple(out)


def _shortened_word(word: str, max_width: float, f: ImageFont.FreeTypeFont) -> str:
    """``word`` if it fits, else its first letters and a period, as many as fit (at least
    one)."""
    if width(word, f) <= max_width:
        return word
    for n in range(len(word.rstrip(".")) - 1, 0, -1):
        if width(word[:n] + ".", f) <= max_width:
            return word[:n] + "."
    return word[:1] + "."


@lru_cache(maxsize=4096)
def fit_text(
    forms: tuple[str, ...],
    max_width: float,
    sizes: tuple[int, ...],
    bold: bool = False,
    name: bool = False,
) -> tuple[str, ImageFont.FreeTypeFont]:
    """The first of ``forms`` (longest first: a text and its shorter forms) that is at
    most ``max_width`` wide at one of ``sizes`` (largest first), with its font; each
    form is tried at every size before the next one. When none fits, at the smallest
    size: for a ``name``, the last form's first word shortened to the letters that fit
    and a period; for other text, the last form's whole words that fit (:func:`clip`)."""
    for form in forms:
        for size in sizes:
            f = font(size, bold)
            if width(form, f) <= max_width:
                return form, f
    f = font(sizes[-1], bold)
    if name:
        return _shortened_word(forms[-1].split(" ")[0], max_width, f), f
    return clip(forms[-1], max_width, f), f


def fit_name(
    name: str, max_width: float, sizes: tuple[int, ...], bold: bool = False
) -> tuple[str, ImageFont.FreeTypeFont]:
    """``name`` in the longest of its :func:`name_forms` that fits (see
    :func:`fit_text`), and the font to draw it with."""
    return fit_text(name_forms(name), max_width, sizes, bold, name=True)


def fit_label(
    text: str, max_width: float, sizes: tuple[int, ...], bold: bool = False
) -> tuple[str, ImageFont.FreeTypeFont]:
    """A label in the longest of its :func:`label_forms` that fits (see
    :func:`fit_text`), and the font to draw it with."""
    return fit_text(label_forms(text), max_width, sizes, bold)


@lru_cache(maxsize=2048)
def clip(text: str, max_width: float, f: ImageFont.FreeTypeFont) -> str:
    """``text`` (cleaned) if it fits, else as many whole words as fit and an ellipsis
    (the first word shortened with a period if even it does not fit). The last resort:
    text that shrinking and abbreviating could not fit."""
    text = clean(text)
    if width(text, f) <= max_width:
        return text
    words = text.split(" ")
    for n in range(len(words) - 1, 0, -1):
        candidate = " ".join(words[:n]).rstrip(",;:") + " " + ELLIPSIS
        if width(candidate, f) <= max_width:
            return candidate
    return _shortened_word(words[0], max_width, f)


def display_name(names: object, seat: int) -> str:
    """``names[seat]`` cleaned, or "Seat N" when missing or empty after cleaning."""
    try:
        raw = names[seat]  # type: ignore[index]  # any indexable; errors caught
    except (IndexError, KeyError, TypeError):
        raw = ""
    name = clean(str(raw)) if raw is not None else ""
    return name or _("Seat {number}").format(number=seat + 1)


@lru_cache(maxsize=4096)
def width(text: str, f: ImageFont.FreeTypeFont) -> float:
    """``f.getlength(text)``, cached."""
    return f.getlength(text)


def wrap_lines(text: str, max_width: float, f: ImageFont.FreeTypeFont) -> list[str]:
    """Greedy word wrap of ``text`` (cleaned) into as many lines as it takes; a word wider
    than ``max_width`` has a line of its own (wider than asked: see
    :func:`fit_paragraph`).

    Line widths are summed from cached word widths. The shipped font never draws words
    wider for the space between them (it kerns nothing across a space; a combining mark
    after one only narrows: tests/render/test_text.py checks it), so a line whose sum
    fits is drawn as it is.
    """
    words = clean(text).split(" ")
    space = width(" ", f)
    lines: list[str] = []
    current: list[str] = []
    used = 0.0
    for word in words:
        w = width(word, f)
        if not current or used + space + w <= max_width:
            used = w if not current else used + space + w
            current.append(word)
            continue
        lines.append(" ".join(current))
        current, used = [word], w
    if current:
        lines.append(" ".join(current))
    return lines


def fits(lines: Sequence[str], max_width: float, f: ImageFont.FreeTypeFont) -> bool:
    """Whether every line is at most ``max_width`` wide."""
    return all(width(line, f) <= max_width for line in lines)


Layout = tuple[int, int, bool]
"""A way to set a paragraph: font size, the most lines, bold."""


@lru_cache(maxsize=1024)
def fit_paragraph(
    variants: tuple[str, ...], max_width: float, layouts: tuple[Layout, ...]
) -> tuple[tuple[str, ...], ImageFont.FreeTypeFont] | None:
    """The first of ``variants`` (the same words, names ever shorter: see
    :func:`name_levels`) that wraps into ``max_width`` in one of ``layouts`` (each
    layout, largest font first, is tried with every variant before the next), as its
    lines and font; ``None`` when none does."""
    for size, max_lines, bold in layouts:
        f = font(size, bold)
        for text in variants:
            lines = wrap_lines(text, max_width, f)
            if len(lines) <= max_lines and fits(lines, max_width, f):
                return tuple(lines), f
    return None


def paragraph(
    variants: tuple[str, ...], max_width: float, layouts: tuple[Layout, ...]
) -> tuple[tuple[str, ...], ImageFont.FreeTypeFont]:
    """:func:`fit_paragraph`, or, if nothing fits, the last variant in the last layout
    with its last line clipped at a word (:func:`clip`)."""
    found = fit_paragraph(variants, max_width, layouts)
    if found is not None:
        return found
    size, max_lines, bold = layouts[-1]
    f = font(size, bold)
    lines = wrap_lines(variants[-1], max_width, f)
    kept = lines[: max_lines - 1] + [" ".join(lines[max_lines - 1 :])]
    return tuple(clip(line, max_width, f) for line in kept), f


@lru_cache(maxsize=2048)
def _mask(text: str, f: ImageFont.FreeTypeFont, anchor: str) -> tuple[Image.Image, int, int]:
    # FreeType's box is whole pixels (Pillow's stubs say float)
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


_RECORDING = threading.local()


@contextmanager
def recording() -> Iterator[list[str]]:
    """Collect every string :func:`put` and :func:`put_words` draw in this thread while
    the block runs (one entry a call: a line, a label), to compare with what was meant."""
    log: list[str] = []
    outer = getattr(_RECORDING, "log", None)
    _RECORDING.log = log
    try:
        yield log
    finally:
        _RECORDING.log = outer


def _record(text: str) -> None:
    log = getattr(_RECORDING, "log", None)
    if log is not None:
        log.append(text)


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
    _record(text)
    _paste(image, xy, text, f, fill, anchor)


def _paste(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    f: ImageFont.FreeTypeFont,
    fill: tuple[int, int, int],
    anchor: str = "la",
) -> None:
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
    widths (kerning across a space is ignored, as in :func:`wrap_lines`), each put on
    whole pixels."""
    if text:
        _record(text)
    x, y = xy
    space = width(" ", f)
    for word in text.split(" "):
        if word:
            _paste(image, (x, y), word, f, fill)
            x += width(word, f)
        x += space


def short_name(names: object, seat: int, limit: int = 32) -> str:
    """:func:`display_name` cut to at most ``limit`` characters (for plain text)."""
    name = display_name(names, seat)
    return name if len(name) <= limit else name[: limit - 1].rstrip() + ELLIPSIS
