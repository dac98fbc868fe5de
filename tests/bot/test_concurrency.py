"""Dozens of concurrent submissions for one game: exactly the legal ones are applied, in
one serial order, with versions strictly increasing — within one service and across two
services (two connections, two caches) sharing one file."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import sqlite3
from pathlib import Path

import pytest

import rules
from rules import pyramids
from service import GameService, Outcome
from service.scheduler import FakeClock
from tests.bot.helpers import check_database, make_service, new_game, play_until

Submission = tuple[int, pyramids.Action, int | None]  # user, action, prompt version


def stored_game(path: Path, gid: int) -> tuple[pyramids.GameState, list[tuple[int, str]]]:
    """The game replayed from the file, and its log as (seat, action json)."""
    conn = sqlite3.connect(path)
    try:
        creation = json.loads(
            conn.execute("SELECT creation FROM games WHERE id = ?", (gid,)).fetchone()[0]
        )
        rows = conn.execute(
            "SELECT seat, action FROM actions WHERE game_id = ? ORDER BY seq", (gid,)
        ).fetchall()
    finally:
        conn.close()
    game = pyramids.replay(
        creation, [(s, pyramids.action_from_dict(json.loads(a))) for s, a in rows]
    )
    return game, rows


async def submissions_at_a_turn(
    svc: GameService, gid: int, rng: random.Random
) -> tuple[list[Submission], int, int]:
    """A shuffled burst: the player to move double-clicks Arm/Pass on its prompt, the
    next players push Pass/Arm early, a stranger tries too."""
    (turn,) = await svc.prompts(gid)
    assert turn.user_id is not None
    others = [u for u in (101, 102, 103) if u != turn.user_id]
    subs: list[Submission] = []
    subs += [(turn.user_id, pyramids.Arm(), turn.version)] * 6
    subs += [(turn.user_id, pyramids.Pass(), turn.version)] * 4
    subs += [(turn.user_id, pyramids.Pass(), None)] * 3
    for u in others:
        subs += [(u, pyramids.Pass(), None)] * 8 + [(u, pyramids.Arm(), None)] * 2
    subs += [(999, pyramids.Pass(), None)] * 3
    rng.shuffle(subs)
    return subs, turn.version, turn.seat


async def test_one_service_applies_exactly_the_legal_ones_in_arrival_order(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    svc = await make_service(path, FakeClock())
    try:
        gid, _ = await new_game(svc, humans=3)
        await play_until(svc, gid, random.Random(1), "turn")
        subs, v, _ = await submissions_at_a_turn(svc, gid, random.Random(2))
        assert len(subs) >= 30
        outs: list[Outcome] = await asyncio.gather(
            *(svc.act(gid, u, a, version=pv) for u, a, pv in subs)
        )

        # the oracle: the same burst applied one by one, in arrival order (asyncio.Lock is
        # FIFO), with the service's rules for out-of-date prompts
        model = pyramids.replay(*_creation_and_prefix(path, gid, v))
        seat_of = {u: s for s, u in enumerate(_users_by_seat(svc, gid))}
        acted: dict[int, int] = {}
        version = v
        expected: list[bool] = []
        for user, action, prompt_version in subs:
            seat = seat_of.get(user)
            if seat is None or (prompt_version is not None and acted.get(seat, 0) > prompt_version):
                expected.append(False)
                continue
            try:
                model.apply(seat, action)
            except rules.RulesError:
                expected.append(False)
                continue
            version += 1
            acted[seat] = version
            expected.append(True)

        assert [o.ok for o in outs] == expected
        applied_versions = [o.version for o in outs if o.ok]
        assert applied_versions == list(range(v + 1, v + 1 + len(applied_versions)))
        assert 3 <= len(applied_versions) < len(subs)
        game, _ = stored_game(path, gid)
        assert game == model
        for o in outs:
            assert o.ok or o.error  # every refusal says why
    finally:
        await svc.close()
    check_database(path)


async def test_two_services_on_one_file_never_interleave_two_actions(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "g.db"
    clock = FakeClock()
    a = await make_service(path, clock)
    b = await make_service(path, clock)
    try:
        gid, _ = await new_game(a, humans=3)
        await play_until(a, gid, random.Random(1), "turn")
        await b.status(gid)  # b caches the game too
        rng = random.Random(5)
        subs, v, seat = await submissions_at_a_turn(a, gid, rng)
        with caplog.at_level(logging.INFO, logger="service"):
            outs = await asyncio.gather(
                *(
                    (a if rng.random() < 0.5 else b).act(gid, u, act, version=pv)
                    for u, act, pv in subs
                )
            )
        _, rows = stored_game(path, gid)
        new_rows = rows[v:]
        users = _users_by_seat(a, gid)
        for o, (u, act, _pv) in zip(outs, subs, strict=True):
            if o.ok:  # each applied submission is the row of its version, as submitted
                s, stored = rows[o.version - 1]
                assert users[s] == u and pyramids.action_from_dict(json.loads(stored)) == act
        oks = [o for o in outs if o.ok]
        assert len(oks) == len(new_rows) >= 1
        assert sorted(o.version for o in oks) == list(range(v + 1, v + 1 + len(oks)))
        # the player to move answered its prompt exactly once, however often it clicked
        assert (
            sum(1 for o, (_, _, pv) in zip(outs, subs, strict=True) if o.ok and pv is not None) == 1
        )
        assert seat in {s for s, _ in new_rows}
        assert "stale write, reloading" in caplog.text  # the guard was exercised
    finally:
        await a.close()
        await b.close()
    check_database(path)


def _creation_and_prefix(path: Path, gid: int, version: int):
    conn = sqlite3.connect(path)
    try:
        creation = json.loads(
            conn.execute("SELECT creation FROM games WHERE id = ?", (gid,)).fetchone()[0]
        )
        rows = conn.execute(
            "SELECT seat, action FROM actions WHERE game_id = ? AND seq <= ? ORDER BY seq",
            (gid, version),
        ).fetchall()
    finally:
        conn.close()
    return creation, [(s, pyramids.action_from_dict(json.loads(a))) for s, a in rows]


def _users_by_seat(svc: GameService, gid: int) -> list[int | None]:
    return [s.user_id for s in svc._games[gid].seats]
