"""The render registry: each game's images by its registry name.

The pyramid games register theirs when ``render`` is imported, and their images are the
pyramid room's functions; a game that registers none (the tests-only Claim the Line) has
``None``, so a front end shows it in words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import render
import rules
from render import registry
from render.pyramids import IMAGES, PyramidImages
from rules import pyramids
from tests.games.claim_line import NAME as CLAIM_LINE
from tests.render.helpers import NAMES, decode


class Plain:
    """A tiny GameImages of a made-up game: a one-colour board, no private image."""

    extras: tuple[str, ...] = ()
    contest: str | None = None

    def board(self, view: Any, names: Sequence[str], events: Sequence[rules.Event] = ()) -> bytes:
        return b"board:" + repr((view, tuple(names))).encode()

    def board_text(self, view: Any, names: Sequence[str]) -> str:
        return "a plain board"

    def holding(self, view: Any) -> Any:
        return None

    def private(self, holding: Any, title: str = "") -> bytes | None:
        return None

    def private_text(self, holding: Any) -> str:
        return ""

    def extra(
        self,
        name: str,
        view: Any,
        names: Sequence[str],
        result: rules.Event | None = None,
        events: Sequence[rules.Event] = (),
    ) -> bytes:
        raise KeyError(name)

    def extra_text(self, name: str) -> str:
        raise KeyError(name)

    def warm_up(self) -> None:
        pass


def test_the_pyramid_games_are_drawn_by_their_room() -> None:
    assert render.drawn_games()[:2] == ("european_war", "world_war_5")
    for name in ("european_war", "world_war_5"):
        images = render.images_for(name)
        assert isinstance(images, PyramidImages) and images is IMAGES[name]
        assert name in rules.game_names()  # the same names as the rules' registry


def test_a_game_without_images_has_none() -> None:
    assert render.images_for(CLAIM_LINE) is None
    assert render.images_for("no such game") is None


def test_the_registry_gives_the_rooms_images_byte_for_byte() -> None:
    game, _ = pyramids.new_game("world_war_5", [None] * 3, seed=4)
    view = pyramids.view_for(game, 1)
    images = render.images_for("world_war_5")
    assert images is not None
    assert images.board(view, NAMES) == render.pyramids.board_png(view, NAMES)
    assert images.board_text(view, NAMES) == render.pyramids.board_summary(view, NAMES)
    holding = images.holding(view)
    assert holding == {"cards": sorted(view.hand or ()), "side": view.seats[1].power}
    assert images.holding(pyramids.view_for(game, None)) is None
    assert images.private(holding, "Yours") == render.pyramids.hand_png(
        holding["cards"], title="Yours", side=view.seats[1].power
    )
    # a holding kept by an older version: the card numbers alone, drawn without a colour
    assert images.private([3, 9], "Yours") == render.pyramids.hand_png([3, 9], title="Yours")
    assert images.private_text([51, 0]).startswith("Your cards: 2")
    assert images.private_text({"cards": [51, 0], "side": "europe"}).startswith("Your cards: 2")
    assert images.private_text([]) == "Your cards: none"
    assert images.extras == ("duel",)
    with pytest.raises(KeyError):
        images.extra("parade", view, NAMES)
    with pytest.raises(KeyError):
        images.extra_text("parade")


def test_the_duel_is_the_pyramid_games_extra_image() -> None:
    from render.pyramids.png_palette import sample_view

    view = sample_view("european_war")
    images = render.images_for("european_war")
    assert images is not None
    data = images.extra("duel", view, NAMES)
    assert data == render.pyramids.duel_png(view, NAMES)
    assert decode(data).size == (1000, 560)


def test_register_and_unregister_a_game_of_ones_own() -> None:
    plain = Plain()
    try:
        assert render.register("plain_test_game", plain) is plain
        assert render.register("plain_test_game", plain) is plain  # the same again: fine
        with pytest.raises(ValueError, match="already registered"):
            render.register("plain_test_game", Plain())
        assert render.images_for("plain_test_game") is plain
        assert "plain_test_game" in render.drawn_games()
    finally:
        registry.unregister("plain_test_game")
    assert render.images_for("plain_test_game") is None
