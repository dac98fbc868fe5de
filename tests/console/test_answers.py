"""Answers at the console: each answer keeps its number in every prompt (a diplomacy
window's, a duel's cards as cards are played, a placement's home fields), an A spent in
place of a figure is announced, and World War 5's help speaks of no cards."""

from __future__ import annotations

import pytest

from console.parse import Context, ParseError, parse
from console.text import help_text, numbered
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


def shown(g: pyramids.GameState, seat: int) -> tuple[list[str], Context]:
    """What the console shows ``seat`` for its open decision (each choice with its number,
    as the game numbers them) and the context its typed answer is read in."""
    [d] = [d for d in g.deciders() if d.seat == seat]
    reader = EW.presentation.reader()
    assert reader is not None
    view = pyramids.view_for(g, seat)
    choices = EW.presentation.offered(d.kind, g.legal_actions(seat))
    numbers = reader.numbers(d.kind, view, choices)
    lines = numbered([action_label(a, BOARD, NAMES) for a in choices], numbers)
    ctx = Context(
        board=BOARD,
        variant=g.variant,
        names=NAMES,
        powers=list(g.seats),
        seat=seat,
        hand=view.hand or (),
        prompt_kind=d.kind,
        choices=choices,
        view=view,
        numbers=numbers,
    )
    return [line.strip() for line in lines], ctx


def test_a_duels_cards_and_stop_keep_their_numbers_as_cards_are_played() -> None:
    """Numbered by their place in the hand the duel began with; *Stop playing* after the
    last; a number that is gone is refused with the numbers there are."""
    g = position(
        [FRAN, CENT],
        {"italy": (0, 3), "austria": (1, 3)},
        hands=[cards("KS", "5C", "10H", "2D", "AC"), cards("4H", "9S", "QD")],
    )
    g.apply(0, pyramids.Attack("italy", "austria"))
    lines, ctx = shown(g, 0)
    assert lines == ["1) Play 2♦", "2) Play 5♣", "3) Play 10♥", "4) Play K♠", "5) Play A♣"]
    assert parse("2", ctx).action == pyramids.PlayCard(parse_card("5C"))
    g.apply(0, pyramids.PlayCard(parse_card("5C")))
    assert shown(g, 1)[0] == ["1) Play 4♥", "2) Play 9♠", "3) Play Q♦", "4) Stop playing"]
    g.apply(1, pyramids.PlayCard(parse_card("9S")))
    lines, ctx = shown(g, 0)
    assert lines == [
        "1) Play 2♦",
        "3) Play 10♥",
        "4) Play K♠",
        "5) Play A♣",
        "6) Stop playing",
    ]
    assert parse("4", ctx).action == pyramids.PlayCard(parse_card("KS"))
    assert parse("6", ctx).action == pyramids.StopPlaying()
    with pytest.raises(ParseError, match="Choose one of the numbers shown: 1, 3, 4, 5 or 6"):
        parse("2", ctx)
    g.apply(0, pyramids.PlayCard(parse_card("KS")))
    assert shown(g, 1)[0] == ["1) Play 4♥", "3) Play Q♦", "4) Stop playing"]


def test_placing_by_size_keeps_each_home_field_at_its_number() -> None:
    """World War 5 places the smalls first, then the mediums, then the larges: each home
    field keeps the number it had in the first prompt, and ``place 3`` reads it too."""
    g, _ = pyramids.new_game("world_war_5", [None, None], seed=3)
    ww = contract.game_named("world_war_5").presentation
    reader = ww.reader()
    assert reader is not None
    first: dict[str, int] = {}
    skipped = 0
    for _ in range(6):
        [d] = g.deciders()
        view = pyramids.view_for(g, d.seat)
        choices = ww.offered(d.kind, g.legal_actions(d.seat))
        numbers = reader.numbers(d.kind, view, choices)
        board = pyramids.load_board("world_war_5")
        home = list(board.powers[g.seats[d.seat]].fields)
        assert numbers == [home.index(a.field) + 1 for a in choices]
        for a, n in zip(choices, numbers, strict=True):
            assert first.setdefault(f"{d.seat}:{a.field}", n) == n
        typed_ctx = Context(
            board=board,
            variant="world_war_5",
            names=NAMES[:2],
            seat=d.seat,
            prompt_kind=d.kind,
            choices=choices,
            view=view,
            numbers=numbers,
        )
        skipped += numbers != list(range(1, len(numbers) + 1))
        assert parse(f"place {numbers[0]}", typed_ctx).action == choices[0]
        g.apply(d.seat, choices[0])  # the first field: the others would move up a place
    assert len(first) == 6  # three home fields of each player, each with one number
    assert skipped == 4  # each player's medium and large prompts start past 1


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
