"""The console in every language: ``--lang``, else the environment's locale, else
English; a whole computer game of each game to its end in each language, the console's
own words in it (and not their English originals), and its boards drawn in it.

Each session runs ``console.main.main`` in this process with a script on stdin, against
a fresh SQLite file. The words checked are the console's own messages, so these tests do
not wait on other packages' translations.
"""

from __future__ import annotations

import io
import json
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from console import main as console
from console import session as session_mod
from render import images_for
from render.replay import Animation, Frame, animate
from rules import Event, i18n

QUICK = ["--fast", "--seed", "1", "--level", "easy", "--no-boards"]

WATCHED: dict[str, tuple[str, ...]] = {
    "en": ("=== Game 1 of 1: ", "2 computers (easy, easy), seed 1 ===", "Game #1 is over. ",
           "Watched 1 game(s); 1 finished."),
    "de": ("=== Partie 1 von 1: ", "2 Computer (leicht, leicht), Seed 1 ===",
           "Partie #1 ist vorbei. ", "1 Partie angesehen; 1 beendet."),
    "fr": ("=== Partie 1 sur 1 : ", "2 ordinateurs (facile, facile), graine 1 ===",
           "La partie n°1 est terminée. ", "1 partie regardée ; 1 terminée(s)."),
    "cs": ("=== Hra 1 z 1: ", "2 počítače (lehký, lehký), seed 1 ===", "Hra č. 1 skončila. ",
           "Sledována 1 hra; dohráno: 1."),
}  # fmt: skip
"""The console's lines of a watched game, in each language."""
WINNER = {"en": "Winner: ", "de": "Sieger: ", "fr": "Vainqueur : ", "cs": "Vítěz: "}

PLAYED: dict[str, tuple[str, ...]] = {
    "en": ("Game #1: ", "Type help for the commands.", "Game commands:", "Other commands:",
           "what only you can see", "✗ Unknown command 'frobnicate'. Type help for the list.",
           "Resign and hand your seat to a computer for the rest of the game? [y/N] j"),
    "de": ("Partie #1: ", "Tippe help für die Befehle.", "Spielbefehle:", "Weitere Befehle:",
           "was nur du sehen kannst",
           "✗ Unbekannter Befehl 'frobnicate'. Tippe help für die Liste.",
           "Aufgeben und deinen Platz für den Rest der Partie einem Computer überlassen? [j/N] j",
           "Partie #1 ist vorbei. "),
    "fr": ("Partie n°1 : ", "Tape help pour les commandes.", "Commandes de jeu :",
           "Autres commandes :", "ce qui n'est visible que par toi",
           "✗ Commande inconnue 'frobnicate'. Tape help pour la liste.",
           "Abandonner et laisser ta place à l'ordinateur pour le reste de la partie ? [o/N] o",
           "La partie n°1 est terminée. "),
    "cs": ("Hra č. 1: ", "Napiš help pro seznam příkazů.", "Herní příkazy:", "Další příkazy:",
           "co vidíš jen ty", "✗ Neznámý příkaz 'frobnicate'. Napiš help pro seznam.",
           "Vzdát se a přenechat své místo počítači do konce hry? [a/N] a",
           "Hra č. 1 skončila. "),
}  # fmt: skip
"""The console's words in a game played at the keyboard, in each language (English
answers the resignation with another language's yes, which it does not take)."""
YES = {"en": "j", "de": "j", "fr": "o", "cs": "a"}
ENGLISH = (
    "=== Game ",
    "Watched ",
    "Game #1 is over.",
    "Type help",
    "Game commands:",
    "Other commands:",
    "Unknown command",
    "Resign and hand",
    "[y/N]",
)
"""The English of the console's words above: none of it is printed in another language."""


def session(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: Sequence[str],
    lines: Sequence[str] = (),
) -> tuple[int, str]:
    """One console run with ``lines`` typed; (exit status, what it printed)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = console.main(list(args))
    return code, capsys.readouterr().out


def statuses(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [row[0] for row in conn.execute("SELECT status FROM games ORDER BY id")]


def languages(db: Path) -> tuple[list[str], dict[int, str]]:
    """Each game's language, and each person's as the store keeps them."""
    with sqlite3.connect(db) as conn:
        games = [
            json.loads(row[0])["language"]
            for row in conn.execute("SELECT settings FROM games ORDER BY id")
        ]
        people = dict(conn.execute("SELECT user_id, locale FROM user_locales").fetchall())
    return games, people


def test_the_language_comes_from_lang_then_the_environment() -> None:
    assert console.language(["--lang", "cs"], {"LANG": "de_DE.UTF-8"}) == "cs"
    assert console.language(["--fast", "--lang=fr"], {}) == "fr"
    assert console.language([], {"LANG": "de_DE.UTF-8"}) == "de"
    assert console.language([], {"LC_MESSAGES": "cs_CZ.UTF-8", "LANG": "de_DE.UTF-8"}) == "cs"
    assert console.language([], {"LC_ALL": "fr_FR", "LC_MESSAGES": "cs_CZ"}) == "fr"
    # the first variable set decides, even a locale the product does not speak
    assert console.language([], {"LC_ALL": "C.UTF-8", "LANG": "de_DE.UTF-8"}) == "en"
    assert console.language([], {"LANG": "ja_JP.UTF-8"}) == "en"
    assert console.language([], {"LC_ALL": "", "LANG": "cs_CZ.UTF-8"}) == "cs"
    assert console.language([], {}) == "en"
    assert console.language(["--lang"], {"LANG": "fr_FR"}) == "fr"  # refused later, in French


@pytest.mark.parametrize("locale", i18n.LOCALES)
@pytest.mark.parametrize("variant", ["european-war", "world-war-5"])
def test_a_watched_computer_game_to_its_end_in_every_language(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    locale: str,
    variant: str,
) -> None:
    db = tmp_path / "games.db"
    args = ["--lang", locale, "--variant", variant, "--watch", "1", "--players", "2", *QUICK]
    code, out = session(monkeypatch, capsys, [*args, "--db", str(db)])
    assert code == 0 and statuses(db) == ["finished"]
    assert languages(db) == ([locale], {})  # the table speaks it; nobody reads alone
    for words in WATCHED[locale]:
        assert words in out, words
    assert f"{WATCHED[locale][2]}{WINNER[locale]}" in out
    if locale != "en":
        assert not [words for words in ENGLISH if words in out]


@pytest.mark.parametrize(
    "locale",
    [
        pytest.param(locale, marks=[] if locale == "cs" else [pytest.mark.slow])
        for locale in i18n.LOCALES
    ],
)
def test_a_watched_europe_at_war_game_in_every_language(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    locale: str,
) -> None:
    """Europe at War's default game (about 3 s of one core: Czech in every run, the other
    languages by hand with ``-m slow``)."""
    db = tmp_path / "games.db"
    args = ["--lang", locale, "--variant", "europe-at-war", "--watch", "1", "--players", "2"]
    code, out = session(monkeypatch, capsys, [*args, *QUICK, "--db", str(db)])
    assert code == 0 and statuses(db) == ["finished"]
    for words in WATCHED[locale]:
        assert words in out, words
    if locale != "en":
        assert not [words for words in ENGLISH if words in out]


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_a_game_at_the_keyboard_in_every_language(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    locale: str,
) -> None:
    """The player asks for help, types nonsense and resigns with the language's yes; the
    computers play the game to its end."""
    db = tmp_path / "games.db"
    args = ["--lang", locale, "--computers", "1", "--name", "Ann", *QUICK, "--db", str(db)]
    lines = ["help", "frobnicate", "resign", YES[locale]]
    code, out = session(monkeypatch, capsys, args, lines)
    assert code == 0
    for words in PLAYED[locale]:
        assert words in out, words
    if locale == "en":  # "j" is no English yes: Ann keeps her seat and the input ends
        assert statuses(db) == ["running"] and "Game #1 is saved." in out
        return
    assert statuses(db) == ["finished"]
    assert languages(db) == ([locale], {1: locale})
    assert not [words for words in ENGLISH if words in out]


def test_a_game_resumed_in_another_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The table keeps the language the game opened in; the console's words and what the
    person reads alone follow the language of the run."""
    db = tmp_path / "games.db"
    args = ["--computers", "1", "--name", "Ann", *QUICK, "--db", str(db)]
    code, out = session(monkeypatch, capsys, ["--lang", "fr", *args], ["quit"])
    assert code == 0 and "La partie n°1 est enregistrée." in out
    assert languages(db) == (["fr"], {1: "fr"})
    code, out = session(
        monkeypatch, capsys, ["--lang", "cs", "--resume", "--fast", "--db", str(db)], ["quit"]
    )
    assert code == 0 and "Pokračuje hra č. 1 (European War): Ann" in out
    assert "Hra č. 1 je uložená." in out
    assert languages(db) == (["fr"], {1: "cs"})


def test_the_environment_chooses_the_language_without_lang(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = ["--watch", "1", "--players", "2", *QUICK, "--db", str(tmp_path / "a.db")]
    monkeypatch.setenv("LANG", "cs_CZ.UTF-8")
    code, out = session(monkeypatch, capsys, args)
    assert code == 0 and "Sledována 1 hra; dohráno: 1." in out
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    code, out = session(monkeypatch, capsys, args)
    assert code == 0 and "Watched 1 game(s); 1 finished." in out


def test_help_and_refused_options_in_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        console.main(["--lang", "de", "--help"])
    shown = capsys.readouterr().out
    assert shown.startswith("Aufruf: european-war ")
    assert "--lang {en,de,fr,cs}" in shown and "die Sprache des Spiels" in shown
    assert "Optionen:" in shown and "diese Hilfe zeigen und beenden" in shown
    with pytest.raises(SystemExit):
        console.main(["--lang", "en", "--help"])
    shown = capsys.readouterr().out
    assert "--lang {en,de,fr,cs}" in shown and "the language to play in" in shown
    with pytest.raises(SystemExit):
        console.main(["--lang", "cs", "--players", "tři"])
    assert "european-war: chyba: argument --players: 'tři' není celé číslo" in (
        capsys.readouterr().err
    )
    assert console.main(["--lang", "fr", "--level", "génie"]) == 2
    assert "Niveau inconnu 'génie' : utilise easy, normal ou hard." in capsys.readouterr().err


class LanguageOfBoards:
    """A game's images, noting the language each board is drawn in."""

    def __init__(self, variant: str) -> None:
        found = images_for(variant)
        assert found is not None
        self.images = found
        self.languages: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.images, name)

    def board(self, view: Any, names: Sequence[str], events: Sequence[Event] = ()) -> bytes:
        self.languages.append(i18n.current())
        return self.images.board(view, names, events)


def test_boards_are_drawn_in_the_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    images = LanguageOfBoards("european_war")
    monkeypatch.setattr(session_mod, "images_for", lambda variant: images)
    out_dir = tmp_path / "boards"
    args = ["--lang", "cs", "--computers", "1", "--fast", "--seed", "1", "--level", "easy"]
    code, out = session(
        monkeypatch, capsys, [*args, "--db", str(tmp_path / "a.db"), "--out", str(out_dir)]
    )
    assert code == 0 and f"Herní plán: {out_dir / 'game1-'}" in out
    assert images.languages and set(images.languages) == {"cs"}
    assert (out_dir / "game1-latest.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow
def test_a_replay_in_the_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--replay``: its lines and its animation (drawn in a worker thread) in the
    language of the run (a few seconds: every frame of a whole game is drawn)."""
    db, out_dir = tmp_path / "games.db", tmp_path / "out"
    args = ["--variant", "world-war-5", "--watch", "1", "--players", "2", *QUICK]
    assert session(monkeypatch, capsys, [*args, "--db", str(db)])[0] == 0
    drawn_in: list[str] = []

    def noted(game: str, frames: Sequence[Frame], names: Sequence[str]) -> Animation:
        drawn_in.append(i18n.current())
        return animate(game, frames, names)

    monkeypatch.setattr("console.main.animate", noted)
    replay = ["--lang", "cs", "--replay", "1", "--db", str(db), "--out", str(out_dir)]
    code, out = session(monkeypatch, capsys, replay)
    assert code == 0 and f"Záznam: {out_dir / 'replay-1.gif'}" in out
    assert drawn_in == ["cs"]
    assert (out_dir / "replay-1.gif").read_bytes()[:6] == b"GIF89a"


def test_a_newcomer_answers_in_czech(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The questions in the language, answered in its words (a level, the default taken
    with Enter) as well as in English ones."""
    monkeypatch.setattr(console, "interactive", lambda: True)
    db = tmp_path / "games.db"
    args = ["--lang", "cs", "--db", str(db), "--no-boards", "--fast"]
    answers = ["2", "", "2", "těžký", "Zoe", "quit"]  # World War 5, Zoe vs 2 hard computers
    code, out = session(monkeypatch, capsys, args, answers)
    assert code == 0
    assert "Připravíme hru (Enter vybere odpověď v závorkách)." in out
    assert "Kolik počítačů (1-4)? [2] 2" in out
    assert "Úroveň počítačů: lehký, normální nebo těžký? [normální] těžký" in out
    assert "Tvoje jméno?" in out and "Hra č. 1: World War 5" in out
    with sqlite3.connect(db) as conn:
        seats = conn.execute("SELECT display_name, computer_level FROM seats ORDER BY id")
        assert [level for _name, level in seats] == [None, "hard", "hard"]
    answers = ["nová", "1", "", "1", "", "", "quit"]  # a second game, the defaults
    code, out = session(monkeypatch, capsys, args, answers)
    assert code == 0
    assert "Ve které hře pokračovat (její číslo), nebo nová pro novou hru? [1] nová" in out
    assert "Úroveň počítačů: lehký, normální nebo těžký? [normální] \n" in out
    assert "Hra č. 2: European War" in out
