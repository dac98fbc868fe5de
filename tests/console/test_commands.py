"""The console's turn commands made from the games' specs: their words, usage and help,
the words of another game refused, and the words after a command split into its
options as the game's words read them (several words to a name, fixed choices)."""

from __future__ import annotations

import pytest

from console.commands import ArgumentError, game_of_word, help_lines, split_options, usage
from console.parse import Context, ParseError, completions, parse
from console.text import help_text
from rules import contract, pyramids
from rules.presentation import CommandOption, CommandSpec

EW = contract.game_named("european_war")
EW_STATE, _ = pyramids.new_game("european_war", [None] * 3, seed=3)
EW_VIEW = pyramids.view_for(EW_STATE, 0)
NAMES = ["Ann", "Bob", "Cy"]


def spec(game: contract.Game, name: str) -> CommandSpec:
    return next(c for c in game.presentation.commands() if c.name == name)


def ew_reads(option: CommandOption, text: str) -> bool:
    if option.choices:
        return text.lower() in {c.word for c in option.choices}
    param = contract.Param(option.fills[0], option.kind)
    return EW.presentation.value_of(param, text, EW_VIEW, NAMES) is not None


def test_usage_and_help_come_from_the_spec(claim_line: contract.Game) -> None:
    assert usage(spec(EW, "move")) == "move FROM TO"
    assert usage(spec(EW, "sabotage")) == "sabotage TARGET [figure|ace]"
    assert usage(spec(EW, "sabotage"), required_only=True) == "sabotage TARGET"
    assert usage(spec(EW, "place")) == "place [LARGE] [MEDIUM] [SMALL]"
    lines = help_lines(claim_line)
    assert lines == ["claim CELL                  Claim an empty cell of the grid (CL-1)"]
    text = help_text("european_war")
    for c in EW.presentation.commands():
        assert usage(c) in text and c.description in text
    assert "/grow" not in text and "grow FIELD" in help_text("world_war_5")


def test_the_words_of_another_game_are_refused_naming_this_ones(
    claim_line: contract.Game,
) -> None:
    assert game_of_word("grow") == ("world_war_5",)
    assert game_of_word("move") == ("european_war", "world_war_5")
    assert game_of_word("order") == ("europe_at_war",)
    assert game_of_word("claim") == ("claim_line",)
    ctx = Context(board=EW_STATE.board, variant="european_war", names=NAMES)
    with pytest.raises(ParseError, match=r"claim is not in this variant.*European War.*conscript"):
        parse("claim b2", ctx)
    assert "claim " not in completions("", "", ctx)
    assert "conscript " in completions("", "", ctx)


def test_words_split_into_options_as_the_game_reads_them() -> None:
    move = spec(EW, "invade")
    assert split_options(move, ["north", "africa", "italy"], ew_reads) == {
        "from": "north africa",
        "to": "italy",
    }
    assert split_options(move, ["Spain", "France", "+", "Benelux"], ew_reads) == {
        "from": "Spain",
        "to": "France + Benelux",
    }
    sabotage = spec(EW, "sabotage")
    assert split_options(sabotage, ["spain"], ew_reads) == {"target": "spain"}
    assert split_options(sabotage, ["spain", "ace"], ew_reads) == {"target": "spain", "card": "ace"}
    # nothing reads: one word per option, for the service to say which names nothing
    assert split_options(move, ["narnia", "spain"], ew_reads) == {"from": "narnia", "to": "spain"}
    with pytest.raises(ArgumentError, match="Say FROM TO"):
        split_options(move, ["spain"], ew_reads)
    with pytest.raises(ArgumentError, match="does not fit move FROM TO"):
        split_options(spec(EW, "move"), ["a", "b", "c"], ew_reads)
    with pytest.raises(ArgumentError, match="does not fit arm"):
        split_options(spec(EW, "arm"), ["now"], ew_reads)
    assert split_options(spec(EW, "arm"), [], ew_reads) == {}


def test_a_split_that_reads_two_ways_is_asked_about() -> None:
    place = spec(EW, "place")

    def anything(option: CommandOption, text: str) -> bool:
        return True

    with pytest.raises(ArgumentError, match="Which do you mean"):
        split_options(place, ["a", "b", "c"], anything)


def test_a_game_without_hand_written_words_is_read_from_its_spec(
    claim_line: contract.Game,
) -> None:
    state, _ = claim_line.new_game([None, None], 1, {})
    seat = state.deciders()[0].seat
    ctx = Context(
        board=EW_STATE.board,  # unused by a game read from its spec
        variant="claim_line",
        names=["Ann", "Bob"],
        seat=seat,
        prompt_kind="turn",
        choices=tuple(state.legal_actions(seat)),
        view=state.view_for(seat),
    )
    cmd = parse("claim B2", ctx)
    assert cmd.name == "claim" and cmd.action is None and cmd.options == {"cell": "B2"}
    assert parse("claim z9", ctx).options == {"cell": "z9"}, "the service says it is no cell"
    with pytest.raises(ParseError, match="Say CELL"):
        parse("claim", ctx)
    with pytest.raises(ParseError, match=r"move is not in this variant.*Claim the Line.*claim"):
        parse("move a1 b2", ctx)
    assert completions("claim ", "", ctx) == sorted(f"{a.to_dict()['cell']} " for a in ctx.choices)
    assert "claim " in completions("", "", ctx) and "conscript " not in completions("", "", ctx)


def test_the_console_names_every_registered_game(claim_line: contract.Game) -> None:
    from console.main import UsageError, variant_of

    assert variant_of("claim-line") == "claim_line"
    assert variant_of("ww5") == "world_war_5"
    assert variant_of("europe-at-war") == "europe_at_war"
    with pytest.raises(
        UsageError, match="european-war or world-war-5 or europe-at-war or claim-line"
    ):
        variant_of("chess")


def test_a_game_s_answer_words_are_its_own(claim_line: contract.Game) -> None:
    """The words a game's reader adds (European War's play / k / let, the retreat) are
    refused at another game's table, in that game's words when its reader has them."""
    state, _ = claim_line.new_game([None, None], 1, {})
    seat = state.deciders()[0].seat
    ctx = Context(board=None, variant="claim_line", names=["Ann", "Bob"], seat=seat)
    for line in ("play 10h", "let", "retreat a1", "king"):
        with pytest.raises(ParseError, match="not in this variant: this table plays Claim the"):
            parse(line, ctx)
    assert "play " not in completions("", "", ctx) and "retreat " not in completions("", "", ctx)
    assert "play" not in help_text("claim_line") and "Field names" not in help_text("claim_line")
    ww5 = Context(board=None, variant="world_war_5", names=NAMES, seat=0)
    with pytest.raises(ParseError, match="World War 5 has no cards"):
        parse("let", ww5)


def test_the_game_question_offers_every_registered_game(
    claim_line: contract.Game, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A newcomer picks from the registered games, by number, each with its title."""
    import argparse

    from console import main

    answers = iter(["4", "1", "1", "", "Ann"])

    def ask(question: str, default: str, valid: object) -> str:
        print(question)
        return next(answers) or default

    monkeypatch.setattr(main, "ask", ask)
    plan = main.plan_by_questions(argparse.Namespace(seed=5, power=None))
    assert (plan.variant, plan.humans, plan.levels) == ("claim_line", ["Ann"], ["normal"])
    question = capsys.readouterr().out.splitlines()[1]
    assert question == (
        "Which game? 1) European War (cards, duels, diplomacy)  2) World War 5 (dice)  "
        "3) Europe at War (chits, cards and 176 territories)  4) Claim the Line"
    )
