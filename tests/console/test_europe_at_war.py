"""Europe at War in the terminal: its reader of typed lines (``order general:… to:…``,
``pass``, ``buy 1 3``) on real positions, and a whole default game (12 rounds) played
at the keyboard against a computer, a board PNG written after the actions."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from ai.europe_at_war import EaPlayer
from console import main as console
from rules.europe_at_war.actions import Buy, Move
from rules.europe_at_war.game import EaGame
from rules.europe_at_war.options import Options
from rules.europe_at_war.state import EaState
from rules.europe_at_war.typed import READER
from rules.presentation import Typed, Unreadable
from tests.bot.test_console import Screen

GAME = EaGame()
NAMES = ["Ann", "Bob"]


def _until(seed: int, want: str) -> EaState:
    """A two-player game played by the computer player until seat 0 decides ``want``."""
    bot = EaPlayer()
    g, _ = GAME.new_game([None, None], seed, Options())
    steps = 0
    while not g.over:
        d = g.deciders()[0]
        if d.seat == 0 and d.kind == want:
            return g
        g.apply(d.seat, bot.choose(g.view_for(d.seat), g.legal_actions(d.seat), "n", steps))
        steps += 1
    raise AssertionError(f"seat 0 never had to decide {want}")


def _typed(g: EaState, seat: int = 0) -> Typed:
    legal = g.legal_actions(seat)
    return Typed(
        board=None,
        variant="europe_at_war",
        names=NAMES,
        seat=seat,
        prompt_kind=g.deciders()[0].kind,
        choices=list(legal),
        view=g.view_for(seat),
    )


def test_order_reads_keys_or_plain_words_against_the_legal_moves() -> None:
    g = _until(3, "plan")
    typed = _typed(g)
    moves = [a for a in typed.choices if isinstance(a, Move) and a.pay == "free"]
    assert moves
    m = g.map
    target = next(a for a in moves if ">" not in a.via)  # one step: the way is the place
    dest = m.name(target.dest)
    try:  # from the place alone when one general can reach it
        got = READER.read("order", [f"to:{dest.split()[0]}", "card:free"], typed)
    except Unreadable as exc:
        assert "Which general?" in str(exc) or "Where to?" in str(exc)
    else:
        assert isinstance(got, Move) and got.dest == target.dest and got.pay == "free"
    same = [a for a in moves if a.dest == target.dest and a.group == target.group]
    from rules.europe_at_war import describe as D

    general = D.group_label(target.group, typed.view)
    read = READER.read("order", [f"general:{general}", f"to:{dest}"], typed)
    assert read in same and read.pay == "free" and read.via == target.dest  # the shortest way
    with pytest.raises(Unreadable, match="No order fits that place"):
        READER.read("order", ["to:atlantis"], typed)
    with pytest.raises(Unreadable, match="Drop units off after the order"):
        READER.read("order", [f"to:{dest}", "drop:x"], typed)
    with pytest.raises(Unreadable, match="order takes general:"):
        READER.read("order", ["speed:9"], typed)
    assert READER.read("submit", [], typed) is None  # read from the spec


def test_pass_and_buy() -> None:
    g = _until(5, "recruit")
    typed = _typed(g)
    view = typed.view
    buys = [a for a in typed.choices if isinstance(a, Buy)]
    done = READER.read("pass", [], typed)
    assert done is not None and done.kind == "done"  # nothing to pass: the step is finished
    if buys:
        first = buys[0]
        n = 1 + [f"u{u.unit}" for u in view.drawn].index(first.chit)
        places = [a for a in buys if a.chit == first.chit]
        assert READER.read("buy", [str(n), str(len(places))], typed) == places[-1]
        name = g.map.name(places[0].at)
        assert READER.read("buy", [str(n), name], typed) in places
    with pytest.raises(Unreadable, match="buy N with N from 1"):
        READER.read("buy", ["99"], typed)
    with pytest.raises(Unreadable):
        READER.read("buy", [], typed)
    plan = _typed(_until(3, "plan"))
    with pytest.raises(Unreadable, match="no drawn chit"):
        READER.read("buy", ["1"], plan)


class Keyboard(io.TextIOBase):
    """A player at the keyboard who answers what the screen asks: ``submit`` (no orders)
    at the Move Phase, ``pass`` in windows and battles, ``buy 1 1`` then ``done`` when
    recruiting, ``done`` at upkeep, and a number otherwise (the next one after a
    refusal)."""

    def __init__(self, screen: Screen, limit: int = 6000) -> None:
        self.screen = screen
        self.seen = 0
        self.limit = limit
        self.lines: list[str] = []
        self.choice = 1
        self.said = 0
        self.words: dict[str, int] = {}

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]  # typeshed: bytes
        text = self.screen.getvalue()
        new, self.seen = text[self.seen :], len(text)
        self.said += 1
        if self.said > self.limit:
            return ""
        last = new.rstrip("\n").rsplit("\n", 1)[-1]
        if "[y/N]" in last or "[Y/n]" in last:
            return "y\n"
        if "Press Enter" in last:
            return "\n"
        refused = "✗" in new
        self.choice = self.choice + 1 if refused else 1
        answer = str(self.choice)
        if not refused:
            if "Move Phase" in new:
                answer = "submit"
            elif "Recruit" in new and "buy" in new and self.words.get("buy", 0) < 3:
                answer = "buy 1 1"
            elif re.search(r"Window W[12]|battle cards|Battle cards", new):
                answer = "pass"
            elif "Upkeep" in new or "Recruit" in new:
                answer = "done"
        word = answer.split()[0]
        self.words[word] = self.words.get(word, 0) + 1
        return answer + "\n"


def _session(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, limit: int
) -> tuple[int, str, Keyboard]:
    screen = Screen()
    keyboard = Keyboard(screen, limit)
    monkeypatch.setattr("sys.stdout", screen)
    monkeypatch.setattr("sys.stdin", keyboard)
    args = ["--db", str(tmp_path / "games.db"), "--fast", "--seed", "6"]
    args += ["--out", str(tmp_path / "boards")]
    args += ["--variant", "europe-at-war", "--players", "2", "--computers", "1", "--name", "Ann"]
    try:
        code = console.main(args)
    finally:
        monkeypatch.undo()
    return code, screen.getvalue(), keyboard


def test_the_first_rounds_at_the_keyboard(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Setup and the first rounds (the whole game: the slow test below), then the input
    ends: the game is saved, with the command that resumes it."""
    code, out, keyboard = _session(monkeypatch, tmp_path, 50)
    assert code == 0, out[-3000:]
    assert "Round 2:" in out and "Game over:" not in out
    assert keyboard.words.get("submit", 0) >= 1, keyboard.words
    assert "is saved. Continue it with:" in out
    boards = sorted((tmp_path / "boards").glob("game1-*.png"))
    assert len(boards) >= 3
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in boards)


@pytest.mark.slow
def test_a_default_game_is_played_to_the_end_at_the_keyboard(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    code, out, keyboard = _session(monkeypatch, tmp_path, 6000)
    assert code == 0, out[-3000:]
    assert "Game over:" in out, out[-3000:]
    assert "Round 12:" in out and "Round 13" not in out
    assert keyboard.words.get("submit", 0) >= 5 and keyboard.words.get("pass", 0) >= 1
    assert keyboard.words.get("buy", 0) >= 1, keyboard.words
    boards = sorted((tmp_path / "boards").glob("game1-*.png"))
    assert len(boards) > 20 and (tmp_path / "boards" / "game1-latest.png").is_file()


def test_look_ups_at_the_keyboard(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """/map, /stack, /treasury and /card as console words: words printed, the map's
    region written as a PNG; a name that names nothing is refused."""
    from tests.bot.test_console import run

    args = ["--db", str(tmp_path / "games.db"), "--fast", "--seed", "4"]
    args += ["--out", str(tmp_path / "out"), "--variant", "europe-at-war", "--players", "2"]
    args += ["--computers", "1", "--name", "Ann"]
    lines = ["map iberia", "card bayonet", "treasury", "stack paris", "card zzz", "quit"]
    code, out = run(monkeypatch, args, lines)
    assert code == 0, out[-2000:]
    assert "The map: Iberia." in out
    image = tmp_path / "out" / "game1-map_iberia.png"
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Bayonet Charge (card" in out and "Played in a battle" in out
    assert "Ann (France): 0 RP" in out and "Paris (held by Ann)" in out
    assert "✗ There is no card called 'zzz'." in out
