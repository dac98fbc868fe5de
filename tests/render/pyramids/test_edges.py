"""World War 5's links across the map's edge: each half is tagged with where it goes."""

from __future__ import annotations

import itertools

import pytest

from render import arrows
from render.pyramids import edges, layout, palette
from render.pyramids.board import last_action
from render.pyramids.static_layer import _links, edge_links, name_labels, static_board
from rules import pyramids
from tests.render.helpers import ev, made_up_view


def _wrapping(arcade: bool) -> set[frozenset[str]]:
    b = pyramids.load_board("world_war_5", arcade)
    return {frozenset((lk.a, lk.b)) for lk in b.links if lk.wraps_map_edge}


@pytest.mark.parametrize("arcade", [False, True])
def test_every_link_across_the_edge_has_a_tag_at_each_end_naming_the_other(
    arcade: bool, locale: str
) -> None:
    b = pyramids.load_board("world_war_5", arcade)
    links = edge_links("world_war_5", arcade)
    assert {frozenset((e.west, e.east)) for e in links} == _wrapping(arcade)
    assert len(links) == 8
    for e in links:
        assert e.west_tag.text in edges.tag_forms(b.fields[e.east])
        assert e.east_tag.text in edges.tag_forms(b.fields[e.west])
        assert e.west_tag.box[0] <= 1.0  # at the west edge
        assert e.east_tag.box[2] >= layout.MAP_WIDTH - 1.0  # at the east edge
        for tag in (e.west_tag, e.east_tag):
            assert tag.box[1] >= 0 and tag.box[3] <= layout.MAP_HEIGHT
    assert edge_links("european_war") == ()


def test_tag_words_abbreviate_only_a_leading_compass_word() -> None:
    assert edges.tag_texts("Southern South America") == (
        "Southern South America",
        "S. South America",
    )
    assert edges.tag_texts("Southwest Australia")[-1] == "SW Australia"
    assert edges.tag_texts("USA") == ("USA",)


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_tags_keep_clear_of_each_other_the_pieces_and_the_names(locale: str) -> None:
    b = pyramids.load_board("world_war_5")
    tags = [t for e in edge_links("world_war_5") for t in (e.west_tag, e.east_tag)]
    for a, c in itertools.combinations(tags, 2):
        assert not _overlap(a.box, c.box), (a.text, c.text)
    for tag in tags:
        for f in b.fields.values():
            assert not _overlap(tag.box, layout.piece_box(f.x, f.y)), (tag.text, f.id)
        for lab in name_labels("world_war_5"):
            assert not _overlap(tag.box, lab.box), (tag.text, lab.key)


def test_each_half_runs_into_its_own_tag_and_no_two_halves_of_two_fields_cross(
    locale: str,
) -> None:
    b = pyramids.load_board("world_war_5")
    halves: list[tuple[str, edges.Segment, edges.EdgeTag]] = []
    for e in edge_links("world_war_5"):
        for fid, tag, edge_x in ((e.west, e.west_tag, 0.0), (e.east, e.east_tag, 960.0)):
            f = b.fields[fid]
            halves.append((fid, (layout.to_px(f.x, f.y), (edge_x, tag.centre_y)), tag))
    drawn = _links("world_war_5", False)
    for _fid, (_start, end), _tag in halves:
        assert any(line[-1] == pytest.approx(end) for line in drawn), end
    for (fa, sa, ta), (fb, sb, tb) in itertools.combinations(halves, 2):
        if fa == fb:
            continue  # one field's halves meet at its anchor and lead to one place
        assert not edges._cross(sa, sb), (fa, fb)
        assert not edges._hits(sa, tb.box), (fa, tb.text)
        assert not edges._hits(sb, ta.box), (fb, ta.text)


def test_tags_are_drawn_on_the_static_layer() -> None:
    static = static_board("world_war_5")
    for e in edge_links("world_war_5"):
        for tag in (e.west_tag, e.east_tag):
            left, top, right, bottom = (round(v) for v in tag.box)
            crop = static.crop((left, top, right, bottom))
            pixels: list[tuple[int, int, int]] = list(crop.get_flattened_data())  # type: ignore[arg-type]  # an RGB image's pixels
            assert sum(1 for px in pixels if px == palette.WHITE) > len(pixels) // 3
            assert any(max(px) < 120 for px in pixels)  # its dark words


def test_a_move_across_the_edge_is_drawn_along_the_tagged_halves() -> None:
    view = made_up_view("world_war_5", {"east_asia": (0, 3)})
    act = last_action(
        view,
        [ev("moved", seat=0, src="alaska", dst="east_asia", size=3, by_sea=False)],
        pyramids.load_board("world_war_5"),
    )
    (arrow,) = act.arrows
    link = next(e for e in edge_links("world_war_5") if {e.west, e.east} == {"alaska", "east_asia"})
    assert arrow.wraps and arrow.exits == (link.west_tag.centre_y, link.east_tag.centre_y)
    out, back = arrows.path(arrow, layout.MAP_BOX)
    assert out[-1] == pytest.approx((0.0, link.west_tag.centre_y))
    assert back[0] == pytest.approx((960.0, link.east_tag.centre_y))
