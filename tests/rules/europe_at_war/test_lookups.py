"""The look-up commands (/map, /stack, /treasury, /card): what each shows, and that
they show a player only what his view holds."""

from __future__ import annotations

import pytest

from rules.errors import RulesError
from rules.europe_at_war.game import EaGame
from rules.europe_at_war.lookups import REGIONS
from rules.europe_at_war.view import view_for
from tests.rules.europe_at_war.scenario import add, table

WORDS = EaGame().presentation
NAMES = ["Ann", "Bob"]


def test_every_look_up_is_a_command_that_makes_no_action() -> None:
    looks = {c.name: c for c in WORDS.commands() if c.lookup}
    assert set(looks) == {"map", "stack", "treasury", "card"}
    assert all(not c.kinds for c in looks.values())
    region = looks["map"].option("region")
    assert region is not None and [c.word for c in region.choices] == [r for r, _ in REGIONS]


def test_map_names_the_image_of_a_region() -> None:
    view = view_for(table("france", "austria"), None)
    assert WORDS.look_up("map", {}, view, NAMES).image == "map_full"
    shown = WORDS.look_up("map", {"region": "iberia"}, view, NAMES)
    assert shown.image == "map_iberia" and shown.lines == ("The map: Iberia.",)
    assert WORDS.look_up("map", {"region": "Scand"}, view, NAMES).image == "map_scandinavia"
    with pytest.raises(RulesError, match="no region called 'mars'"):
        WORDS.look_up("map", {"region": "mars"}, view, NAMES)


def test_stack_shows_my_units_and_only_the_top_of_the_others() -> None:
    g = table("france", "austria")
    add(g, 0, "General", "paris")
    add(g, 0, "Line Battalion", "paris", 2)
    add(g, 1, "General", "vienna")
    add(g, 1, "Grenadiers", "vienna", 3)
    mine = WORDS.look_up("stack", {}, view_for(g, 0), NAMES).lines
    assert mine[0] == "Your stacks:" and any(
        line.startswith("Paris:") and "2 Line Battalion" in line for line in mine
    )
    there = WORDS.look_up("stack", {"at": "vienna"}, view_for(g, 0), NAMES).lines
    assert there[0] == "Vienna (held by Bob):"
    assert there[1] == "Bob: 4 units under General"  # not the Grenadiers
    assert "Grenadiers" in " ".join(
        WORDS.look_up("stack", {"at": "vien"}, view_for(g, 1), NAMES).lines
    )
    spectator = WORDS.look_up("stack", {}, view_for(g, None), NAMES).lines
    assert "/stack at:PLACE" in spectator[0]
    with pytest.raises(RulesError, match="no territory or sea zone called"):
        WORDS.look_up("stack", {"at": "atlantis"}, view_for(g, 0), NAMES)


def test_treasury_and_card() -> None:
    g = table("france", "austria")
    g.treasury[0] = 12
    g.deposits["paris"] = 7
    lines = WORDS.look_up("treasury", {}, view_for(g, None), NAMES).lines
    assert lines[0].startswith("Ann (France): 12 RP; deposits: Paris 7; territories worth ")
    card = WORDS.look_up("card", {"name": "bayonet"}, view_for(g, None), NAMES).lines
    assert card[0].startswith("**Bayonet Charge** (card ") and "in a battle" in card[1]
    with pytest.raises(RulesError, match="could be several"):
        WORDS.look_up("card", {"name": "s"}, view_for(g, None), NAMES)
    with pytest.raises(RulesError, match="no card called"):
        WORDS.look_up("card", {"name": "qwerty"}, view_for(g, None), NAMES)
    with pytest.raises(RulesError, match="no /teleport"):
        WORDS.look_up("teleport", {}, view_for(g, None), NAMES)
