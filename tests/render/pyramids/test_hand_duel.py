"""Hand and duel images: valid PNGs of the expected size, every card drawn where the
layout puts it, sensible order, duel slots filled as the cards are played."""

from __future__ import annotations

import dataclasses
import random

import pytest
from PIL import Image

import render
from render.encode import mapped_colour
from render.pyramids import palette
from render.pyramids.cards import CARD_HEIGHT, CARD_WIDTH, sort_key
from render.pyramids.duel import CARDS_TOP, COLUMN_WIDTH, COLUMNS, SIZE, SLOT_STEP
from render.pyramids.hand import PER_ROW, hand_layout, ordered
from render.pyramids.png_palette import duel_palette, hand_palette
from rules import pyramids
from tests.render.helpers import NAMES, decode, ev, made_up_view

C = pyramids.cards


def _face(pal: Image.Image) -> palette.RGB:
    """The card colour as it comes out of the PNG palette."""
    return mapped_colour(palette.CARD_FACE, pal)


def _is_card(img: Image.Image, left: int, top: int, face: palette.RGB) -> bool:
    """A card face at ``(left, top)``: blank spots of its margin have the card colour."""
    probes = [
        (left + CARD_WIDTH - 8, top + CARD_HEIGHT // 2),
        (left + CARD_WIDTH - 8, top + 40),
        (left + 10, top + CARD_HEIGHT - 14),
    ]
    return all(img.getpixel(p) == face for p in probes)


def _cards_shown(img: Image.Image, boxes: list[tuple[int, int, int, int]]) -> int:
    return sum(1 for (x, y, _r, _b) in boxes if _is_card(img, x, y, _face(hand_palette())))


@pytest.mark.parametrize("count", [0, 1, 5, 8, 9, 17, 52])
def test_hand_draws_every_card_at_its_place(count: int) -> None:
    cards = list(range(51, 51 - count, -1))
    img = decode(render.pyramids.hand_png(cards, title="Ada's hand"))
    size, boxes = hand_layout(count, title=True)
    assert img.size == size
    assert _cards_shown(img, boxes) == count
    # one more slot, where a next card would go, holds no card
    cols = count % PER_ROW
    if 0 < count < 52 and cols:
        x = boxes[-1][2] + (boxes[1][0] - boxes[0][2] if count > 1 else 10)
        if x + CARD_WIDTH <= img.width:
            assert not _is_card(img, x, boxes[-1][1], _face(hand_palette()))


def test_hand_without_title_and_empty_hand() -> None:
    img = decode(render.pyramids.hand_png([7, 3]))
    assert img.size == hand_layout(2)[0]
    empty = decode(render.pyramids.hand_png([]))
    assert empty.size == hand_layout(0)[0]
    assert _cards_shown(empty, [(16, 16, 0, 0)]) == 0


def test_hand_order_numbers_by_rank_then_figures() -> None:
    names = ["A♠", "2♥", "K♣", "10♦", "J♥", "2♣", "Q♠", "9♠"]
    hand = ordered([C.parse_card(n) for n in names])
    assert [C.card_name(c) for c in hand] == ["2♣", "2♥", "9♠", "10♦", "J♥", "Q♠", "K♣", "A♠"]
    assert sorted(range(52), key=sort_key) == list(range(52))


def test_hand_rejects_a_non_card() -> None:
    with pytest.raises(ValueError):
        render.pyramids.hand_png([52])


@pytest.mark.parametrize("side", pyramids.load_board("european_war").power_order)
def test_a_hand_carries_its_powers_colour(side: str) -> None:
    """Across the top, the power's colour exactly (as its pieces have it on the board),
    and one of its pieces before the title; a hand without a side has neither."""
    cards = [C.parse_card(n) for n in ("7♥", "K♠")]
    img = decode(render.pyramids.hand_png(cards, title="Your hand", side=side))
    plain = decode(render.pyramids.hand_png(cards, title="Your hand"))
    assert img.size == plain.size
    fill = palette.side_colour(side).fill
    assert mapped_colour(fill, hand_palette()) == fill
    assert {img.getpixel((x, 1)) for x in range(img.width)} == {fill}
    assert fill not in {plain.getpixel((x, 1)) for x in range(plain.width)}
    piece = [img.getpixel((x, y)) for x in range(8, 40) for y in range(8, 44)]
    assert piece.count(fill) > 40
    assert fill not in [plain.getpixel((x, y)) for x in range(8, 40) for y in range(8, 44)]
    _, boxes = hand_layout(2, title=True)
    assert _cards_shown(img, boxes) == 2


def test_figures_have_their_power_band() -> None:
    cards = [C.parse_card(n) for n in ("J♣", "Q♦", "K♥", "A♠")]
    img = decode(render.pyramids.hand_png(cards))
    _, boxes = hand_layout(4)
    for card, (x, y, _r, _b) in zip(cards, boxes, strict=True):
        band = mapped_colour(palette.FIGURE_BANDS[C.rank(card)], hand_palette())
        row = [img.getpixel((x + dx, y + 108)) for dx in range(4, CARD_WIDTH - 4)]
        assert row.count(band) > CARD_WIDTH // 2, C.card_name(card)


def _battle(
    stage: str,
    a_cards: tuple[int, ...],
    d_cards: tuple[int, ...],
    a_size: int = 3,
    d_size: int = 2,
    to_play: int | None = 0,
) -> pyramids.BattleView:
    value = sum(C.duel_value(c) for c in a_cards), sum(C.duel_value(c) for c in d_cards)
    return pyramids.BattleView(
        stage=stage,
        attacker=0,
        defender=1,
        src="germany",
        dst="austria",
        attacker_size=a_size,
        defender_size=d_size,
        attacker_cards=a_cards,
        defender_cards=d_cards,
        attacker_limit=a_size,
        defender_limit=d_size,
        attacker_total=value[0],
        defender_total=value[1],
        attacker_done=False,
        defender_done=False,
        to_play=to_play,
        waiting_for=(2,) if stage == "diplomacy" else (),
        retreat_options=(),
    )


def _slots(img: Image.Image, column: int, slots: int) -> list[bool]:
    row_w = slots * CARD_WIDTH + (slots - 1) * 12
    left = COLUMNS[column] + (COLUMN_WIDTH - row_w) / 2
    face = _face(duel_palette())
    return [_is_card(img, round(left + i * SLOT_STEP), CARDS_TOP, face) for i in range(slots)]


@pytest.mark.parametrize(
    ("a_cards", "d_cards"), [((), ()), ((40,), ()), ((40, 8), (51,)), ((40, 8, 20), (51, 3))]
)
def test_duel_shows_cards_played_and_empty_slots(
    a_cards: tuple[int, ...], d_cards: tuple[int, ...]
) -> None:
    view = made_up_view(
        "european_war",
        {"germany": (0, 3), "austria": (1, 2)},
        phase="duel",
        battle=_battle("duel", a_cards, d_cards),
    )
    img = decode(render.pyramids.duel_png(view, NAMES))
    assert img.size == SIZE
    assert _slots(img, 0, 3) == [i < len(a_cards) for i in range(3)]
    assert _slots(img, 1, 2) == [i < len(d_cards) for i in range(2)]


def test_duel_result_from_the_duel_over_event() -> None:
    view = made_up_view("european_war", {"germany": (0, 3), "austria": (1, 2)})
    result = ev(
        "duel_over",
        attacker=0,
        defender=1,
        src="germany",
        dst="austria",
        attacker_cards=[4, 30],
        defender_cards=[51],
        attacker_total=10,
        defender_total=4,
        attacker_won=True,
    )
    declared = ev(
        "attack_declared", seat=0, defender=1, src="germany", dst="austria", size=3, defender_size=2
    )
    img = decode(render.pyramids.duel_png(view, NAMES, result, events=[declared, result]))
    assert img.size == SIZE
    assert _slots(img, 0, 3) == [True, True, False]
    assert _slots(img, 1, 2) == [True, False]
    # the winner's column is framed in gold
    frame = [img.getpixel((COLUMNS[0] + 1, y)) for y in range(120, 400)]
    assert frame.count(mapped_colour(palette.GOLD, duel_palette())) > 200
    # without the declaration the sizes come from the pieces on the board
    again = decode(render.pyramids.duel_png(view, NAMES, result))
    assert _slots(again, 0, 3) == [True, True, False]


def test_duel_in_diplomacy_and_no_duel() -> None:
    view = made_up_view(
        "european_war",
        {"germany": (0, 1), "austria": (1, 1)},
        phase="diplomacy",
        battle=_battle("diplomacy", (), (), 1, 1, None),
    )
    assert decode(render.pyramids.duel_png(view, NAMES)).size == SIZE
    plain = dataclasses.replace(view, battle=None)
    assert decode(render.pyramids.duel_png(plain, NAMES)).size == SIZE


def test_duel_images_of_real_games() -> None:
    seen = 0
    for seed in range(1, 40):
        game, _ = pyramids.new_game("european_war", [None] * 3, seed)
        rng = random.Random(seed)
        while not game.over and seen < 30:
            decision = rng.choice(game.deciders())
            events = game.apply(decision.seat, rng.choice(game.legal_actions(decision.seat)))
            view = pyramids.view_for(game, None)
            for result in (e for e in events if e.kind == "duel_over"):
                img = decode(render.pyramids.duel_png(view, NAMES, result, events=events))
                assert img.size == SIZE
                seen += 1
            if view.battle is not None and view.battle.stage == "duel":
                assert decode(render.pyramids.duel_png(view, NAMES)).size == SIZE
                seen += 1
        if seen >= 30:
            break
    assert seen >= 30
