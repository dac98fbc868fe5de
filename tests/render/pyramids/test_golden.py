"""Golden images: a few fixed positions must keep looking the same.

Each image is compared with its reference in ``tests/render/pyramids/golden/`` after decoding
both to RGB: the mean absolute difference per channel must stay below
``MAX_MEAN_DIFF``, fewer than ``MAX_CHANGED_SHARE`` of the pixels may differ by more
than ``CHANGED_THRESHOLD`` in some channel, and no 32x32 tile may have more than
``MAX_TILE_SHARE`` of its pixels changed (small font-rendering or palette shifts pass;
a moved piece, a missing arrow or a changed layout does not).

The positions are made up (pieces, events and views built directly), so they do not
change when the engine's random play changes. After an intended change of the images,
refresh the references on purpose and look at them before committing::

    REFRESH_GOLDENS=1 .venv/bin/python -m pytest tests/render/pyramids/test_golden.py

A failing comparison writes the new image next to the reference as ``*.actual.png``
(ignored by git) so both can be looked at.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops

import render
import rules
from rules import pyramids
from tests.render.helpers import NAMES, decode, ev, made_up_view

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
REFRESH = os.environ.get("REFRESH_GOLDENS") == "1"

MAX_MEAN_DIFF = 1.0
CHANGED_THRESHOLD = 40
MAX_CHANGED_SHARE = 0.005
TILE = 32
MAX_TILE_SHARE = 0.2
"""Changes must also be scattered: no 32x32 tile may have a fifth of its pixels changed
(on a 1280x800 board a moved piece is only ~0.2% of all pixels, but most of one tile)."""


def _ew_mid_game() -> bytes:
    pieces = {
        "britain": (0, 3),
        "france_benelux": (0, 1),
        "spain": (1, 2),
        "italy": (1, 3),
        "germany": (2, 3),
        "austria": (2, 2),
        "south_balkans": (3, 1),
        "west_russia": (3, 3),
        "south_russia": (3, 2),
        "north_africa": (1, 1),
    }
    view = made_up_view(
        "european_war",
        pieces,
        current=2,
        turn=17,
        round=5,
        deciders=(rules.Decision(2, "turn"),),
        pile_size=23,
        discard=(8, 21, 47),
    )
    events = [
        ev(
            "attack_declared",
            seat=2,
            defender=3,
            src="germany",
            dst="austria",
            size=3,
            defender_size=2,
        ),
        ev("retreated", seat=3, src="austria", dst="hungary", auto=False),
        ev("moved", seat=0, src="south_scandinavia", dst="britain", size=3, by_sea=True),
        ev("shrunk", seat=3, field="south_balkans", from_size=2, to_size=1),
        ev("destroyed", seat=1, field="middle_east", size=1),
        rules.Event("cards_received", {"seat": 0, "cards": [1, 2]}, to=0),
    ]
    pieces_after = dict(pieces)
    pieces_after["hungary"] = pieces_after.pop("austria")
    pieces_after["austria"] = pieces_after.pop("germany")
    view = dataclasses.replace(view, pieces=pieces_after)
    return render.pyramids.board_png(view, NAMES[:4], events)


def _ww_end() -> bytes:
    pieces = {
        "alaska": (0, 3),
        "canada": (0, 2),
        "usa": (0, 1),
        "scandinavia": (0, 2),
        "western_europe": (0, 1),
        "southern_europe": (1, 3),
        "north_asia": (2, 2),
        "east_asia": (3, 1),
    }
    roll = {
        "attacker": 0,
        "defender": 1,
        "src": "western_europe",
        "dst": "scandinavia",
        "attacker_dice": [6, 4],
        "defender_dice": [3, 2, 2],
        "attacker_won": True,
    }
    view = made_up_view(
        "world_war_5",
        pieces,
        over=True,
        winners=(0,),
        phase="over",
        deciders=(),
        last_roll=roll,
        end_reason="occupation",
        turn=31,
    )
    seats = tuple(dataclasses.replace(s, eliminated=s.seat == 3) for s in view.seats)
    view = dataclasses.replace(view, seats=seats)
    return render.pyramids.board_png(
        view, NAMES, [ev("moved_in", seat=0, src="western_europe", dst="scandinavia")]
    )


def _hand() -> bytes:
    names = ("2♣", "7♥", "10♦", "J♠", "Q♥", "K♣", "A♦", "5♠", "9♥")
    return render.pyramids.hand_png(
        [pyramids.cards.parse_card(n) for n in names], title="Ada's hand"
    )


def _duel() -> bytes:
    battle = pyramids.BattleView(
        stage="duel",
        attacker=0,
        defender=2,
        src="britain",
        dst="france_benelux",
        attacker_size=3,
        defender_size=2,
        attacker_cards=(36, 17),
        defender_cards=(30,),
        attacker_limit=3,
        defender_limit=2,
        attacker_total=8,
        defender_total=9,
        attacker_done=False,
        defender_done=False,
        to_play=2,
        waiting_for=(),
        retreat_options=(),
    )
    view = made_up_view(
        "european_war", {"britain": (0, 3), "france_benelux": (2, 2)}, phase="duel", battle=battle
    )
    return render.pyramids.duel_png(view, NAMES)


CASES: dict[str, Callable[[], bytes]] = {
    "board_european_war_mid_game": _ew_mid_game,
    "board_world_war_5_end": _ww_end,
    "hand": _hand,
    "duel": _duel,
}


def _differences(actual: Image.Image, expected: Image.Image) -> tuple[float, float, float]:
    """Mean absolute difference per channel, the share of changed pixels (largest channel
    difference over ``CHANGED_THRESHOLD``), and the largest such share in one tile."""
    diff = ImageChops.difference(actual, expected)
    pixels = actual.width * actual.height
    hist = diff.histogram()  # 256 bins per channel
    total = sum(i * n for k in range(3) for i, n in enumerate(hist[256 * k : 256 * k + 256]))
    mean = total / (pixels * 3)
    r, g, b = diff.split()
    changed = ImageChops.lighter(ImageChops.lighter(r, g), b).point(
        lambda v: 255 if v > CHANGED_THRESHOLD else 0
    )
    share = changed.histogram()[255] / pixels
    worst = 0.0
    for top in range(0, actual.height, TILE):
        for left in range(0, actual.width, TILE):
            tile = changed.crop((left, top, left + TILE, top + TILE))
            worst = max(worst, tile.histogram()[255] / (TILE * TILE))
    return mean, share, worst


@pytest.mark.parametrize("name", sorted(CASES))
def test_image_matches_its_golden_reference(name: str) -> None:
    data = CASES[name]()
    path = GOLDEN_DIR / f"{name}.png"
    if REFRESH:
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_bytes(data)
        pytest.skip(f"refreshed {path.name}")
    assert path.exists(), f"no reference {path.name}: run with REFRESH_GOLDENS=1"
    actual = decode(data)
    expected = decode(path.read_bytes())
    assert actual.size == expected.size
    mean, share, worst = _differences(actual, expected)
    if mean >= MAX_MEAN_DIFF or share >= MAX_CHANGED_SHARE or worst >= MAX_TILE_SHARE:
        path.with_suffix(".actual.png").write_bytes(data)
    assert mean < MAX_MEAN_DIFF, f"{name}: mean difference {mean:.2f}"
    assert share < MAX_CHANGED_SHARE, f"{name}: {share:.2%} of pixels changed"
    assert worst < MAX_TILE_SHARE, f"{name}: {worst:.0%} of one tile changed"


def test_the_comparison_catches_a_moved_piece() -> None:
    """The tolerance is loose enough for noise, tight enough for a real change."""
    pieces = {"germany": (0, 3), "austria": (1, 2)}
    base = decode(render.pyramids.board_png(made_up_view("european_war", pieces), NAMES))
    moved = decode(
        render.pyramids.board_png(
            made_up_view("european_war", {"germany": (0, 3), "hungary": (1, 2)}), NAMES
        )
    )
    mean, share, worst = _differences(moved, base)
    assert mean < MAX_MEAN_DIFF and share < MAX_CHANGED_SHARE  # too small for these two
    assert worst >= MAX_TILE_SHARE  # but not for the tile check
    assert _differences(base, base) == (0.0, 0.0, 0.0)
