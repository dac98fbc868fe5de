"""The SQLite store on real files: atomic actions, stale writes refused, constraints the
database itself enforces, and everything an unfinished game needs loaded on startup."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from rules import pyramids
from service import store as store_module
from service.models import DecisionRecord, GameMessages, GameSettings
from service.store import ChannelBusy, GuildFull, NewSeat, SeatTaken, StaleVersion, Store


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
async def store(tmp_path: Path):
    s = await Store.open(tmp_path / "games.db")
    yield s
    await s.close()


async def test_an_action_commits_row_snapshot_version_and_decisions_together(store: Store) -> None:
    gid = await running_game(store)
    await apply_first_legal(store, gid)
    rec = await store.load_game(gid)
    assert rec is not None and rec.version == 1
    log = await store.actions(gid)
    assert [a.seq for a in log] == [1]
    assert rec.last_acted == {log[0].seat: 1}
    assert {d.opened_version for d in rec.decisions} == {1}


async def test_a_write_from_a_stale_revision_is_refused_and_writes_nothing(store: Store) -> None:
    gid = await running_game(store)
    rec = await store.load_game(gid)
    assert rec is not None
    await apply_first_legal(store, gid)
    with pytest.raises(StaleVersion):
        await store.record_action(
            gid,
            rec.revision,
            rec.version,
            seat=0,
            user_id=None,
            source="player",
            action={"kind": "pass"},
            events=[],
            state=rec.state or {},
            removed=[],
            upserted=[],
            result=None,
            now=4.0,
        )
    assert [a.seq for a in await store.actions(gid)] == [1]
    with pytest.raises(StaleVersion):  # every kind of write carries the revision
        await store.set_draw_vote(gid, rec.revision, 0, True)


async def test_a_failure_inside_the_transaction_leaves_nothing_behind(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = await running_game(store)
    before = await store.load_game(gid)
    monkeypatch.setattr(store_module.Q, "upsert_decision", "INSERT INTO no_such_table VALUES (?)")
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


async def test_one_active_game_per_channel_is_enforced_by_the_database(
    store: Store, tmp_path: Path
) -> None:
    await running_game(store, channel=7)
    with pytest.raises(ChannelBusy):
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


async def test_the_server_cap_counts_active_games(store: Store) -> None:
    for channel in (1, 2):
        await store.create_lobby(
            guild_id=9,
            channel_id=channel,
            host_id=1,
            variant="european_war",
            settings=GameSettings(),
            host_seat=None,
            expiry=None,
            max_games=2,
            now=0.0,
        )
    with pytest.raises(GuildFull):
        await store.create_lobby(
            guild_id=9,
            channel_id=3,
            host_id=1,
            variant="european_war",
            settings=GameSettings(),
            host_seat=None,
            expiry=None,
            max_games=2,
            now=0.0,
        )


async def test_seats_are_a_person_or_a_computer_and_a_person_sits_once(
    store: Store, tmp_path: Path
) -> None:
    gid = await store.create_lobby(
        guild_id=None,
        channel_id=1,
        host_id=1,
        variant="european_war",
        settings=GameSettings(),
        host_seat=NewSeat(1, None, "Ann", None, 0.0),
        expiry=None,
        max_games=None,
        now=0.0,
    )
    with pytest.raises(SeatTaken):
        await store.add_seat(gid, 0, NewSeat(1, None, "Ann again", None, 1.0))
    raw = sqlite3.connect(tmp_path / "games.db")
    for user, level in ((None, None), (5, "easy")):
        with pytest.raises(sqlite3.IntegrityError):
            raw.execute(
                "INSERT INTO seats (game_id, user_id, computer_level, display_name, "
                "joined_at) VALUES (?, ?, ?, 'x', 0)",
                (gid, user, level),
            )
    raw.close()


async def test_the_action_log_is_append_only_but_a_deleted_server_takes_it_along(
    store: Store, tmp_path: Path
) -> None:
    gid = await running_game(store, guild=4)
    await apply_first_legal(store, gid)
    raw = sqlite3.connect(tmp_path / "games.db")
    raw.execute("PRAGMA foreign_keys = ON")
    for sql in ("UPDATE actions SET seat = 3", "DELETE FROM actions"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute(sql)
    raw.close()
    assert await store.delete_guild(4) == 1
    assert await store.load_game(gid) is None
    assert await store.actions(gid) == []


async def test_startup_load_brings_games_with_decisions_and_deadlines(store: Store) -> None:
    a = await running_game(store, channel=1)
    b = await running_game(store, channel=2)
    await apply_first_legal(store, b)
    await store.end_game(
        a,
        (await store.load_game(a)).revision,  # type: ignore[union-attr]  # the game exists
        "cancelled",
        {"reason": "test"},
        5.0,
    )
    games = await store.load_active()
    assert [g.id for g in games] == [b]
    assert games[0].decisions and games[0].state is not None and games[0].seats
    assert await store.active_game_in_channel(1) is None
    assert await store.active_game_in_channel(2) == b


async def test_a_reminder_is_claimed_once(store: Store) -> None:
    gid = await running_game(store)
    rec = await store.load_game(gid)
    assert rec is not None
    d = rec.decisions[0]
    await store.set_paused(
        gid,
        rec.revision,
        None,
        [DecisionRecord(d.seat, d.kind, d.opened_version, 600.0, 600.0, 300.0)],
    )
    assert await store.mark_reminded(gid, d.seat, d.kind, d.opened_version) is True
    assert await store.mark_reminded(gid, d.seat, d.kind, d.opened_version) is False


async def test_concurrent_actions_commit_together_but_fail_alone(store: Store) -> None:
    games = [await running_game(store, channel=c) for c in (1, 2, 3, 4)]
    recs = [await store.load_game(g) for g in games]

    def write(i: int, revision_offset: int = 0, source: str = "player"):
        rec = recs[i]
        assert rec is not None and rec.state is not None
        return store.record_action(
            rec.id,
            rec.revision + revision_offset,
            rec.version,
            seat=0,
            user_id=None,
            source=source,
            action={"kind": "pass"},
            events=[],
            state=rec.state,
            removed=[],
            upserted=[],
            result=None,
            now=9.0,
        )

    results = await asyncio.gather(
        write(0),
        write(1, revision_offset=-1),
        write(2, source="bogus"),
        write(3),
        return_exceptions=True,
    )
    assert results[0] is None and results[3] is None
    assert isinstance(results[1], StaleVersion)
    assert isinstance(results[2], sqlite3.IntegrityError)  # CHECK (source IN …)
    counts = [len(await store.actions(g)) for g in games]
    assert counts == [1, 0, 0, 1]
    versions = [(await store.load_game(g)).version for g in games]  # type: ignore[union-attr]  # they exist
    assert versions == [1, 0, 0, 1]


async def test_pings_preferences_default_on_and_survive_reopening(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "games.db")
    assert await store.user_pings(5) is True
    await store.set_user_pings(5, False, 10.0)
    await store.set_user_pings(6, True, 11.0)
    await store.close()
    store = await Store.open(tmp_path / "games.db")
    try:
        assert await store.user_pings(5) is False and await store.user_pings(6) is True
        await store.set_user_pings(5, True, 12.0)
        assert await store.user_pings(5) is True
    finally:
        await store.close()
    raw = sqlite3.connect(tmp_path / "games.db")
    assert raw.execute(
        "SELECT user_id, pings, updated_at FROM user_preferences ORDER BY user_id"
    ).fetchall() == [(5, 1, 12.0), (6, 1, 11.0)]
    with pytest.raises(sqlite3.IntegrityError):
        raw.execute("INSERT INTO user_preferences VALUES (7, 2, 0)")
    raw.close()


async def test_departures_first_one_counts_until_forgotten_or_deleted(store: Store) -> None:
    await store.record_departure(4, 100.0)
    await store.record_departure(4, 500.0)  # removed again before coming back: first counts
    await store.record_departure(5, 300.0)
    assert await store.departures() == {4: 100.0, 5: 300.0}
    assert await store.departures_due(99.0) == []
    assert await store.departures_due(100.0) == [4]
    assert await store.departures_due(1000.0) == [4, 5]
    await store.forget_departure(5)  # the server took the bot back
    await store.forget_departure(5)
    assert await store.departures() == {4: 100.0}
    gid = await running_game(store, guild=4)
    assert await store.delete_guild(4) == 1  # its data, departure included
    assert await store.load_game(gid) is None
    assert await store.departures() == {}


async def test_bot_meta_holds_facts_by_key(store: Store) -> None:
    assert await store.meta("commands_hash") is None
    await store.set_meta("commands_hash", "1:abc")
    await store.set_meta("commands_hash", "1:def")
    assert await store.meta("commands_hash") == "1:def"
    assert await store.meta("other") is None


async def test_message_ids_are_kept_per_game_and_go_with_it(store: Store) -> None:
    gid = await running_game(store, guild=4)
    assert await store.game_messages(gid) == GameMessages()
    await store.set_lobby_message(gid, 10, 11)
    await store.set_duel_message(gid, 12)
    assert await store.game_messages(gid) == GameMessages(10, 11, 12)
    await store.set_lobby_message(gid, None, None)
    await store.set_duel_message(gid, 13)
    assert await store.game_messages(gid) == GameMessages(None, None, 13)
    await store.set_duel_message(999, 14)  # no such game: nothing recorded, no error
    assert await store.game_messages(999) == GameMessages()
    assert await store.delete_guild(4) == 1
    assert await store.game_messages(gid) == GameMessages()


async def test_closed_dms_are_marked_on_the_seats_of_unfinished_games(store: Store) -> None:
    a = await running_game(store, channel=1)
    b = await running_game(store, channel=2)
    assert await store.users_with_dms_closed() == set()
    await store.set_dms_closed(1, True)  # user 1 (Ann) sits in both
    assert await store.users_with_dms_closed() == {1}
    await store.end_game(
        a,
        (await store.load_game(a)).revision,  # type: ignore[union-attr]  # the game exists
        "cancelled",
        None,
        5.0,
    )
    assert await store.users_with_dms_closed() == {1}  # still seated in b
    rec = await store.load_game(b)
    assert rec is not None
    await store.replace_seat(
        b, rec.revision, 0, user_id=7, computer_level=None, display_name="Gus", now=6.0
    )
    assert await store.users_with_dms_closed() == set(), "the flag was Ann's, not Gus's"
    await store.set_dms_closed(7, True)
    await store.set_dms_closed(7, False)
    assert await store.users_with_dms_closed() == set()


async def test_one_batch_keeps_the_good_writes_and_nothing_of_a_stale_or_failing_one(
    store: Store,
) -> None:
    a = await running_game(store, channel=1)
    b = await running_game(store, channel=2)

    def write(gid: int, revision: int, source: str = "player") -> Any:
        return store.record_action(
            gid,
            revision,
            0,
            seat=0,
            user_id=None,
            source=source,
            action={"kind": "pass"},
            events=[],
            state={"n": gid},
            removed=[],
            upserted=[],
            result=None,
            now=5.0,
        )

    ra, rb = (await store.load_game(a)), (await store.load_game(b))
    assert ra is not None and rb is not None
    # queued in one tick: one batch. b's second statement breaks a CHECK after its guard
    results = await asyncio.gather(
        write(a, ra.revision),
        write(b, rb.revision, "bogus"),
        write(a, ra.revision),
        return_exceptions=True,
    )
    assert results[0] is None
    assert isinstance(results[1], sqlite3.IntegrityError)
    assert isinstance(results[2], StaleVersion)
    after_a, after_b = await store.load_game(a), await store.load_game(b)
    assert after_a is not None and after_b is not None
    assert (after_a.version, after_a.revision) == (1, ra.revision + 1)
    assert (after_b.version, after_b.revision, after_b.state) == (0, rb.revision, rb.state)
    assert [x.seq for x in await store.actions(a)] == [1] and await store.actions(b) == []


async def test_the_outbox_keeps_items_with_their_files_across_a_reopen(tmp_path: Path) -> None:
    from service.models import OutboxFile, OutboxRecord

    png = bytes(range(256)) * 40
    store = await Store.open(tmp_path / "games.db")
    first = OutboxRecord(
        None,
        None,
        "send",
        7,
        None,
        None,
        0,
        "action",
        {"content": "a", "nonce": "n1"},
        {"words": ["a"], "tail": ""},
        1.0,
        [OutboxFile("board.png", png, "the board")],
    )
    dm = OutboxRecord(None, None, "dm", None, 9, None, 1, None, {"content": "d"}, {}, 2.0, [])
    first.id = await store.outbox_add(first)
    dm.id = await store.outbox_add(dm)
    first.payload["content"] = "a\nb"
    first.files = [OutboxFile("board.png", png[::-1], "newer"), OutboxFile("duel.png", b"x")]
    await store.outbox_update(first)
    await store.close()
    store = await Store.open(tmp_path / "games.db")
    try:
        kept = await store.outbox_items()
        assert [(i.kind, i.payload["content"]) for i in kept] == [("send", "a\nb"), ("dm", "d")]
        assert [(f.filename, f.data, f.description) for f in kept[0].files] == [
            ("board.png", png[::-1], "newer"),
            ("duel.png", b"x", None),
        ]
        await store.outbox_remove([first.id])
        assert [i.id for i in await store.outbox_items()] == [dm.id]
        with pytest.raises(sqlite3.IntegrityError):  # a DM names its person, only a DM
            await store.outbox_add(
                OutboxRecord(None, None, "dm", 3, None, None, 0, None, {}, {}, 0.0, [])
            )
    finally:
        await store.close()


async def test_an_action_is_owed_to_its_channel_until_its_message_is_kept(tmp_path: Path) -> None:
    from service.models import OutboxRecord

    store = await Store.open(tmp_path / "games.db")
    gid = await running_game(store)
    other = await running_game(store, channel=2)
    await apply_first_legal(store, other)  # a front end that does not owe: no row
    for _ in range(3):
        await apply_first_legal(store, gid, owe=True)
    assert await store.announcements() == [(gid, 1)], "owed from the first untold action"
    await store.announced(gid, 1)
    assert await store.announcements() == [(gid, 2)]
    await store.close()
    store = await Store.open(tmp_path / "games.db")  # kept across a restart
    try:
        assert await store.announcements() == [(gid, 2)]
        message = OutboxRecord(None, gid, "send", 1, None, None, 0, "action", {}, {}, 1.0, [])
        # the message of actions 2 and 3 is kept: in the same transaction, nothing is owed
        await store.outbox_add(message, announces=3)
        assert await store.announcements() == []
        assert len(await store.outbox_items()) == 1
        await apply_first_legal(store, gid, owe=True)
        await store.announced(gid, 3)  # an older message told: the newest action still owed
        assert await store.announcements() == [(gid, 4)]
    finally:
        await store.close()


async def test_removing_sent_outbox_items_is_one_call_into_sqlite_s_thread(store: Store) -> None:
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
