"""The decisions Europe at War answers by counts, as its presentation's ``tally`` gives
them to a panel, in every language: the chits to buy with their price and the cities to
place them in (EA-29), the units to disband with the engine's suggestion and an "at
least" total (EA-30), and the savings split with all in the capital (EA-28)."""

from __future__ import annotations

import pytest

from rules import i18n
from rules.europe_at_war import describe as D
from rules.europe_at_war import economy as E
from rules.europe_at_war.actions import Buy, Deposit, Disband, Done
from rules.europe_at_war.game import EaGame
from tests.rules.europe_at_war.scenario import add, keep, ref, run, table
from tests.rules.europe_at_war.test_economy import _recruit_step

WORDS = EaGame().presentation
NAMES = ["Ann", "Bob"]
CITY = {"en": "city", "de": "Stadt", "fr": "ville", "cs": "město"}
DISBAND = {
    "en": "units to disband",
    "de": "aufzulösende Einheiten",
    "fr": "unités à dissoudre",
    "cs": "jednotky k rozpuštění",
}


@pytest.mark.parametrize("language", i18n.LOCALES)
def test_recruits_are_chits_with_their_price_and_the_cities_to_place_them(
    language: str,
) -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    _recruit_step(g, "Old Guard", "Frigates", "Hussars")
    g.treasury[0] = 9
    with i18n.use(language):
        tally = WORDS.tally("recruit", g.legal_actions(0), g.view_for(0), NAMES)
        assert tally is not None
        names = [D.unit_word(g.kind(c).name) for c in g.drawn[0]]
        forces = [g.kind(c).force for c in g.drawn[0]]
        assert [x.label for x in tally.groups] == [
            f"{n} ({f} RP)" for n, f in zip(names, forces, strict=True)
        ]
        assert [x.cost for x in tally.groups] == forces
        assert tally.place_word == CITY[language]
        assert tally.places[0] == g.map.name("paris"), "the capital first"
        cities = E.home_cities(g, 0)
        assert sorted(tally.places) == sorted(g.map.name(c) for c in cities)
    assert (tally.total, tally.bound, tally.finish, tally.place) == (9, "at most", Done(), 0)
    ship = next(i for i, c in enumerate(g.drawn[0]) if g.kind(c).name == "Frigates")
    cities = sorted(E.home_cities(g, 0), key=lambda c: (c != "paris", c))
    by_city = dict(zip(cities, tally.groups[ship].placed, strict=True))
    assert by_city["paris"] == (), "a ship cannot go to an inland city"
    for city, acts in by_city.items():  # else to a sea zone touching the city
        assert all(a.at in g.map.territories[city].seas for a in acts), (city, acts)
    assert any(by_city.values())
    guard = tally.groups[0]
    assert guard.at(0) == (Buy(ref(g.drawn[0][0]), "paris"),)


@pytest.mark.parametrize("language", i18n.LOCALES)
def test_upkeep_counts_units_to_disband_from_the_suggestion(language: str) -> None:
    g = table("france", "austria")
    keep(g, 1)
    units = add(g, 0, "Reserves", "paris", 3)
    g.income = E.income(g, 0)
    g.treasury[0] = 2
    g.step = "upkeep"
    with i18n.use(language):
        tally = WORDS.tally("upkeep", g.legal_actions(0), g.view_for(0), NAMES)
        assert tally is not None
        assert tally.noun == DISBAND[language]
        assert [x.label for x in tally.groups] == [D.unit_word("Reserves")]
    assert (tally.total, tally.bound, tally.finish) == (1, "at least", Done())
    group = tally.groups[0]
    assert group.suggested == 1 and len(group.actions) == 3
    assert {a.unit for a in group.actions} == {ref(u) for u in units}
    assert group.actions[0] == Disband(ref(E.upkeep_suggestion(g, 0)[0])), "the suggested first"


def test_the_savings_start_all_in_the_capital() -> None:
    g = table("france", "austria")
    keep(g, 0, 1)
    g.treasury[0] = 12
    g.step = "upkeep"
    g.income = E.income(g, 0)
    run(g, (0, Done()))
    assert g.deciders()[0].kind == "deposit"
    left = g.treasury[0]
    tally = WORDS.tally("deposit", g.legal_actions(0), g.view_for(0), NAMES)
    assert tally is not None
    assert (tally.total, tally.bound, tally.finish) == (left, "exactly", None)
    capital = tally.groups[0]
    assert capital.label == g.map.name("paris") and capital.suggested == left
    assert capital.whole and capital.taken(5) == (Deposit("paris", 5),)
    assert all(x.suggested == 0 for x in tally.groups[1:])
