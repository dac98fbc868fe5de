"""/rules reads RULES.md: every ruling is found by number, title or word."""

from __future__ import annotations

from service import rulebook


def test_every_ruling_of_every_game_is_there() -> None:
    numbers = [n for s in rulebook.sections() for n in s.rulings]
    assert numbers == (
        [f"EW-{i}" for i in range(1, 26)]
        + [f"WW-{i}" for i in range(1, 7)]
        + [f"EA-{i}" for i in range(1, 37)]
    )
    ea20 = rulebook.lookup("EA-20", "europe_at_war")
    assert ea20.startswith("**EA-20** (Europe at War) Total = ")
    assert rulebook.lookup("20", "europe_at_war") == ea20


def test_lookup_by_number_title_and_word() -> None:
    assert rulebook.lookup("ew-19").startswith("**EW-19** (After a won attack) The defender")
    assert "**EW-16**" in rulebook.lookup("Duel") and "**EW-18**" in rulebook.lookup("Duel")
    assert "**EW-9**" in rulebook.lookup("sabotage")
    assert "No rule matches" in rulebook.lookup("quidditch")


def test_a_ruling_by_number_as_people_type_it() -> None:
    ew13 = rulebook.lookup("EW-13", "european_war")
    assert ew13.startswith("**EW-13** (Diplomacy (K)) After an attack is declared")
    for typed in ("13", "ew13", "ew 13", "Ew_13", " 13 "):
        assert rulebook.lookup(typed, "european_war") == ew13, typed
    ww3 = rulebook.lookup("ww-3", "european_war")  # a prefix finds it in any game
    assert ww3.startswith("**WW-3** ") and "six-sided die" in ww3
    assert rulebook.lookup("3", "world_war_5") == ww3
    assert rulebook.lookup("13", "world_war_5") == (
        "World War 5 has no ruling 13: its rulings are WW-1 to WW-6."
    )
    assert rulebook.lookup("26", "european_war") == (
        "European War has no ruling 26: its rulings are EW-1 to EW-25."
    )


def test_sections_per_variant_and_continuation_lines() -> None:
    assert "World War 5" not in rulebook.lookup(None, "european_war")
    assert "WW-2" in rulebook.lookup(None, "world_war_5")
    assert "Armament" in rulebook.lookup("EW-11")  # a nested bullet of EW-11
    assert all(len(t) <= 100 for t in rulebook.topics())
