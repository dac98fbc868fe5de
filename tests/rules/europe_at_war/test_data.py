"""The data files are the package's own copies, validated on load: each check fires on a
copy broken in the one way it guards against."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from rules.errors import InvalidState
from rules.europe_at_war import data


def _territory(m: dict[str, Any], tid: str) -> dict[str, Any]:
    return next(t for t in m["territories"] if t["id"] == tid)


def _zone(m: dict[str, Any], zid: str) -> dict[str, Any]:
    return next(z for z in m["sea_zones"] if z["id"] == zid)


def _country(m: dict[str, Any], cid: str) -> dict[str, Any]:
    return next(c for c in m["countries"] if c["id"] == cid)


def _link(m: dict[str, Any], a: str, b: str) -> None:
    _territory(m, a)["adjacent"].append(b)
    _territory(m, b)["adjacent"].append(a)


def _unlink(m: dict[str, Any], a: str, b: str) -> None:
    _territory(m, a)["adjacent"].remove(b)
    _territory(m, b)["adjacent"].remove(a)


def _one_sided(m: dict[str, Any]) -> None:
    _territory(m, "paris")["adjacent"].append("madrid")


def _sea_one_sided(m: dict[str, Any]) -> None:
    _zone(m, "atlantic")["adjacent_seas"].remove("channel")


def _coast_one_sided(m: dict[str, Any]) -> None:
    _territory(m, "paris")["seas"].append("channel")


def _revenue(m: dict[str, Any]) -> None:
    _territory(m, "paris")["revenue"] = 4


def _table_link_missing(m: dict[str, Any]) -> None:
    """Cut every adjacency between Spain and Portugal, a link the table prints."""
    for t in m["territories"]:
        if t["country"] == "spain":
            for n in list(t["adjacent"]):
                if _territory(m, n)["country"] == "portugal":
                    _unlink(m, t["id"], n)


def _unlisted_border(m: dict[str, Any]) -> None:
    """France and Prussia touch, which the table does not give."""
    prussian = next(t["id"] for t in m["territories"] if t["country"] == "prussia")
    _link(m, "strasbourg", prussian)


def _england_border(m: dict[str, Any]) -> None:
    _link(m, "london", "lille")
    _country(m, "france")["printed_connections"] += ", England"


def _warsaw_coast(m: dict[str, Any]) -> None:
    warsaw = _country(m, "warsaw")["territories"][0]
    _territory(m, warsaw)["seas"].append("baltic")
    _zone(m, "baltic")["coasts"].append(warsaw)


def _switzerland_coast(m: dict[str, Any]) -> None:
    swiss = _country(m, "switzerland")["territories"][0]
    _territory(m, swiss)["seas"].append("western_med")
    _zone(m, "western_med")["coasts"].append(swiss)


def _few_territories(m: dict[str, Any]) -> None:
    """Portugal's last territory moves to Spain, leaving Portugal with 9."""
    tid = _country(m, "portugal")["territories"].pop()
    _territory(m, tid)["country"] = "spain"
    _country(m, "spain")["territories"].append(tid)


def _strait(m: dict[str, Any]) -> None:
    m["straits"].append({"a": "paris", "b": "madrid"})


def _two_capitals(m: dict[str, Any]) -> None:
    _territory(m, "lyon")["type"] = "capital"
    _territory(m, "lyon")["revenue"] = 5


MAP_BREAKS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "asymmetric adjacency": (_one_sided, "adjacency paris-madrid is not symmetric"),
    "asymmetric sea lane": (_sea_one_sided, "sea lane channel-atlantic is not symmetric"),
    "asymmetric coast": (_coast_one_sided, "coast paris-channel is not symmetric"),
    "revenue vs type": (_revenue, "paris: revenue 4 does not match its type capital"),
    "table link not realised": (_table_link_missing, "link portugal-spain is not realised"),
    "pair touching outside the table": (_unlisted_border, "touch .* but the table has no link"),
    "England with a land border": (_england_border, "England has a land border"),
    "Warsaw with a coast": (_warsaw_coast, "warsaw must have no coast"),
    "Switzerland with a coast": (_switzerland_coast, "switzerland must have no coast"),
    "fewer than 10 territories": (_few_territories, "portugal has 9 territories"),
    "strait that is no adjacency": (_strait, "strait paris-madrid is no adjacency"),
    "two capitals": (_two_capitals, "france must have exactly its one capital"),
}


def test_the_shipped_data_loads() -> None:
    m = data.game_map()
    assert (len(m.territories), len(m.seas), len(m.countries)) == (176, 8, 17)
    assert len(m.straits) == 8  # C12: Palermo-Tunis is the eighth
    compact = data.game_map(compact=True)
    assert compact.compact and len(compact.territories) == 129 and len(compact.straits) == 7
    sets = data.unit_sets()
    assert {k: sum(u.count for u in v) for k, v in sets.items()} == {
        "basic": 145,
        "france": 165,
        "britain": 165,
        "prussia": 139,
        "austria": 135,
        "russia": 152,
    }
    cards = data.deck()
    assert len(cards) == 228 and len({c.name for c in cards.values()}) == 228
    assert cards["demoralized"].effect.amount == -1  # EA-33: read as -1 to the enemy
    assert m.home("britain").id == "england"
    assert m.steps["london"] == m.territories["london"].adjacent + m.territories["london"].seas


@pytest.mark.parametrize("breakage", sorted(MAP_BREAKS))
def test_a_broken_map_is_refused(breakage: str) -> None:
    break_it, message = MAP_BREAKS[breakage]
    m = copy.deepcopy(data.raw("map"))
    data.parse_map(m)  # the intact copy passes
    break_it(m)
    with pytest.raises(data.DataError, match=message):
        data.parse_map(m)


def test_the_compact_map_may_have_small_countries_but_not_the_default() -> None:
    m = copy.deepcopy(data.raw("map_compact"))
    assert data.parse_map(m).compact
    m["meta"]["compact"] = False
    with pytest.raises(data.DataError, match="territories; each country has 10 or more"):
        data.parse_map(m)


def test_a_malformed_map_is_refused_not_crashed() -> None:
    m = copy.deepcopy(data.raw("map"))
    del m["sea_zones"]
    with pytest.raises(data.DataError, match="malformed map"):
        data.parse_map(m)
    assert issubclass(data.DataError, InvalidState)


def _row(u: dict[str, Any], set_id: str, name: str) -> dict[str, Any]:
    return next(r for r in u["sets"][set_id]["units"] if r["name"] == name)


def _count(u: dict[str, Any]) -> None:
    _row(u, "france", "Old Guard")["count"] = 6


def _by_type(u: dict[str, Any]) -> None:
    _row(u, "russia", "Cossacks")["type"] = "CH"
    _row(u, "russia", "Cossacks")["classes"] = ["all", "cavalry", "heavy_cavalry", "heavy"]


def _rows(u: dict[str, Any]) -> None:
    u["sets"]["austria"]["units"].pop()


def _cost(u: dict[str, Any]) -> None:
    _row(u, "britain", "Riflemen")["cost"] = 5


def _speed(u: dict[str, Any]) -> None:
    _row(u, "prussia", "Uhlans")["speed"] = 3


def _classes(u: dict[str, Any]) -> None:
    _row(u, "prussia", "Uhlans")["classes"].remove("lancer")


UNIT_BREAKS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "chit count vs rows": (_count, "france's rows hold 166 chits, not 165"),
    "count by type vs rows": (_by_type, "russia's chits by type do not match its rows"),
    "rows vs kinds": (_rows, "austria has 17 rows, not 18"),
    "cost vs Force": (_cost, "Riflemen\\) costs 5, not its Force"),
    "speed vs move code": (_speed, "has a bad speed"),
    "classes vs type": (_classes, "Uhlans\\) has classes"),
}


@pytest.mark.parametrize("breakage", sorted(UNIT_BREAKS))
def test_broken_unit_lists_are_refused(breakage: str) -> None:
    break_it, message = UNIT_BREAKS[breakage]
    u = copy.deepcopy(data.raw("units"))
    data.parse_units(u)
    break_it(u)
    with pytest.raises(data.DataError, match=message):
        data.parse_units(u)


def _card_row(c: dict[str, Any], name: str) -> dict[str, Any]:
    return next(r for r in c["cards"] if r["name"] == name)


def _missing(c: dict[str, Any]) -> None:
    c["cards"].pop()


def _duplicate_name(c: dict[str, Any]) -> None:
    _card_row(c, "Columns")["name"] = "Forced March"


def _duplicate_row(c: dict[str, Any]) -> None:
    c["cards"][-1] = copy.deepcopy(c["cards"][0])


def _unknown_effect(c: dict[str, Any]) -> None:
    _card_row(c, "Telescope")["effect"]["kind"] = "summon_dragon"


def _special(c: dict[str, Any]) -> None:
    c["meta"]["special_code"].remove("Capture Ship")


CARD_BREAKS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "227 cards": (_missing, "the deck has 227 cards, not 228"),
    "a name twice": (_duplicate_name, "card names are not distinct"),
    "a row twice": (_duplicate_row, "card ns are not distinct"),
    "an unimplemented effect": (_unknown_effect, "Telescope has unknown effect 'summon_dragon'"),
    "special-code list": (_special, "special-code cards are not EA-33"),
}


@pytest.mark.parametrize("breakage", sorted(CARD_BREAKS))
def test_a_broken_deck_is_refused(breakage: str) -> None:
    break_it, message = CARD_BREAKS[breakage]
    c = copy.deepcopy(data.raw("cards"))
    data.parse_cards(c)
    break_it(c)
    with pytest.raises(data.DataError, match=message):
        data.parse_cards(c)


def test_every_effect_kind_in_the_deck_is_implemented() -> None:
    kinds = {c.effect.kind for c in data.deck().values()}
    assert kinds == data.IMPLEMENTED_EFFECTS
    assert json.loads(json.dumps(data.raw("cards")))["cards"][0]["id"] == "tactical_move"
