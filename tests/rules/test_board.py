"""Boards are data: loaded from the package and validated."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from rules.errors import BoardError
from rules.pyramids.board import load_board, parse_board


def raw(board_id: str) -> dict:
    text = (
        resources.files("rules.pyramids").joinpath("boards", f"{board_id}.json").read_text("utf-8")
    )
    return json.loads(text)


def test_european_war_board_facts() -> None:
    b = load_board("european_war")
    assert len(b.fields) == 15 and len(b.powers) == 5
    assert all(len(p.fields) == 3 for p in b.powers.values())
    specials = {frozenset((lk.a, lk.b)) for lk in b.links if lk.kind == "special"}
    assert specials == {
        frozenset(p)
        for p in (
            ("britain", "france_benelux"),
            ("spain", "north_africa"),
            ("italy", "south_balkans"),
            ("germany", "south_scandinavia"),
        )
    }
    assert set(b.harbour_groups) == {"atlantic", "mediterranean"}
    assert b.sea_reach["austria"] == ()
    assert "italy" not in b.sea_reach["spain"]


def test_world_war_5_board_and_printed_variant() -> None:
    b = load_board("world_war_5")
    assert len(b.fields) == 18 and len(b.powers) == 6
    assert "northwest_africa" in b.adjacency["usa"]
    pa = load_board("world_war_5", True)
    assert "northwest_africa" not in pa.adjacency["usa"]
    assert "southwest_asia" in pa.adjacency["scandinavia"]


def test_names_resolve_to_ids() -> None:
    b = load_board("european_war")
    assert b.field_by_name("France + Benelux") == "france_benelux"
    assert b.field_by_name("north africa") == "north_africa"
    assert b.field_by_name("Narnia") is None
    assert b.power_by_name("ottoman") == "ottoman_empire"


@pytest.mark.parametrize(
    "breakage",
    ["asymmetric", "unknown_owner", "unknown_harbour", "self_loop", "links_mismatch"],
)
def test_invalid_boards_are_rejected(breakage: str) -> None:
    d = copy.deepcopy(raw("european_war"))
    fields = {f["id"]: f for f in d["fields"]}
    if breakage == "asymmetric":
        fields["britain"]["neighbours"].append("italy")
    elif breakage == "unknown_owner":
        fields["britain"]["owner"] = "atlantis"
    elif breakage == "unknown_harbour":
        fields["britain"]["harbour"] = "pacific"
    elif breakage == "self_loop":
        fields["britain"]["neighbours"].append("britain")
    else:
        d["links"].pop()
    with pytest.raises(BoardError):
        parse_board("european_war", d)


def test_unknown_board_id() -> None:
    with pytest.raises(BoardError):
        load_board("middle_earth")
