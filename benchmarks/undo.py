"""Benchmark of taking an action back, through ``GameService`` on a real SQLite file.

Run: ``.venv/bin/python -m benchmarks.undo [--rounds N]``.

Two people at World War 5 tables (WW-6: placements, each undoable) on a fresh file.
Printed: the latency of a placement that keeps its before-image (the undo point,
written with the action; the first five placements of fresh tables), of the same
placements with the game's hook answering no (no before-image), and of an undo (state
and decisions put back, a row in the log; the same placement made and taken back
``--rounds`` times), each with the CPU time per operation; what the bot asks of every
outcome it delivers (``undo_open``: is an Undo still standing) and the write that keeps
a shown Undo button (``set_undo_offer``); and the size of the before-image of a
European War position in mid-game.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.stats import summary
from rules import contract, pyramids
from service import GameService
from service.models import UndoOffer
from service.scheduler import FakeClock
from service.store import open_store


async def table(tmp: str, clock: FakeClock) -> tuple[GameService, int]:
    """A started service on a fresh file and a started two-person World War 5 game."""
    svc = GameService(
        await open_store(Path(tmp) / "g.db"), clock=clock, computer_pacing=0, seed_source=lambda: 7
    )
    await svc.start()
    return svc, await new_table(svc, 1)


async def new_table(svc: GameService, channel: int) -> int:
    out = await svc.open_lobby(
        channel_id=channel, host_id=1, host_name="Ann", variant="world_war_5"
    )
    gid = out.game_id
    assert gid is not None
    await svc.join(gid, 2, "Bob")
    await svc.start_game(gid, 1)
    return gid


async def place(svc: GameService, gid: int) -> tuple[float, float, int]:
    """One placement: (seconds, CPU seconds, who placed)."""
    [prompt] = await svc.prompts(gid)
    assert prompt.user_id is not None
    c0, t0 = time.process_time(), time.perf_counter()
    done = await svc.answer(gid, prompt.user_id, prompt.version, prompt.choices[0])
    t1, c1 = time.perf_counter(), time.process_time()
    assert done.ok, done.error
    return t1 - t0, c1 - c0, prompt.user_id


async def placements(rounds: int, keep_point: bool) -> tuple[list[float], float]:
    """Latencies and CPU per placement, the first five of fresh tables (WW-6), with or
    without the game's hook allowing undo (without: no before-image is made)."""
    game: Any = contract.game_named("world_war_5")
    if not keep_point:
        game.undoable = lambda *a: False
    took: list[float] = []
    cpu = 0.0
    try:
        with tempfile.TemporaryDirectory() as tmp:
            svc, gid = await table(tmp, FakeClock())
            channel = 1
            while len(took) < rounds:
                for _ in range(5):
                    seconds, used, _ = await place(svc, gid)
                    took.append(seconds)
                    cpu += used
                await svc.cancel(gid, 1)
                channel += 1
                gid = await new_table(svc, channel)
            await svc.close()
    finally:
        if not keep_point:
            del game.undoable
    return took, cpu / len(took)


async def undos(rounds: int) -> tuple[list[float], float]:
    """Latencies and CPU of taking the same placement back ``rounds`` times."""
    took: list[float] = []
    cpu = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        svc, gid = await table(tmp, FakeClock())
        for _ in range(rounds):
            _, _, user = await place(svc, gid)
            c0, t0 = time.process_time(), time.perf_counter()
            back = await svc.undo(gid, user)
            t1, c1 = time.perf_counter(), time.process_time()
            assert back.ok, back.error
            took.append(t1 - t0)
            cpu += c1 - c0
        await svc.close()
    return took, cpu / len(took)


async def offers(rounds: int) -> tuple[tuple[list[float], float], tuple[list[float], float]]:
    """Latencies and CPU of ``undo_open`` (after a placement: an Undo standing) and of
    keeping an Undo button with the game, ``rounds`` times each."""
    asked: list[float] = []
    kept: list[float] = []
    cpu_asked = cpu_kept = 0.0
    edit = {"components": [{"type": 1, "components": [{"type": 2, "custom_id": "x"}]}]}
    with tempfile.TemporaryDirectory() as tmp:
        svc, gid = await table(tmp, FakeClock())
        await place(svc, gid)
        for n in range(rounds):
            c0, t0 = time.process_time(), time.perf_counter()
            assert await svc.undo_open(gid) is not None
            t1, c1 = time.perf_counter(), time.process_time()
            await svc.store.set_undo_offer(gid, UndoOffer(1, n, 1, 30.0, edit))
            t2, c2 = time.perf_counter(), time.process_time()
            asked.append(t1 - t0)
            kept.append(t2 - t1)
            cpu_asked += c1 - c0
            cpu_kept += c2 - c1
        await svc.close()
    return (asked, cpu_asked / rounds), (kept, cpu_kept / rounds)


def point_size() -> int:
    """Bytes of the before-image of a European War position after 60 random actions."""
    g, _ = pyramids.new_game("european_war", [None] * 4, seed=5)
    rng = random.Random(5)
    for _ in range(60):
        seat = g.deciders()[0].seat
        g.apply(seat, rng.choice(list(g.legal_actions(seat))))
    return len(json.dumps(g.to_dict(), separators=(",", ":")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    kept, cpu_k = asyncio.run(placements(args.rounds, keep_point=True))
    print(f"placement, keeping its undo point: {summary(kept)}; CPU {cpu_k * 1000:.3f} ms")
    plain, cpu_p = asyncio.run(placements(args.rounds, keep_point=False))
    print(f"placement, no undo point:          {summary(plain)}; CPU {cpu_p * 1000:.3f} ms")
    back, cpu_u = asyncio.run(undos(args.rounds))
    print(f"undo:                              {summary(back)}; CPU {cpu_u * 1000:.3f} ms")
    (asked, cpu_a), (kept_offer, cpu_o) = asyncio.run(offers(args.rounds))
    print(f"undo_open:                         {summary(asked)}; CPU {cpu_a * 1000:.3f} ms")
    print(f"keeping an Undo button:            {summary(kept_offer)}; CPU {cpu_o * 1000:.3f} ms")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"before-image of a 4-player European War position: {point_size()} bytes")


if __name__ == "__main__":
    main()
