"""The bot's process in ``benchmarks/bot.py``: the real discord.py client and its render
worker pool, pointed at a fake Discord that runs in another process (as a deployment
talks to a Discord it does not host).

Started by ``benchmarks/bot.py`` with one JSON argument (``api_base``, ``gateway_url``,
``token``, ``database_url``, ``guild``, ``max_games``, and for one of several processes
on PostgreSQL ``shard`` and ``shards``: the shard it connects, of how many); it takes
requests as JSON lines on stdin and answers each with one JSON line on stdout (logs go
to stderr):

- ``{"op": "tables", "tables": [{"n", "guild", "channel", "users"}]}``: set each game up
  through the service (lobby, join, start, placements); answers ``{"tables": [{"gid",
  "turn"}]}`` with whose turn it is.
- ``{"op": "settle"}``: wait until the bot is quiet; answers the process's CPU seconds
  (all threads) and the event loop thread's, with :func:`counts`. ``{"op": "cpu"}``:
  the same at once.
- ``{"op": "profile", "start": true|false, "path": ...}``: cProfile the event loop thread
  from now / stop and write the statistics to ``path``.
- ``{"op": "sample", "start": true|false, "path": ...}``: sample every thread's stack
  every 5 ms from now / stop and write where each thread was (the innermost frames of
  the project, discord.py, aiohttp, aiosqlite or the standard library) to ``path``: unlike
  cProfile it sees time spent waiting (for the GIL, a lock, the disk) and barely slows
  the loop.
- ``{"op": "stop"}``: close the bot (as a shutdown does) and exit.
"""

from __future__ import annotations

import asyncio
import collections
import cProfile
import json
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bot.__main__ import configure_logging
from bot.client import GameBot
from bot.config import Settings
from bot.endpoints import point_discord_at
from bot.resources import open_resources
from service.scheduler import FakeClock


async def make_table(bot: GameBot, spec: dict[str, Any]) -> dict[str, int]:
    """A started two-player game whose pieces are placed (through the service)."""
    svc = bot.service
    host, guest = spec["users"]
    out = await svc.open_lobby(
        channel_id=spec["channel"],
        host_id=host,
        host_name="A",
        guild_id=spec["guild"],
        max_players=2,
    )
    assert out.ok, out.error
    gid = out.game_id
    assert gid is not None
    assert (await svc.join(gid, guest, "B")).ok
    started = await svc.start_game(gid, host, seed=spec["n"])
    assert started.ok
    for p in started.prompts:
        assert p.user_id is not None
        assert (await svc.answer(gid, p.user_id, p.version, p.choices[0])).ok
    st = await svc.status(gid)
    turn = next(d for d in st.decisions if d.kind == "turn")
    assert turn.user_id is not None
    return {"gid": gid, "turn": turn.user_id}


class Sampler:
    """Samples every thread's stack every ``interval`` seconds in a thread of its own."""

    def __init__(self, interval: float = 0.005) -> None:
        self.interval = interval
        self.counts: collections.Counter[tuple[str, str]] = collections.Counter()
        self.samples = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="bench-sampler", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        me = threading.get_ident()
        while not self._stop.wait(self.interval):
            names = {t.ident: t.name for t in threading.enumerate()}
            self.samples += 1
            for ident, frame in sys._current_frames().items():
                if ident != me:
                    self.counts[(names.get(ident, str(ident)), _where(frame))] += 1

    def stop(self, path: str) -> None:
        """Stop and write the counts, most frequent first, per thread."""
        self._stop.set()
        self._thread.join()
        lines = [f"{self.samples} samples every {self.interval * 1000:g} ms"]
        for (thread, where), n in self.counts.most_common():
            if n * 200 >= self.samples:  # 0.5% and more
                lines.append(f"{n / self.samples:7.1%}  {thread:28.28}  {where}")
        Path(path).write_text("\n".join(lines) + "\n")


def _where(frame: Any, depth: int = 4) -> str:
    """The innermost ``depth`` frames, innermost first, as ``file:line function``."""
    out: list[str] = []
    while frame is not None and len(out) < depth:
        code = frame.f_code
        name = "/".join(Path(code.co_filename).parts[-2:])
        out.append(f"{name}:{frame.f_lineno} {code.co_name}")
        frame = frame.f_back
    return " < ".join(out)


def cpu() -> dict[str, float]:
    """CPU seconds so far: the whole process, and the thread calling (the event loop)."""
    return {"cpu": time.process_time(), "loop": time.thread_time()}


def counts(bot: GameBot) -> dict[str, float]:
    """DMs merged into a waiting one, hand images drawn for DMs (and left out for being
    late), outbox items waiting."""
    return {
        "merged": bot.delivery.outbox.merged_dms,
        "hands": bot.delivery.hands_drawn,
        "late": bot.delivery.hands_late,
        "queued": bot.delivery.outbox.queued,
    }


async def serve(config: dict[str, Any]) -> None:
    """Open what the bot runs on, as ``python -m bot`` does, then :func:`answer_requests`."""
    point_discord_at(config["api_base"], config["gateway_url"])
    shards = config.get("shards")
    settings = Settings(
        discord_token=config["token"],
        database_url=config["database_url"],
        dev_guild_id=None,
        log_level="WARNING",
        discord_api_base=None,
        discord_gateway_url=None,
        shard_count=shards,
        shard_ids=None if shards is None else (config["shard"],),
    )
    service_options = {"clock": FakeClock(), "computer_pacing": 0}
    async with (
        open_resources(settings, service_options=service_options) as resources,
        GameBot(settings, resources, warm_up=False, guild_ready_timeout=0.05) as bot,
    ):
        connect = asyncio.create_task(bot.start(config["token"], reconnect=False))
        await bot.wait_until_ready()
        await bot.delivery.images.warm_up()
        await bot.service.update_guild_settings(config["guild"], max_games=config["max_games"])
        await answer_requests(bot)
        await bot.close()
        await asyncio.wait_for(connect, 10)
    print(json.dumps(cpu()), flush=True)


async def answer_requests(bot: GameBot) -> None:
    """Answer requests from stdin until ``stop``."""

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    profiler: cProfile.Profile | None = None
    sampler: Sampler | None = None

    def answer(data: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(data) + "\n")
        sys.stdout.flush()

    answer({"ready": True})
    while line := await reader.readline():
        req = json.loads(line)
        op = req["op"]
        if op == "tables":
            answer({"tables": [await make_table(bot, t) for t in req["tables"]]})
        elif op == "settle":
            await bot.settle()
            answer({**cpu(), **counts(bot)})
        elif op == "cpu":
            answer({**cpu(), **counts(bot)})
        elif op == "profile":
            if req["start"]:
                profiler = cProfile.Profile()
                profiler.enable()
            elif profiler is not None:
                profiler.disable()
                profiler.dump_stats(req["path"])
                profiler = None
            answer({})
        elif op == "sample":
            if req["start"]:
                sampler = Sampler()
            elif sampler is not None:
                sampler.stop(req["path"])
                sampler = None
            answer({})
        elif op == "stop":
            break


def main() -> None:
    """Run the bot side with the JSON configuration in ``argv[1]``."""
    config = json.loads(sys.argv[1])
    config.setdefault(
        "database_url", f"sqlite:///{Path(tempfile.mkdtemp(prefix='bot-bench-')) / 'bench.db'}"
    )
    configure_logging("WARNING")  # as ``python -m bot`` logs (masking filters included)
    asyncio.run(serve(config))


if __name__ == "__main__":
    main()
