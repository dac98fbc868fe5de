"""What a render worker process runs: warm the renderer's caches once, then draw jobs.

:class:`bot.images.Images` sends these functions to its worker processes (or runs them in
a thread when it has no workers). Each job names its game; the images come from the
render registry (:func:`render.images_for`), which importing :mod:`render` fills with the
built-in games' images. The module imports only the renderer, the rules and the bot's
deflater (every PNG it writes is deflated by :mod:`bot.deflate`: ISA-L for boards,
zlib-ng for the rest, see :func:`render.pngwrite.use_zlib`), so a freshly spawned
worker starts in a fraction of a second. Each job returns the CPU time it used (its
thread's CPU time), which the bot adds up (see :attr:`bot.images.Images.cpu_seconds`).
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
from render.pngwrite import use_zlib

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


def ready() -> int:
    """This worker's pid (a worker runs it after its initializer: it comes back once
    the worker is warm)."""
    return os.getpid()


def board_job(
    game: str, view: Any, names: Sequence[str], events: Sequence[rules.Event]
) -> tuple[bytes, str | None, str | None, float]:
    """Draw a board: (PNG, summary or None, the summary's error text or None, CPU s).

    A failing summary does not lose the image (the caller logs the error text).

    Raises:
        NoImages: the game has no images.
    """
    start = time.thread_time()
    drawer = images(game)
    try:
        summary, fault = drawer.board_text(view, names), None
    except Exception:
        summary, fault = None, traceback.format_exc()
    data = drawer.board(view, names, events)
    return data, summary, fault, time.thread_time() - start


def private_job(game: str, holding: Any, title: str) -> tuple[bytes | None, float]:
    """Draw what one seat holds (a hand of cards): (PNG or None, CPU seconds).

    Raises:
        NoImages: the game has no images.
    """
    start = time.thread_time()
    data = images(game).private(holding, title)
    return data, time.thread_time() - start


def extra_job(
    game: str,
    name: str,
    view: Any,
    names: Sequence[str],
    result: rules.Event | None,
    events: Sequence[rules.Event],
) -> tuple[bytes, float]:
    """Draw the game's extra image ``name`` (a contest's): (PNG, CPU seconds).

    Raises:
        NoImages: the game has no images.
        KeyError: it has no extra image of that name.
    """
    start = time.thread_time()
    data = images(game).extra(name, view, names, result, events)
    return data, time.thread_time() - start
