"""Europe at War in German, French and Czech: refusals, events, prompts, look-ups and the
names from the data files come out in the reader's language through the game's own
code, every formatted message works in every language, and what a player types or
looks up is found by its English or its translated name."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from rules import i18n
from rules.contract import Param
from rules.errors import NotYourTurn, RulesError
from rules.europe_at_war import describe as D
from rules.europe_at_war.actions import Done
from rules.europe_at_war.data import deck, game_map
from rules.europe_at_war.game import EaGame
from rules.europe_at_war.options import Options
from rules.europe_at_war.state import EaState
from rules.europe_at_war.view import view_for
from rules.events import Event
from tests.rules.europe_at_war.playout import play
from tests.rules.europe_at_war.scenario import table
from tests.rules.europe_at_war.test_words import SAMPLES

GAME = EaGame()
WORDS = GAME.presentation
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]
TRANSLATED = ("de", "fr", "cs")

REFUSAL = {
    "en": "It is not your decision now.",
    "de": "Du bist jetzt nicht an der Reihe zu entscheiden.",
    "fr": "Ce n'est pas à toi de décider maintenant.",
    "cs": "Teď nerozhoduješ ty.",
}
TURN = {
    "en": "Round 3: Bob's turn.",
    "de": "Runde 3: Bob ist am Zug.",
    "fr": "Manche 3 : au tour de Bob.",
    "cs": "Kolo 3: na tahu je Bob.",
}
RETREAT = {
    "en": "Bob falls back from Vienna to Prague & Bohemia.",
    "de": "Bob zieht sich von Wien nach Prag & Böhmen zurück.",
    "fr": "Bob se replie de Vienne vers Prague & Bohême.",
    "cs": "Bob ustupuje z pole Vídeň na pole Praha & Čechy.",
}
DRAW_PROMPT = {
    "en": "Draw Phase: discard any cards you do not want, then finish to draw 5 (EA-5).",
    "de": "Ziehphase: wirf beliebige Karten ab, die du nicht willst, dann beende, um 5 zu "
    "ziehen (EA-5).",
    "fr": "Phase de pioche : défausse les cartes dont tu ne veux pas, puis termine pour piocher 5 "
    "(EA-5).",
    "cs": "Fáze dobírání: odhoď karty, které nechceš, pak skonči a vezmi si 5 (EA-5).",
}
LOST_ORDERS = {
    "en": "Lost Orders",
    "de": "Verlorene Befehle",
    "fr": "Ordres perdus",
    "cs": "Ztracené rozkazy",
}
CARD_LINE = {
    "en": "**Lost Orders** (card {n}): Negate a card just played",
    "de": "**Verlorene Befehle** (Karte {n}): Eine gerade gespielte Karte aufheben",
    "fr": "**Ordres perdus** (carte {n}) : Annuler une carte qui vient d'être jouée",
    "cs": "**Ztracené rozkazy** (karta {n}): Zruš právě zahranou kartu",
}
VIENNA = {"en": "Vienna", "de": "Wien", "fr": "Vienne", "cs": "Vídeň"}


def _started() -> EaState:
    g, _events = GAME.new_game(["france", "austria"], 3, Options())
    assert isinstance(g, EaState)
    return g


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_a_refusal_is_in_the_callers_language(locale: str) -> None:
    g = _started()
    idle = next(s for s in range(2) if s not in {d.seat for d in g.deciders()})
    with i18n.use(locale), pytest.raises(NotYourTurn) as refused:
        g.apply(idle, Done())
    assert str(refused.value) == REFUSAL[locale]


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_events_name_players_and_spaces_in_the_readers_language(locale: str) -> None:
    view = view_for(table("france", "austria"), None)
    with i18n.use(locale):
        turn = WORDS.describe(Event("turn", {"seat": 1, "round": 3}), view, NAMES)
        moved = Event("retreated", {"seat": 1, "from": "vienna", "to": "prague"})
        retreat = WORDS.describe(moved, view, NAMES)
    assert (turn, retreat) == (TURN[locale], RETREAT[locale])


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_a_prompt_is_in_the_deciders_language(locale: str) -> None:
    view = view_for(table("france", "austria"), 0)
    with i18n.use(locale):
        assert WORDS.prompt("discard", view, NAMES) == DRAW_PROMPT[locale]


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_a_cards_look_up_is_in_the_askers_language(locale: str) -> None:
    view = view_for(table("france", "austria"), 0)
    with i18n.use(locale):
        by_english = WORDS.look_up("card", {"name": "lost orders"}, view, NAMES)
        by_own_name = WORDS.look_up("card", {"name": LOST_ORDERS[locale][:7]}, view, NAMES)
    number = next(c.n for c in deck().values() if c.name == "Lost Orders")
    assert by_english == by_own_name
    assert by_english.lines[0] == CARD_LINE[locale].format(n=number)


@pytest.mark.parametrize("locale", TRANSLATED)
def test_a_space_is_found_by_its_english_or_its_translated_name(locale: str) -> None:
    view = view_for(table("france", "austria"), 0)
    with i18n.use(locale):
        for typed in ("Vienna", "vienna", VIENNA[locale], VIENNA[locale].upper()):
            assert game_map().find(typed) == "vienna", typed
            assert WORDS.value_of(Param("at", "space"), typed, view, NAMES) == "vienna"
        shown = WORDS.look_up("stack", {"at": VIENNA[locale]}, view, NAMES)
        assert WORDS.look_up("stack", {"at": "Vienna"}, view, NAMES) == shown
        assert shown.lines[0].startswith(VIENNA[locale])
        with pytest.raises(RulesError) as unknown:
            WORDS.look_up("stack", {"at": "Xanadu"}, view, NAMES)
    with i18n.use("en"), pytest.raises(RulesError) as in_english:
        WORDS.look_up("stack", {"at": "Xanadu"}, view, NAMES)
    assert "'Xanadu'" in str(unknown.value) and str(unknown.value) != str(in_english.value)


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_sample_event_is_worded_in_every_language(locale: str) -> None:
    g = table("france", "austria")
    for event in SAMPLES:
        view = view_for(g, event.to)
        english = WORDS.describe(event, view, NAMES)
        with i18n.use(locale):
            text = WORDS.describe(event, view, NAMES)
        assert text and "{" not in text and "}" not in text, event.kind
        assert text != english, (event.kind, text)


@pytest.mark.parametrize("locale", TRANSLATED)
def test_a_playout_is_worded_whole_in_every_language(locale: str) -> None:
    """Every event, action label, prompt, status and private line of a few rounds,
    formatted in ``locale`` (a placeholder a translation lacks fails here)."""
    seen: set[str] = set()

    def watch(prior: EaState, g: EaState, events: list[Event]) -> None:
        with i18n.use(locale):
            for d in prior.deciders():
                view = view_for(prior, d.seat)
                words = [WORDS.prompt(d.kind, view, NAMES)]
                words += [WORDS.action_label(a, view, NAMES) for a in prior.legal_actions(d.seat)]
                words += WORDS.private_lines(view, NAMES)
                words += WORDS.status_lines(view, NAMES) + WORDS.summary_lines(view, NAMES)
                for text in words:
                    assert "{" not in text and "}" not in text, text
            for e in events:
                sentence = WORDS.describe(e, view_for(g, e.to), NAMES)
                assert sentence is None or "{" not in sentence, sentence
                seen.add(e.kind)

    play(3, 7, Options(), rounds=2, sample=0, views_every=0, watch=watch)
    assert {"turn", "plan", "revenue", "recruited"} <= seen


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_commands_options_and_decisions_are_worded_within_discords_limits(locale: str) -> None:
    with i18n.use(locale):
        commands = WORDS.commands()
        options = WORDS.options()
        decisions = WORDS.decisions()
        rulebook = WORDS.rulebook()
    for c in commands:
        assert 1 <= len(c.description) <= 100, c.description
        for o in c.options:
            assert 1 <= len(o.description) <= 100, o.description
            assert all(1 <= len(choice.label) <= 100 for choice in o.choices)
    assert all(1 <= len(o.summary) <= 100 for o in options)
    for kind, words in decisions.items():
        line = words.line(["Ann"], "12:00")
        assert ("Ann" in line and "12:00" in line) or not words.until, kind
    if locale != i18n.DEFAULT:
        with i18n.use(i18n.DEFAULT):
            english = {c.name: c.description for c in WORDS.commands()}
        assert all(c.description != english[c.name] for c in commands)
        assert rulebook[0].rulings["EA-24"] != WORDS.rulebook()[0].rulings["EA-24"]


def test_the_options_set_are_listed_in_the_readers_language() -> None:
    chosen: dict[str, object] = {"rounds": 8, "window_seconds": 30}
    chosen |= {spec.name: True for spec in WORDS.options() if spec.kind == "flag"}
    english = WORDS.option_words(chosen)
    flags = [s.summary.lower() for s in WORDS.options() if s.kind == "flag"]
    assert english == ["8 rounds", *flags, "30 s windows"]
    with i18n.use("de"):
        german = WORDS.option_words(chosen)
    assert german[0] == "8 Runden" and german[-1] == "Fenster von 30 s"
    assert "kompakte Karte (129 Gebiete)" in german and len(german) == len(english)


def test_every_reason_the_engine_draws_or_rolls_for_is_a_message() -> None:
    """A draw's or a roll's reason is a card's name (a data message) or one of the
    steps in :data:`describe.WHY`, so it is worded in the reader's language."""
    package = resources.files("rules.europe_at_war")
    source = "".join(f.read_text("utf-8") for f in package.iterdir() if f.name.endswith(".py"))
    given = set(re.findall(r'(?:draw|draw_up_to|roll)\(g, [^()]*?"([a-z ]+)", events\)', source))
    assert given and given <= set(D.WHY), given - set(D.WHY)
    with i18n.use("de"):
        dealt = D.describe(Event("drew", {"seat": 0, "count": 5, "why": "deal"}), None, NAMES)
    assert dealt == "Ann zieht 5 Karten (Austeilen)."
