"""What a render worker process runs: warm the renderer's caches once, then draw jobs.

:class:`bot.images.Images` sends these functions to its worker processes (or runs them in
a thread when it has no workers). The module imports only the renderer, the rules and
zlib-ng (every PNG it writes is deflated with zlib-ng, see :func:`render.pngwrite.use_deflate`), so
a freshly spawned worker starts in a fraction of a second. Each job returns the CPU time
it used (its thread's CPU time), which the bot adds up (see :attr:`bot.images.Images.cpu_seconds`).
"""

from __future__ import annotations

import logging
import os
import time
import traceback
from collections.abc import Sequence
from typing import Any

from zlib_ng import zlib_ng

import render
import rules
from render.pngwrite import use_deflate
from rules import pyramids

log = logging.getLogger("bot.render_worker")

# every process that draws for the bot (its workers, or the bot itself when it has none)
# imports this module: all of them deflate with zlib-ng, so they give the same bytes
use_deflate(zlib_ng.compress)

WARM_VARIANTS = ("european_war", "world_war_5")
ROLL_CALL_TIMEOUT = 300.0
"""Seconds a warm worker waits at the roll call for the others before giving up."""

_roll_call: Any = None
"""This worker's pool's barrier (see :func:`start` and :func:`ready`)."""


def start(warm_caches: bool, roll_call: Any = None) -> None:
    """A worker's initializer: keep the pool's ``roll_call`` (a ``Barrier`` of as many
    parties as workers) for :func:`ready`, then (``warm_caches``) :func:`warm`."""
    global _roll_call
    _roll_call = roll_call
    if warm_caches:
        warm()


def warm(draw_boards: bool = True) -> None:
    """Build the static layers, palettes and sprites, then (``draw_boards``) draw one
    board of each variant so text and piece caches are warm too. Never raises: a worker
    whose warm-up failed still draws, only its first images are slower."""
    try:
        render.warm_up(WARM_VARIANTS)
    except Exception:
        log.exception("warming up the renderer failed")
    if not draw_boards:
        return
    for variant in WARM_VARIANTS:
        try:
            game, _ = pyramids.new_game(variant, [None] * 3, seed=1)
            render.board_png(pyramids.view_for(game, None), ["P0", "P1", "P2"])
        except Exception:
            log.exception("warming up the %s board failed", variant)


def ready() -> int:
    """The roll call: returns this worker's pid once every worker of the pool has
    finished its initializer (each waits at the barrier in one ``ready`` job, so as many
    of these jobs as workers come back only when all are warm).

    Raises:
        threading.BrokenBarrierError: a worker did not arrive in ``ROLL_CALL_TIMEOUT``.
    """
    if _roll_call is not None:
        _roll_call.wait(ROLL_CALL_TIMEOUT)
    return os.getpid()


def board_job(
    view: pyramids.View, names: Sequence[str], events: Sequence[rules.Event]
) -> tuple[bytes, str | None, str | None, float]:
    """Draw a board: (PNG, summary or None, the summary's error text or None, CPU s).

    A failing summary does not lose the image (the caller logs the error text)."""
    start = time.thread_time()
    try:
        summary, fault = render.board_summary(view, names), None
    except Exception:
        summary, fault = None, traceback.format_exc()
    data = render.board_png(view, names, events)
    return data, summary, fault, time.thread_time() - start


def hand_job(cards: Sequence[int], title: str) -> tuple[bytes, float]:
    """Draw a hand of cards: (PNG, CPU seconds)."""
    start = time.thread_time()
    data = render.hand_png(cards, title=title)
    return data, time.thread_time() - start


def duel_job(
    view: pyramids.View,
    names: Sequence[str],
    result: rules.Event | None,
    events: Sequence[rules.Event],
) -> tuple[bytes, float]:
    """Draw a duel: (PNG, CPU seconds)."""
    start = time.thread_time()
    data = render.duel_png(view, names, result, events=events)
    return data, time.thread_time() - start
