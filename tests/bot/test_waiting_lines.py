"""Who the channel is told is awaited comes from the game's words for its decisions
(:meth:`rules.presentation.Presentation.decisions`): a line per decider or one for all,
a person called by mention or named, a computer's own line, the deadline as a Discord
timestamp; a decision the game gives no line gets none."""

from __future__ import annotations

from bot.texts import waiting_lines
from rules import contract
from service import DecisionInfo

ANN, BOB = 101, 202


def _decision(kind: str, user: int | None, name: str, deadline: float | None) -> DecisionInfo:
    return DecisionInfo(0, kind, user, name, deadline)


def test_the_pyramid_games_words_for_each_decision() -> None:
    words = contract.game_named("european_war").presentation
    decisions = [
        _decision("retreat", None, "Russia (computer)", None),
        _decision("duel", BOB, "Bob", 2000.0),
        _decision("diplomacy", ANN, "Ann", 3000.0),
        _decision("diplomacy", BOB, "Bob", 3000.0),
        _decision("setup", ANN, "Ann", 1000.0),
        _decision("setup", None, "Turkey (computer)", 1000.0),
        _decision("action", BOB, "Bob", None),
        _decision("turn", ANN, "Ann", 1500.0),
        _decision("turn", None, "France (computer)", 1500.0),
    ]
    assert waiting_lines(decisions, words) == [
        f"▶ <@{ANN}>, your turn — time runs out <t:1500:R>.",
        "▶ France (computer) is to play.",
        f"▶ <@{BOB}>, your attack was stopped: take another action.",
        f"▶ Placing pieces: <@{ANN}>, Turkey (computer) (until <t:1000:R>). "
        "Use your panel or /place.",
        "⚖ The diplomacy window is open until <t:3000:R>.",
        "⚔ Bob to play a card or stop (until <t:2000:R>).",
        "↩ Russia (computer) chooses where the beaten piece retreats.",
    ]


def test_a_game_s_own_words_and_a_decision_it_gives_no_line(claim_line: None) -> None:
    words = contract.game_named("claim_line").presentation
    decisions = [
        _decision("respond", BOB, "Bob", 900.0),
        _decision("turn", ANN, "Ann", None),
        _decision("unheard_of", ANN, "Ann", None),
    ]
    assert waiting_lines(decisions, words) == [f"▶ <@{ANN}>, your turn."]
    assert words.decisions()["respond"].name == "the claim to contest"
