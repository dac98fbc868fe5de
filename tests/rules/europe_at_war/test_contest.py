"""The channel follows a battle's card exchange in one message (the presentation's
``contest()``): under way during the exchange, edited at each card or pass, ended by the
result, with each side's Force as the cards shown leave it."""

from __future__ import annotations

from ai.europe_at_war import EaPlayer
from rules.europe_at_war.game import EaGame
from rules.europe_at_war.options import Options
from rules.europe_at_war.view import view_for
from rules.events import Event

GAME = EaGame()
NAMES = ["Ann", "Bob", "Cy"]


def test_a_battle_is_followed_from_its_first_card_to_its_result() -> None:
    contest = GAME.presentation.contest()
    assert contest is not None
    bot = EaPlayer()
    g, _ = GAME.new_game([None] * 3, 5, Options())
    seen_step = seen_result = 0
    steps = 0
    while not g.over and not (seen_step and seen_result):
        d = g.deciders()[0]
        action = bot.choose(g.view_for(d.seat), g.legal_actions(d.seat), "normal", steps)
        before = view_for(g, None)
        events = [e for e in g.apply(d.seat, action) if e.to is None]
        view = view_for(g, None)
        steps += 1
        if contest.result(events) is not None:
            assert before.battle is not None and contest.under_way(before)
            assert not contest.step(events)
            seen_result += 1
        elif before.battle is not None and contest.under_way(before) and contest.under_way(view):
            assert contest.step(events), [e.kind for e in events]
            lines = contest.lines(view, NAMES)
            a, b = view.battle.attacker, view.battle.defender  # type: ignore[union-attr]
            assert lines[0].startswith(f"{NAMES[a]}: Force {view.battle.totals[0]} (units ")  # type: ignore[union-attr]
            assert lines[1].startswith(f"{NAMES[b]}: Force {view.battle.totals[1]} (units ")  # type: ignore[union-attr]
            seen_step += 1
        elif view.battle is None:
            assert not contest.under_way(view) and contest.lines(view, NAMES) == []
    assert seen_step and seen_result
    assert not contest.step([Event("control", {"seat": 0, "taken": []})])
