"""What is PostgreSQL's own in the PostgreSQL store (the store suite runs the rest on it
too): the URL picks it, the numbered migrations in PostgreSQL's dialect build SQLite's
schema under an advisory lock, the action log is append-only, and the server cap holds
between stores of different processes."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from service.migrations import LATEST, MIGRATIONS, Migration, MigrationError
from service.models import GameSettings
from service.pg_migrations import DIALECT
from service.postgres_store import PostgresStore
from service.sqlite_store import SqliteStore
from service.store import GuildFull, NewSeat, StaleVersion, open_store
from tests.postgres import PostgresServer
from tests.service.store_suite.records import act, running_game, write


async def columns(url: str) -> dict[str, list[str]]:
    """Each table of the URL's schema with its columns, in order."""
    conn = await asyncpg.connect(url)
    try:
        found = await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
        )
    finally:
        await conn.close()
    tables: dict[str, list[str]] = {}
    for table, column in found:
        tables.setdefault(table, []).append(column)
    return tables


def sqlite_columns(path: Path) -> dict[str, list[str]]:
    conn = sqlite3.connect(path)
    try:
        names = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        return {n: [c[1] for c in conn.execute(f"PRAGMA table_info({n})")] for n in sorted(names)}
    finally:
        conn.close()


@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
async def test_a_postgresql_url_opens_the_postgresql_store(
    postgres_server: PostgresServer, scheme: str
) -> None:
    url = await postgres_server.fresh_url()
    store = await open_store(url.replace("postgresql://", f"{scheme}://"))
    try:
        assert isinstance(store, PostgresStore)
        assert await store.schema_version() == LATEST
    finally:
        await store.close()


async def test_the_dialect_builds_the_same_tables_and_columns_as_sqlite(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    assert set(DIALECT) <= {m.version for m in MIGRATIONS}
    url = await postgres_server.fresh_url()
    await (await PostgresStore.open(url)).close()
    await (await SqliteStore.open(tmp_path / "g.db")).close()
    assert await columns(url) == sqlite_columns(tmp_path / "g.db")


async def test_processes_migrating_at_once_apply_each_step_once(
    postgres_server: PostgresServer,
) -> None:
    url = await postgres_server.fresh_url()
    stores = await asyncio.gather(*(PostgresStore.open(url) for _ in range(4)))
    for s in stores:
        await s.close()
    conn = await asyncpg.connect(url)
    try:
        versions = [r[0] for r in await conn.fetch("SELECT version FROM schema_migrations")]
    finally:
        await conn.close()
    assert sorted(versions) == [m.version for m in MIGRATIONS]


async def test_a_failing_step_is_rolled_back_and_a_newer_database_refused(
    postgres_server: PostgresServer,
) -> None:
    url = await postgres_server.fresh_url()
    broken = (
        *MIGRATIONS,
        Migration(
            LATEST + 1,
            "broken",
            ("CREATE TABLE half_done (x INTEGER)", "ALTER TABLE no_such ADD COLUMN y INTEGER"),
        ),
    )
    with pytest.raises(MigrationError, match="rolled back"):
        await PostgresStore.open(url, migrations=broken)
    assert "half_done" not in await columns(url)
    newer = (*MIGRATIONS, Migration(LATEST + 1, "future", ("CREATE TABLE f (x INTEGER)",)))
    store = await PostgresStore.open(url, migrations=newer)
    assert await store.schema_version() == LATEST + 1
    await store.close()
    with pytest.raises(MigrationError, match="newer than this code"):
        await PostgresStore.open(url)


async def test_a_skipped_number_is_applied_once_its_step_lands(
    postgres_server: PostgresServer,
) -> None:
    url = await postgres_server.fresh_url()
    skipped = Migration(LATEST + 1, "written elsewhere", ("CREATE TABLE elsewhere (x INTEGER)",))
    later = Migration(LATEST + 2, "written here", ("CREATE TABLE here (x INTEGER)",))
    store = await PostgresStore.open(url, migrations=(*MIGRATIONS, later))
    await store.close()
    store = await PostgresStore.open(url, migrations=(*MIGRATIONS, skipped, later))
    assert await store.schema_version() == LATEST + 2
    await store.close()
    assert {"elsewhere", "here"} <= set(await columns(url))
    with pytest.raises(MigrationError, match="this code does not know"):
        await PostgresStore.open(url, migrations=(*MIGRATIONS, later))


async def test_the_action_log_is_append_only_but_goes_with_its_game(
    postgres_server: PostgresServer,
) -> None:
    url = await postgres_server.fresh_url()
    store = await PostgresStore.open(url)
    try:
        gid = await running_game(store, guild=4)
        rec = await store.load_game(gid)
        assert rec is not None
        await act(store, gid)
        conn = await asyncpg.connect(url)
        try:
            with pytest.raises(asyncpg.CheckViolationError, match="append-only"):
                await conn.execute("UPDATE actions SET seat = 5")
            with pytest.raises(asyncpg.CheckViolationError, match="append-only"):
                await conn.execute("DELETE FROM actions")
        finally:
            await conn.close()
        assert [a.seq for a in await store.actions(gid)] == [1]
        assert await store.delete_guild(4) == 1
        assert await store.actions(gid) == []
    finally:
        await store.close()


async def test_the_server_cap_holds_between_processes(postgres_server: PostgresServer) -> None:
    """Two stores (two pools, as two processes have) open lobbies in one server at once:
    never more than the cap."""
    url = await postgres_server.fresh_url()
    a, b = await PostgresStore.open(url), await PostgresStore.open(url)
    try:

        async def lobby(store: PostgresStore, channel: int) -> int:
            return await store.create_lobby(
                guild_id=77,
                channel_id=channel,
                host_id=channel,
                variant="v",
                settings=GameSettings(),
                host_seat=NewSeat(channel, None, "Ann", None, 0.0),
                expiry=None,
                max_games=5,
                now=0.0,
            )

        results = await asyncio.gather(
            *(lobby(a if c % 2 else b, c) for c in range(1, 41)), return_exceptions=True
        )
        opened = [r for r in results if isinstance(r, int)]
        assert len(opened) == 5
        assert all(isinstance(r, GuildFull) for r in results if not isinstance(r, int))
        assert sorted(g.id for g in await a.load_active()) == sorted(opened)
    finally:
        await a.close()
        await b.close()


async def test_two_processes_writing_the_same_games_at_once_end_serial(
    postgres_server: PostgresServer,
) -> None:
    """Two stores (as two processes) send actions for the same 30 games at once, in
    opposite orders, batched: per game and round exactly one wins, the others are stale,
    nothing deadlocks, and every log stays contiguous."""
    url = await postgres_server.fresh_url()
    a, b = await PostgresStore.open(url), await PostgresStore.open(url)
    try:
        games = [await running_game(a, channel=c) for c in range(1, 31)]
        for _round in range(3):
            recs = [await a.load_game(g) for g in games]
            mine = [
                write(store, r.id, r.revision, r.version, n=i)
                for i, store in enumerate((a, b))
                for r in (recs if store is a else recs[::-1])
                if r is not None
            ]
            results = await asyncio.gather(*mine, return_exceptions=True)
            assert all(r is None or isinstance(r, StaleVersion) for r in results), results
            assert sum(r is None for r in results) == len(games)
        for g in games:
            assert [x.seq for x in await b.actions(g)] == [1, 2, 3]
            rec = await b.load_game(g)
            assert rec is not None and rec.version == 3
    finally:
        await a.close()
        await b.close()
