"""One database, two front ends: the Discord bot hosts the games of servers, the terminal
console its own (no server, pseudo channels 1 and 2). A console game left unfinished with
computers to move is neither loaded, driven nor delivered by a bot service started on
the same file — and the console resumes it."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from console import main as console
from service import GameService, ServiceError, server_games
from service.scheduler import FakeClock
from tests.bot.helpers import collector, make_service, new_game
from tests.bot.test_console import run

T0 = 1_700_000_000.0


def game_row(path: Path, gid: int) -> tuple[int, str, int | None, int]:
    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT version, status, guild_id, channel_id FROM games WHERE id = ?", (gid,)
        ).fetchone()


async def console_game_left_with_computers_to_move(path: Path, clock: FakeClock) -> int:
    """What an interrupted console run leaves: a running game in the console's channel,
    no server, no clocks, computers still to place their pieces."""
    svc = await make_service(path, clock, hosts=console.console_games, computer_pacing=60.0)
    out = await svc.open_lobby(
        channel_id=console.CONSOLE_CHANNEL_ID,
        host_id=1,
        host_name="Ann",
        turn_timeout=None,
        reminder_lead=0,
        timeouts={"setup": None, "duel": None, "retreat": None},
    )
    assert out.ok, out.error
    gid = out.game_id
    assert gid is not None
    for _ in range(2):
        assert (await svc.add_computer(gid, 1, "easy")).ok
    assert (await svc.start_game(gid, 1, seed=5)).ok
    st = await svc.status(gid)
    assert st.version == 0 and sum(1 for d in st.decisions if st.seats[d.seat].computer_level) == 2
    await svc.close()  # stopped while the computers were still "thinking"
    return gid


async def bot_side(path: Path) -> tuple[int, int]:
    clock = FakeClock(T0)
    cgid = await console_game_left_with_computers_to_move(path, clock)
    got, listener = collector()
    bot: GameService = await make_service(path, clock, listener, hosts=server_games)
    try:
        assert len(bot._games) == 0, "the console's game is not loaded"
        assert await bot.prompts() == [] and await bot.prompts(cgid) == []
        for query in (bot.status, bot.load, bot.log):
            with pytest.raises(ServiceError, match="no such game"):
                await query(cgid)
        refused = await bot.answer(cgid, 1, 0, (await _any_choice(path, cgid)))
        assert not refused.ok and refused.error == "There is no such game."
        opened = await bot.open_lobby(
            channel_id=console.CONSOLE_CHANNEL_ID, host_id=1, host_name="Ann"
        )
        assert not opened.ok and opened.error == "Games cannot be opened here."
        assert not (await bot.resign(cgid, 1)).ok

        # the bot's own game, with a computer, is driven as ever
        ggid, _ = await new_game(bot, humans=1, computers=1, channel=555, guild=9)
        clock.advance(7 * 86400)
        await bot.idle()
        assert bot.scheduler.keys(cgid) == [] and cgid not in bot._drivers
        assert game_row(path, cgid) == (0, "running", None, console.CONSOLE_CHANNEL_ID)
        assert got and {o.game_id for o in got} == {ggid}
        assert all(o.channel_id == 555 for o in got)
    finally:
        await bot.close()

    again = await make_service(path, clock, hosts=server_games)  # a restart: same again
    try:
        assert set(again._games) == {ggid}
        await again.idle()
        assert game_row(path, cgid)[0] == 0
    finally:
        await again.close()
    return cgid, ggid


async def _any_choice(path: Path, gid: int):
    """A legal action for the console's person (read with a service that hosts it)."""
    svc = await make_service(path, FakeClock(T0), hosts=console.console_games)
    try:
        (prompt,) = [p for p in await svc.prompts(gid) if p.user_id == 1]
        return prompt.choices[0]
    finally:
        await svc.close()


def test_a_bot_on_the_same_file_leaves_console_games_alone(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "games.db"
    cgid, ggid = asyncio.run(bot_side(path))
    # the console resumes its game: the computers place, then it is the person's turn
    code, out = run(monkeypatch, ["--db", str(path), "--resume", "--fast", "--no-boards"], ["quit"])
    assert code == 0, out
    assert out.startswith(f"Your unfinished console game: #{cgid}  European War · ")
    assert f"\nResuming game #{cgid} (European War)" in out
    version, status, _, _ = game_row(path, cgid)
    assert status == "running" and version >= 2, "the computers placed their pieces"
    assert game_row(path, ggid)[2] == 9


def test_console_games_are_only_the_console_s_channels() -> None:
    assert console.console_games(None, console.CONSOLE_CHANNEL_ID)
    assert console.console_games(None, console.WATCH_CHANNEL_ID)
    assert console.console_games(None, 3)  # each further console game has its own
    assert not console.console_games(None, 1 << 22)  # where the pseudo channels end
    assert not console.console_games(None, 1_100_000_000_000_000_000)
    assert not console.console_games(9, console.CONSOLE_CHANNEL_ID)
    assert server_games(9, 1) and not server_games(None, console.CONSOLE_CHANNEL_ID)
