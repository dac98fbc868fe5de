"""What a render worker process runs: warm the renderer's caches once, then draw jobs.

:class:`bot.images.Images` sends these functions to its worker processes (or runs them in
a thread when it has no workers). Each job names its game; the images come from the
render registry (:func:`render.images_for`), which importing :mod:`render` fills with the
built-in games' images. The module imports only the renderer, the rules and the bot's
deflater (every PNG it writes is deflated by :mod:`bot.deflate`: ISA-L for boards,
zlib-ng for the rest, see :func:`render.pngwrite.use_zlib`), so a freshly spawned
worker starts in a fraction of a second. Each job returns the CPU time it used (its
thread's CPU time), which the bot adds up (see :attr:`bot.images.Images.cpu_seconds`).

Each drawing job carries the language it is drawn in (one of :data:`i18n.LOCALES`: the
game's for a channel's picture, the person's for their hand, the caller's for a chart or
a replay) and draws inside ``i18n.use`` of it, so every word on the image is in it.
"""

from __future__ import annotations

import logging
import os
import time
import traceback
from collections.abc import Sequence
from typing import Any

import render
import rules
from render import replay
from render.chart import Series, rating_chart
from render.pngwrite import use_zlib
from rules import i18n

from . import deflate

log = logging.getLogger("bot.render_worker")

# every process that draws for the bot (its workers, or the bot itself when it has none)
# imports this module: all of them deflate alike, so they give the same bytes
use_zlib(deflate)


class NoImages(LookupError):
    """The game has no images of that kind (a front end shows it in words)."""


def images(game: str) -> render.GameImages:
    """The registered images of ``game``.

    Raises:
        NoImages: the game has none.
    """
    found = render.images_for(game)
    if found is None:
        raise NoImages(f"the game {game!r} has no images")
    return found


def start(warm_caches: bool) -> None:
    """A worker's initializer: (``warm_caches``) :func:`warm`."""
    if warm_caches:
        warm()


def warm() -> None:
    """Warm every registered game's images (static layers, palettes, sprites, one
    sample board, so text and piece caches are warm too). Never raises: a worker whose
    warm-up failed still draws, only its first images are slower."""
    for game in render.drawn_games():
        try:
            images(game).warm_up()
        except Exception:
            log.exception("warming up the %s images failed", game)


def start_background() -> None:
    """The replay worker's initializer: it runs below the other workers' priority, so a
    long replay never slows the channels' boards (no warm-up: it builds what the game it
    first replays needs)."""
    try:
        os.nice(10)
    except OSError:  # not allowed here: it still works, at the same priority
        log.warning("the replay worker could not lower its priority")


def ready() -> int:
    """This worker's pid (a worker runs it after its initializer: it comes back once
    the worker is warm)."""
    return os.getpid()


def board_job(
    language: str, game: str, view: Any, names: Sequence[str], events: Sequence[rules.Event]
) -> tuple[bytes, str | None, str | None, float]:
    """Draw a board in ``language``: (PNG, summary or None, the summary's error text or
    None, CPU s).

    A failing summary does not lose the image (the caller logs the error text).

    Raises:
        NoImages: the game has no images.
    """
    start = time.thread_time()
    with i18n.use(language):
        drawer = images(game)
        try:
            summary, fault = drawer.board_text(view, names), None
        except Exception:
            summary, fault = None, traceback.format_exc()
        data = drawer.board(view, names, events)
    return data, summary, fault, time.thread_time() - start


def private_job(language: str, game: str, holding: Any, title: str) -> tuple[bytes | None, float]:
    """Draw what one seat holds (a hand of cards) in ``language``: (PNG or None, CPU
    seconds).

    Raises:
        NoImages: the game has no images.
    """
    start = time.thread_time()
    with i18n.use(language):
        data = images(game).private(holding, title)
    return data, time.thread_time() - start


def extra_job(
    language: str,
    game: str,
    name: str,
    view: Any,
    names: Sequence[str],
    result: rules.Event | None,
    events: Sequence[rules.Event],
) -> tuple[bytes, float]:
    """Draw the game's extra image ``name`` (a contest's) in ``language``: (PNG, CPU
    seconds).

    Raises:
        NoImages: the game has no images.
        KeyError: it has no extra image of that name.
    """
    start = time.thread_time()
    with i18n.use(language):
        data = images(game).extra(name, view, names, result, events)
    return data, time.thread_time() - start


def chart_job(language: str, name: str, series: Sequence[Series]) -> tuple[bytes, float]:
    """Draw a person's rating over time (:func:`render.chart.rating_chart`) in
    ``language``: (PNG, CPU seconds).

    Raises:
        ValueError: no series has a point.
    """
    start = time.thread_time()
    with i18n.use(language):
        data = rating_chart(name, series)
    return data, time.thread_time() - start


def replay_job(
    language: str, game: str, frames: Sequence[replay.Frame], names: Sequence[str], limit: int
) -> tuple[replay.Animation, float]:
    """Draw the replay of ``frames`` in ``language`` as an animation of at most
    ``limit`` bytes: (the animation, CPU seconds).

    Raises:
        NoImages: the game has no images.
        render.replay.TooLarge: it does not fit in ``limit``.
    """
    start = time.thread_time()
    images(game)
    with i18n.use(language):
        animation = replay.animate(game, frames, names, limit=limit)
    return animation, time.thread_time() - start
