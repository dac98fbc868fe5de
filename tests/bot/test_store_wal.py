"""The store's WAL on a real file: checkpoints keep up with a steady stream of actions,
so the WAL starts over instead of growing for as long as the bot runs."""

from __future__ import annotations

import asyncio
import struct
from pathlib import Path

from bot.store import WAL_SIZE_LIMIT, Store

from .test_store import apply_first_legal, running_game


def wal_restarts(db: Path) -> int:
    """The WAL header's checkpoint sequence number: SQLite adds one each time the WAL
    starts over from its beginning."""
    with open(db.with_name(db.name + "-wal"), "rb") as f:
        return int(struct.unpack(">I", f.read(16)[12:16])[0])


async def test_the_wal_starts_over_after_each_checkpoint_while_actions_keep_coming(
    tmp_path: Path,
) -> None:
    path = tmp_path / "games.db"
    store = await Store.open(path)
    streams = [await running_game(store, channel=c) for c in (1, 2, 3)]
    probe = await running_game(store, channel=4)
    stop = asyncio.Event()
    committed = [0]

    async def stream(gid: int) -> None:
        while not stop.is_set():
            await apply_first_legal(store, gid)
            committed[0] += 1

    tasks = [asyncio.create_task(stream(g)) for g in streams]
    try:
        for _ in range(3):
            start = committed[0]
            while committed[0] < start + 10:  # the stream is flowing
                await asyncio.sleep(0)
            before = wal_restarts(path)
            during = committed[0]
            await store._checkpoint()
            assert committed[0] > during, "actions were committed during the checkpoint"
            await apply_first_legal(store, probe)
            # a checkpoint beside the writer alone never copies the frames committed
            # during it, and the WAL cannot start over
            assert wal_restarts(path) > before
    finally:
        stop.set()
        await asyncio.gather(*tasks)
        await store.close()


async def test_a_grown_wal_is_cut_back_once_it_starts_over(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "games.db")
    try:
        cur = await store._conn.execute("PRAGMA journal_size_limit")
        assert (await cur.fetchone()) == (WAL_SIZE_LIMIT,)
    finally:
        await store.close()
