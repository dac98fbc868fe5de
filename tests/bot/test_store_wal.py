"""The store's WAL on a real file: checkpoints keep up with a steady stream of actions,
so the WAL starts over instead of growing for as long as the bot runs."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import struct
from pathlib import Path

import pytest

from bot import store as store_module
from bot.sql import Q
from bot.store import WAL_SIZE_LIMIT, Store

from .test_store import apply_first_legal, running_game


def wal_generation(db: Path) -> int:
    """The WAL header's first salt: SQLite adds one to it each time the WAL starts over
    from its beginning (the checkpoint sequence number beside it is counted per
    connection)."""
    with open(db.with_name(db.name + "-wal"), "rb") as f:
        return int(struct.unpack(">I", f.read(20)[16:20])[0])


async def test_what_is_committed_during_a_checkpoint_is_copied_so_the_wal_starts_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "START_OVER_FRAMES", 1)  # each checkpoint: a small file
    path = tmp_path / "games.db"
    store = await Store.open(path)
    try:
        gid = await running_game(store)
        for _ in range(3):
            await apply_first_legal(store, gid)
        async with store._lock:  # a batch of actions is being written
            checkpoint = asyncio.create_task(store._checkpoint())
            while not store._lock._waiters and not checkpoint.done():  # copied beside the writer
                await asyncio.sleep(0.001)
            with contextlib.closing(sqlite3.connect(path)) as other, other:  # a commit meanwhile
                other.execute(Q.upsert_meta, ("k", "v"))
            before = wal_generation(path)
        await checkpoint
        await apply_first_legal(store, gid)
        # a checkpoint beside the writer alone leaves that commit's frames uncopied:
        # under a steady stream of actions the WAL would never start over
        assert wal_generation(path) != before
    finally:
        await store.close()


async def test_a_checkpoint_holds_no_write_until_the_wal_is_large(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    store = await Store.open(path)
    try:
        gid = await running_game(store)
        for _ in range(3):
            await apply_first_legal(store, gid)
        before = wal_generation(path)
        async with store._lock:  # a batch being written all along
            # a few frames: copied beside the writer only, never waiting for the lock
            # (the generous bound only keeps a broken store from hanging the suite)
            await asyncio.wait_for(store._checkpoint(), timeout=60)
        await apply_first_legal(store, gid)
        assert wal_generation(path) != before  # nothing was committed meanwhile: all copied
    finally:
        await store.close()


async def test_a_grown_wal_is_cut_back_once_it_starts_over(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "games.db")
    try:
        cur = await store._conn.execute("PRAGMA journal_size_limit")
        assert (await cur.fetchone()) == (WAL_SIZE_LIMIT,)
    finally:
        await store.close()
