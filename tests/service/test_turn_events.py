"""The turn's events on every outcome (what a board shows), through the service on a real
SQLite file: every action of the turn under way, the one that ends it included; the
start a group of its own; after a restart mid-turn, the events from before it; a log
that cannot be played again starts them afresh.

The expected turns are read from the stored log by the pyramid games' own ``turn_start``
events, not by the service's rule (the game's turn counter)."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from rules import Event
from service import GameService, Outcome, turns
from service.scheduler import FakeClock
from tests.bot.helpers import logged_turn, make_service, new_game, play_until, step

T0 = 1_700_000_000.0


async def expected_turn(svc: GameService, gid: int) -> tuple[Event, ...]:
    """The public events of the stored log's last turn (see :func:`logged_turn`)."""
    return logged_turn(await svc.store.actions(gid))


async def test_every_outcome_carries_the_turn_so_far(tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "games.db", FakeClock(T0))
    try:
        gid, started = await new_game(svc, humans=3, seed=11)
        assert started.board_events == started.events and started.board_events
        rng = random.Random(3)
        fought = 0
        for _ in range(150):
            out = await step(svc, gid, rng, prefer="attack")
            if out is None:
                break
            assert out.board_events == await expected_turn(svc, gid)
            assert out.board_events[-len(out.events) :] == out.events or not out.events
            kinds = [e.kind for e in out.board_events]
            fought += "attack_declared" in kinds and "duel_over" in kinds
        assert fought  # boards of a turn of several actions: an attack to its duel's end
    finally:
        await svc.close()


async def _mid_duel(path: Path) -> tuple[int, tuple[Event, ...]]:
    """A game played into a duel; the service closed. Its id and the turn's events."""
    svc = await make_service(path, FakeClock(T0))
    try:
        gid, _ = await new_game(svc, humans=3, seed=11)
        await play_until(svc, gid, random.Random(5), "duel", prefer="attack")
        turn = await expected_turn(svc, gid)
        assert any(e.kind == "attack_declared" for e in turn)
        return gid, turn
    finally:
        await svc.close()


async def test_a_restart_mid_turn_keeps_the_turns_earlier_events(tmp_path: Path) -> None:
    gid, before = await _mid_duel(tmp_path / "games.db")
    svc = await make_service(tmp_path / "games.db", FakeClock(T0))
    try:
        out = await step(svc, gid, random.Random(1))
        assert out is not None
        assert out.board_events == before + out.events
        assert out.board_events == await expected_turn(svc, gid)
    finally:
        await svc.close()


async def test_a_log_that_cannot_be_replayed_starts_the_turn_afresh(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "games.db"
    gid, _ = await _mid_duel(path)
    conn = sqlite3.connect(path)
    try:
        (creation,) = conn.execute("SELECT creation FROM games WHERE id = ?", (gid,)).fetchone()
        changed = {**json.loads(creation), "seed": json.loads(creation)["seed"] + 1}
        conn.execute("UPDATE games SET creation = ? WHERE id = ?", (json.dumps(changed), gid))
        conn.commit()
    finally:
        conn.close()
    svc = await make_service(path, FakeClock(T0))
    try:
        out: Outcome | None = await step(svc, gid, random.Random(1))
        assert out is not None and out.ok
        assert out.board_events == out.events
        assert "where its turn began is not known" in caplog.text
    finally:
        await svc.close()


async def test_a_game_reloaded_after_another_writer_goes_on_from_where_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process acts on the game mid-turn; this one drops its copy, tells its
    channel what it is owed (as the bot does) and reloads: the catch-up's board and the
    next action's go on from the copy's position, playing only the new action, never the
    whole log again."""
    path = tmp_path / "games.db"
    svc = await make_service(path, FakeClock(T0))
    other = None
    try:
        gid, _ = await new_game(svc, humans=3, seed=11)
        await play_until(svc, gid, random.Random(5), "duel", prefer="attack")
        before = await expected_turn(svc, gid)
        other = await make_service(path, FakeClock(T0))
        elsewhere = await step(other, gid, random.Random(2))
        assert elsewhere is not None and elsewhere.ok
        whole_log: list[object] = []
        monkeypatch.setattr(turns, "replay_turn", lambda *a: whole_log.append(a))
        owed: list[Outcome | None] = []

        async def catch_up(game_id: int) -> None:
            owed.append(await svc.untold(game_id, elsewhere.version))

        svc.on_changed = catch_up
        assert await svc.refresh(gid)
        assert owed and owed[0] is not None
        assert owed[0].board_events == before + elsewhere.events
        out = await step(svc, gid, random.Random(3))
        assert out is not None
        assert out.board_events == before + elsewhere.events + out.events
        assert out.board_events == await expected_turn(svc, gid)
        assert whole_log == []
    finally:
        await svc.close()
        if other is not None:
            await other.close()
