"""Restarts: a new service on the same file picks every unfinished game up — open
prompts, deadlines (one that expired while down fires once), computer seats — and the
game can be finished."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path

from service import GameService
from service.scheduler import FakeClock
from tests.bot.helpers import (
    check_database,
    collector,
    make_service,
    new_game,
    phase,
    play_until,
    step,
)

T0 = 1_700_000_000.0


def sources(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [r[0] for r in conn.execute("SELECT source FROM actions ORDER BY seq")]
    finally:
        conn.close()


def last_events(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        (events,) = conn.execute("SELECT events FROM actions ORDER BY seq DESC LIMIT 1").fetchone()
        return [e["kind"] for e in json.loads(events)]
    finally:
        conn.close()


async def test_stopped_mid_diplomacy_and_mid_duel_deadlines_fire_once(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    clock = FakeClock(T0)
    a = await make_service(path, clock)
    gid, _ = await new_game(a, humans=4, options={"round_limit": 12})
    await play_until(a, gid, random.Random(4), "diplomacy", prefer="attack")
    window = await a.prompts(gid)
    assert len(window) == 2 and all(p.deadline == T0 + 30 for p in window)
    before = len(sources(path))
    await a.close()

    clock.advance(31)  # the window ran out while nobody was running
    got, listener = collector()
    b = await make_service(path, clock, listener)
    await b.idle(gid)
    assert sources(path)[before:] == ["timeout", "timeout"]  # each eligible player, once
    assert [o.kind for o in got] == ["timeout", "timeout"]
    assert await phase(b, gid) == "duel"
    (duel,) = await b.prompts(gid)
    assert "first card" in duel.text and duel.deadline == clock.now() + 120
    await b.close()

    clock.advance(121)  # the attacker never played its first card (EW-17)
    c = await make_service(path, clock)
    await c.idle(gid)
    assert sources(path)[before:] == ["timeout"] * 3
    assert "attack_withdrawn" in last_events(path)
    assert await phase(c, gid) == "turn"
    await c.close()

    d = await make_service(path, clock)  # nothing is due: nothing fires again
    await d.idle(gid)
    assert sources(path)[before:] == ["timeout"] * 3
    rng = random.Random(1)
    for _ in range(2000):
        if await step(d, gid, rng) is None:
            break
    assert (await d.status(gid)).status == "finished"
    await d.close()
    check_database(path)


async def test_two_services_starting_after_a_deadline_fire_it_once(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    clock = FakeClock(T0)
    a = await make_service(path, clock)
    gid, _ = await new_game(a, humans=2)
    await play_until(a, gid, random.Random(2), "turn")
    await a.close()
    clock.advance(13 * 3600)
    b, c = await asyncio.gather(make_service(path, clock), make_service(path, clock))
    await asyncio.gather(b.idle(gid), c.idle(gid))
    assert sources(path).count("timeout") == 1
    await b.close()
    await c.close()
    check_database(path)


async def test_open_prompts_and_sent_reminders_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    clock = FakeClock(T0)
    got, listener = collector()
    a = await make_service(path, clock, listener)
    gid, _ = await new_game(a, humans=3)
    await play_until(a, gid, random.Random(3), "turn")
    prompts = await a.prompts(gid)
    clock.advance(11.5 * 3600)  # past the reminder (1 h before the 12 h deadline)
    await a.idle(gid)
    assert [o.kind for o in got] == ["reminder"]
    await a.close()

    got2, listener2 = collector()
    b = await make_service(path, clock, listener2)
    await b.idle(gid)
    assert got2 == []  # the reminder was sent once, and is not sent again
    again = await b.prompts(gid)
    assert [(p.seat, p.kind, p.version, p.deadline, p.choices) for p in again] == [
        (p.seat, p.kind, p.version, p.deadline, p.choices) for p in prompts
    ]
    clock.advance(0.5 * 3600 + 1)
    await b.idle(gid)
    assert [o.kind for o in got2] == ["timeout"]
    await b.close()


async def test_computer_seats_carry_on_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    clock = FakeClock(T0)
    a = await make_service(path, clock, computer_pacing=5.0)
    gid, _ = await new_game(a, humans=1, computers=2)
    rng = random.Random(5)
    while True:  # play until a computer must move, then stop mid-pacing
        await step(a, gid, rng)
        st = await a.status(gid)
        if any(st.seats[d.seat].computer_level for d in st.decisions):
            break
    version = st.version
    await a.close()
    b: GameService = await make_service(path, clock)
    await b.idle(gid)
    st = await b.status(gid)
    assert st.version > version
    assert st.status == "finished" or not any(st.seats[d.seat].computer_level for d in st.decisions)
    await b.close()
    check_database(path)
