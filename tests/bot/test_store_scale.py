"""A cold load does not grow with the history: with 100,000 finished games in the file it
runs exactly the SQLite work it runs with 10 (counted in virtual-machine steps, not timed),
and every query of the load path is an index search (no SCAN in its plan)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from service.migrations import MIGRATIONS
from service.models import GameRecord
from service.sql import Q
from service.sqlite_store import SqliteStore
from service.store import NewSeat
from tests.bot.history import fill_history
from tests.bot.test_store import apply_first_legal, running_game

LOAD_PATH = (
    "select_active_games",
    "select_active_seats",
    "select_active_decisions",
    "select_active_last_acted",
    "select_game",
    "select_seats",
    "select_decisions",
    "select_last_acted",
    "select_users_dms_closed",
    "select_game_messages",
    "select_active_in_channel",
    "count_active_in_guild",
    "select_meta",
    "select_user_pings",
    "select_guild_settings",
)


async def _active_games(path: Path, migrations: Any = MIGRATIONS) -> None:
    """Three running games with a few actions each and one lobby."""
    store = await SqliteStore.open(path, migrations=migrations)
    try:
        for channel in (1, 2, 3):
            gid = await running_game(store, channel=channel, guild=5)
            for _ in range(channel * 2):
                await apply_first_legal(store, gid)
        await store.create_lobby(
            guild_id=5,
            channel_id=4,
            host_id=1,
            variant="european_war",
            settings=(await store.load_game(1)).settings,  # type: ignore[union-attr]  # game 1 exists
            host_seat=NewSeat(1, None, "Ann", None, 0.0),
            expiry=None,
            max_games=None,
            now=0.0,
        )
    finally:
        await store.close()


def _build(path: Path, finished: int, migrations: Any = MIGRATIONS) -> Path:
    asyncio.run(_active_games(path, migrations))
    fill_history(path, finished)
    return path


async def cold_load(
    path: Path,
    migrations: Any = MIGRATIONS,
) -> tuple[int, list[GameRecord]]:
    """What a start-up reads, and the SQLite VM steps it took."""
    store = await SqliteStore.open(path, migrations=migrations)
    steps = [0]

    def tick() -> int:
        steps[0] += 1
        return 0

    try:
        await store._conn.set_progress_handler(tick, 1)
        games = await store.load_active()
        for game in games:
            await store.load_game(game.id)
            await store.active_game_in_channel(game.channel_id)
            await store.game_messages(game.id)
        await store.users_with_dms_closed()
        await store.undo_offers()
        # None removes the handler: sqlite3 allows it, aiosqlite's annotation does not say so
        await store._conn.set_progress_handler(None, 1)  # type: ignore[arg-type]  # see above
    finally:
        await store.close()
    return steps[0], games


@pytest.fixture(scope="module")
def histories(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    root = tmp_path_factory.mktemp("history")
    return {n: _build(root / f"h{n}.db", n) for n in (10, 100_000)}


async def test_a_cold_load_costs_the_same_with_100k_finished_games_as_with_10(
    histories: dict[int, Path],
) -> None:
    small_steps, small = await cold_load(histories[10])
    big_steps, big = await cold_load(histories[100_000])
    assert [(g.id, g.status, g.version, len(g.seats), g.last_acted) for g in big] == [
        (g.id, g.status, g.version, len(g.seats), g.last_acted) for g in small
    ]
    assert len(big) == 4 and big[2].last_acted  # the games really were loaded
    assert big_steps == small_steps, (small_steps, big_steps)


async def test_the_count_would_catch_a_load_that_grows_with_history(tmp_path: Path) -> None:
    """The same measure on the schema without the load-path indexes (migration 6; every
    other step, so the store's statements find their columns): it grows."""
    before = tuple(m for m in MIGRATIONS if m.version != 6)
    for name, count in (("a.db", 10), ("b.db", 5_000)):
        await _active_games(tmp_path / name, before)
        fill_history(tmp_path / name, count)
    small_steps, _ = await cold_load(tmp_path / "a.db", before)
    big_steps, _ = await cold_load(tmp_path / "b.db", before)
    assert big_steps > 10 * small_steps, (small_steps, big_steps)


def test_every_load_path_query_is_an_index_search(histories: dict[int, Path]) -> None:
    conn = sqlite3.connect(histories[100_000])
    try:
        for name in LOAD_PATH:
            sql = getattr(Q, name)
            plan = [
                row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", [1] * sql.count("?"))
            ]
            assert not [p for p in plan if p.startswith("SCAN")], (name, plan)
            assert any(p.startswith("SEARCH") for p in plan), (name, plan)
    finally:
        conn.close()


def test_a_seats_latest_action_is_one_index_search_not_the_games_log(
    histories: dict[int, Path],
) -> None:
    conn = sqlite3.connect(histories[100_000])
    try:
        plan = [row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {Q.select_last_acted}", (1,))]
        assert "SEARCH a USING COVERING INDEX actions_by_seat (game_id=? AND seat=?)" in plan
    finally:
        conn.close()


def test_the_undo_buttons_a_start_up_reads_are_found_in_their_own_index(
    histories: dict[int, Path],
) -> None:
    """Only games with an Undo button up are in the partial index (a handful at most)."""
    conn = sqlite3.connect(histories[100_000])
    try:
        plan = [row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {Q.select_undo_offers}")]
        assert plan == ["SCAN game_messages USING INDEX game_messages_undo_offers"], plan
    finally:
        conn.close()
