"""Hints: the hard level's choice with one or two sentences why, from the asker's view
only; a game without an adviser of its own gets its computer player's choice."""

from __future__ import annotations

import pytest

import ai
import ai.pyramids
from ai.players import ChoiceAdviser
from rules import contract, i18n, pyramids
from rules.pyramids import Attack, Move, StopAttack, StopPlaying
from rules.pyramids.state import DUEL
from tests.ai.scenes import britain_must_stop, france_must_block, russia_wins_in_one
from tests.ai.support import SMALL_BUDGET
from tests.rules.positions import CENT, FRAN, RUSS, cards, position


def hint(g: pyramids.GameState, seat: int, seed: int = 0) -> ai.Hint:
    return ai.pyramids.hint(pyramids.view_for(g, seat), seed, iterations=SMALL_BUDGET)


def test_each_game_has_an_adviser(claim_line: contract.Game) -> None:
    g, _ = pyramids.new_game("european_war", [None, None], 3)
    d = g.deciders()[0]
    legal = g.legal_actions(d.seat)
    advice = ai.adviser_for("european_war").hint(pyramids.view_for(g, d.seat), legal, 5)
    assert advice.action in legal and advice.why
    state, _ = claim_line.new_game([None, None], 8, {})
    d = state.deciders()[0]
    offered = state.legal_actions(d.seat)
    adviser = ai.adviser_for("claim_line")
    assert isinstance(adviser, ChoiceAdviser)
    plain = adviser.hint(state.view_for(d.seat), offered, 5)
    assert plain.action in offered and plain.why == ()
    with pytest.raises(ValueError, match="no legal action"):
        ai.adviser_for("european_war").hint(pyramids.view_for(g, d.seat), [], 5)


def test_a_hint_is_the_hard_choice_with_its_reasons() -> None:
    g, _ = pyramids.new_game("european_war", [None, None, None], 4)
    while g.phase == "setup":
        d = g.deciders()[0]
        g.apply(d.seat, g.legal_actions(d.seat)[0])
    seat = g.current
    view = pyramids.view_for(g, seat)
    advice = ai.pyramids.hint(view, 9, iterations=SMALL_BUDGET)
    assert advice.action == ai.pyramids.choose(view, "hard", 9, iterations=SMALL_BUDGET)
    assert 1 <= len(advice.why) <= 2 and all(w.endswith(".") for w in advice.why)


def test_a_hint_depends_only_on_what_the_asker_sees() -> None:
    # The same public position and hand for Russia; the other hands and the pile differ.
    pieces = {
        "north_russia": (0, 3),
        "west_russia": (0, 2),
        "south_russia": (0, 1),
        "germany": (0, 2),
        "france_benelux": (1, 3),
        "italy": (1, 2),
        "north_africa": (1, 1),
        "austria": (1, 2),
    }
    mine = cards("9C", "7D", "5H", "KS", "2C")
    a = position([RUSS, FRAN], pieces, hands=[mine, cards("10C", "10D", "9H", "3S")])
    b = position([RUSS, FRAN], pieces, hands=[mine, cards("2D", "3D", "4H", "QS")])
    assert pyramids.view_for(a, 0) == pyramids.view_for(b, 0)
    for seed in range(3):
        assert hint(a, 0, seed) == hint(b, 0, seed)


def test_a_win_in_one_says_so() -> None:
    g = russia_wins_in_one()
    advice = hint(g, 0)
    assert advice.action == Move("south_balkans", "hungary")
    assert advice.why == ("Hungary completes your hold on Central Powers: you would win.",)


def test_a_block_says_whose_win_it_stops() -> None:
    g = france_must_block()
    advice = hint(g, 0)
    assert advice.action == Move("france_benelux", "germany")
    assert advice.why == (
        "Russian Empire could move into Germany next and hold all of Central Powers: "
        "this stops it.",
    )


def test_a_stop_names_the_win_it_prevents() -> None:
    g = britain_must_stop()
    advice = hint(g, 2)
    assert advice.action == StopAttack(False)
    assert advice.why == ("If this attack wins, the game is over.", "France would win.")


def test_a_lost_duel_keeps_the_cards_and_says_why() -> None:
    g = position(
        [RUSS, CENT],
        {
            "north_russia": (0, 3),
            "west_russia": (0, 2),
            "germany": (0, 3),
            "france_benelux": (1, 2),
            "austria": (1, 2),
            "hungary": (1, 1),
        },
        hands=[cards("10C", "10D", "9C"), cards("2C", "3C", "4C")],
    )
    g.apply(0, Attack("germany", "austria"))
    g.apply(0, pyramids.PlayCard(cards("10C")[0]))
    assert g.phase == DUEL
    advice = hint(g, 1)
    assert advice.action == StopPlaying()
    assert advice.why == ("Even your best cards would almost surely lose: keep them for later.",)


def test_reasons_come_in_the_reader_s_language() -> None:
    scenes = [russia_wins_in_one(), france_must_block(), britain_must_stop()]
    seats = [0, 0, 2]
    english = [hint(g, seat).why for g, seat in zip(scenes, seats, strict=True)]
    for locale in i18n.LOCALES[1:]:
        with i18n.use(locale):
            for g, seat, words in zip(scenes, seats, english, strict=True):
                why = hint(g, seat).why
                assert len(why) == len(words)
                for said, plain in zip(why, words, strict=True):
                    assert said != plain and said.endswith(".") and "{" not in said
    with i18n.use("de"):
        assert hint(britain_must_stop(), 2).why[0] == (
            "Gelingt dieser Angriff, ist die Partie vorbei."
        )
