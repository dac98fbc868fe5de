"""Numbered forward-only migrations: every earlier version upgrades to the latest, each
step is one transaction, and a newer database is refused."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from service.migrations import (
    LATEST,
    MIGRATIONS,
    Migration,
    MigrationError,
    applied_versions,
    current_version,
    migrate,
)
from service.models import GameMessages, GuildSettings, UndoOffer
from service.sqlite_store import SqliteStore


def schema(path: Path) -> list[tuple[str, str, str]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
            "ORDER BY type, name"
        ).fetchall()
    finally:
        conn.close()


async def at_version(path: Path, version: int) -> None:
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        assert await migrate(conn, target=version) == version
    finally:
        await conn.close()


def seed_rows(path: Path, version: int) -> None:
    """Rows a database at ``version`` could hold (columns of that version only)."""
    if version < 1:
        return
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute(
            "INSERT INTO games (id, channel_id, status, variant, host_id, settings, "
            "created_at) VALUES (1, 55, 'lobby', 'european_war', 9, '{}', 1.0)"
        )
        conn.execute(
            "INSERT INTO seats (game_id, user_id, display_name, joined_at) "
            "VALUES (1, 9, 'Ann', 1.0)"
        )
        if version >= 2:
            conn.execute("INSERT INTO decisions VALUES (1, -1, 'lobby', 0, 3600, 3601, NULL)")
        if 3 <= version < 9:  # the columns of migration 3, which migration 9 replaced
            conn.execute(
                "INSERT INTO guild_settings VALUES (77, 600.0, 'arm', 45, 0.0, 1800.0, 3, 1.0)"
            )
        elif version >= 9:  # the same settings, the option defaults as JSON
            conn.execute(
                "INSERT INTO guild_settings (guild_id, turn_timeout, reminder_lead, "
                "lobby_expiry, max_games, options, updated_at) VALUES (77, 600.0, 0.0, 1800.0, 3, "
                """'{"turn_timeout_action": "arm", "diplomacy_seconds": 45}', 1.0)"""
            )
        if version >= 4:
            conn.execute("INSERT INTO user_preferences VALUES (9, 0, 1.0)")
            conn.execute("INSERT INTO guild_departures VALUES (77, 2.0)")
            conn.execute("INSERT INTO bot_meta VALUES ('commands_hash', '1:x')")
        if version >= 5:
            conn.execute(
                "INSERT INTO game_messages (game_id, lobby_channel_id, lobby_message_id, "
                "duel_message_id) VALUES (1, 55, 56, 57)"
            )
            conn.execute("UPDATE seats SET dms_closed = 1")
        if version >= 12:
            conn.execute("INSERT INTO hints VALUES (1, 9, 2)")
    finally:
        conn.close()


NUMBERS = [m.version for m in MIGRATIONS]
"""Every step's number, in order."""


async def test_latest_is_the_last_migration_and_numbers_increase() -> None:
    assert sorted(set(NUMBERS)) == NUMBERS and NUMBERS[0] == 1 and NUMBERS[-1] == LATEST


async def test_an_empty_file_migrates_to_the_latest(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "new.db")
    try:
        assert await store.schema_version() == LATEST
    finally:
        await store.close()
    conn = sqlite3.connect(tmp_path / "new.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    versions = [r[0] for r in conn.execute("SELECT version FROM schema_migrations")]
    assert versions == NUMBERS


@pytest.mark.parametrize("start", [0, *NUMBERS[:-1]])
async def test_every_earlier_version_upgrades_keeping_its_data(tmp_path: Path, start: int) -> None:
    fresh = tmp_path / "fresh.db"
    store = await SqliteStore.open(fresh)
    await store.close()

    old = tmp_path / f"v{start}.db"
    await at_version(old, start)
    seed_rows(old, start)
    store = await SqliteStore.open(old)
    try:
        assert await store.schema_version() == LATEST
        if start >= 1:
            game = await store.load_game(1)
            assert game is not None and game.channel_id == 55 and game.paused_at is None
            assert [s.display_name for s in game.seats] == ["Ann"]
            assert game.seats[0].agrees_draw is False  # column added by migration 3
            assert await store.active_game_in_channel(55) == 1
        # tables of migration 4: the front end's preferences, departures and facts
        kept = start >= 4
        assert await store.user_pings(9) is not kept
        assert await store.departures() == ({77: 2.0} if kept else {})
        assert await store.meta("commands_hash") == ("1:x" if kept else None)
        await store.set_user_pings(8, False, 3.0)
        await store.record_departure(78, 4.0)
        await store.set_meta("k", "v")
        assert not await store.user_pings(8) and 78 in await store.departures()
        # migration 5: message ids per game, closed DMs per seat
        if start >= 1:
            kept = start >= 5
            assert await store.game_messages(1) == (
                GameMessages(55, 56, 57) if kept else GameMessages()
            )
            assert await store.users_with_dms_closed() == ({9} if kept else set())
            await store.set_duel_message(1, 58)
            await store.set_dms_closed(9, True)
            assert (await store.game_messages(1)).duel_message_id == 58
            assert await store.users_with_dms_closed() == {9}
        # migration 9: a server's two option defaults are carried into its option JSON
        expected = GuildSettings(77)
        if start >= 3:
            options = {"turn_timeout_action": "arm", "diplomacy_seconds": 45}
            expected = GuildSettings(77, 600.0, 0.0, 1800.0, 3, options)
        assert await store.guild_settings(77) == expected
        changed = expected.with_changes(options={"diplomacy_seconds": 50})
        await store.save_guild_settings(changed, 5.0)
        assert (await store.guild_settings(77)).options["diplomacy_seconds"] == 50
        # migration 12: hints taken per person and game
        if start >= 1:
            assert await store.hints_taken(9, 1) == (2 if start >= 12 else 0)
            assert await store.count_hint(1, 9) == (3 if start >= 12 else 1)
        # migration 15: an Undo button kept per game, none up after an upgrade
        assert await store.undo_offers() == {}
        if start >= 1:
            offer = UndoOffer(55, 60, 2, 3.0, {"components": []})
            await store.set_undo_offer(1, offer)
            assert await store.undo_offers() == {1: offer}
            assert (await store.game_messages(1)).duel_message_id == 58
    finally:
        await store.close()
    assert schema(old) == schema(fresh)


async def test_a_failing_step_is_rolled_back_whole(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    broken = (
        *MIGRATIONS,
        Migration(
            LATEST + 1,
            "broken",
            (
                "CREATE TABLE half_done (x INTEGER)",
                "ALTER TABLE no_such_table ADD COLUMN y INTEGER",
            ),
        ),
    )
    with pytest.raises(MigrationError, match="rolled back"):
        await SqliteStore.open(path, migrations=broken)
    names = {r[1] for r in schema(path)}
    assert "half_done" not in names
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        assert await current_version(conn) == LATEST
    finally:
        await conn.close()


async def test_a_database_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    newer = (*MIGRATIONS, Migration(LATEST + 1, "future", ("CREATE TABLE f (x)",)))
    store = await SqliteStore.open(path, migrations=newer)
    await store.close()
    with pytest.raises(MigrationError, match="newer than this code"):
        await SqliteStore.open(path)


async def test_two_processes_migrating_at_once_apply_each_step_once(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    stores = await asyncio.gather(*(SqliteStore.open(path) for _ in range(4)))
    for s in stores:
        await s.close()
    conn = sqlite3.connect(path)
    versions = [r[0] for r in conn.execute("SELECT version FROM schema_migrations")]
    assert versions == NUMBERS


async def test_a_skipped_number_is_applied_once_its_step_lands(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    skipped = Migration(LATEST + 1, "written elsewhere", ("CREATE TABLE elsewhere (x)",))
    later = Migration(LATEST + 2, "written here", ("CREATE TABLE here (x)",))
    store = await SqliteStore.open(path, migrations=(*MIGRATIONS, later))
    await store.close()
    store = await SqliteStore.open(path, migrations=(*MIGRATIONS, skipped, later))
    try:
        assert await store.schema_version() == LATEST + 2
    finally:
        await store.close()
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        assert await applied_versions(conn) == {*NUMBERS, LATEST + 1, LATEST + 2}
    finally:
        await conn.close()
    assert {"elsewhere", "here"} <= {r[1] for r in schema(path)}


async def test_a_database_with_a_step_this_code_lacks_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    skipped = Migration(LATEST + 1, "written elsewhere", ("CREATE TABLE elsewhere (x)",))
    later = Migration(LATEST + 2, "written here", ("CREATE TABLE here (x)",))
    store = await SqliteStore.open(path, migrations=(*MIGRATIONS, skipped))
    await store.close()
    with pytest.raises(MigrationError, match=f"step\\(s\\) {LATEST + 1} this code does not know"):
        await SqliteStore.open(path, migrations=(*MIGRATIONS, later))


async def test_two_steps_with_one_number_are_refused(tmp_path: Path) -> None:
    twice = (*MIGRATIONS, Migration(LATEST, "again", ("CREATE TABLE again (x)",)))
    with pytest.raises(MigrationError, match="distinct numbers"):
        await SqliteStore.open(tmp_path / "x.db", migrations=twice)
