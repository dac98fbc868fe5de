"""The image pool for real: worker processes draw the same bytes as this process, run jobs
side by side, keep channel images ahead of hands, survive a dying worker, and stop on
close. (The rest of the suite draws in threads: ``tests/conftest.py``.)"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import multiprocessing
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import render
from bot.config import load_settings, render_workers
from bot.images import IN_FLIGHT_PER_WORKER, Images, NoImages, running
from rules import pyramids
from service.config import ConfigError
from tests.render.helpers import decode

NAMES = ("Ada", "Bo", "Cy")


def _view(variant: str = "european_war", seed: int = 7) -> pyramids.View:
    game, _ = pyramids.new_game(variant, [None] * 3, seed=seed)
    return pyramids.view_for(game, None)


def _duel_view() -> pyramids.View:
    from render.pyramids.png_palette import sample_view

    view = sample_view("european_war")
    order = list(pyramids.load_board("european_war").field_order)
    battle = pyramids.BattleView(
        stage="duel",
        attacker=0,
        defender=1,
        src=order[0],
        dst=order[1],
        attacker_size=3,
        defender_size=2,
        attacker_cards=(4, 30),
        defender_cards=(12,),
        attacker_limit=3,
        defender_limit=2,
        attacker_total=0,
        defender_total=0,
        attacker_done=False,
        defender_done=False,
        to_play=1,
        waiting_for=(),
        retreat_options=(),
    )
    return dataclasses.replace(view, battle=battle)


# ---------------------------------------------------------------- jobs for the workers
def _meet(barrier: Any) -> tuple[int, int]:
    barrier.wait(timeout=60)
    return os.getpid(), _cached_board_palettes()


def _wait_for(event: Any) -> int:
    event.wait(timeout=60)
    return os.getpid()


def _cached_board_palettes() -> int:
    from render.pyramids.png_palette import _board_palette

    return _board_palette.cache_info().currsize


def _die_once(flag: str) -> str:
    """Kills the worker unpickling it the first time; later ones get the name "Cy"."""
    if not Path(flag).exists():
        Path(flag).touch()
        os._exit(1)
    return "Cy"


@dataclasses.dataclass
class _DieOnce:
    flag: str

    def __reduce__(self) -> tuple[Any, ...]:
        return (_die_once, (self.flag,))


class _Die:
    """Kills every worker that unpickles it."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (os._exit, (1,))


# ---------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def pool() -> Iterator[Images]:
    """Two warm workers, shared by the tests that do not break them."""
    images = Images(workers=2)
    asyncio.run(images.warm_up())
    yield images
    asyncio.run(images.close())


@pytest.fixture(scope="module")
def manager() -> Iterator[Any]:
    with multiprocessing.get_context("spawn").Manager() as m:
        yield m


# ---------------------------------------------------------------- tests
async def test_two_workers_draw_at_once_both_warmed_up(pool: Images, manager: Any) -> None:
    # first in this module: no image has been drawn yet, so caches come from warm-up
    barrier = manager.Barrier(2)
    # each job waits for the other: both finish only if two processes run them together
    met = await asyncio.gather(pool._run(True, _meet, barrier), pool._run(True, _meet, barrier))
    assert sorted(pid for pid, _ in met) == pool.worker_pids()
    assert [palettes for _, palettes in met] == [2, 2]  # built in every initializer


async def test_warm_workers_draw_the_same_bytes_as_this_process(pool: Images) -> None:
    assert len(pool.worker_pids()) == 2 and os.getpid() not in pool.worker_pids()
    before = pool.rendered
    for variant in ("european_war", "world_war_5"):
        view = _view(variant)
        picture = await pool.board(view, NAMES, game=variant)
        assert picture.data == render.pyramids.board_png(view, NAMES)
        assert picture.description == render.pyramids.board_summary(view, NAMES)
    hand = await pool.hand([3, 17, 51], "Your hand", game="european_war")
    assert hand.data == render.pyramids.hand_png([3, 17, 51], title="Your hand")
    duel = _duel_view()
    contest = await pool.contest(duel, NAMES, game="european_war")
    assert contest is not None and contest.data == render.pyramids.duel_png(duel, NAMES)
    assert pool.rendered == before + 4 and pool.cpu_seconds > 0
    assert pool.pools_started == 1


async def test_each_game_has_a_home_worker_that_draws_its_boards(pool: Images) -> None:
    homes = [pool._home(("home test", g)) for g in range(4)]
    assert sorted(h for h in homes if h is not None) == [0, 0, 1, 1]  # fewest games first
    assert pool._home(("home test", 0)) == homes[0]  # kept
    for home in (0, 1):
        worker = pool._pools[home] if pool._pools else None
        assert worker is not None
        (process,) = worker._processes.values()
        assert await pool._run(True, os.getpid, home=home) == process.pid
    view = _view(seed=9)
    drawn = await pool.board(view, NAMES, game="european_war", key=(9001, 1))
    assert 9001 in pool._homes and drawn.data == render.pyramids.board_png(view, NAMES)


async def test_channel_images_go_before_hands(pool: Images, manager: Any) -> None:
    slots = IN_FLIGHT_PER_WORKER * pool.workers
    events = [manager.Event() for _ in range(slots)]
    done: list[str] = []

    async def hand() -> None:
        await pool.hand([1, 2], "", game="european_war")
        done.append("hand")

    async def board() -> None:
        await pool.board(_view(seed=8), NAMES, game="european_war")
        done.append("board")

    busy = [asyncio.ensure_future(pool._run(True, _wait_for, e)) for e in events]
    await asyncio.sleep(0)
    waiting = [asyncio.ensure_future(hand())]
    await asyncio.sleep(0)
    waiting.append(asyncio.ensure_future(board()))
    await asyncio.sleep(0)
    assert pool._gate.free == [0, 0] and pool.queued == 2  # every slot taken
    events[0].set()  # one slot frees up: the board, asked for last, takes it
    await busy[0]
    for _ in range(100):
        if pool.queued == 1:
            break
        await asyncio.sleep(0)
    assert [urgency for urgency, _ in pool._gate.pending()] == [1]  # the hand still waits
    for event in events[1:]:
        event.set()
    await asyncio.gather(*busy, *waiting)
    assert sorted(done) == ["board", "hand"]


async def test_a_failing_drawing_gives_a_placeholder_and_keeps_the_pool(
    pool: Images, caplog: pytest.LogCaptureFixture
) -> None:
    bad = dataclasses.replace(_view(), board_id="atlantis")
    with caplog.at_level(logging.ERROR, "bot.images"):
        picture = await pool.board(bad, NAMES, game="european_war")
    assert decode(picture.data).size == (480, 120)
    assert any("board image failed" in r.getMessage() for r in caplog.records)
    good = await pool.board(_view(), NAMES, game="european_war")
    assert good.data == render.pyramids.board_png(_view(), NAMES) and pool.pools_started == 1


async def test_a_dying_worker_is_replaced_and_the_image_drawn_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    images = Images(workers=1, warm=False)  # workers that start fast: four pools here
    try:
        with caplog.at_level(logging.WARNING, "bot.images"):
            poison = _DieOnce(str(tmp_path / "f"))
            poisoned = images.hand([5, 9], poison, game="world_war_5")  # type: ignore[arg-type]  # kills a worker
            picture = await poisoned
        assert picture.data == render.pyramids.hand_png([5, 9], title="Cy")
        assert images.pools_started == 2
        assert any("render worker died" in r.getMessage() for r in caplog.records)

        # dying in the new pool too: a placeholder, and the next image still comes
        with caplog.at_level(logging.ERROR, "bot.images"):
            dying = ("Ada", _Die())
            lost = await images.board(_view(), dying, game="european_war")  # type: ignore[arg-type]
        assert decode(lost.data).size == (480, 120) and images.pools_started == 3
        assert any("board image failed" in r.getMessage() for r in caplog.records)
        again = await images.hand([5], "", game="european_war")
        assert again.data == render.pyramids.hand_png([5]) and images.pools_started == 4
    finally:
        await images.close()


async def test_close_ends_the_workers_even_while_they_warm_up() -> None:
    images = Images(workers=2)
    warming = asyncio.ensure_future(images.warm_up())
    assert await images._executor(0) is not None
    procs = [p for pool in images._pools or [] if pool for p in pool._processes.values()]
    assert len(procs) == 2
    view = _view()
    waiting = asyncio.ensure_future(
        images.board(view, NAMES, game="european_war")
    )  # queued behind warm-up
    await asyncio.sleep(0)
    await images.close()
    await warming  # returns quietly
    assert running(procs) == [] and images.worker_pids() == []
    # the image in flight, and one asked for after close, are drawn (in a thread)
    assert (await waiting).data == render.pyramids.board_png(view, NAMES)
    assert (
        await images.board(view, ["Ann"], game="european_war")
    ).data == render.pyramids.board_png(view, ["Ann"])
    assert images.pools_started == 1


async def test_without_workers_images_are_drawn_in_threads() -> None:
    images = Images(workers=0)
    view = _view("world_war_5")
    assert (await images.board(view, NAMES, game="world_war_5")).data == render.pyramids.board_png(
        view, NAMES
    )
    assert images.worker_pids() == [] and images.pools_started == 0
    await images.close()


def test_render_workers_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert render_workers(None) is None and render_workers(" ") is None
    assert render_workers("0") == 0 and render_workers("3") == 3
    for bad in ("-1", "two", "65"):
        with pytest.raises(ConfigError, match="RENDER_WORKERS"):
            render_workers(bad)
    assert load_settings({"RENDER_WORKERS": "2"}, env_file=None).render_workers == 2
    assert load_settings({}, env_file=None).render_workers is None
    monkeypatch.setenv("RENDER_WORKERS", "3")
    assert Images().workers == 3
    monkeypatch.delenv("RENDER_WORKERS")
    assert Images().workers == len(os.sched_getaffinity(0))


async def test_the_bot_takes_its_workers_from_the_settings(tmp_path: Path) -> None:
    from bot.config import Settings
    from bot.resources import open_resources

    settings = Settings(
        discord_token=None,
        database_url=f"sqlite:///{tmp_path}/g.db",
        dev_guild_id=None,
        log_level="INFO",
        discord_api_base=None,
        discord_gateway_url=None,
        render_workers=3,
    )
    async with open_resources(settings) as resources:
        assert resources.images.workers == 3
    assert resources.images._closed


def test_the_bots_drawing_processes_deflate_boards_with_isal_and_the_rest_with_zlib_ng() -> None:
    import struct
    import zlib

    from isal import isal_zlib
    from zlib_ng import zlib_ng

    import bot.render_worker  # noqa: F401  (sets the deflater of every drawing process)
    from render import pngwrite
    from render.pngwrite import write_rows
    from render.pyramids import BOARD_LEVEL

    width, height = 1751, 8  # each row: a filter byte (0 here), then 1,751 pixels
    rows = (bytes(range(256)) * 40 + bytes(4000))[: height * (width + 1)]
    png = write_rows(rows, width, height, [0, 0, 0] * 256)
    at = png.index(b"IDAT")
    (length,) = struct.unpack(">I", png[at - 4 : at])
    assert png[at + 4 : at + 4 + length] == zlib_ng.compress(rows, 4)  # hands, duels
    # boards go in bands at their level, deflated by ISA-L (zlib-ng's bytes differ), each
    # band a segment of its own: the segments join into one valid stream
    band = 4 * (width + 1)
    banded = pngwrite.deflate_bands(rows, band, BOARD_LEVEL)
    assert zlib.decompress(banded) == rows
    segments = []
    for start in (0, band):
        c = isal_zlib.compressobj(1, isal_zlib.DEFLATED, -15)
        segments.append(c.compress(rows[start : start + band]) + c.flush(isal_zlib.Z_FULL_FLUSH))
    assert banded[2:-6] == b"".join(segments)
    ng = zlib_ng.compressobj(BOARD_LEVEL, zlib_ng.DEFLATED, -15)
    assert not banded[2:].startswith(ng.compress(rows[:band]) + ng.flush(zlib_ng.Z_FULL_FLUSH))


async def test_the_bot_asks_the_registry_by_the_games_name() -> None:
    from tests.render.test_registry import Plain

    images = Images(workers=0)
    render.register("plain_test_game", Plain())
    try:
        assert images.draws("plain_test_game") and images.draws("european_war")
        picture = await images.board("a view", ["Ann"], game="plain_test_game")
        assert picture.data == b"board:" + repr(("a view", ("Ann",))).encode()
        assert picture.description == "a plain board"
        assert images.board_text("a view", ["Ann"], game="plain_test_game") == "a plain board"
        before = images.rendered
        # a game whose seats' holdings go in words, and a game without a contest image
        with pytest.raises(NoImages):
            await images.hand([1], "Yours", game="plain_test_game")
        assert await images.contest("a view", ["Ann"], game="plain_test_game") is None
        assert images.channel_files("plain_test_game") == {"board.png"}
        assert images.channel_files("european_war") == {"board.png", "duel.png"}
        assert images.rendered == before
    finally:
        render.unregister("plain_test_game")
        await images.close()


async def test_a_game_without_images_is_refused_before_anything_is_drawn() -> None:
    from tests.games.claim_line import NAME as CLAIM_LINE

    images = Images(workers=0)
    try:
        assert not images.draws(CLAIM_LINE)
        with pytest.raises(NoImages):
            await images.board(object(), ["Ann"], game=CLAIM_LINE)
        with pytest.raises(NoImages):
            images.board_text(object(), ["Ann"], game=CLAIM_LINE)
        with pytest.raises(NoImages):
            await images.hand([1], game=CLAIM_LINE)
        with pytest.raises(NoImages):
            await images.extra("duel", object(), ["Ann"], game=CLAIM_LINE)
        assert images.rendered == 0 and images.pools_started == 0
    finally:
        await images.close()
