"""Benchmark of the service's languages: remembering a client's language, and wording an
outcome for readers of several languages.

Run: ``.venv/bin/python -m benchmarks.languages [--rounds N]``.

Printed: the cost of :meth:`service.GameService.note_locale` when the language is the one
already seen (every interaction but a person's first) and when it changes (the store
write goes to the background: its call and, apart, the write itself); and the time to
word the outcome of a four-person European War start (the channel's words, four private
notes and the prompts) with everyone in English, and with the channel in French and the
players in German, French, Czech and English (each part worded in its reader's
language), each with its CPU time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from pathlib import Path

from benchmarks.stats import summary
from service import GameService
from service.live import LiveGame
from service.scheduler import FakeClock
from service.store import open_store

PEOPLE = (1, 2, 3, 4)


async def service(tmp: str) -> GameService:
    """A started service on a fresh file."""
    svc = GameService(
        await open_store(Path(tmp) / "g.db"),
        clock=FakeClock(),
        computer_pacing=0,
        seed_source=lambda: 7,
    )
    await svc.start()
    return svc


async def note_locale(rounds: int) -> None:
    """The cost of noting a client's language, unchanged and changed."""
    with tempfile.TemporaryDirectory() as tmp:
        svc = await service(tmp)
        svc.note_locale(1, "de")
        await svc.idle()
        same: list[float] = []
        c0 = time.process_time()
        for _n in range(rounds):
            t0 = time.perf_counter()
            svc.note_locale(1, "de")
            same.append(time.perf_counter() - t0)
        cpu_same = (time.process_time() - c0) / rounds
        changed: list[float] = []
        written: list[float] = []
        tags = ("fr", "cs")
        c0 = time.process_time()
        for n in range(rounds // 10):
            t0 = time.perf_counter()
            svc.note_locale(1, tags[n % 2])
            t1 = time.perf_counter()
            await svc.idle()
            changed.append(t1 - t0)
            written.append(time.perf_counter() - t1)
        cpu_changed = (time.process_time() - c0) / (rounds // 10)
        await svc.close()
    print(f"note_locale, unchanged: {summary(same, 'µs', 1e6)}; CPU {cpu_same * 1e6:.3f} µs")
    print(f"note_locale, changed:   {summary(changed, 'µs', 1e6)} (the call)")
    print(f"  its background write: {summary(written)}; CPU with it {cpu_changed * 1e3:.3f} ms")


async def start_outcome(mixed: bool, rounds: int) -> tuple[list[float], float]:
    """Latencies and CPU of wording a four-person European War start's outcome."""
    with tempfile.TemporaryDirectory() as tmp:
        svc = await service(tmp)
        if mixed:
            for user, tag in zip(PEOPLE, ("de", "fr", "cs", "en-US"), strict=True):
                svc.note_locale(user, tag)
        out = await svc.open_lobby(
            channel_id=1,
            host_id=1,
            host_name="Ann",
            variant="european_war",
            guild_locale="fr" if mixed else None,
        )
        gid = out.game_id
        assert gid is not None
        for user in PEOPLE[1:]:
            await svc.join(gid, user, f"P{user}")
        start = await svc.start_game(gid, 1)
        assert start.ok, start.error
        live: LiveGame = svc._games[gid]
        assert live.state is not None
        game = live.game
        creation = live.creation
        assert creation is not None
        state, events = game.new_game(
            creation["powers"],
            creation["seed"],
            game.options_from_dict(creation["options"]),
            creation["arranged"],
        )
        live.state = state
        took: list[float] = []
        c0 = time.process_time()
        for _n in range(rounds):
            live.cached_views = None  # each outcome makes its views, as after an action
            t0 = time.perf_counter()
            outcome = svc._play_outcome(live, state, events, None, "start")
            took.append(time.perf_counter() - t0)
        cpu = (time.process_time() - c0) / rounds
        assert len(outcome.private) == len(PEOPLE)
        languages = {note.language for note in outcome.private.values()}
        assert languages == ({"de", "fr", "cs", "en"} if mixed else {"en"})
        await svc.close()
    return took, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2000)
    args = parser.parse_args()
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    asyncio.run(note_locale(args.rounds * 50))
    english, cpu_e = asyncio.run(start_outcome(False, args.rounds))
    print(f"a start's outcome, all English:   {summary(english)}; CPU {cpu_e * 1000:.3f} ms")
    mixed, cpu_m = asyncio.run(start_outcome(True, args.rounds))
    print(f"a start's outcome, 4 languages:   {summary(mixed)}; CPU {cpu_m * 1000:.3f} ms")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
