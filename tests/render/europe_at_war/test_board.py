"""Europe at War's board and battle images: goldens of two positions in every frame,
the channel's images never show what the channel may not know, every position of a
playout draws, and the crop after an action covers its spaces."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

import render
from render.europe_at_war import FRAMES, battle_png, board_png
from render.europe_at_war.board import choose_frame
from rules import Event
from rules.europe_at_war.game import EaGame
from rules.europe_at_war.state import EaState
from rules.europe_at_war.view import view_for
from tests.render.helpers import decode
from tests.render.pyramids.test_golden import (
    MAX_CHANGED_SHARE,
    MAX_MEAN_DIFF,
    MAX_TILE_SHARE,
    _differences,
)
from tests.rules.europe_at_war.playout import _swap_hidden, play, random_policy

HERE = Path(__file__).resolve().parent
GOLDEN_DIR = HERE / "golden"
REFRESH = os.environ.get("REFRESH_GOLDENS") == "1"
NAMES = ("Ada", "Bartholomew the Magnificent of Ever So Long a Name", "Chloé 🙂", "Dmitri", "Eve")
GAME = EaGame()
CROP_MAX_BYTES = 300 * 1024


def position(name: str) -> EaState:
    """A stored position (``positions/<name>.json``): ``start`` just after setup,
    ``battle`` in round 6 with a battle under way and the turn's moves carried out."""
    data = json.loads((HERE / "positions" / f"{name}.json").read_text(encoding="utf-8"))
    return GAME.load(data)


def _golden(name: str, data: bytes) -> None:
    path = GOLDEN_DIR / f"{name}.png"
    if REFRESH:
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_bytes(data)
        pytest.skip(f"refreshed {path.name}")
    assert path.exists(), f"no reference {path.name}: run with REFRESH_GOLDENS=1"
    actual, expected = decode(data), decode(path.read_bytes())
    assert actual.size == expected.size
    mean, share, worst = _differences(actual, expected)
    if mean >= MAX_MEAN_DIFF or share >= MAX_CHANGED_SHARE or worst >= MAX_TILE_SHARE:
        path.with_suffix(".actual.png").write_bytes(data)
    assert mean < MAX_MEAN_DIFF, f"{name}: mean difference {mean:.2f}"
    assert share < MAX_CHANGED_SHARE, f"{name}: {share:.2%} of pixels changed"
    assert worst < MAX_TILE_SHARE, f"{name}: {worst:.0%} of one tile changed"


@pytest.mark.parametrize("key", FRAMES)
@pytest.mark.parametrize("where", ["start", "battle"])
def test_each_frame_matches_its_golden_reference(where: str, key: str) -> None:
    view = view_for(position(where), None)
    data = board_png(view, NAMES, (), key)
    if key != "full":
        assert len(data) <= CROP_MAX_BYTES
    _golden(f"{where}_{key}", data)


def test_the_battle_matches_its_golden_reference() -> None:
    g = position("battle")
    assert g.battle is not None and g.battle.plays
    _golden("battle_under_way", battle_png(view_for(g, None), NAMES))


def test_the_registered_images_draw_every_frame_by_name() -> None:
    images = render.images_for("europe_at_war")
    assert images is not None and images.contest == "battle"
    view = view_for(position("battle"), None)
    assert images.extra("map_iberia", view, NAMES) == board_png(view, NAMES, (), "iberia")
    assert decode(images.extra("battle", view, NAMES)).size == (1000, 600)
    with pytest.raises(KeyError):
        images.extra("map_atlantis", view, NAMES)
    assert "territories" in images.board_text(view, NAMES)


def _moved(space_a: str, space_b: str) -> list[Event]:
    return [Event("order", {"number": 1, "status": "done", "seat": 0, "path": [space_a, space_b]})]


def test_the_board_after_an_action_is_the_crop_covering_its_spaces() -> None:
    view = view_for(position("start"), None)
    assert choose_frame(view, _moved("paris", "lyon")).key == "france"
    assert choose_frame(view, _moved("london", "east_anglia")).key == "british_isles"
    assert choose_frame(view, _moved("madrid", "lisbon")).key == "iberia"
    assert choose_frame(view, _moved("london", "moscow")).key == "full"
    assert choose_frame(view, ()).key == "full"
    private = [Event("order", {"path": ["paris", "lyon"]}, to=0)]
    assert choose_frame(view, private).key == "full"  # a seat's own events are not drawn
    battle = view_for(position("battle"), None)
    assert battle.battle is not None
    assert choose_frame(battle, ()).key != "full"  # a card played: the battle's crop
    full = decode(board_png(view, NAMES, _moved("paris", "lyon")))
    assert full.size == decode(board_png(view, NAMES, (), "france")).size


def _redealt(g: EaState, rng: random.Random) -> EaState:
    """``g`` with everything the channel may not see dealt anew: hands and the deck,
    every stack's units under its top (the battle's two are public), drawn chits."""
    other = g.copy()
    cards = [c for h in other.hands for c in h] + other.deck
    rng.shuffle(cards)
    for s, h in enumerate(other.hands):
        other.hands[s], cards = cards[: len(h)], cards[len(h) :]
    other.deck = cards
    b = g.battle
    for space in other.occupied():
        for s in other.seats_at(space):
            if b is None or space != b.at or s not in (b.attacker, b.defender):
                _swap_hidden(other, space, s, rng)
    for s in range(other.player_count):
        pile = other.piles[s]
        for i, c in enumerate(other.drawn[s]):
            j = rng.randrange(len(pile) + 1)
            if j < len(pile):
                other.drawn[s][i], pile[j] = pile[j], c
        pile.sort()
    return other


def _channel_images(g: EaState, seat: int | None, events: list[Event]) -> list[bytes]:
    view = view_for(g, seat)
    out = [board_png(view, NAMES, events), board_png(view, NAMES, events, "full")]
    if g.battle is not None:
        out.append(battle_png(view, NAMES, None, events))
    return out


def test_channel_images_show_nothing_hidden() -> None:
    """The board (and the battle) from any seat's view is the spectator's, and dealing
    anew what the channel may not see (hands, recruit draws, hidden stacks) changes no
    byte of them."""
    rng = random.Random(4)
    checked = 0
    hidden_changed = 0

    def watch(before: EaState, after: EaState, events: list[Event]) -> None:
        nonlocal checked, hidden_changed
        if rng.random() > 0.08:
            return
        public = [e for e in events if e.to is None]
        seen = _channel_images(after, None, public)
        for seat in range(after.player_count):
            assert _channel_images(after, seat, public) == seen, f"seat {seat}'s view shows more"
        other = _redealt(after, rng)
        hidden_changed += other.to_dict() != after.to_dict()
        assert _channel_images(other, None, public) == seen
        checked += 1

    play(3, 21, rounds=2, policy=random_policy, views_every=0, watch=watch)
    assert checked >= 5 and hidden_changed >= 3


def _draw_all(g: EaState, events: list[Event]) -> None:
    view = view_for(g, None)
    public = [e for e in events if e.to is None]
    data = board_png(view, NAMES, public)
    f = choose_frame(view, public)
    assert decode(data).size == f.image_size
    if f.key != "full":  # a crop
        assert len(data) <= CROP_MAX_BYTES


def test_every_position_of_an_opening_draws() -> None:
    """Each position of a two-player game's opening draws its board (the whole game and
    larger tables: the slow test below)."""
    count = 0

    def watch(before: EaState, after: EaState, events: list[Event]) -> None:
        nonlocal count
        _draw_all(after, events)
        count += 1

    play(2, 5, rounds=1, views_every=0, watch=watch)
    assert count > 20


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_position_of_whole_playouts_draws(players: int) -> None:
    def watch(before: EaState, after: EaState, events: list[Event]) -> None:
        _draw_all(after, events)
        if after.battle is not None:
            battle_png(view_for(after, None), NAMES, None, events)

    play(players, 100 + players, views_every=0, watch=watch)


def test_a_battle_decided_after_the_action_that_began_it_shows_its_own_sides() -> None:
    """The contest's last image: the action that decides a battle holds its result but
    not its start, and the view holds no battle (or already the next one)."""
    from render.europe_at_war.gallery import NAMES, _battle_decided, _find
    from render.text import recording

    game, events = _find(5, _battle_decided)
    result = next(e for e in events if e.kind == "battle_result")
    assert not any(e.kind == "battle" for e in events[: events.index(result)])
    sides = [int(s) for s in result.data["sides"]]
    view = view_for(game, None)
    where = game.map.name(str(result.data["at"]))
    with recording() as drawn:
        decode(battle_png(view, NAMES, result, events))
    heads = [t for t in drawn if "(" in t and t.endswith(")")]
    for seat in sides:
        assert any(t.startswith(NAMES[seat].split()[0]) for t in heads), (seat, heads)
    for seat in set(range(5)) - set(sides):
        assert not any(t.startswith(NAMES[seat].split()[0]) for t in heads), (seat, heads)
    assert any(where in t for t in drawn), (where, drawn[:3])
