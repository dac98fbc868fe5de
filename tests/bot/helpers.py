"""Shared helpers for the store and service tests: real SQLite files, a fake clock, and
random play through the service's public API (prompts and answers)."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from rules import pyramids
from service import GameService, Outcome
from service.scheduler import FakeClock
from service.store import open_store

HOST = 101
USERS = (101, 102, 103, 104, 105)


async def make_service(
    path: Path,
    clock: FakeClock,
    listener: Callable[[Outcome], Awaitable[None]] | None = None,
    **kw: Any,
) -> GameService:
    """A started service on ``path`` with test pacing (no delays) unless overridden;
    ``listener`` is registered before start-up, so it sees deadlines that fire at once."""
    store = await open_store(path)
    kw.setdefault("computer_pacing", 0)
    kw.setdefault("computer_answer_delay", (0.0, 0.0))
    kw.setdefault("seed_source", lambda: 12345)
    svc = GameService(store, clock=clock, **kw)
    if listener is not None:
        svc.add_listener(listener)
    await svc.start()
    return svc


def collector() -> tuple[list[Outcome], Callable[[Outcome], Awaitable[None]]]:
    """A list and a listener that appends every outcome to it."""
    got: list[Outcome] = []

    async def listener(outcome: Outcome) -> None:
        got.append(outcome)

    return got, listener


async def new_game(
    svc: GameService,
    humans: int = 3,
    computers: int = 0,
    *,
    channel: int = 1,
    guild: int | None = None,
    seed: int = 7,
    **lobby: Any,
) -> tuple[int, Outcome]:
    """Open a lobby with ``humans`` people (users 101…) and ``computers``, start it."""
    out = await svc.open_lobby(
        channel_id=channel, host_id=HOST, host_name="P101", guild_id=guild, **lobby
    )
    assert out.ok, out.error
    gid = out.game_id
    assert gid is not None
    for u in USERS[1:humans]:
        joined = await svc.join(gid, u, f"P{u}")
        assert joined.ok, joined.error
    for _ in range(computers):
        added = await svc.add_computer(gid, HOST)
        assert added.ok, added.error
    started = await svc.start_game(gid, HOST, seed=seed)
    assert started.ok, started.error
    return gid, started


async def phase(svc: GameService, gid: int) -> str:
    """The game's phase, from the public status."""
    st = await svc.status(gid)
    assert st.view is not None
    return st.view.phase


async def step(
    svc: GameService, gid: int, rng: random.Random, prefer: str | None = None
) -> Outcome | None:
    """One random legal move by a person who must decide, through prompts and answers.
    Returns None when no person has an open prompt."""
    prompts = await svc.prompts(gid)
    if not prompts:
        return None
    p = rng.choice(prompts)
    choices = list(p.choices)
    rng.shuffle(choices)
    if prefer is not None:
        choices.sort(key=lambda a: a.kind != prefer)
    for action in choices:
        assert p.user_id is not None
        out = await svc.answer(gid, p.user_id, p.version, action)
        if out.ok:
            return out
    raise AssertionError(f"no choice of {p} was accepted")


async def play_until(
    svc: GameService,
    gid: int,
    rng: random.Random,
    want_phase: str,
    prefer: str | None = None,
    limit: int = 2000,
) -> None:
    """Play random moves (preferring ``prefer`` actions) until ``want_phase``."""
    for _ in range(limit):
        if await phase(svc, gid) == want_phase:
            return
        if await step(svc, gid, rng, prefer) is None:
            await svc.idle(gid)
    raise AssertionError(f"phase {want_phase} not reached")


Row = tuple[Any, ...]


def check_database(
    path: Path,
    verified: set[tuple[int, int]] | None = None,
) -> dict[str, int]:
    """Everything that must hold in a game file at any instant: SQLite's integrity and
    foreign keys, then :func:`check_games`. Returns counts for the caller."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        return check_games(
            conn.execute("SELECT id, status, version, creation, state FROM games").fetchall(),
            lambda gid: conn.execute(
                "SELECT seq, seat, action FROM actions WHERE game_id = ? ORDER BY seq", (gid,)
            ).fetchall(),
            lambda gid: conn.execute(
                "SELECT seat, kind FROM decisions WHERE game_id = ?", (gid,)
            ).fetchall(),
            verified,
        )
    finally:
        conn.close()


async def check_postgres(url: str, verified: set[tuple[int, int]] | None = None) -> dict[str, int]:
    """:func:`check_games` on a PostgreSQL database (one snapshot of it)."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction(isolation="repeatable_read", readonly=True):
            games = [
                tuple(r)
                for r in await conn.fetch("SELECT id, status, version, creation, state FROM games")
            ]
            actions = {
                gid: [
                    tuple(r)
                    for r in await conn.fetch(
                        "SELECT seq, seat, action FROM actions WHERE game_id = $1 ORDER BY seq",
                        gid,
                    )
                ]
                for gid, *_ in games
            }
            decisions = {
                gid: [
                    tuple(r)
                    for r in await conn.fetch(
                        "SELECT seat, kind FROM decisions WHERE game_id = $1", gid
                    )
                ]
                for gid, *_ in games
            }
    finally:
        await conn.close()
    return check_games(games, actions.__getitem__, decisions.__getitem__, verified)


def check_games(
    games: list[Row],
    actions_of: Callable[[int], list[Row]],
    decisions_of: Callable[[int], list[Row]],
    verified: set[tuple[int, int]] | None = None,
) -> dict[str, int]:
    """Everything that must hold of the stored games at any instant: no partial rows
    (each game's log contiguous from 1, version == number of actions), the snapshot
    equal to replaying exactly the committed actions, and open decisions matching the
    replayed game's deciders. ``games`` are (id, status, version, creation, state) rows;
    ``actions_of`` and ``decisions_of`` give a game's (seq, seat, action) and (seat,
    kind) rows. Returns counts for the caller.

    ``verified`` (game id, version) of finished games already replayed: they cannot
    change, so their replay is skipped (and new ones are added)."""
    total = 0
    for gid, status, version, creation, state in games:
        rows = actions_of(gid)
        assert [r[0] for r in rows] == list(range(1, len(rows) + 1)), gid
        assert version == len(rows), (gid, version, len(rows))
        total += len(rows)
        if creation is None:
            assert status in ("lobby", "cancelled", "archived") and not rows
            continue
        if verified is not None and (gid, version) in verified:
            assert status == "finished"
            continue
        game = pyramids.replay(
            json.loads(creation),
            [(seat, pyramids.action_from_dict(json.loads(a))) for _, seat, a in rows],
        )
        assert game.to_dict() == json.loads(state), f"game {gid} snapshot != replay"
        stored = {(s, k) for s, k in decisions_of(gid)}
        if status == "running":
            assert stored == {(d.seat, d.kind) for d in game.deciders()}, gid
            assert not game.over
        else:
            assert status == "finished" and game.over and not stored, gid
            if verified is not None:
                verified.add((gid, version))
    return {"games": len(games), "actions": total}
