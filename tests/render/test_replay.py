"""A replay as an animated GIF (``render.replay``): a frame per step, each the game's
own board (pixel for pixel) above its caption strip; under a byte limit by drawing
smaller, then by showing fewer steps (the first and the last always); a game drawing
true-colour boards; and the refusals."""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from PIL import Image, ImageChops

import render
import rules
from render import replay, text
from render.replay import (
    LAST_MS,
    MIN_SCALE,
    Animation,
    Frame,
    TooLarge,
    animate,
    duration,
    spread,
)
from tests.render.helpers import NAMES, replay_frames

GAME = "european_war"


def gif_frames(anim: Animation) -> Iterator[tuple[Image.Image, int]]:
    """Each frame of ``anim`` as shown (RGB), with how long it stays."""
    image = Image.open(io.BytesIO(anim.data))
    assert image.format == "GIF"
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        yield image.convert("RGB"), int(image.info["duration"])


def board_of(frame: Frame) -> Image.Image:
    drawer = render.images_for(GAME)
    assert drawer is not None
    image = Image.open(io.BytesIO(drawer.board(frame.view, NAMES[:4], frame.events)))
    return image.convert("RGB")


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def test_spread_keeps_the_first_and_the_last_step_and_spaces_the_rest() -> None:
    assert spread(5, 10) == [0, 1, 2, 3, 4]
    assert spread(101, 5) == [0, 25, 50, 75, 100]
    assert spread(7, 1) == [6]
    picks = spread(1000, 200)
    assert len(picks) == 200 and picks[0] == 0 and picks[-1] == 999
    assert max(b - a for a, b in itertools.pairwise(picks)) <= 6


def test_every_step_is_a_frame_showing_the_board_as_drawn_with_its_caption() -> None:
    frames = replay_frames(14)
    with text.recording() as drawn:
        anim = animate(GAME, frames, NAMES[:4])
    assert (anim.shown, anim.steps, anim.scale, anim.sampled) == (14, 14, 1.0, False)
    shown = list(gif_frames(anim))
    assert len(shown) == 14
    for (image, _), frame in zip(shown, frames, strict=True):
        assert image.size == (anim.width, anim.height) == (1280, anim.height)
        board = board_of(frame)
        assert same(image.crop((0, 0, *board.size)), board), "the board, pixel for pixel"
    assert [ms for _, ms in shown][-1] == LAST_MS
    assert [ms for _, ms in shown][1] == duration(1, 13, frames[1].caption)
    words = " ".join(drawn)
    for frame in frames:  # its title, then its caption's lines
        assert frame.title in drawn and text.clean(frame.caption) in words
    assert "Seat order:" in words


def test_a_replay_too_large_is_drawn_smaller_before_steps_are_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(replay, "MIN_FRAMES", 8)
    frames = replay_frames(30)
    full = animate(GAME, frames, NAMES[:4])
    smaller = animate(GAME, frames, NAMES[:4], limit=len(full.data) * 3 // 4)
    assert len(smaller.data) <= len(full.data) * 3 // 4
    assert smaller.shown == 30 and MIN_SCALE <= smaller.scale < 1
    assert smaller.width == round(1280 * smaller.scale)
    assert len(list(gif_frames(smaller))) == 30
    fewer = animate(GAME, frames, NAMES[:4], limit=len(full.data) // 4)
    assert len(fewer.data) <= len(full.data) // 4
    assert fewer.scale == MIN_SCALE and 8 <= fewer.shown < 30 and fewer.sampled
    with text.recording() as drawn:
        animate(GAME, frames, NAMES[:4], limit=len(full.data) // 4)
    assert frames[0].title in drawn and frames[-1].title in drawn
    with pytest.raises(TooLarge):
        animate(GAME, frames, NAMES[:4], limit=20_000)


def test_a_long_game_shows_at_most_max_frames_spread_over_it() -> None:
    frames = replay_frames(40)
    anim = animate(GAME, frames, NAMES[:4], max_frames=10)
    assert (anim.shown, anim.steps) == (10, 40)
    shown = [image for image, _ in gif_frames(anim)]
    for image, index in zip(shown, spread(40, 10), strict=True):
        board = board_of(frames[index])
        assert same(image.crop((0, 0, *board.size)), board)


class TrueColour:
    """A made-up game's images: an RGB board of the colour its view names."""

    extras: tuple[str, ...] = ()
    contest: str | None = None

    def board(self, view: Any, names: Sequence[str], events: Sequence[rules.Event] = ()) -> bytes:
        buf = io.BytesIO()
        Image.new("RGB", (320, 200), view).save(buf, "PNG")
        return buf.getvalue()

    def board_text(self, view: Any, names: Sequence[str]) -> str:
        return "a board"

    def holding(self, view: Any) -> Any:
        return None

    def private(self, holding: Any, title: str = "") -> bytes | None:
        return None

    def private_text(self, holding: Any) -> str:
        return ""

    def extra(self, name: str, view: Any, names: Sequence[str], *args: Any) -> bytes:
        raise KeyError(name)

    def extra_text(self, name: str) -> str:
        raise KeyError(name)

    def warm_up(self) -> None:
        pass


def test_a_game_drawing_true_colour_boards_is_replayed_a_palette_per_frame() -> None:
    render.register("true_colour", TrueColour())
    try:
        colours = [(200, 30, 30), (30, 200, 30), (30, 30, 200)]
        frames = [Frame(c, (), str(i), f"Step {i}.") for i, c in enumerate(colours)]
        anim = animate("true_colour", frames, ["A"])
        shown = list(gif_frames(anim))
        assert len(shown) == 3
        for (image, _), colour in zip(shown, colours, strict=True):
            assert image.getpixel((160, 100)) == colour
    finally:
        render.unregister("true_colour")


class Sizes(TrueColour):
    """A game whose board is a different size at each step (``view``: its colour)."""

    def board(self, view: Any, names: Sequence[str], events: Sequence[rules.Event] = ()) -> bytes:
        width = 320 if view == (200, 30, 30) else 160
        out = io.BytesIO()
        Image.new("RGB", (width, 100 if width == 320 else 200), view).save(out, "PNG")
        return out.getvalue()


def test_boards_of_different_sizes_are_fitted_into_the_first_one_s() -> None:
    render.register("sizes", Sizes())
    try:
        colours = [(200, 30, 30), (30, 200, 30), (30, 30, 200)]
        frames = [Frame(c, (), str(i), f"Step {i}.") for i, c in enumerate(colours)]
        shown = list(gif_frames(animate("sizes", frames, ["A"])))
        assert len({image.size for image, _ in shown}) == 1
        first, second = shown[0][0], shown[1][0]
        assert first.getpixel((5, 50)) == colours[0]
        # a tall board in a wide frame: centred, the sides background, none of the
        # previous board left over
        assert second.getpixel((160, 50)) == colours[1]
        assert second.getpixel((5, 50)) == second.getpixel((314, 50)) != colours[0]
    finally:
        render.unregister("sizes")


def test_a_game_without_images_or_steps_has_no_animation() -> None:
    with pytest.raises(LookupError):
        animate("no_such_game", replay_frames(1), NAMES[:4])
    with pytest.raises(ValueError):
        animate(GAME, [], NAMES[:4])


def test_the_gallery_replay_shows_sixty_actions_within_discords_limit() -> None:
    from render.pyramids import gallery

    frames = gallery.replay_frames()
    assert [f.title for f in frames] == ["Start", *(f"{n} / 60" for n in range(1, 61))]
    assert all(f.caption for f in frames)
    anim = animate(GAME, frames, gallery.NAMES[:4])
    assert anim.shown == anim.steps == 61 and anim.scale == 1.0
    assert len(anim.data) <= replay.DISCORD_LIMIT
    assert sum(1 for _ in gif_frames(anim)) == 61


@pytest.mark.parametrize(
    ("title", "caption"),
    [
        (
            "12 / 60",
            "Großbritannien (Computer) marschiert mit einer großen Figur von Frankreich nach "
            "Deutschland ein; Österreich-Ungarn zieht sich nach Süden zurück, und die "
            "Diplomatie endet ohne Einspruch.",
        ),
        (
            "12 / 60",
            "Británie (počítač) vpadla velkou figurkou z Francie do Německa; "
            "Rakousko-Uhersko ustoupilo na jih a diplomacie skončila bez námitek.",
        ),
    ],
)
def test_a_caption_in_a_longer_language_is_drawn_whole(title: str, caption: str) -> None:
    """German and Czech captions (their diacritics, their longer words) are drawn as
    meant: every word, on the strip's lines, at full size and at the smallest."""
    for scale, width in ((1.0, 1280), (MIN_SCALE, 640)):
        with text.recording() as drawn:
            strip = replay.caption_strip(title, caption, width, scale)
        assert strip.width == width
        assert drawn[0] == title
        assert " ".join(drawn[1:]) == caption
        assert not any(line.endswith(text.ELLIPSIS) for line in drawn)
