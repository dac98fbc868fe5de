"""The pyramid games speak every language the product speaks: refusals, event lines,
prompts, status lines, the spec's words and the typed reader, in German, French and
Czech, through the same code paths as in English (never by reading the catalogues)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest

import rules
from rules import contract, i18n, pyramids
from rules.presentation import Typed, Unreadable
from rules.pyramids import Attack, Move, Pass, PlaceAll, PlacePiece, Retreat
from rules.pyramids.board import BOARD_IDS, load_board
from rules.pyramids.typed import board_text, duel_text, supply_line
from rules.pyramids.words import action_label
from tests.rules.positions import BRIT, CENT, FRAN, cards, position

TRANSLATED = tuple(locale for locale in i18n.LOCALES if locale != i18n.DEFAULT)
NAMES = ["Ann", "Bob", "Cy"]


@pytest.fixture(params=i18n.LOCALES)
def locale(request: pytest.FixtureRequest) -> Iterator[str]:
    """The test speaks each language in turn."""
    with i18n.use(request.param) as chosen:
        yield chosen


def _words(variant: str) -> Any:
    return contract.game_named(variant).presentation


def _refusal(g: pyramids.GameState, seat: int, action: pyramids.Action) -> str:
    with pytest.raises(rules.RulesError) as caught:
        g.apply(seat, action)
    return str(caught.value)


# ---------------------------------------------------------------------- what a player reads
REFUSAL = {
    "en": "Germany is occupied: one piece per field (EW-1)",
    "de": "Deutschland ist besetzt: eine Figur pro Feld (EW-1)",
    "fr": "Allemagne est occupée : une pièce par case (EW-1)",
    "cs": "Německo je obsazené: jedna figurka na pole (EW-1)",
}


@pytest.mark.parametrize("language", i18n.LOCALES)
def test_a_refusal_comes_out_in_the_language_with_its_rule_number(language: str) -> None:
    g = position(
        [BRIT, FRAN, CENT],
        {"france_benelux": (1, 2), "germany": (2, 1)},
        [cards("2c"), cards("3c"), cards("4c")],
        current=1,
    )
    with i18n.use(language):
        assert _refusal(g, 1, Move("france_benelux", "germany")) == REFUSAL[language]


EVENT = {
    "en": "Ann placed a small on Germany.",
    "de": "Ann setzt eine kleine Figur auf Deutschland.",
    "fr": "Ann a placé une petite pièce sur Allemagne.",
    "cs": "Ann staví malou figurku na pole Německo.",
}
STATUS = {
    "en": "Turn 1, round 1, phase turn.",
    "de": "Zug 1, Runde 1, Phase: Zug.",
    "fr": "Tour 1, manche 1, phase : tour.",
    "cs": "Tah 1, kolo 1, fáze: tah.",
}
PROMPT = {
    "en": "Your turn: sabotage or spy first if you like, then one action (EW-8, EW-11).",
    "de": "Du bist am Zug: Wenn du willst, erst sabotieren oder spionieren, dann eine Aktion "
    "(EW-8, EW-11).",
    "fr": "À toi : sabote ou espionne d'abord si tu veux, puis une action (EW-8, EW-11).",
    "cs": "Jsi na tahu: chceš-li, nejdřív sabotuj nebo špehuj, pak jedna akce (EW-8, EW-11).",
}


@pytest.mark.parametrize("language", i18n.LOCALES)
def test_an_event_a_status_line_and_a_prompt_come_out_in_the_language(language: str) -> None:
    g = position([BRIT, FRAN, CENT], {"germany": (2, 1)}, [cards("2c"), [], []])
    words = _words("european_war")
    view = pyramids.view_for(g, 0)
    placed = rules.Event("placed", {"seat": 0, "field": "germany", "size": 1})
    with i18n.use(language):
        assert words.describe(placed, view, NAMES) == EVENT[language]
        assert words.summary_lines(view, NAMES)[0] == STATUS[language]
        assert words.prompt("turn", view, NAMES) == PROMPT[language]


def test_names_on_the_board_follow_the_language() -> None:
    board = load_board("european_war")
    germany = board.fields["germany"]
    with i18n.use("cs"):
        assert germany.name == "Německo" and germany.english == "Germany"
        assert board.powers["central_powers"].short == "Ústřední mocnosti"
        assert _words("european_war").computer_name(CENT) == "Ústřední mocnosti (počítač)"
        # typed in English or in the language, with or without its accents
        for typed in ("germany", "Německo", "nemecko"):
            assert board.field_by_name(typed) == "germany"
        assert board.power_by_name("osmanská říše") == "ottoman_empire"
    assert germany.name == "Germany"


# ---------------------------------------------------------------------- every message formats
def _lines_of(variant: str, g: pyramids.GameState, events: list[rules.Event]) -> list[str]:
    """Everything the presentation and the reader say about one position."""
    words = _words(variant)
    reader = words.reader()
    names = NAMES[: len(g.seats)]
    out: list[str] = []
    for viewer in (None, *range(len(g.seats))):
        view = pyramids.view_for(g, viewer)
        out += [t for e in events if (t := words.describe(e, view, names))]
        out += words.status_lines(view, names) + words.summary_lines(view, names)
        out += reader.board_lines(view, names) + reader.hand_lines(view, names)
        if viewer is not None:
            out += words.private_lines(view, names)
        out.append(words.result_line(view, names) or "")
        out += words.contest().lines(view, names) if words.contest().under_way(view) else []
    for d in g.deciders():
        view = pyramids.view_for(g, d.seat)
        legal = g.legal_actions(d.seat)
        text = words.prompt(d.kind, view, names)
        out.append(text)
        out += reader.prompt_lines(d.kind, text, view, names, d.seat, True)
        for action in words.offered(d.kind, legal):
            out.append(words.action_label(action, view, names))
            out.append(reader.confirm(action, view, d.seat) or "")
        spoken = words.decisions()[d.kind]
        out += [spoken.line(names[:2], "12:00"), spoken.line(names[:1], None, computer=True)]
        out.append(words.timeout_note(d.kind, names[d.seat]) or "")
    return out


@pytest.mark.parametrize("variant", ["european_war", "world_war_5"])
def test_every_line_of_a_whole_game_formats_in_every_language(variant: str) -> None:
    """A random game, each position worded in every language: any placeholder a
    translation lacks or misnames fails here (the catalogue test checks they agree)."""
    rng = random.Random(5)
    g, events = pyramids.new_game(variant, [None] * 3, seed=5)
    said: dict[str, int] = dict.fromkeys(i18n.LOCALES, 0)
    steps = 0
    while not g.over and steps < 400:
        for language in i18n.LOCALES:
            with i18n.use(language):
                lines = _lines_of(variant, g, events)
                assert all("{" not in line for line in lines), lines
                said[language] += len(lines)
                for seat in range(len(g.seats)):
                    for action in (Pass(), Move("x", "y"), Retreat("x"), PlacePiece("x")):
                        try:
                            g.copy().apply(seat, action)
                        except rules.RulesError as refused:
                            assert str(refused) and "{" not in str(refused)
        d = rng.choice(g.deciders())
        events = g.apply(d.seat, rng.choice(g.legal_actions(d.seat)))
        steps += 1
    assert g.over
    assert min(said.values()) == max(said.values()) > 0


# ---------------------------------------------------------------------- the spec's words
@pytest.mark.parametrize("variant", ["european_war", "world_war_5"])
def test_commands_options_and_help_fit_discord_in_every_language(variant: str, locale: str) -> None:
    words = _words(variant)
    english = {c.name: c for c in _english(lambda: words.commands())}
    for command in words.commands():
        assert len(command.description) <= 100, command.description
        assert command.kinds == english[command.name].kinds
        for option in command.options:
            assert len(option.description) <= 100, option.description
            for choice in option.choices:
                assert len(choice.label) <= 100, choice.label
        if locale != i18n.DEFAULT:
            assert command.description != english[command.name].description
    for option in words.options():
        assert all(len(label) <= 100 for label in option.labels), option.labels
        assert len(option.label(True)) <= 100
    assert len(words.help_text()) < 2000
    for spoken in words.decisions().values():
        assert spoken.line(["Ann"], "12:00") or not spoken.waiting


def _english(make: Any) -> Any:
    with i18n.use(i18n.DEFAULT):
        return make()


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_command_description_is_found_for_discord_s_translator(language: str) -> None:
    """Discord's commands are registered in English and translated by message id."""
    description = _english(lambda: _words("european_war").commands()[0].description)
    with i18n.use(language):
        translated = _words("european_war").commands()[0].description
    assert i18n.translate_any(description, language) == translated != description


def test_the_rule_book_keeps_its_rule_numbers_in_every_language(locale: str) -> None:
    english = _english(lambda: _words("european_war").rulebook())
    book = _words("european_war").rulebook()
    assert [list(s.rulings) for s in book] == [list(s.rulings) for s in english]


# ---------------------------------------------------------------------- typed words
def _typed(g: pyramids.GameState, seat: int) -> Typed:
    view = pyramids.view_for(g, seat)
    d = next(d for d in g.deciders() if d.seat == seat)
    return Typed(
        board=g.board,
        variant=g.variant,
        names=NAMES,
        powers=g.seats,
        seat=seat,
        hand=tuple(g.hands[seat]),
        prompt_kind=d.kind,
        choices=tuple(g.legal_actions(seat)),
        view=view,
    )


def test_the_reader_takes_english_and_the_language_s_words_and_names() -> None:
    g = position([BRIT, FRAN, CENT], {"germany": (2, 2)}, [[], [], cards("2c")], current=2)
    reader = _words("european_war").reader()
    typed = _typed(g, 2)
    with i18n.use("de"):
        assert "ziehen" in reader.words()["move"]
        for line in (["deutschland", "österreich"], ["germany", "austria"], ["deutsch", "öst"]):
            assert reader.read("move", line, typed) == Move("germany", "austria")
        with pytest.raises(Unreadable, match="Unbekanntes Feld 'atlantis'"):
            reader.read("move", ["atlantis", "austria"], typed)
        assert supply_line(typed.view, NAMES).startswith("Vorrat – Ann: Vorrat")
    with i18n.use("fr"):
        assert "déplacer" in reader.words()["move"]
        assert reader.read("move", ["allemagne", "autriche"], typed) == Move("germany", "austria")
    with i18n.use("cs"):
        assert reader.read("move", ["nemecko", "rakousko"], typed) == Move("germany", "austria")
        board = board_text(typed.view, g.board, NAMES)
        assert board[0].startswith("Británie a spojenci — Ann")
        assert duel_text(typed.view, g.board, NAMES) is None
    with i18n.use("en"):
        assert "ziehen" not in reader.words().get("move", ())


def test_boards_name_every_field_in_every_language() -> None:
    for board_id in BOARD_IDS:
        board = load_board(board_id)
        for language in TRANSLATED:
            with i18n.use(language):
                names = [f.name for f in board.fields.values()]
                assert len(set(names)) == len(names)
                assert all(
                    board.field_by_name(n) == f for n, f in zip(names, board.fields, strict=True)
                )
                # most names are translated (a few are the same in some languages)
                english = [f.english for f in board.fields.values()]
                assert sum(a != b for a, b in zip(names, english, strict=True)) > len(names) // 2


def test_a_view_reads_the_same_in_every_language() -> None:
    """A view's repr (which seeds the console's computer players) holds no translated
    word: a game repeats whatever language it is shown in."""
    g, _events = pyramids.new_game("european_war", [None] * 3, seed=4)
    english = repr(pyramids.view_for(g, 0))
    for language in TRANSLATED:
        with i18n.use(language):
            view = pyramids.view_for(g, 0)
            assert repr(view) == english
            assert view.seats[0].power_name != view.seats[0].power_english


def test_european_war_s_choice_labels_fit_a_button_in_every_language(locale: str) -> None:
    """Discord's buttons take 80 characters: every placement, move and attack of European
    War is labelled within them, whatever the fields."""
    board = load_board("european_war")
    labels = [
        action_label(PlaceAll(*order), board, NAMES)
        for power in board.powers.values()
        for order in itertools.permutations(power.fields)
    ]
    labels += [
        action_label(kind(src, dst), board, NAMES)
        for src in board.fields
        for dst in board.adjacency[src] + board.sea_reach[src]
        for kind in (Move, Attack)
    ]
    assert max(map(len, labels)) <= 80, max(labels, key=len)
