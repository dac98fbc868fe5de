"""Claim the Line, a game that exists only in the tests, played to the end through the
console against a computer: its command read from its spec (a bad cell refused in the
game's words, a good one claimed), its help from the spec, the contest window answered
by number, the result printed. Nothing under console/ or service/ names the game:
registering it is this test's job."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.test_console import run


def test_claim_the_line_is_played_to_the_end_in_the_console(
    claim_line: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    args = ["--db", str(tmp_path / "games.db"), "--fast", "--seed", "3", "--no-boards"]
    args += ["--variant", "claim-line", "--players", "2", "--computers", "1", "--name", "Ann"]
    code, out = run(monkeypatch, args, ["help", "claim z9", "claim b2"], autoplay=True)
    assert code == 0, out
    assert "claim CELL" in out and "Claim an empty cell of the grid (CL-1)" in out
    assert "✗ There is no cell called 'z9'" in out
    assert "Ann claims b2." in out
    assert "Winner:" in out or "A draw." in out
