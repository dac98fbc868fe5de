"""Console sessions scripted through stdin: a full game against computers, bad commands,
quitting and resuming, hot-seat privacy, ``--watch`` and the board images.

Each session runs ``console.main.main`` in this process with ``sys.stdin`` replaced by a
scripted player and ``sys.stdout`` by a buffer the player reads (so it can answer the
question on screen), against a fresh SQLite file.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from console import games as games_mod
from console import main as console
from console.session import HOST_ID
from service.models import GameSettings
from service.store import open_store


class Screen(io.StringIO):
    """``sys.stdout`` for a session: a buffer the scripted player can read."""


class ScriptedStdin(io.TextIOBase):
    """A player at the keyboard: first the given lines, then (if ``autoplay``) a simple
    strategy reading the screen: yes to questions, choice 1, and the next choice
    whenever the last one was refused. Ends the input after ``limit`` lines."""

    def __init__(
        self,
        screen: Screen,
        lines: Iterable[str] = (),
        *,
        autoplay: bool = False,
        limit: int = 4000,
    ) -> None:
        self.screen = screen
        self.lines = list(lines)
        self.autoplay = autoplay
        self.limit = limit
        self.seen = 0
        self.choice = 1
        self.answered = 0

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]  # typeshed: bytes
        text = self.screen.getvalue()
        new, self.seen = text[self.seen :], len(text)
        self.answered += 1
        if self.lines:
            return self.lines.pop(0) + "\n"
        if not self.autoplay or self.answered > self.limit:
            return ""
        last = new.rstrip("\n").rsplit("\n", 1)[-1]
        if "[y/N]" in last or "[Y/n]" in last:
            return "y\n"
        if "Press Enter" in last:
            return "\n"
        self.choice = self.choice + 1 if "✗" in new else 1
        return f"{self.choice}\n"


def run(
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    lines: Iterable[str] = (),
    *,
    autoplay: bool = False,
) -> tuple[int, str]:
    """Run one console session; returns (exit status, transcript)."""
    screen = Screen()
    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setattr(sys, "stdin", ScriptedStdin(screen, lines, autoplay=autoplay))
    try:
        code = console.main(args)
    finally:
        monkeypatch.undo()
    return code, screen.getvalue()


def games(db: Path) -> list[dict[str, Any]]:
    """Every game row of the database, as dicts."""
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        return [
            dict(r)
            for r in conn.execute(
                "SELECT id, channel_id, status, version, state, result FROM games ORDER BY id"
            )
        ]


@pytest.fixture
def paths(tmp_path: Path) -> dict[str, Path]:
    return {"db": tmp_path / "games.db", "out": tmp_path / "boards"}


def base_args(
    paths: dict[str, Path], *extra: str, boards: bool = False, name: str = "Ann"
) -> list[str]:
    args = [
        "--db",
        str(paths["db"]),
        "--fast",
        "--seed",
        "4",
        "--level",
        "easy",
        "--name",
        name,
        *extra,
    ]
    return [*args, "--out", str(paths["out"])] if boards else [*args, "--no-boards"]


def test_full_game_against_computers_to_the_end(
    monkeypatch: pytest.MonkeyPatch, paths: dict[str, Path]
) -> None:
    code, out = run(monkeypatch, base_args(paths, "--computers", "2", boards=True), autoplay=True)
    assert code == 0
    assert "Game over." in out
    assert re.search(r"Game #1 is over\. (Winners?: .+|The game ended in a draw)\.", out)
    [game] = games(paths["db"])
    assert game["status"] == "finished" and game["channel_id"] == console.CONSOLE_CHANNEL_ID
    result = json.loads(game["result"])
    assert result["draw"] or result["winners"]
    assert "Ann> " in out and "(only you) You received" in out
    # a board after the human's moves, each one written where it says
    written = re.findall(r"^Board: (.+\.png)$", out, re.M)
    assert len(written) > 3
    for name in written:
        assert Path(name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert written[-1].endswith("game1-final.png")
    assert (paths["out"] / "game1-latest.png").read_bytes() == Path(written[-1]).read_bytes()


def test_a_bad_command_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, paths: dict[str, Path]
) -> None:
    code, out = run(monkeypatch, base_args(paths), ["1", "quit"])
    assert code == 0
    [before] = games(paths["db"])
    bad = [
        "frobnicate",
        "invade narnia germany",
        "conscript britain",
        "move italy",
        "play 7",
        "grow italy",
        "99",
        "quit",
    ]
    code, out = run(monkeypatch, base_args(paths, "--resume"), bad)
    assert code == 0
    errors = [line for line in out.splitlines() if line.startswith("✗")]
    assert errors == [
        "✗ Unknown command 'frobnicate'. Type help for the list.",
        "✗ Unknown field 'narnia'. The fields are: Britain, South Scandinavia, Spain, "
        "France + Benelux, Italy, North Africa, Germany, Austria, Hungary, North Russia, "
        "West Russia, South Russia, South Balkans, Anatolia, Middle East.",
        "✗ Conscription only on your home fields (EW-11)",
        "✗ Say from where to where: move FROM TO.",
        errors[4],
        errors[5],
        errors[6],
    ]
    assert errors[4].startswith("✗ You hold no 7") or "duel" in errors[4]
    assert "not in this variant" in errors[5]
    assert errors[6].startswith("✗ Choose a number from 1 to")
    [after] = games(paths["db"])
    assert (after["version"], after["state"]) == (before["version"], before["state"])


def test_quit_and_resume_continue_the_same_game(
    monkeypatch: pytest.MonkeyPatch, paths: dict[str, Path]
) -> None:
    code, out = run(monkeypatch, base_args(paths, "--computers", "3"), ["1", "1", "quit"])
    assert code == 0
    hint = f"--resume 1 --db {paths['db']} --no-boards"
    assert re.search(r"Game #1 is saved\. Continue it with: /\S+ " + re.escape(hint) + "\n", out)
    [saved] = games(paths["db"])
    assert saved["status"] == "running" and saved["version"] > 0

    # resuming shows where we were and moves nothing by itself
    code, out = run(monkeypatch, base_args(paths, "--resume", "1"), ["status", "quit"])
    assert code == 0
    assert out.startswith("Resuming game #1 (European War): ")
    assert "Waiting for Ann" in out
    [same] = games(paths["db"])
    assert (same["version"], same["state"]) == (saved["version"], saved["state"])

    # and the game goes on from there; --resume alone takes the only one, saying so
    code, out = run(monkeypatch, base_args(paths, "--resume"), ["1", "quit"])
    assert out.startswith("Your unfinished console game: #1  European War · ")
    [later] = games(paths["db"])
    assert later["id"] == saved["id"] and later["version"] > saved["version"]

    # without --resume and no flags, the console offers the unfinished game
    code, out = run(monkeypatch, ["--db", str(paths["db"]), "--fast", "--no-boards"], ["y", "quit"])
    assert "Your unfinished console game:\n  #1  European War · " in out
    assert "Resuming game #1" in out
    assert len(games(paths["db"])) == 1

    # asking for a new game with flags keeps the old one, in a channel of its own
    code, out = run(monkeypatch, base_args(paths), ["quit"])
    assert "(Your unfinished console games stay as they are: #1; --resume lists them.)" in out
    rows = games(paths["db"])
    assert [r["status"] for r in rows] == ["running", "running"]
    assert rows[0]["channel_id"] != rows[1]["channel_id"]


def test_resume_lists_the_unfinished_games_and_takes_an_id(
    monkeypatch: pytest.MonkeyPatch, paths: dict[str, Path]
) -> None:
    run(monkeypatch, base_args(paths, "--computers", "1", name="Ann"), ["1", "quit"])
    run(monkeypatch, base_args(paths, "--computers", "2", name="Bob"), ["quit"])
    run(monkeypatch, base_args(paths, "--computers", "1", name="Cy"), ["quit"])
    # a finished game and a watched one are not offered
    run(
        monkeypatch,
        [
            "--watch",
            "1",
            "--fast",
            "--seed",
            "1",
            "--players",
            "2",
            "--level",
            "easy",
            "--db",
            str(paths["db"]),
            "--no-boards",
        ],
    )
    code, out = run(monkeypatch, base_args(paths, "--resume"), ["9", "#2", "quit"])
    assert code == 0
    listed = re.findall(
        r"^  #(\d+)  European War · (.+) · last played \d{4}-\d\d-\d\d \d\d:\d\d$", out, re.M
    )
    assert [n for n, _ in listed] == ["3", "2", "1"]  # the most recently played first
    seats = dict(listed)
    assert re.fullmatch(r"Cy \(.+\), .+ \(computer\)|.+ \(computer\), Cy \(.+\)", seats["3"])
    assert "Ann (" in seats["1"] and "Bob (" in seats["2"] and "(computer)" in seats["2"]
    assert "Resume which game (its number)? [3] 9\n  Please answer again." in out
    assert "Resuming game #2 (European War): " in out
    assert "Bob> quit" in out

    # an id of its own, and ids it cannot resume, each with the reason
    code, out = run(monkeypatch, base_args(paths, "--resume", "1"), ["quit"])
    assert code == 0 and out.startswith("Resuming game #1 ") and "Ann> quit" in out
    discord = asyncio.run(discord_table(paths["db"]))
    for gid, why in (
        (99, f"There is no game #99 in {paths['db']}."),
        (4, "Game #4 was a --watch game of computers; nobody resumes it."),
        (discord, f"Game #{discord} is a Discord game: it is played in its channel, not here."),
    ):
        code, out = run(monkeypatch, base_args(paths, "--resume", str(gid)), [])
        assert code == 1
        assert out == f"{why} Unfinished console games: #1, #2, #3 (--resume alone lists them).\n"


async def discord_table(db: Path) -> int:
    """Open a table of a Discord server in the database; returns its id."""
    store = await open_store(db)
    try:
        return await store.create_lobby(
            guild_id=10**17,
            channel_id=10**17 + 1,
            host_id=10**17 + 2,
            variant="european_war",
            settings=GameSettings(),
            host_seat=None,
            expiry=None,
            max_games=None,
            now=time.time(),
        )
    finally:
        await store.close()


def test_resume_with_nothing_to_resume(
    monkeypatch: pytest.MonkeyPatch, paths: dict[str, Path]
) -> None:
    code, out = run(monkeypatch, base_args(paths, "--resume"), [])
    assert code == 1
    assert "There is no unfinished console game to resume" in out
    code, out = run(monkeypatch, base_args(paths, "--resume", "1"), [])
    assert code == 1
    assert out == (
        f"There is no game #1 in {paths['db']}. There is no unfinished console game; "
        "start one without --resume.\n"
    )


def test_the_resume_hint_works_from_a_fresh_shell_elsewhere(tmp_path: Path) -> None:
    """Quit in one directory (a relative database), then run the printed command in
    another directory with a bare environment: no venv on PATH, no settings."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    bare = {"PATH": "/usr/bin:/bin", "HOME": str(second), "LANG": "C.UTF-8"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "console",
            "--db",
            "games.db",
            "--fast",
            "--seed",
            "2",
            "--level",
            "easy",
            "--computers",
            "1",
        ],
        input="1\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=first,
        env=bare,
    )
    assert proc.returncode == 0, proc.stderr
    hint = re.search(r"Game #1 is saved\. Continue it with: (.+)\n", proc.stdout)
    assert hint is not None
    command = hint.group(1)
    assert str(first / "games.db") in command and str(first / "data" / "boards") in command
    again = subprocess.run(
        command,
        shell=True,
        input="status\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=second,
        env=bare,
    )
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("Resuming game #1 (European War): ")
    assert "Game #1 is saved." in again.stdout
    assert list(second.iterdir()) == []  # nothing was made here: same database, same boards


def test_the_launcher_is_the_script_beside_the_python_else_python_dash_m(tmp_path: Path) -> None:
    venv_bin = Path(sys.executable).absolute().parent
    assert games_mod.launcher() == [str(venv_bin / "european-war")]
    python = tmp_path / "bin" / "python3"
    assert games_mod.launcher(str(python)) == [str(python), "-m", "console"]
    command = games_mod.resume_command(7, Path("x.db"), None, ["/opt/my games/european-war"])
    assert command == (
        f"'/opt/my games/european-war' --resume 7 --db {Path('x.db').absolute()} --no-boards"
    )


def test_hotseat_hides_each_hand_until_its_owner_looks(
    monkeypatch: pytest.MonkeyPatch, paths: dict[str, Path]
) -> None:
    args = base_args(paths, "--hotseat", "--computers", "1", name="Ann,Bob")
    screen = Screen()
    stdin = ScriptedStdin(screen, autoplay=True, limit=150)
    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setattr(sys, "stdin", stdin)
    assert console.main(args) == 0
    monkeypatch.undo()
    out = screen.getvalue()
    assert "Pass the keyboard to Ann. Press Enter when only Ann is looking." in out
    assert "Pass the keyboard to Bob. Press Enter when only Bob is looking." in out
    looking = None
    for line in out.splitlines():
        gate = re.match(r"Pass the keyboard to (\w+)\.", line)
        if gate:
            looking = gate.group(1)
        private = re.match(r"  \(only (\w+)\)", line)
        if private:  # a private line is shown only to the one at the keyboard
            assert private.group(1) == looking, line
        prompt = re.match(r"(\w+)> ", line)
        if prompt:
            assert prompt.group(1) == looking, line


def test_watch_two_games(monkeypatch: pytest.MonkeyPatch, paths: dict[str, Path]) -> None:
    args = [
        "--watch",
        "2",
        "--boards",
        "--fast",
        "--seed",
        "1",
        "--level",
        "easy",
        "--players",
        "2",
        "--db",
        str(paths["db"]),
        "--out",
        str(paths["out"]),
    ]
    code, out = run(monkeypatch, args)
    assert code == 0
    assert out.count("Game over.") == 2
    assert "Watched 2 game(s); 2 finished." in out
    rows = games(paths["db"])
    assert [(r["channel_id"], r["status"]) for r in rows] == [
        (console.WATCH_CHANNEL_ID, "finished")
    ] * 2
    for gid in (1, 2):  # a board at every turn, and the last one
        assert (paths["out"] / f"game{gid}-final.png").is_file()
        assert len(list(paths["out"].glob(f"game{gid}-0*.png"))) >= 2


def test_watch_writes_boards_only_when_asked(
    monkeypatch: pytest.MonkeyPatch, paths: dict[str, Path]
) -> None:
    args = ["--watch", "1", "--fast", "--seed", "1", "--players", "2", "--level", "easy"]
    code, out = run(monkeypatch, [*args, "--db", str(paths["db"]), "--out", str(paths["out"])])
    assert code == 0 and "Watched 1 game(s); 1 finished." in out
    assert "Board: " not in out and not paths["out"].exists()


def test_seeded_games_repeat_in_any_database(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    first = [
        "--watch",
        "1",
        "--fast",
        "--seed",
        "9",
        "--level",
        "easy",
        "--players",
        "2",
        "--no-boards",
    ]
    _, a = run(monkeypatch, [*first, "--db", str(tmp_path / "a.db")])
    run(monkeypatch, [*first[:4], "3", *first[5:], "--db", str(tmp_path / "b.db")])
    _, b = run(monkeypatch, [*first, "--db", str(tmp_path / "b.db")])
    assert a.replace("Game #1", "Game #N") == b.replace("Game #2", "Game #N")


def test_newcomer_run_with_no_arguments(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``python -m bot`` without a token calls ``main([])``: defaults, the database and
    board folder of the normal settings, playable at once."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", "sqlite:///data/console.db")
    code, out = run(monkeypatch, [], ["help", "1", "quit"])
    assert code == 0
    assert out.startswith("Game #1: European War, seed ")
    assert "Game commands:" in out
    assert "Game #1 is saved." in out
    assert (tmp_path / "data" / "console.db").is_file()
    assert list((tmp_path / "data" / "boards").glob("game1-*.png"))


def test_a_postgresql_database_url_asks_for_a_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The bot's processes may share a PostgreSQL database; the console keeps its games in
    an SQLite file and says so, before anything happens (``--db`` names one)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:secret@db/games")
    assert console.main([]) == 2
    err = capsys.readouterr().err
    assert "DATABASE_URL names a PostgreSQL database" in err and "--db" in err
    assert "secret" not in err
    assert list(tmp_path.iterdir()) == []


def test_newcomer_questions_at_a_terminal(
    monkeypatch: pytest.MonkeyPatch, paths: dict[str, Path]
) -> None:
    monkeypatch.setattr(console, "interactive", lambda: True)
    answers = ["2", "", "3", "hard", "Zoe", "quit"]  # World War 5, you vs 3 hard computers
    code, out = run(monkeypatch, ["--db", str(paths["db"]), "--no-boards", "--fast"], answers)
    assert code == 0
    assert "Game #1: World War 5" in out
    assert out.count("(computer)") >= 3 and "Zoe" in out


def test_bad_options_are_refused_before_anything_happens(
    monkeypatch: pytest.MonkeyPatch, paths: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    for bad in (
        ["--computers", "5"],
        ["--level", "genius"],
        ["--variant", "chess"],
        ["--players", "3", "--computers", "1"],
        ["--watch", "0"],
        ["--power", "narnia"],
    ):
        assert console.main(["--db", str(paths["db"]), *bad]) == 2
        assert "european-war: " in capsys.readouterr().err
    assert not paths["db"].exists()


def test_python_dash_m_bot_console(tmp_path: Path) -> None:
    """The module entry point, as a person would run it."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "console",
            "--db",
            str(tmp_path / "x.db"),
            "--fast",
            "--seed",
            "2",
            "--no-boards",
            "--level",
            "easy",
        ],
        input="board\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.returncode == 0, proc.stderr
    assert "Supply — " in proc.stdout and "Game #1 is saved." in proc.stdout


def test_world_war_5_game_to_the_end(
    monkeypatch: pytest.MonkeyPatch, paths: dict[str, Path]
) -> None:
    code, out = run(
        monkeypatch, base_args(paths, "--variant", "world-war-5", "--computers", "3"), autoplay=True
    )
    assert code == 0
    assert "Game #1: World War 5" in out and "Place your small on a home territory (WW-6)." in out
    assert "Your turn: grow, build, move or invade (WW-2)." in out
    assert "Dice: " in out and "Game over." in out
    [game] = games(paths["db"])
    assert game["status"] == "finished"


def test_a_question_with_one_answer_answers_itself(
    monkeypatch: pytest.MonkeyPatch, paths: dict[str, Path]
) -> None:
    """World War 5's setup goes by size (WW-6): the large has one home territory left.
    Each home territory keeps its number: the small takes 1, the medium 2."""
    args = base_args(paths, "--variant", "world-war-5", "--computers", "1")
    code, out = run(monkeypatch, args, ["1", "2", "quit"])
    assert code == 0
    large = out.index("Place your large on a home territory (WW-6).")
    said = re.compile(r"Only one answer is possible: On ([\w ]+)\.\n(\w+) placed a large on \1\.")
    found = said.search(out, large)
    assert found is not None and found.start() == out.index("\n", large) + 1
    assert found.group(2) == "Ann" and out.count("Ann> ") == 3  # small, medium, quit


def test_open_shows_each_board_with_the_system_viewer(
    monkeypatch: pytest.MonkeyPatch, paths: dict[str, Path], tmp_path: Path
) -> None:
    shown = tmp_path / "shown.txt"
    viewer = tmp_path / "bin" / "xdg-open"
    viewer.parent.mkdir()
    viewer.write_text(f'#!/bin/sh\necho "$1" >> {shown}\n')
    viewer.chmod(0o755)
    monkeypatch.setenv("PATH", str(viewer.parent))
    code, out = run(monkeypatch, base_args(paths, "--open", boards=True), ["1", "quit"])
    assert code == 0
    written = re.findall(r"^Board: (.+\.png)$", out, re.M)
    assert len(written) == 2
    deadline = time.monotonic() + 120  # a guard: the viewer runs in the background
    while not (shown.is_file() and len(shown.read_text().split()) == 2):
        assert time.monotonic() < deadline, "the viewer never showed both boards"
        time.sleep(0.05)
    assert shown.read_text().split() == written


def test_open_without_a_viewer_says_so_once(
    monkeypatch: pytest.MonkeyPatch, paths: dict[str, Path], tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    code, out = run(monkeypatch, base_args(paths, "--open", boards=True), ["1", "quit"])
    assert code == 0
    assert out.count("(No image viewer found; open the file yourself.)") == 1


def test_hint_gives_the_strongest_choice_for_the_open_question_and_counts(
    monkeypatch: pytest.MonkeyPatch, paths: dict[str, Path]
) -> None:
    code, out = run(monkeypatch, base_args(paths, "--computers", "1"), ["hint", "suggest", "quit"])
    assert code == 0
    hints = re.findall(r"^Hint: (.+)$", out, re.M)
    assert len(hints) == 2 and hints[0] == hints[1]
    assert re.match(r"Large on .+, medium on .+, small on .+", hints[0])
    lines = out.splitlines()
    why = lines[lines.index(f"Hint: {hints[0]}") + 1]
    assert why.endswith(".") and "pieces" in why
    assert "(Hints you took in this game: 1.)" in out
    assert "(Hints you took in this game: 2.)" in out
    assert "**" not in out.split("Hint: ", 1)[1]
    with sqlite3.connect(paths["db"]) as conn:
        assert conn.execute("SELECT user_id, taken FROM hints").fetchall() == [(HOST_ID, 2)]


def test_draw_asks_to_confirm_and_ends_a_game_against_computers_only_when_confirmed(
    monkeypatch: pytest.MonkeyPatch, paths: dict[str, Path]
) -> None:
    code, out = run(
        monkeypatch, base_args(paths, "--computers", "2"), ["1", "draw", "n", "status", "quit"]
    )
    assert code == 0
    assert "End the game in a draw now (computer players are not asked)? [y/N]" in out
    [kept] = games(paths["db"])
    assert kept["status"] == "running" and kept["result"] is None, "nothing changed"
    code, out = run(monkeypatch, base_args(paths, "--resume"), ["draw", "y"])
    assert code == 0
    assert "The game ended in a draw." in out
    [ended] = games(paths["db"])
    assert ended["status"] == "finished" and json.loads(ended["result"])["draw"]


def test_replay_prints_a_stored_game_and_writes_its_animation(
    monkeypatch: pytest.MonkeyPatch, paths: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    watch = ["--watch", "1", "--fast", "--seed", "1", "--players", "2", "--level", "easy"]
    code, _ = run(monkeypatch, [*watch, "--no-boards", "--db", str(paths["db"])])
    [row] = games(paths["db"])
    assert code == 0 and row["status"] == "finished"
    actions = row["version"]

    args = ["--db", str(paths["db"]), "--out", str(paths["out"])]
    code, out = run(monkeypatch, ["--replay", str(row["id"]), *args])
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("European War: ") and lines[1] == f"Finished, {actions} actions."
    assert lines[3].startswith("Start. Seat order")
    assert (
        sum(line.startswith(f"{n} / {actions}. ") for n in range(1, actions + 1) for line in lines)
        == actions
    )
    assert "The game is over" in out
    gif = paths["out"] / f"replay-{row['id']}.gif"
    assert f"Replay: {gif}" in out
    with Image.open(gif) as image:
        assert getattr(image, "n_frames", 1) == actions + 1
    assert games(paths["db"]) == [row]  # nothing changed

    gif.unlink()
    code, out = run(
        monkeypatch, ["--replay", str(row["id"]), "--no-boards", "--db", str(paths["db"])]
    )
    assert code == 0 and "Replay:" not in out and not gif.exists()
    capsys.readouterr()
    code, out = run(monkeypatch, ["--replay", "99", *args])
    assert code == 1 and out == ""
    assert capsys.readouterr().err == "european-war: There is no game #99.\n"
    code, _ = run(monkeypatch, ["--replay", "1", "--db", str(paths["db"]) + ".missing"])
    assert code == 2 and "there is no game database" in capsys.readouterr().err
