"""Images in the right language: a drawing job carries the language it is drawn in and
the worker draws inside it (whatever the worker's own context), and a board is cached per
language."""

from __future__ import annotations

import contextvars
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

import render
from bot import render_worker
from bot.images import Images
from rules import i18n

GAME = "language_probe"


class Probe:
    """Images that draw the language they are drawn in (and count their boards)."""

    extras: tuple[str, ...] = ()
    contest = None

    def __init__(self) -> None:
        self.boards = 0

    def board(self, view: Any, names: Sequence[str], events: Sequence[Any] = ()) -> bytes:
        self.boards += 1
        return i18n.current().encode()

    def board_text(self, view: Any, names: Sequence[str]) -> str:
        return f"board in {i18n.current()}"

    def holding(self, view: Any) -> Any:
        return view

    def private(self, holding: Any, title: str = "") -> bytes | None:
        return f"{i18n.current()}:{title}".encode()

    def private_text(self, holding: Any) -> str:
        return "hand"

    def extra(self, name: str, *args: Any) -> bytes:
        return i18n.current().encode()

    def extra_text(self, name: str) -> str:
        return name

    def warm_up(self) -> None:
        pass


@pytest.fixture
def probe() -> Iterator[Probe]:
    images = Probe()
    render.registry.register(GAME, images)
    try:
        yield images
    finally:
        render.registry.unregister(GAME)


def test_a_job_draws_in_the_language_it_carries(probe: Probe) -> None:
    fresh = contextvars.Context()  # a worker's own context: English
    data, summary, fault, _cpu = fresh.run(render_worker.board_job, "cs", GAME, None, [], [])
    assert (data, summary, fault) == (b"cs", "board in cs", None)
    hand, _cpu = fresh.run(render_worker.private_job, "de", GAME, None, "Deine Hand")
    assert hand == b"de:Deine Hand"
    assert fresh.run(i18n.current) == i18n.DEFAULT


async def test_a_board_is_drawn_and_cached_per_language(probe: Probe) -> None:
    images = Images(workers=0, warm=False)
    try:
        drawn = {}
        for language in ("fr", "de", "fr"):
            with i18n.use(language):
                drawn[language] = await images.board(None, [], game=GAME, key=(7, 3))
        assert probe.boards == 2, "the French board came from the cache the second time"
        assert (drawn["fr"].data, drawn["de"].data) == (b"fr", b"de")
        assert drawn["de"].description == "board in de"
        with i18n.use("cs"):
            hand = await images.hand(None, "Tvoje ruka", game=GAME)
        assert hand.data == b"cs:Tvoje ruka"
    finally:
        await images.close()
