"""What only the SQLite store has (the behaviour every store shares is tested against the
protocol in ``tests/service/store_suite``): the constraints the file itself enforces
against any writer, a failing statement rolled back whole, SQLite's errors as the
store's, and one call into SQLite's thread per batch. ``running_game`` and
``apply_first_legal`` build real European War games for the other SQLite tests."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from rules import pyramids
from service.models import DecisionRecord, GameSettings
from service.sql import Q
from service.sqlite_store import SqliteStore
from service.store import InvalidRecord, NewSeat, Store


async def running_game(store: Store, channel: int = 1, guild: int | None = None) -> int:
    """A 2-player European War game at version 0, straight through the store."""
    gid = await store.create_lobby(
        guild_id=guild,
        channel_id=channel,
        host_id=1,
        variant="european_war",
        settings=GameSettings(),
        host_seat=NewSeat(1, None, "Ann", None, 0.0),
        expiry=None,
        max_games=None,
        now=0.0,
    )
    await store.add_seat(gid, 0, NewSeat(None, "easy", "Bot", None, 1.0))
    game, events = pyramids.new_game("european_war", [None, None], seed=3)
    rec = await store.load_game(gid)
    assert rec is not None
    await store.start_game(
        gid,
        rec.revision,
        creation=pyramids.creation_record("european_war", [None, None], 3),
        start_events=[e.to_dict() for e in events],
        state=game.to_dict(),
        seats=[(s.id, i, game.seats[i], s.display_name) for i, s in enumerate(rec.seats)],
        decisions=[DecisionRecord(d.seat, d.kind, 0, 600.0, 600.0, None) for d in game.deciders()],
        now=2.0,
    )
    return gid


async def apply_first_legal(store: Store, gid: int, *, owe: bool = False) -> None:
    rec = await store.load_game(gid)
    assert rec is not None and rec.state is not None
    game = pyramids.GameState.from_dict(rec.state)
    d = game.deciders()[0]
    action = game.legal_actions(d.seat)[0]
    events = game.apply(d.seat, action)
    await store.record_action(
        gid,
        rec.revision,
        rec.version,
        seat=d.seat,
        user_id=None,
        source="player",
        action=action.to_dict(),
        events=[e.to_dict() for e in events],
        state=game.to_dict(),
        removed=[x.key for x in rec.decisions],
        upserted=[
            DecisionRecord(x.seat, x.kind, rec.version + 1, None, None, None)
            for x in game.deciders()
        ],
        result=None,
        now=3.0,
        owe=owe,
    )


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    s = await SqliteStore.open(tmp_path / "games.db")
    yield s
    await s.close()


async def test_a_failure_inside_the_transaction_leaves_nothing_behind(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = await running_game(store)
    before = await store.load_game(gid)
    monkeypatch.setattr(Q, "upsert_decision", "INSERT INTO no_such_table VALUES (?)")
    with pytest.raises(sqlite3.OperationalError):
        await apply_first_legal(store, gid)  # the action row and snapshot went in first
    monkeypatch.undo()
    after = await store.load_game(gid)
    assert after is not None and before is not None
    assert (after.version, after.revision, after.state) == (
        before.version,
        before.revision,
        before.state,
    )
    assert await store.actions(gid) == []
    await apply_first_legal(store, gid)  # and the connection is usable again
    assert len(await store.actions(gid)) == 1


async def test_removing_sent_outbox_items_is_one_call_into_sqlite_s_thread(
    store: SqliteStore,
) -> None:
    """Each call into the connection's thread waits for the interpreter lock while the
    event loop is busy: forgetting sent items takes one, whatever their number."""
    from service.models import OutboxFile, OutboxRecord

    ids = [
        await store.outbox_add(
            OutboxRecord(
                None,
                None,
                "send",
                7,
                None,
                None,
                0,
                None,
                {"content": str(n)},
                {},
                0.0,
                [OutboxFile("board.png", b"png")],
            )
        )
        for n in range(3)
    ]
    conn = store._conn
    calls = 0
    real = conn._execute

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return await real(fn, *args, **kwargs)

    conn._execute = counted  # type: ignore[method-assign]
    try:
        await store.outbox_remove(ids[:2])
    finally:
        conn._execute = real  # type: ignore[method-assign]
    assert calls == 1
    kept = await store.outbox_items()
    assert [(i.id, [f.data for f in i.files]) for i in kept] == [(ids[2], [b"png"])]


async def test_the_file_refuses_a_second_active_game_in_a_channel_to_any_writer(
    store: Store, tmp_path: Path
) -> None:
    await running_game(store, channel=7)
    raw = sqlite3.connect(tmp_path / "games.db")
    with pytest.raises(sqlite3.IntegrityError):
        raw.execute(
            "INSERT INTO games (channel_id, status, variant, settings, created_at) "
            "VALUES (7, 'lobby', 'european_war', '{}', 0)"
        )
    raw.execute(
        "INSERT INTO games (channel_id, status, variant, settings, created_at) "
        "VALUES (7, 'finished', 'european_war', '{}', 0)"
    )  # history is fine
    raw.commit()
    raw.close()


async def test_the_file_keeps_a_seat_a_person_or_a_computer(store: Store, tmp_path: Path) -> None:
    gid = await running_game(store)
    raw = sqlite3.connect(tmp_path / "games.db")
    for user, level in ((None, None), (5, "easy")):
        with pytest.raises(sqlite3.IntegrityError):
            raw.execute(
                "INSERT INTO seats (game_id, user_id, computer_level, display_name, "
                "joined_at) VALUES (?, ?, ?, 'x', 0)",
                (gid, user, level),
            )
    with pytest.raises(sqlite3.IntegrityError):
        raw.execute("INSERT INTO user_preferences VALUES (7, 2, 0)")
    raw.close()


async def test_the_action_log_is_append_only_in_the_file(store: Store, tmp_path: Path) -> None:
    gid = await running_game(store, guild=4)
    await apply_first_legal(store, gid)
    raw = sqlite3.connect(tmp_path / "games.db")
    raw.execute("PRAGMA foreign_keys = ON")
    for sql in ("UPDATE actions SET seat = 3", "DELETE FROM actions"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute(sql)
    raw.close()
    assert await store.delete_guild(4) == 1  # but a deleted server takes it along


async def test_a_broken_constraint_is_the_store_s_error_with_sqlite_s_as_its_cause(
    store: Store,
) -> None:
    from service.models import OutboxRecord

    bad = OutboxRecord(None, None, "dm", 3, None, None, 0, None, {}, {}, 0.0, [])
    with pytest.raises(InvalidRecord) as caught:
        await store.outbox_add(bad)
    assert isinstance(caught.value.__cause__, sqlite3.IntegrityError)
    gid = await running_game(store)
    rec = await store.load_game(gid)
    assert rec is not None and rec.state is not None
    with pytest.raises(InvalidRecord) as caught:  # through the group commit too
        await store.record_action(
            gid,
            rec.revision,
            rec.version,
            seat=0,
            user_id=None,
            source="bogus",
            action={},
            events=[],
            state=rec.state,
            removed=[],
            upserted=[],
            result=None,
            now=1.0,
        )
    assert isinstance(caught.value.__cause__, sqlite3.IntegrityError)
    assert await store.actions(gid) == []
