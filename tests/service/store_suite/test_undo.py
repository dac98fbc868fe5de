"""Taking an action back through the store: the before-image kept with the latest
action, the undo row in the log (nothing deleted), the state and decisions put back, and
what refuses it."""

from __future__ import annotations

import pytest

from service.models import DecisionRecord, UndoPoint, standing
from service.store import StaleVersion, Store

from .conftest import Opener
from .records import act, running_game

BEFORE = DecisionRecord(0, "turn", 0, 600.0, 600.0, 550.0)


def point(revision: int, seq: int = 1) -> UndoPoint:
    return UndoPoint(
        seq=seq,
        seat=0,
        user_id=1,
        action={"kind": "move", "to": "b2"},
        at=3.25,
        revision=revision,
        state={"turn": 0, "before": True},
        decisions=(BEFORE,),
    )


async def undoable_action(store: Store, gid: int) -> int:
    """Seat 0 acts with an undo point; returns the revision the action left."""
    rec = await store.load_game(gid)
    assert rec is not None
    await store.record_action(
        gid,
        rec.revision,
        rec.version,
        seat=0,
        user_id=1,
        source="player",
        action={"kind": "move", "to": "b2"},
        events=[{"kind": "moved"}],
        state={"turn": 1},
        removed=[d.key for d in rec.decisions],
        upserted=[DecisionRecord(1, "turn", rec.version + 1, 600.0, 603.0, None)],
        result=None,
        now=3.25,
        undo_point=point(rec.revision + 1, rec.version + 1),
    )
    return rec.revision + 1


async def test_an_undoable_action_keeps_its_before_image_until_the_next(store: Store) -> None:
    gid = await running_game(store)
    revision = await undoable_action(store, gid)
    rec = await store.load_game(gid)
    assert rec is not None and rec.undo_point == point(revision)
    await act(store, gid, source="computer")
    rec = await store.load_game(gid)
    assert rec is not None and rec.undo_point is None


async def test_an_undo_puts_back_state_and_decisions_and_logs_a_row(reopen: Opener) -> None:
    store = await reopen()
    gid = await running_game(store)
    revision = await undoable_action(store, gid)
    await store.record_undo(
        gid,
        revision,
        1,
        seat=0,
        user_id=1,
        undoes=1,
        state={"turn": 0, "before": True},
        decisions=[BEFORE],
        now=9.5,
        owe=True,
    )
    await store.close()
    store = await reopen()  # another process, or a restart, sees the same
    try:
        await reloaded(store, gid, revision)
    finally:
        await store.close()


async def reloaded(store: Store, gid: int, revision: int) -> None:
    rec = await store.load_game(gid)
    assert rec is not None
    assert (rec.version, rec.revision, rec.state) == (2, revision + 1, {"turn": 0, "before": True})
    assert rec.decisions == [BEFORE] and rec.undo_point is None
    assert rec.last_acted == {0: 2}
    moved, undo = await store.actions(gid)
    assert (moved.seq, moved.undoes, moved.action) == (1, None, {"kind": "move", "to": "b2"})
    assert (undo.seq, undo.seat, undo.user_id, undo.source, undo.created_at) == (
        2,
        0,
        1,
        "player",
        9.5,
    )
    assert (undo.undoes, undo.action, undo.events) == (1, {"undoes": 1}, [])
    assert standing([moved, undo]) == []
    assert await store.announcements() == [(gid, 2)]
    # the log goes on after it
    assert await act(store, gid) == 3
    assert [a.seq for a in standing(await store.actions(gid))] == [3]
    assert [a.seq for a in await store.last_actions(gid, 1)] == [3]


async def test_an_undo_is_refused_without_a_point_or_over_a_stale_revision(
    store: Store,
) -> None:
    gid = await running_game(store)
    await act(store, gid)  # no undo point
    rec = await store.load_game(gid)
    assert rec is not None

    async def undo(revision: int, version: int) -> None:
        await store.record_undo(
            gid,
            revision,
            version,
            seat=0,
            user_id=1,
            undoes=version,
            state={},
            decisions=[],
            now=5.0,
        )

    with pytest.raises(StaleVersion):
        await undo(rec.revision, rec.version)
    revision = await undoable_action(store, gid)
    with pytest.raises(StaleVersion):
        await undo(revision - 1, 2)
    with pytest.raises(StaleVersion):
        await undo(revision, 1)
    await undo(revision, 2)
    with pytest.raises(StaleVersion):  # once only
        await undo(revision + 1, 3)
    assert [a.seq for a in await store.actions(gid)] == [1, 2, 3]


async def test_a_game_ended_by_an_action_keeps_no_undo_point(store: Store) -> None:
    gid = await running_game(store)
    await undoable_action(store, gid)
    await act(store, gid, result={"winners": [1]})
    rec = await store.load_game(gid)
    assert rec is not None and rec.status == "finished" and rec.undo_point is None
