"""A game's replay as one animated GIF: a frame per step (the start, then every action),
each the board as the channel saw it with a caption strip below it.

Any game with images (:func:`render.images_for`) is replayed the same way: each frame's
board is the game's own :meth:`~render.registry.GameImages.board`, drawn from the
spectator's view and the step's public events only, so a frame shows nothing a
spectator did not see. The strip names the step (``12 / 60``) and tells it in words.
A game whose boards differ in size from step to step (a board cropped to where the
action is) has each board fitted into the first one's size, centred on the panel's
background.

Why GIF: the boards are palette images of one fixed palette per board, which GIF keeps
as they are, and Pillow stores each frame as the rectangle that changed since the one
before, its unchanged pixels transparent (so they cost next to nothing). Measured by
``python -m benchmarks.replay --formats`` on the same 61 composed frames of a
four-player game at 1280x884 (one core, CPU time of the encoding alone): GIF 0.40 s for
1,193 KB; animated WebP lossless method 0: 2.3 s for 4,697 KB, method 4: 3.0 s for
787 KB (a third smaller, seven times slower: over the whole replay's time aim alone);
lossy quality 70: 4.4 s for 1,914 KB, with blurred text. Every client shows a GIF.

Under ``limit`` bytes (a chat's attachment limit): at most :data:`MAX_FRAMES` frames
are kept (spread evenly, the first and the last always among them); an animation still
too large is drawn smaller (down to :data:`MIN_SCALE`), then with fewer frames (down to
:data:`MIN_FRAMES`); if even that does not fit, :class:`TooLarge` is raised.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

import rules
from render.palette import PANEL_BACKGROUND, PANEL_TEXT
from render.registry import GameImages, images_for
from render.text import clean, fit_text, paragraph, put_words

DISCORD_LIMIT = 10 * 1024 * 1024
"""Discord's attachment limit for a server without boosts (bytes)."""
MAX_FRAMES = 200
"""The most frames an animation has (a longer game shows evenly spread actions)."""
MIN_FRAMES = 24
"""The fewest frames an animation is cut down to before it is given up as too large."""
MIN_SCALE = 0.5
"""The smallest size a frame is drawn at, as a share of the board's own."""
STRIP = 84
"""The caption strip's height at full size (pixels)."""
FIRST_MS, LAST_MS = 2500, 5000
"""How long the first and the last frame stay (milliseconds)."""
STEP_MS, PER_CHAR_MS, MOST_MS = 900, 22, 4000
"""Every other frame stays ``STEP_MS`` plus ``PER_CHAR_MS`` per character of its
caption, at most ``MOST_MS`` (time to read it)."""


class TooLarge(ValueError):
    """Not even the smallest, shortest animation fits in the limit."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One step to show: the spectator's view after it, its public events, its name
    (``"12 / 60"``) and what happened, in words."""

    view: Any
    events: tuple[rules.Event, ...]
    title: str
    caption: str


@dataclass(frozen=True, slots=True)
class Animation:
    """An encoded replay: GIF bytes, how many of the steps it shows, and its size."""

    data: bytes
    shown: int
    steps: int
    width: int
    height: int
    scale: float

    @property
    def sampled(self) -> bool:
        """Whether some steps were left out (a long game, or one too large)."""
        return self.shown < self.steps


def spread(count: int, keep: int) -> list[int]:
    """``keep`` indices of ``range(count)`` spread evenly, the first and the last among
    them (all of them when ``keep >= count``)."""
    if keep >= count:
        return list(range(count))
    if keep <= 1:
        return [count - 1]
    return sorted({round(i * (count - 1) / (keep - 1)) for i in range(keep)})


def duration(index: int, last: int, caption: str) -> int:
    """How long frame ``index`` of ``0 .. last`` stays (milliseconds)."""
    if index == last:
        return LAST_MS
    if index == 0:
        return FIRST_MS
    return min(MOST_MS, STEP_MS + PER_CHAR_MS * len(caption))


def animate(
    game: str,
    frames: Sequence[Frame],
    names: Sequence[str],
    *,
    limit: int = DISCORD_LIMIT,
    max_frames: int = MAX_FRAMES,
) -> Animation:
    """The replay of ``frames`` (of the game registered as ``game``) as an animated GIF
    of at most ``limit`` bytes; ``names`` are the display names by seat.

    Raises:
        LookupError: the game has no images.
        ValueError: no frames.
        TooLarge: nothing fits in ``limit``.
    """
    drawer = images_for(game)
    if drawer is None:
        raise LookupError(f"the game {game!r} has no images")
    if not frames:
        raise ValueError("a replay needs at least one frame")
    boards = _Boards(drawer, frames, tuple(names))
    count, scale = min(len(frames), max(1, max_frames)), 1.0
    while True:
        picks = spread(len(frames), count)
        data, (width, height) = _encode(boards, [frames[i] for i in picks], picks, scale)
        if len(data) <= limit:
            return Animation(data, len(picks), len(frames), width, height, scale)
        room = limit / len(data) * 0.92
        if scale > MIN_SCALE:  # smaller first: every step stays
            scale = max(MIN_SCALE, math.floor(scale * math.sqrt(room) * 20) / 20)
        elif count > MIN_FRAMES:
            count = max(MIN_FRAMES, int(count * room))
        else:
            raise TooLarge(f"a replay of {len(frames)} steps does not fit in {limit} bytes")


class _Boards:
    """Each frame's board, drawn once. Boards drawn on one palette (each of the pyramid
    boards has its own fixed one) stay as they are and every frame goes on that palette;
    boards drawn in true colour stay so, and each frame gets a palette of its own."""

    def __init__(self, drawer: GameImages, frames: Sequence[Frame], names: tuple[str, ...]):
        self.drawer = drawer
        self.frames = frames
        self.names = names
        self._drawn: dict[int, Image.Image] = {}
        self._seen = False
        self.palette: Image.Image | None = None
        """A 1x1 image with the palette every frame is put on; None: each its own."""
        self._colours: list[int] | None = None
        self._size: tuple[int, int] | None = None
        """Every board's size: the first one's."""

    def get(self, index: int) -> Image.Image:
        """The board of frame ``index``: on the shared palette if there is one, else RGB."""
        found = self._drawn.get(index)
        if found is None:
            frame = self.frames[index]
            png = self.drawer.board(frame.view, self.names, frame.events)
            image: Image.Image = Image.open(io.BytesIO(png))
            image.load()
            if self._size is None:
                self._size = image.size
            elif image.size != self._size:
                image = _fitted(image.convert("RGB"), self._size)
            if not self._seen:
                self._seen = True
                if image.mode == "P" and "transparency" not in image.info:
                    self._colours = image.getpalette()
                    self.palette = _palette_of(image)
            if self.palette is None:
                image = image.convert("RGB")
            elif image.mode != "P" or image.getpalette() != self._colours:
                image = image.convert("RGB").quantize(palette=self.palette, dither=NO_DITHER)
            found = self._drawn[index] = image
        return found


NO_DITHER = Image.Dither.NONE


def _fitted(board: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``board`` (RGB) scaled to fit ``size``, centred on the panel's background."""
    scale = min(size[0] / board.width, size[1] / board.height)
    fit = (max(1, round(board.width * scale)), max(1, round(board.height * scale)))
    out = Image.new("RGB", size, PANEL_BACKGROUND)
    out.paste(
        board.resize(fit, Image.Resampling.BILINEAR),
        ((size[0] - fit[0]) // 2, (size[1] - fit[1]) // 2),
    )
    return out


def _palette_of(image: Image.Image) -> Image.Image:
    """A 1x1 palette image with ``image``'s palette (to map other images onto it)."""
    pal = Image.new("P", (1, 1))
    pal.putpalette(image.getpalette() or [0, 0, 0])
    return pal


def _encode(
    boards: _Boards, frames: Sequence[Frame], picks: Sequence[int], scale: float
) -> tuple[bytes, tuple[int, int]]:
    """The GIF of ``frames`` (the frames ``picks`` of the replay) at ``scale``."""
    images = [
        _compose(boards.get(index), frame, scale, boards.palette)
        for frame, index in zip(frames, picks, strict=True)
    ]
    return encode_gif(
        images, [duration(i, len(frames) - 1, f.caption) for i, f in enumerate(frames)]
    ), images[0].size


def encode_gif(images: Sequence[Image.Image], durations: Sequence[int]) -> bytes:
    """``images`` (palette images) as a looping animated GIF, each shown for its
    ``durations`` (milliseconds).

    Pillow writes each frame after the first as the rectangle that changed, its
    unchanged pixels transparent (``optimize``: a palette index no pixel of the frame
    uses), which keeps a frame whose caption and side panel both changed small."""
    buf = io.BytesIO()
    images[0].save(
        buf,
        "GIF",
        save_all=True,
        append_images=list(images[1:]),
        duration=list(durations),
        loop=0,
        optimize=True,
    )
    return buf.getvalue()


def compose(
    game: str, frames: Sequence[Frame], names: Sequence[str], scale: float = 1.0
) -> list[Image.Image]:
    """Every frame of a replay as :func:`animate` draws it at ``scale`` (palette images,
    before encoding; to compare encoders).

    Raises:
        LookupError: the game has no images.
    """
    drawer = images_for(game)
    if drawer is None:
        raise LookupError(f"the game {game!r} has no images")
    boards = _Boards(drawer, frames, tuple(names))
    return [_compose(boards.get(i), f, scale, boards.palette) for i, f in enumerate(frames)]


def _compose(
    board: Image.Image, frame: Frame, scale: float, palette: Image.Image | None
) -> Image.Image:
    """One frame: the board (at ``scale``) above its caption strip, on ``palette`` (or,
    without one, on a palette of the frame's own)."""
    if scale < 1:
        size = (round(board.width * scale), round(board.height * scale))
        board = board.convert("RGB").resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0)
    strip = caption_strip(frame.title, frame.caption, board.width, scale)
    if palette is None:
        out = Image.new("RGB", (board.width, board.height + strip.height))
        out.paste(board.convert("RGB"), (0, 0))
        out.paste(strip, (0, board.height))
        return out.quantize(256, method=Image.Quantize.FASTOCTREE, dither=NO_DITHER)
    if board.mode != "P":
        board = board.quantize(palette=palette, dither=NO_DITHER)
    out = Image.new("P", (board.width, board.height + strip.height))
    out.putpalette(board.getpalette() or [0, 0, 0])
    out.paste(board, (0, 0))
    out.paste(strip.quantize(palette=palette, dither=NO_DITHER), (0, board.height))
    return out


def caption_strip(title: str, caption: str, width: int, scale: float = 1.0) -> Image.Image:
    """The strip under a frame (RGB): ``title`` in bold on the left, ``caption`` beside
    it on up to four lines (smaller type for longer text; clipped at a word with an
    ellipsis when even the smallest does not hold it)."""
    height = max(48, round(STRIP * scale))
    strip = Image.new("RGB", (width, height), PANEL_BACKGROUND)
    pad = max(6, round(14 * scale))
    column = round(150 * scale)
    sizes = tuple(sorted({max(11, round(s * scale)) for s in (24, 20, 16)}, reverse=True))
    shown, f = fit_text((clean(title),), column - pad, sizes, bold=True)
    put_words(strip, (pad, (height - f.size) // 2 - 2), shown, f, PANEL_TEXT)
    room = width - column - pad
    text = clean(caption)
    layouts = tuple(
        (max(11, round(size * scale)), lines, False)
        for size, lines in ((20, 2), (17, 3), (14, 4))
        if lines * max(11, round(size * scale)) * 1.2 <= height - 4
    ) or ((11, max(1, int((height - 4) // 13)), False),)
    lines, body = paragraph((text,), room, layouts)
    line_height = round(body.size * 1.2)
    top = (height - line_height * len(lines)) // 2
    for n, line in enumerate(lines):
        put_words(strip, (column, top + n * line_height), line, body, PANEL_TEXT)
    return strip
