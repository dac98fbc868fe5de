"""The board image: every position of random playouts renders; nothing private is drawn;
pieces stand where the view says, in their side's colour and at three distinct sizes."""

from __future__ import annotations

import dataclasses
import hashlib
import threading

import pytest
from PIL import Image

import render
import rules
from render.encode import mapped_colour
from render.pyramids import layout, palette, pyramid
from render.pyramids.png_palette import board_palette
from render.pyramids.static_layer import static_board
from rules import pyramids
from tests.render.helpers import NAMES, decode, ev, made_up_view, playout_positions

PLAYOUTS = [
    ("european_war", 4, 1),
    ("european_war", 4, 2),
    ("european_war", 3, 3),
    ("european_war", 2, 4),
    ("european_war", 5, 5),
    ("european_war", 4, 6),
    ("european_war", 3, 7),
    ("european_war", 4, 8),
    ("world_war_5", 4, 1),
    ("world_war_5", 2, 2),
    ("world_war_5", 3, 3),
    ("world_war_5", 6, 4),
    ("world_war_5", 5, 5),
    ("world_war_5", 4, 6),
    ("world_war_5", 3, 7),
    ("world_war_5", 4, 8),
]
"""(variant, players, seed): eight games of each variant, every 5th position rendered."""


def _box(board_id: str, field: str) -> tuple[int, int, int, int]:
    f = pyramids.load_board(board_id).fields[field]
    left, top, right, bottom = layout.piece_box(f.x, f.y)
    return (round(left), round(top), round(right), round(bottom))


def _anchor(board_id: str, field: str) -> tuple[float, float]:
    f = pyramids.load_board(board_id).fields[field]
    return layout.to_px(f.x, f.y)


def _count(
    img: Image.Image,
    box: tuple[int, int, int, int],
    colour: palette.RGB,
    board_id: str = "european_war",
) -> int:
    """Pixels of ``colour`` (as the board's PNG palette maps it) inside ``box``."""
    colour = mapped_colour(colour, board_palette(board_id))
    crop = img.crop(box)
    return sum(1 for px in crop.get_flattened_data() if px == colour)


@pytest.mark.parametrize(("variant", "players", "seed"), PLAYOUTS)
def test_every_position_of_random_playouts_renders(variant: str, players: int, seed: int) -> None:
    renders = 0
    for game, events in playout_positions(variant, players, seed):
        view = pyramids.view_for(game, None)
        data = render.pyramids.board_png(view, NAMES, events)
        img = decode(data)
        assert img.size == layout.BOARD_SIZE
        assert len(data) <= render.pyramids.BOARD_MAX_BYTES
        text = render.pyramids.board_summary(view, NAMES)
        assert 0 < len(text) <= 1024
        renders += 1
    assert renders >= 3


def _positions_with_secrets() -> list[tuple[pyramids.GameState, list[rules.Event]]]:
    """Positions where hands differ and private events exist (duels, spying, drawing)."""
    found: list[tuple[pyramids.GameState, list[rules.Event]]] = []
    kinds_wanted = [{"duel_card"}, {"spy_result"}, {"cards_received"}, {"retreated"}, {"game_over"}]
    for seed in range(1, 60):
        for game, events in playout_positions("european_war", 4, seed, every=1):
            kinds = {e.kind for e in events}
            for wanted in list(kinds_wanted):
                if wanted <= kinds:
                    found.append((game.copy(), list(events)))
                    kinds_wanted.remove(wanted)
        if not kinds_wanted:
            break
    assert not kinds_wanted, kinds_wanted
    return found


def test_the_board_is_the_same_from_every_seat_and_ignores_private_events() -> None:
    positions = _positions_with_secrets()
    assert sum(1 for _, events in positions if any(e.to is not None for e in events)) >= 2
    for game, events in positions:
        public = [e for e in events if e.to is None]
        reference = render.pyramids.board_png(pyramids.view_for(game, None), NAMES, public)
        for seat in [None, *range(len(game.seats))]:
            view = pyramids.view_for(game, seat)
            assert render.pyramids.board_png(view, NAMES, events) == reference, seat
            assert render.pyramids.board_summary(view, NAMES) == render.pyramids.board_summary(
                pyramids.view_for(game, None), NAMES
            )


def test_each_piece_shows_its_sides_colour_on_its_field() -> None:
    checked = 0
    for variant, players, seed in PLAYOUTS[::3]:
        for game, _events in playout_positions(variant, players, seed, every=9):
            view = pyramids.view_for(game, None)
            if view.battle is not None:
                continue  # its arrow, in the attacker's colour, may pass any box
            img = decode(render.pyramids.board_png(view, NAMES))
            for field, (seat, size) in view.pieces.items():
                own = palette.side_colour(view.seats[seat].power).fill
                box = _box(view.board_id, field)
                # at least a third of the lit face
                w, h = pyramid.PYRAMID_SIZE[size]
                mine = _count(img, box, own, view.board_id)
                assert mine >= w * h * 0.55 / 2 / 3, (field, seat, size)
                for other in view.seats:
                    if other.seat != seat:
                        # (a few edge pixels may blend into another side's colour)
                        theirs = palette.side_colour(other.power).fill
                        assert _count(img, box, theirs, view.board_id) < mine / 4
                checked += 1
    assert checked > 100


def test_a_sides_colour_does_not_depend_on_its_seat() -> None:
    """France's pieces are France's colour whether France sits first or third."""
    france = palette.side_colour("france_allies").fill
    for powers in (
        ["france_allies", "britain_allies", "central_powers"],
        ["central_powers", "britain_allies", "france_allies"],
    ):
        game, _ = pyramids.new_game("european_war", list(powers), seed=3, arranged=True)
        seat = powers.index("france_allies")
        view = dataclasses.replace(
            pyramids.view_for(game, None), pieces={"italy": (seat, 3)}, phase="turn"
        )
        img = decode(render.pyramids.board_png(view, NAMES))
        assert _count(img, _box("european_war", "italy"), france) > 300, powers
        # and the seat's row on the panel shows the same colour as its key
        panel = (layout.PANEL_BOX[0], 0, layout.BOARD_SIZE[0], layout.BOARD_SIZE[1])
        assert _count(img, panel, france) > 100, powers


def test_three_sizes_are_clearly_different() -> None:
    fields = ["france_benelux", "hungary", "anatolia"]
    view = made_up_view(
        "european_war", {f: (0, size) for f, size in zip(fields, (1, 2, 3), strict=True)}
    )
    img = decode(render.pyramids.board_png(view, NAMES))
    heights = []
    for field in fields:
        crop = img.crop(_box("european_war", field))
        colour = mapped_colour(
            palette.side_colour(view.seats[0].power).fill, board_palette("european_war")
        )
        rows = [
            y
            for y in range(crop.height)
            if any(crop.getpixel((x, y)) == colour for x in range(crop.width))
        ]
        heights.append(max(rows) - min(rows))
    assert heights[0] + 10 < heights[1] and heights[1] + 10 < heights[2], heights
    assert heights[2] <= layout.PIECE_HEIGHT


def test_last_action_marks_and_arrows_are_drawn_from_public_events_only() -> None:
    pieces = {"germany": (0, 3), "austria": (1, 2), "hungary": (2, 1)}
    view = made_up_view("european_war", pieces)
    plain = decode(render.pyramids.board_png(view, NAMES))
    events = [ev("moved", seat=0, src="france_benelux", dst="germany", size=3, by_sea=False)]
    with_arrow = decode(render.pyramids.board_png(view, NAMES, events))
    secret = [rules.Event("moved", events[0].data, to=1)]
    assert decode(render.pyramids.board_png(view, NAMES, secret)).tobytes() == plain.tobytes()
    # the arrow lies between France + Benelux and Germany, in the mover's colour
    a, b = _anchor("european_war", "france_benelux"), _anchor("european_war", "germany")
    mid = (round((a[0] + b[0]) / 2) - 30, round((a[1] + b[1]) / 2) - 30)
    box = (mid[0], mid[1], mid[0] + 60, mid[1] + 60)
    colour = palette.side_colour(view.seats[0].power).fill
    assert _count(with_arrow, box, colour) > 40 > _count(plain, box, colour)
    # a destroyed piece leaves a red cross on its empty field
    crossed = decode(
        render.pyramids.board_png(view, NAMES, [ev("destroyed", seat=2, field="italy", size=2)])
    )
    italy = _box("european_war", "italy")
    assert _count(crossed, italy, palette.ALERT) > 50 > _count(plain, italy, palette.ALERT)


def test_game_over_banner_and_long_or_odd_names() -> None:
    view = made_up_view(
        "european_war", {"germany": (0, 3)}, over=True, winners=(0, 2), phase="over", deciders=()
    )
    names = ["x" * 300, "中文", "", "Ωmega"]  # CJK: not in DejaVu Sans, so "Seat 2"
    img = decode(render.pyramids.board_png(view, names))
    gold = _count(img, (0, 0, layout.MAP_WIDTH, layout.MAP_HEIGHT), palette.GOLD)
    assert gold > 500  # the banner's frame and title
    text = render.pyramids.board_summary(view, names)
    assert "Seat 2" in text and "Seat 3" in text and "中" not in text and len(text) <= 1024


def test_world_war_5_panel_shows_dice_and_eliminated_seats() -> None:
    roll = {
        "attacker": 1,
        "defender": 2,
        "src": "usa",
        "dst": "canada",
        "attacker_dice": [6, 5, 1],
        "defender_dice": [4, 4],
        "attacker_won": True,
    }
    view = made_up_view("world_war_5", {"canada": (1, 3), "usa": (0, 1)}, last_roll=roll)
    seats = tuple(dataclasses.replace(s, eliminated=s.seat == 3) for s in view.seats)
    view = dataclasses.replace(view, seats=seats)
    img = decode(render.pyramids.board_png(view, NAMES))
    panel = img.crop(layout.PANEL_BOX)
    face = mapped_colour(palette.DIE_FACE, board_palette("world_war_5"))
    dice = sum(1 for px in panel.get_flattened_data() if px == face)
    assert dice > 5 * 200  # five dice faces of ~24x24
    assert "eliminated" in render.pyramids.board_summary(view, NAMES)


def test_rendering_is_thread_safe_and_leaves_the_static_layer_alone() -> None:
    views = []
    for game, events in playout_positions("european_war", 4, 3, every=7):
        views.append((pyramids.view_for(game, None), events))
        if len(views) == 6:
            break
    before = hashlib.sha256(static_board("european_war").tobytes()).hexdigest()
    expected = [render.pyramids.board_png(v, NAMES, e) for v, e in views]
    results: dict[tuple[int, int], bytes] = {}

    def work(worker: int) -> None:
        for i, (v, e) in enumerate(views):
            results[(worker, i)] = render.pyramids.board_png(v, NAMES, e)

    threads = [threading.Thread(target=work, args=(w,)) for w in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for (_, i), data in results.items():
        assert data == expected[i]
    assert hashlib.sha256(static_board("european_war").tobytes()).hexdigest() == before


def test_pyramid_arcade_board_and_option() -> None:
    pieces = {"scandinavia": (0, 2), "southwest_asia": (1, 2)}
    plain = made_up_view("world_war_5", pieces)
    arcade_view = dataclasses.replace(plain, options={**plain.options, "pyramid_arcade": True})
    from_option = render.pyramids.board_png(arcade_view, NAMES)
    assert from_option == render.pyramids.board_png(plain, NAMES, pyramid_arcade=True)
    assert from_option != render.pyramids.board_png(plain, NAMES)  # other sea lanes are drawn
    ew = made_up_view("european_war", {"germany": (0, 3)})
    assert render.pyramids.board_png(ew, NAMES, pyramid_arcade=True) == render.pyramids.board_png(
        ew, NAMES
    )


def test_a_cached_arrow_draws_what_a_fresh_one_draws_in_each_sides_colour() -> None:
    """Arrows keep their masks per process: a repeated arrow (any side) is the same
    pixels as one drawn with nothing cached."""
    from render import arrows

    a, b = _anchor("european_war", "britain"), _anchor("european_war", "south_scandinavia")
    canvases = []
    for cached in (False, True):
        if not cached:
            arrows._layers.cache_clear()
        for side, kind in (
            ("britain_allies", "sea"),
            ("russian_empire", "sea"),
            ("france_allies", "attack"),
        ):
            canvas = static_board("european_war").copy()
            colour = palette.side_colour(side)
            arrows.draw_arrow(canvas, arrows.Arrow(kind, colour, a, b), layout.MAP_BOX)
            canvases.append(canvas.tobytes())
    assert canvases[:3] == canvases[3:]
    assert canvases[0] != canvases[1]  # the same masks, painted in another side's colour
    assert arrows._layers.cache_info().hits >= 3
