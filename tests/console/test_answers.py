"""Answers at the console: each answer keeps its number in every prompt, an A spent in
place of a figure is announced, and World War 5's help speaks of no cards."""

from __future__ import annotations

from console.parse import Context, parse
from console.text import help_text
from rules import contract, pyramids
from rules.pyramids.cards import parse_card
from rules.pyramids.words import action_label
from tests.rules.positions import BRIT, CENT, FRAN, cards, position

NAMES = ["Ann", "Bob", "Cy"]
BOARD = pyramids.load_board("european_war")
EW = contract.game_named("european_war")


def diplomacy(cy: list[int]) -> pyramids.GameState:
    """Ann (France) attacks Bob's Austria from Italy; Cy (Britain), holding ``cy``, is
    asked whether to stop it."""
    g = position(
        [FRAN, CENT, BRIT],
        {"italy": (0, 3), "france_benelux": (0, 2), "austria": (1, 2), "britain": (2, 3)},
        hands=[cards("5C"), cards("2S"), cy],
    )
    g.apply(0, pyramids.Attack("italy", "austria"))
    return g


def labels(g: pyramids.GameState, seat: int) -> list[str]:
    [d] = [d for d in g.deciders() if d.seat == seat]
    offered = EW.presentation.offered(d.kind, g.legal_actions(seat))
    return [action_label(a, BOARD, NAMES) for a in offered]


def test_diplomacy_answers_keep_their_numbers_whatever_is_held() -> None:
    seen = []
    for held in ([], ["KH"], ["AS"], ["KH", "AS"], ["AS", "KH", "3D"]):
        shown = labels(diplomacy(cards(*held)), 2)
        assert shown[:2] == ["Stop with K", "Let it pass"], held
        assert shown[2:] == (["Stop with A"] if "AS" in held else []), held
        seen.append(shown)
    assert len({tuple(s) for s in seen}) == 2  # only an A adds a choice, at the end


def test_duel_cards_come_as_the_hand_shows_them_then_stop() -> None:
    g = position(
        [FRAN, CENT],
        {"italy": (0, 3), "austria": (1, 3)},
        hands=[cards("KS", "5C", "10H", "2D", "AC"), cards("4H", "9S", "QD")],
    )
    g.apply(0, pyramids.Attack("italy", "austria"))  # no third player: the duel starts
    assert labels(g, 0) == ["Play 2♦", "Play 5♣", "Play 10♥", "Play K♠", "Play A♣"]
    g.apply(0, pyramids.PlayCard(parse_card("5C")))
    assert labels(g, 1) == ["Play 4♥", "Play 9♠", "Play Q♦", "Stop playing"]


def typed(hand: tuple[str, ...], kind: str, choices: tuple[pyramids.Action, ...]) -> Context:
    return Context(
        board=BOARD,
        variant="european_war",
        names=NAMES,
        powers=[FRAN, CENT, BRIT],
        seat=0,
        hand=tuple(parse_card(c) for c in hand),
        prompt_kind=kind,
        choices=choices,
    )


def test_an_ace_spent_for_a_figure_says_so() -> None:
    reader = EW.presentation.reader()
    assert reader is not None
    window = (pyramids.StopAttack(False), pyramids.LetPass(), pyramids.StopAttack(True))
    ctx = typed(("5C", "AS", "AH"), "diplomacy", window)
    action = parse("k", ctx).action
    assert action == pyramids.StopAttack(True)
    assert reader.note(action, ctx) == "Your A♥ stands in for a K (you hold no K)."
    ctx = typed(("KS", "AH"), "diplomacy", window)
    assert parse("k", ctx).action == pyramids.StopAttack(False)
    assert reader.note(pyramids.StopAttack(False), ctx) is None
    assert reader.note(parse("k ace", ctx).action, ctx) == "Your A♥ stands in for a K."

    turn = (pyramids.Sabotage("italy", True), pyramids.Spy(1, True), pyramids.Arm())
    ctx = typed(("AD", "7C"), "turn", turn)
    sabotage = parse("sabotage italy", ctx).action
    assert sabotage == pyramids.Sabotage("italy", True)
    assert reader.note(sabotage, ctx) == "Your A♦ stands in for a J (you hold no J)."
    spy = parse("spy bob", ctx).action
    assert reader.note(spy, ctx) == "Your A♦ stands in for a Q (you hold no Q)."
    assert reader.note(pyramids.Arm(), ctx) is None


def test_world_war_5_help_speaks_of_no_cards() -> None:
    ww = help_text("world_war_5")
    assert "card" not in ww.lower() and "EW-" not in ww and "duel" not in ww
    assert "hand " not in ww and "rules" in ww and "(3 or WW-3)" in ww
    ew = help_text("european_war")
    assert "hand " in ew and "(13 or EW-13)" in ew and "play CARD" in ew
