"""EA-23's casualties as counts per unit type (the presentation's ``tally``): grouped
by what the units are, starting at the engine's suggestion, in the order it takes them."""

from __future__ import annotations

from rules.europe_at_war import GAME
from rules.europe_at_war.actions import BattleCard, Casualty, LostOrders, Pass
from rules.europe_at_war.suggest import keep_value
from tests.rules.europe_at_war.scenario import battle_phase, ref, run
from tests.rules.europe_at_war.test_battle import _text_example


def test_casualties_are_counted_per_type_from_the_engine_s_suggestion() -> None:
    g, french = _text_example()
    battle_phase(g)
    run(
        g,
        (0, BattleCard("bayonet_charge")),
        (1, BattleCard("defensive_formation")),
        (0, BattleCard("encirclement")),
        (1, LostOrders("encirclement")),
        (0, Pass()),
        (1, Pass()),
    )
    words = GAME.presentation
    names = ["France", "Britain"]
    # the winner's first pick: one of the loser's units, the General suggested
    tally = words.tally("casualties", g.legal_actions(1), g.view_for(1), names)
    assert tally is not None and tally.total == 1 and tally.noun == "casualties"
    assert [(t.label, t.suggested) for t in tally.groups if t.suggested] == [("General", 1)]
    assert words.tally("retreat", g.legal_actions(1), g.view_for(1), names) is None
    run(g, (1, Casualty(ref(french[0]))))
    # the loser's two: the weakest two suggested, each type holding its units
    tally = words.tally("casualties", g.legal_actions(0), g.view_for(0), names)
    assert tally is not None and tally.total == 2
    sizes = {t.label: len(t.actions) for t in tally.groups}
    assert sizes["Line Battalion"] == 6 and sizes["Hussars"] == 2, sizes
    weakest = sorted(french[1:], key=lambda u: keep_value(g, u))[:2]
    suggested = [a for t in tally.groups for a in t.actions[: t.suggested]]
    assert sorted(a.unit for a in suggested) == sorted(ref(u) for u in weakest)
    assert sum(t.suggested for t in tally.groups) == 2
