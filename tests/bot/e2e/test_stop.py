"""``python -m bot`` stopped by SIGTERM (``docker stop``) or SIGINT (Ctrl+C) at several
moments — before the event loop runs, while logging in, while syncing commands (with the
renderer's warm-up thread busy), connected, right after a player's action, and while
Discord holds the bot's messages — exits 0 within the bound, with the action in the
database and nothing waited on that the stop should not wait for.

The bound: the bot's own stop is under 2 s (its close gives messages in flight 1 s);
:data:`STOP_BOUND` adds room for a loaded machine and the interpreter's exit, and still
fails on any of discord.py's 10 s timeouts, an un-cancelled task or a thread joined at
exit (the renderer's warm-up alone takes several seconds).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.__main__ import STOP_DEADLINE
from bot.health import check
from tests.fake_discord import FakeDiscord, FakeMessage, FakeUser

from .harness import cards_in

STOP_BOUND = 3.0
ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.skipif(
    not Path("/proc/self/status").exists(), reason="reads a process's signal mask from /proc"
)


@dataclass
class Child:
    """A ``python -m bot`` process against the fake."""

    proc: asyncio.subprocess.Process
    db: Path
    health: Path
    stderr: bytes = b""

    def records(self) -> list[dict]:
        """The JSON log lines it wrote."""
        return [
            json.loads(line) for line in self.stderr.decode().splitlines() if line.startswith("{")
        ]

    async def stop_by_itself(self) -> float:
        """Wait for a process that signals itself (:mod:`tests.bot.e2e.stop_at`) to end;
        return the seconds from its SIGTERM (read from its log) to its end."""
        loop = asyncio.get_running_loop()
        assert self.proc.stderr is not None
        seen = b""
        while b"SIGTERM received" not in seen:
            line = await asyncio.wait_for(self.proc.stderr.readline(), 60)
            assert line, seen.decode()[-3000:]
            seen += line
        start = loop.time()
        try:
            _, rest = await asyncio.wait_for(self.proc.communicate(), 30)
        except TimeoutError:
            self.proc.kill()
            _, rest = await self.proc.communicate()
            raise AssertionError(
                "the bot did not stop: " + (seen + rest).decode()[-3000:]
            ) from None
        self.stderr = seen + rest
        return loop.time() - start

    async def stop(self, sig: signal.Signals) -> float:
        """Send ``sig``; return the seconds until the process ended."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        self.proc.send_signal(sig)
        _, self.stderr = await asyncio.wait_for(self.proc.communicate(), 30)
        return loop.time() - start


async def spawn(fake: FakeDiscord, tmp: Path, module: str = "bot", **extra: str) -> Child:
    """``python -m module`` (``bot``, or a variant of it kept in the tests, given the
    ``extra`` environment)."""
    db, health = tmp / "data" / "games.db", tmp / "health.json"
    db.parent.mkdir(exist_ok=True)  # a configured database folder must exist (preflight)
    env = {
        **os.environ,
        "DISCORD_TOKEN": fake.token,
        "DATABASE_URL": f"sqlite:///{db}",
        "LOG_LEVEL": "DEBUG",
        "LOG_FORMAT": "json",
        "HEALTH_FILE": str(health),
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "DEV_GUILD_ID": "",
        "PYTHONPATH": str(ROOT),
        **extra,
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        module,
        cwd=tmp,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    return Child(proc, db, health)


def catches(pid: int, sig: signal.Signals) -> bool:
    """The process has a handler for ``sig`` (its SigCgt mask in /proc)."""
    status = Path(f"/proc/{pid}/status").read_text()
    mask = int(
        next(line for line in status.splitlines() if line.startswith("SigCgt:")).split()[1], 16
    )
    return bool(mask >> (sig - 1) & 1)


def assert_clean_stop(child: Child, took: float) -> None:
    log = child.stderr.decode()
    print(f"the stop took {took:.2f} s")
    assert child.proc.returncode == 0, log[-3000:]
    assert took < STOP_BOUND, f"stopping took {took:.2f} s"
    assert "Traceback" not in log, log[-3000:]
    assert not child.health.exists(), "the health file goes with the process"


async def wait_ready(fake: FakeDiscord) -> None:
    await fake.wait_until(
        lambda: fake.connected and None in fake.commands,
        timeout=60,
        what="the bot to connect and sync",
    )


def health_check(path: Path) -> tuple[int, str]:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "bot.health", str(path)], capture_output=True, text=True, timeout=30
    )
    return done.returncode, done.stdout


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_a_stop_before_the_event_loop_runs(
    fake_discord: FakeDiscord, tmp_path: Path, sig: signal.Signals
) -> None:
    child = await spawn(fake_discord, tmp_path)
    # the first moment the process can act on a stop: the handlers precede every import
    while not catches(child.proc.pid, signal.SIGTERM):
        await asyncio.sleep(0.001)
    took = await child.stop(sig)
    assert_clean_stop(child, took)


async def test_a_stop_while_logging_in(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    held = fake_discord.hold("GET", "/users/@me")
    child = await spawn(fake_discord, tmp_path)
    await fake_discord.wait_until(lambda: held.waiting > 0, timeout=60, what="the login")
    took = await child.stop(signal.SIGTERM)
    assert_clean_stop(child, took)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_a_stop_while_syncing_commands_with_the_renderer_warming_up(
    fake_discord: FakeDiscord, tmp_path: Path, sig: signal.Signals
) -> None:
    held = fake_discord.hold("PUT", "/applications/*/commands")
    child = await spawn(fake_discord, tmp_path)
    await fake_discord.wait_until(lambda: held.waiting > 0, timeout=60, what="the command sync")
    took = await child.stop(sig)
    assert_clean_stop(child, took)
    assert child.db.is_file(), "the store was opened (and closed) before the sync"
    with sqlite3.connect(child.db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


async def test_a_stop_when_connected_and_the_health_check(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    child = await spawn(fake_discord, tmp_path)
    await wait_ready(fake_discord)
    await fake_discord.wait_until(
        lambda: check(child.health)[0], timeout=30, what="the health file to say connected"
    )
    code, out = await asyncio.to_thread(health_check, child.health)
    assert code == 0 and out.startswith("connected"), out
    took = await child.stop(signal.SIGTERM)
    assert_clean_stop(child, took)
    code, out = await asyncio.to_thread(health_check, child.health)
    assert code == 1 and "not running" in out, out
    lines = child.stderr.decode().splitlines()
    assert lines and all(line.startswith("{") for line in lines), "LOG_FORMAT=json: all JSON"
    records = child.records()
    messages = [r["message"] for r in records]
    assert "SIGTERM received: stopping (send it again to exit at once)" in messages
    assert "stopped" in messages
    assert not [r for r in records if r["level"] != "DEBUG" and r["level"] != "INFO"], (
        "a clean start and stop logs no warning"
    )


async def start_a_game(fake: FakeDiscord) -> tuple[FakeUser, FakeMessage]:
    """ann opens a table with two computers and starts it; returns ann and her first
    setup panel (a DM)."""
    guild = fake.add_guild("Ops")
    channel = fake.add_text_channel(guild, "games")
    ann = fake.add_user("ann", guild=guild)
    await wait_ready(fake)
    # generous: a fresh process draws its first boards slowly on a loaded machine
    await fake.slash(ann, channel, "newgame", timeout=60)
    for _ in range(2):
        await fake.slash(ann, channel, "addbot", timeout=60, level="easy")
    res = await fake.slash(ann, channel, "start", timeout=60)
    assert "Seat order" in res.content, res.content

    def panel() -> FakeMessage | None:
        return next(
            (
                m
                for m in reversed(fake.dm_messages(ann))
                if any(
                    c.get("custom_id", "").startswith(("ew:a:", "ew:s:"))
                    for c in m.walk_components()
                )
            ),
            None,
        )

    await fake.wait_until(lambda: panel() is not None, timeout=60, what="ann's setup panel")
    found = panel()
    assert found is not None
    return ann, found


async def answer(fake: FakeDiscord, user: FakeUser, panel: FakeMessage) -> None:
    """Pick the first choice the panel offers."""
    for c in panel.walk_components():
        cid = c.get("custom_id", "")
        if c.get("type") == 2 and cid.startswith("ew:a:"):
            await fake.click(user, panel, cid, timeout=60)
            return
        if c.get("type") == 3 and cid.startswith("ew:s:"):
            await fake.select(user, panel, cid, [c["options"][0]["value"]], timeout=60)
            return
    raise AssertionError("the panel offers nothing")


def player_actions(db: Path, user_id: int) -> int:
    with sqlite3.connect(db) as conn:
        (n,) = conn.execute("SELECT count(*) FROM actions WHERE user_id = ?", (user_id,)).fetchone()
    return n


async def test_a_stop_right_after_an_action_keeps_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    child = await spawn(fake_discord, tmp_path)
    ann, panel = await start_a_game(fake_discord)
    assert player_actions(child.db, ann.id) == 0
    await answer(fake_discord, ann, panel)  # answered: the action is confirmed
    took = await child.stop(signal.SIGTERM)
    assert_clean_stop(child, took)
    assert player_actions(child.db, ann.id) == 1


async def test_a_stop_does_not_wait_for_discord_to_take_its_messages(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    child = await spawn(fake_discord, tmp_path)
    ann, panel = await start_a_game(fake_discord)
    held = fake_discord.hold("POST", "/channels/*/messages")  # Discord stops taking them
    await answer(fake_discord, ann, panel)
    await fake_discord.wait_until(
        lambda: held.waiting > 0, timeout=60, what="a message the bot cannot get through"
    )
    took = await child.stop(signal.SIGTERM)
    assert_clean_stop(child, took)
    assert player_actions(child.db, ann.id) == 1
    warnings = [r["message"] for r in child.records() if r["level"] == "WARNING"]
    assert any("not sent" in m for m in warnings), warnings


async def test_a_second_signal_exits_at_once(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    child = await spawn(fake_discord, tmp_path)
    ann, panel = await start_a_game(fake_discord)
    held = fake_discord.hold("POST", "/channels/*/messages")  # the stop will have to wait
    await answer(fake_discord, ann, panel)
    await fake_discord.wait_until(
        lambda: held.waiting > 0, timeout=60, what="a message the bot cannot get through"
    )
    child.proc.send_signal(signal.SIGTERM)
    assert child.proc.stderr is not None
    seen = b""
    while b"SIGTERM received" not in seen:  # the first stop is under way
        line = await asyncio.wait_for(child.proc.stderr.readline(), 30)
        assert line, seen.decode()[-2000:]
        seen += line
    await child.stop(signal.SIGTERM)
    log = (seen + child.stderr).decode()
    assert child.proc.returncode == 128 + signal.SIGTERM, log[-3000:]
    assert "second SIGTERM: exiting now" in log
    after = log[log.index("second SIGTERM: exiting now") :]
    # the first stop's budget would end in these lines: the second signal did not wait
    assert "stopping took" not in after and "still running:" not in after, after[-3000:]


@pytest.mark.parametrize("moment", ["outbox", "catch_up", "service", "gateway"])
async def test_a_stop_at_each_step_of_the_start_up(
    fake_discord: FakeDiscord, tmp_path: Path, moment: str
) -> None:
    # SIGTERM as the start has loaded the outbox, told the channels what they were
    # owed, started the games; and as the gateway handshake completes, while discord.py's
    # connect() waits on asyncio.wait_for for the websocket: on Python 3.11 that
    # wait_for returns the websocket and drops the cancellation a stop relies on
    child = await spawn(fake_discord, tmp_path, "tests.bot.e2e.stop_at", STOP_AT=moment)
    took = await child.stop_by_itself()
    assert_clean_stop(child, took)
    messages = [r["message"] for r in child.records() if r["level"] != "DEBUG"]
    assert not [m for m in messages if "stopping took" in m], messages


async def test_a_stuck_stop_ends_at_its_deadline_with_what_is_owed_kept(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    # a stop with an await that never ends (the outbox's close, here, on purpose)
    child = await spawn(fake_discord, tmp_path, "tests.bot.e2e.stop_at", STUCK_OUTBOX="1")
    ann, panel = await start_a_game(fake_discord)
    held = fake_discord.hold("POST", "/channels/*/messages")  # the action's message waits
    await answer(fake_discord, ann, panel)
    await fake_discord.wait_until(
        lambda: held.waiting > 0, timeout=60, what="a message the bot cannot get through"
    )
    took = await child.stop(signal.SIGTERM)
    assert_clean_stop(child, took)
    assert took >= STOP_DEADLINE
    warnings = [r["message"] for r in child.records() if r["level"] == "WARNING"]
    assert any(m.startswith(f"stopping took over {STOP_DEADLINE:.1f} s") for m in warnings)
    running = [m for m in warnings if m.startswith("still running: ")]
    assert any("stop_at.py" in m and "_stuck" in m for m in running), running
    assert not cards_in("\n".join(running)), "code locations only"
    # what the bot owed is in the database for the next start
    assert player_actions(child.db, ann.id) == 1
    with sqlite3.connect(child.db) as conn:
        kept = [json.loads(p)["content"] for (p,) in conn.execute("SELECT payload FROM outbox")]
    assert any("placed" in k for k in kept), kept
