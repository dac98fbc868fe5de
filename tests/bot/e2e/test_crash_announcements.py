"""``python -m bot`` killed (SIGKILL) right after a player's action is committed: the
channel still hears of the action — its words and the board — once the bot is started
again on the same database. Two moments, each placed exactly (no timing):

* the action is committed and its answer is on its way, held by Discord: nothing of the
  action has reached the channel yet;
* the renderer never finishes (:mod:`tests.bot.e2e.held_bot`), so the words went first
  and the board was still to follow by an edit.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.images import BOARD_FILE
from tests.bot.e2e.process import bot_env, start_bot, wait_connected
from tests.fake_discord import FakeChannel, FakeDiscord, FakeMessage, FakeUser

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
ROOT = Path(__file__).resolve().parents[3]
WAIT = 60.0
"""Generous: a fresh process draws its first boards slowly on a loaded machine."""


async def start_held_bot(env: dict[str, str], cwd: Path) -> asyncio.subprocess.Process:
    """``python -m bot`` with a renderer that never finishes a board."""
    return await start_bot({**env, "PYTHONPATH": str(ROOT)}, cwd, "tests.bot.e2e.held_bot")


async def kill(proc: asyncio.subprocess.Process) -> None:
    """SIGKILL: no shutdown of any kind."""
    proc.send_signal(signal.SIGKILL)
    await asyncio.wait_for(proc.communicate(), WAIT)
    assert proc.returncode == -signal.SIGKILL


async def stop(proc: asyncio.subprocess.Process) -> str:
    """SIGTERM and wait; returns its log."""
    if proc.returncode is None:
        proc.send_signal(signal.SIGTERM)
    _, err = await asyncio.wait_for(proc.communicate(), WAIT)
    return (err or b"").decode()


@dataclass
class Runs:
    """The bot's first process and, once it is killed, the one started after it."""

    env: dict[str, str]
    cwd: Path
    first: asyncio.subprocess.Process
    second: asyncio.subprocess.Process | None = None

    @property
    def db(self) -> Path:
        """The database both runs share."""
        return self.cwd / "data" / "games.db"

    async def restart(self) -> None:
        """Start ``python -m bot`` again on the same database."""
        self.second = await start_bot(self.env, self.cwd)


@contextlib.asynccontextmanager
async def killed_and_restarted(
    fake: FakeDiscord,
    tmp_path: Path,
    start: Callable[[dict[str, str], Path], Awaitable[asyncio.subprocess.Process]],
) -> AsyncIterator[Runs]:
    """A bot started with ``start``; at the end the first run is killed if still alive
    and the second stopped, its log free of tracebacks."""
    env = bot_env(fake, tmp_path)
    runs = Runs(env, tmp_path, await start(env, tmp_path))
    try:
        yield runs
    finally:
        if runs.first.returncode is None:
            await kill(runs.first)
        if runs.second is not None:
            log = await stop(runs.second)
            assert "Traceback" not in log, log[-3000:]


def player_actions(db: Path, user_id: int) -> int:
    with sqlite3.connect(db) as conn:
        (n,) = conn.execute("SELECT count(*) FROM actions WHERE user_id = ?", (user_id,)).fetchone()
    return n


async def open_game(fake: FakeDiscord) -> tuple[FakeUser, FakeChannel]:
    """ann starts a game with two computers in #games."""
    guild = fake.add_guild("Ops")
    channel = fake.add_text_channel(guild, "games")
    ann = fake.add_user("ann", guild=guild)
    await wait_connected(fake, WAIT, "the bot to connect and sync")
    await fake.slash(ann, channel, "newgame", timeout=WAIT)
    for _ in range(2):
        await fake.slash(ann, channel, "addbot", timeout=WAIT, level="easy")
    res = await fake.slash(ann, channel, "start", timeout=WAIT)
    assert "Seat order" in res.content, res.content
    return ann, channel


async def place(fake: FakeDiscord, ann: FakeUser, channel: FakeChannel) -> dict[str, str]:
    """The options of a /place that puts ann's three pieces on three home fields."""
    chosen: dict[str, str] = {}
    for size in ("large", "medium", "small"):
        choices = await fake.autocomplete(
            ann, channel, "place", focused=size, timeout=WAIT, options={size: ""}
        )
        value = next(c["value"] for c in choices if c["value"] not in chosen.values())
        chosen[size] = value
    return chosen


def told(fake: FakeDiscord, channel: FakeChannel, words: str) -> list[FakeMessage]:
    """The channel's messages that show ``words``."""
    return [m for m in fake.messages(channel) if words in m.content]


def cid_of(component: dict) -> str:
    """The custom id of a button that answers a prompt ("" for anything else)."""
    cid = component.get("custom_id", "")
    return cid if component.get("type") == 2 and cid.startswith("ew:a:") else ""


def with_board(messages: list[FakeMessage]) -> list[FakeMessage]:
    return [m for m in messages if any(a.filename == BOARD_FILE for a in m.attachments)]


async def test_killed_before_an_answer_reaches_discord_the_channel_is_told_after_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    async with killed_and_restarted(fake_discord, tmp_path, start_bot) as runs:
        db = runs.db
        ann, channel = await open_game(fake_discord)
        options = await place(fake_discord, ann, channel)
        held = fake_discord.hold("POST", "/webhooks/*")  # the answer, with the action's words
        acting = asyncio.ensure_future(
            fake_discord.slash(ann, channel, "place", timeout=WAIT, options=options)
        )
        await fake_discord.wait_until(
            lambda: held.waiting > 0 and player_actions(db, ann.id) == 1,
            timeout=WAIT,
            what="the action committed and its answer held",
        )
        answer = next(
            r
            for r in reversed(fake_discord.requests)
            if r.method == "POST" and r.path.startswith("/webhooks/")
        )
        words = answer.json["content"].splitlines()[0]
        assert not told(fake_discord, channel, words), "the channel has not heard of it yet"
        await kill(runs.first)
        acting.cancel()
        held.release()

        await runs.restart()
        await fake_discord.wait_until(
            lambda: bool(with_board(told(fake_discord, channel, words))),
            timeout=WAIT,
            what=f"the channel told {words!r}, with the board",
        )
        assert player_actions(db, ann.id) == 1


@pytest.mark.parametrize("how", ["slash", "panel"])
async def test_killed_while_a_late_board_is_owed_the_board_is_shown_after_restart(
    fake_discord: FakeDiscord, tmp_path: Path, how: str
) -> None:
    async with killed_and_restarted(fake_discord, tmp_path, start_held_bot) as runs:
        db = runs.db
        ann, channel = await open_game(fake_discord)
        before = {m.id for m in fake_discord.messages(channel)}
        if how == "slash":
            options = await place(fake_discord, ann, channel)
            res = await fake_discord.slash(ann, channel, "place", timeout=WAIT, options=options)
            assert not res.ephemeral, res.content
        else:

            def setup_panel() -> FakeMessage | None:
                return next(
                    (
                        m
                        for m in reversed(fake_discord.dm_messages(ann))
                        if any(cid_of(c) for c in m.walk_components())
                    ),
                    None,
                )

            await fake_discord.wait_until(
                lambda: setup_panel() is not None, timeout=WAIT, what="ann's setup panel"
            )
            panel = setup_panel()
            assert panel is not None
            cid = next(cid_of(c) for c in panel.walk_components() if cid_of(c))
            await fake_discord.click(ann, panel, cid, timeout=WAIT)

        def words_first() -> list[FakeMessage]:  # ann's, computers' may come as well
            return [
                m
                for m in fake_discord.messages(channel)
                if m.id not in before and "ann placed" in m.content
            ]

        await fake_discord.wait_until(
            lambda: bool(words_first()), timeout=WAIT, what="the action's words, sent first"
        )
        assert player_actions(db, ann.id) == 1
        sent = words_first()[0]
        assert not with_board([sent]), "the renderer is held: no board yet"
        words = next(line for line in sent.content.splitlines() if "ann placed" in line)
        await kill(runs.first)  # the board was still to follow by an edit

        await runs.restart()
        await fake_discord.wait_until(
            lambda: bool(with_board(told(fake_discord, channel, words))),
            timeout=WAIT,
            what=f"{words!r} shown with the board after the restart",
        )
