"""Child process of the crash-safety test: plays random legal moves in a loop, game after
game in one channel, until it is killed (SIGKILL, at a random moment). Each action the
service acknowledged (committed) is printed as ``ack GAME VERSION`` before the next.

Usage: python crash_child.py DATABASE SEED (an SQLite file or a postgresql:// URL)
"""

from __future__ import annotations

import asyncio
import random
import sys

from service import GameService
from service.store import open_store


async def main(where: str, seed: int) -> None:
    store = await open_store(where)
    svc = GameService(store, computer_pacing=0, seed_source=lambda: seed)
    await svc.start()
    rng = random.Random(seed)
    print("ready", flush=True)
    while True:
        gid = await svc.active_game(1)
        if gid is None:
            await svc.open_lobby(channel_id=1, host_id=1, host_name="A", options={"round_limit": 8})
            continue
        status = await svc.status(gid)
        if status.status == "lobby":  # perhaps left half-filled by the last kill
            seated = {s.user_id for s in status.seats}
            for user in {2, 3} - seated:
                await svc.join(gid, user, f"P{user}")
            await svc.start_game(gid, 1)
            continue
        prompts = await svc.prompts(gid)
        if not prompts:
            continue
        p = rng.choice(prompts)
        for action in rng.sample(p.choices, len(p.choices)):
            out = await svc.answer(gid, p.user_id or 0, p.version, action)
            if out.ok:
                print(f"ack {gid} {out.version}", flush=True)
                break


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
