"""The Discord bot started on a database holding an unfinished console game (no server,
pseudo channel 1, computers to move) leaves it alone: not loaded, not driven, nothing
posted or DM'd for it."""

from __future__ import annotations

from pathlib import Path

from console import main as console
from tests.bot.e2e.harness import make_world
from tests.bot.test_hosting import console_game_left_with_computers_to_move, game_row
from tests.fake_discord import FakeDiscord


async def test_the_bot_never_drives_or_delivers_a_console_game(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    world = await make_world(fake_discord, tmp_path, start=False)
    cgid = await console_game_left_with_computers_to_move(tmp_path / "games.db", world.clock)
    try:
        bot = await world.start()
        await world.settle()
        assert cgid not in bot.service._games
        world.clock.advance(7 * 86400)
        await world.settle()
        assert bot.service.scheduler.keys(cgid) == []
        gid = await world.open_table(("ann", "bob"))  # the bot's own game runs as ever
        assert gid != cgid
        await world.settle()
        assert game_row(tmp_path / "games.db", cgid) == (
            0,
            "running",
            None,
            console.CONSOLE_CHANNEL_ID,
        )
        assert not world.fake.requests_to("*", f"/channels/{console.CONSOLE_CHANNEL_ID}/*")
        assert not world.fake.requests_to("*", f"/channels/{console.CONSOLE_CHANNEL_ID}")
    finally:
        await world.stop()
