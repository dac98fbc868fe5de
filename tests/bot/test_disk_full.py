"""A full disk at run time, on a real SQLite fault (``PRAGMA max_page_count`` lowered to
the file's size, so a write that needs a new page fails with SQLITE_FULL): the player is
told plainly and privately, nothing changes in memory or in the file, computer moves and
timeouts wait and are retried — never skipped — and play resumes once there is space."""

from __future__ import annotations

import json
import random
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from service import DISK_FULL, GameService, computer
from service.core import FULL_RETRY
from service.scheduler import FakeClock
from service.sqlite_store import SqliteStore
from service.store import Store, StoreFull
from tests.bot.helpers import make_service, new_game
from tests.bot.test_store import apply_first_legal, running_game

T = TypeVar("T")


async def disk_full(store: Store) -> None:
    """No page beyond the file's current size and none free inside it (the outbox frees
    pages as it sends): the next write that needs a page fails."""
    assert isinstance(store, SqliteStore)
    await store._conn.execute("VACUUM")
    cur = await store._conn.execute("PRAGMA page_count")
    (pages,) = await cur.fetchone()  # type: ignore[misc]  # PRAGMA returns a row
    await store._conn.execute(f"PRAGMA max_page_count = {int(pages)}")


async def space_again(store: Store) -> None:
    assert isinstance(store, SqliteStore)
    await store._conn.execute("PRAGMA max_page_count = 1073741823")


async def write_until_full(store: Store, gid: int, before_each: Callable[[], T]) -> T:
    """Apply legal actions to game ``gid`` until a write fails with StoreFull; returns
    what ``before_each`` said just before that write."""
    for _ in range(200):  # until a write needs a page the file may not have
        before = before_each()
        try:
            await apply_first_legal(store, gid)
        except StoreFull:
            return before
    raise AssertionError("the disk never filled")


def stored(path: Path, gid: int) -> tuple[int, int, str, int]:
    """(version, revision, snapshot, number of actions) as the file holds them."""
    conn = sqlite3.connect(path)
    try:
        version, revision, state = conn.execute(
            "SELECT version, revision, state FROM games WHERE id = ?", (gid,)
        ).fetchone()
        (count,) = conn.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (gid,)).fetchone()
        return version, revision, state, count
    finally:
        conn.close()


def cached(svc: GameService, gid: int) -> tuple[int, int, str]:
    live = svc._games[gid]
    assert live.state is not None
    return live.version, live.revision, json.dumps(live.state.to_dict(), sort_keys=True)


async def test_the_store_raises_store_full_and_keeps_nothing(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "g.db")
    try:
        gid = await running_game(store)
        await disk_full(store)
        before = await write_until_full(store, gid, lambda: stored(tmp_path / "g.db", gid))
        assert stored(tmp_path / "g.db", gid) == before
        await space_again(store)
        await apply_first_legal(store, gid)  # the very same write now goes through
        assert stored(tmp_path / "g.db", gid)[0] == before[0] + 1
    finally:
        await store.close()


async def test_a_player_is_told_the_disk_is_full_and_the_same_action_works_later(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    svc = await make_service(path, FakeClock())
    try:
        gid, _ = await new_game(svc, humans=2)
        await disk_full(svc.store)
        for _ in range(200):
            prompt = (await svc.prompts(gid))[0]
            mem, disk = cached(svc, gid), stored(path, gid)
            assert prompt.user_id is not None
            out = await svc.answer(gid, prompt.user_id, prompt.version, prompt.choices[0])
            if not out.ok:
                break
        else:
            raise AssertionError("the disk never filled")
        assert out.error == DISK_FULL and "disk" in out.error and "full" in out.error
        assert cached(svc, gid) == mem and stored(path, gid) == disk
        assert (await svc.status(gid)).version == mem[0]
        again = await svc.answer(gid, prompt.user_id, prompt.version, prompt.choices[0])
        assert again.error == DISK_FULL  # still full: still refused, still nothing
        await space_again(svc.store)
        done = await svc.answer(gid, prompt.user_id, prompt.version, prompt.choices[0])
        assert done.ok, done.error
        assert stored(path, gid)[0] == mem[0] + 1 == cached(svc, gid)[0]
    finally:
        await svc.close()


async def test_a_timeout_during_a_full_disk_waits_and_is_applied_once_there_is_space(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    clock = FakeClock()
    svc = await make_service(path, clock)
    try:
        gid, _ = await new_game(svc, humans=2)
        await disk_full(svc.store)
        rng = random.Random(5)
        for _ in range(200):  # people play until the disk cannot take a move
            prompt = rng.choice(await svc.prompts(gid))
            assert prompt.user_id is not None
            if not (await svc.answer(gid, prompt.user_id, prompt.version, prompt.choices[0])).ok:
                break
        live = svc._games[gid]
        due = min(d.due_at for d in live.decisions.values() if d.due_at is not None)
        mem, disk = cached(svc, gid), stored(path, gid)
        clock.set(due + 1)
        await svc.idle()
        for _ in range(3):  # the deadline fired, met the full disk, and keeps waiting
            assert cached(svc, gid) == mem and stored(path, gid) == disk
            retries = [
                k
                for k in svc.scheduler.keys(gid)
                if k[1] == "due" and svc.scheduler.when(k) == clock.now() + FULL_RETRY
            ]
            assert retries, "the deadline was dropped instead of retried"
            clock.advance(FULL_RETRY)
            await svc.idle()
        await space_again(svc.store)
        clock.advance(FULL_RETRY)
        await svc.idle()
        version = stored(path, gid)[0]
        assert version > mem[0] == disk[0]
        conn = sqlite3.connect(path)
        (source,) = conn.execute(
            "SELECT source FROM actions WHERE game_id = ? AND seq = ?", (gid, mem[0] + 1)
        ).fetchone()
        conn.close()
        assert source == "timeout"
    finally:
        await svc.close()


def computer_waiting(svc: GameService, gid: int, now: float) -> bool:
    """A computer move (or diplomacy answer) met the full disk and waits for a retry."""
    return any(
        k[1] in ("full", "cpu") and (svc.scheduler.when(k) or 0) > now
        for k in svc.scheduler.keys(gid)
    )


async def test_a_computer_move_during_a_full_disk_waits_and_is_made_once_there_is_space(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    clock = FakeClock()
    gate = threading.Event()  # holds each computer's choice until the disk is full

    def chooser(*args: Any) -> Any:
        gate.wait(60)
        return computer.choose(*args)

    gate.set()
    svc = await make_service(path, clock, chooser=chooser)
    try:
        # no deadline can pass while the computer waits (4 retries): only its move is due
        gid, _ = await new_game(
            svc,
            humans=1,
            computers=2,
            options={"diplomacy_seconds": 600},
            turn_timeout=None,
            timeouts={"setup": None, "duel": None, "retreat": None},
        )
        rng = random.Random(9)
        for _ in range(400):  # people move with space, computers against a full disk
            await svc.idle()
            if computer_waiting(svc, gid, clock.now()):
                break
            prompts = await svc.prompts(gid)
            assert prompts, "nobody to move and no computer waiting"
            await space_again(svc.store)
            gate.clear()
            prompt = rng.choice(prompts)
            assert prompt.user_id is not None
            out = await svc.answer(gid, prompt.user_id, prompt.version, rng.choice(prompt.choices))
            assert out.ok, out.error
            await disk_full(svc.store)
            gate.set()
        else:
            raise AssertionError("no computer move met the full disk")
        mem, disk = cached(svc, gid), stored(path, gid)
        for _ in range(3):  # retried every FULL_RETRY seconds, still nothing written
            clock.advance(FULL_RETRY)
            await svc.idle()
            assert cached(svc, gid) == mem and stored(path, gid) == disk
            assert computer_waiting(svc, gid, clock.now())
        await space_again(svc.store)
        clock.advance(FULL_RETRY)
        await svc.idle()
        assert stored(path, gid)[0] > mem[0]
        conn = sqlite3.connect(path)
        (source,) = conn.execute(
            "SELECT source FROM actions WHERE game_id = ? AND seq = ?", (gid, mem[0] + 1)
        ).fetchone()
        conn.close()
        assert source == "computer"
    finally:
        gate.set()
        await svc.close()


def test_a_full_disk_met_by_a_direct_write_of_a_command_gets_the_same_reason() -> None:
    from bot.errors import reason_for
    from service import DISK_FULL
    from service.store import StoreFull

    assert reason_for(StoreFull("the disk holding the database is full")) == DISK_FULL
