"""``undo`` at the console: a hot-seat player takes a placement back before passing the
keyboard (WW-6), and every refusal is printed with its reason, changing nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.bot.test_console import run


def log(db: Path) -> list[tuple[int, int | None]]:
    """(seq, undoes) of every logged row of game 1."""
    with sqlite3.connect(db) as conn:
        return list(conn.execute("SELECT seq, undoes FROM actions WHERE game_id = 1 ORDER BY seq"))


def test_a_hot_seat_player_takes_a_placement_back(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = tmp_path / "games.db"
    args = ["--db", str(db), "--fast", "--seed", "3", "--no-boards", "--variant", "world-war-5"]
    args += ["--players", "2", "--computers", "0", "--hotseat"]
    lines = ["", "undo", "1", "undo", "2", "", "undo", "1", "", "undo", "quit"]
    code, out = run(monkeypatch, args, lines)
    assert code == 0, out
    assert "✗ Nothing to undo: nobody has moved yet." in out
    # Player 1 places, takes it back at the hand-over instead of passing the keyboard,
    # and places elsewhere
    assert out.index("Player 1 placed a small on Northwest Africa.") < out.index(
        "Player 1 took back: On Northwest Africa."
    )
    assert "Player 1 placed a small on Northeast Africa." in out
    # Player 2 may not take back Player 1's move; once Player 2 placed, Player 1 neither
    assert "✗ Only Player 1 may take back that action." in out
    assert "Player 2 placed a small on Northern South America." in out
    assert out.rstrip().splitlines()[-3] == "✗ Nothing to undo: Player 2 has moved since."
    assert log(db) == [(1, None), (2, 1), (3, None), (4, None)]
