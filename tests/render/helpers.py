"""Shared helpers of the render tests: playouts, PNG decoding, made-up positions."""

from __future__ import annotations

import dataclasses
import io
import random
from collections.abc import Iterator

from PIL import Image

import rules
from render.replay import Frame
from rules import contract, pyramids

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
NAMES = (
    "Ada",
    "Bartholomew the Magnificent of Ever So Long a Name",
    "Chloé 🙂",
    "Dmitri",
    "Eve",
    "Fay",
)

EW_POWERS = ["britain_allies", "france_allies", "central_powers", "russian_empire"]
WW_POWERS = ["north_america", "europe", "africa", "asia"]


def decode(data: bytes) -> Image.Image:
    """Check ``data`` is a PNG and return it decoded to RGB."""
    assert data[:8] == PNG_SIGNATURE
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def playout_positions(
    variant: str,
    players: int,
    seed: int,
    every: int = 5,
) -> Iterator[tuple[pyramids.GameState, list[rules.Event]]]:
    """Yield every ``every``-th position of a uniform random game (and its last one),
    with the events of the action that led there."""
    options = pyramids.Options(five_players=players > 4)
    game, events = pyramids.new_game(variant, [None] * players, seed, options)
    rng = random.Random(seed)
    step = 0
    yield game, events
    while not game.over and step < 2000:
        decision = rng.choice(game.deciders())
        events = game.apply(decision.seat, rng.choice(game.legal_actions(decision.seat)))
        step += 1
        if step % every == 0 or game.over:
            yield game, events


def made_up_view(
    variant: str, pieces: dict[str, tuple[int, int]], **changes: object
) -> pyramids.View:
    """A spectator's view of a new arranged game with ``pieces`` put on the board."""
    powers: list[str | None] = list(EW_POWERS if variant == "european_war" else WW_POWERS)
    game, _ = pyramids.new_game(variant, powers, seed=11, arranged=True)
    view = pyramids.view_for(game, None)
    base: dict[str, object] = {
        "pieces": dict(pieces),
        "phase": "turn",
        "turn": 9,
        "round": 3,
        "current": 0,
        "deciders": (rules.Decision(0, "turn"),),
        "setup_queue": (),
    }
    base.update(changes)
    return dataclasses.replace(view, **base)  # type: ignore[arg-type]  # fields of View by name


def ev(kind: str, **data: object) -> rules.Event:
    """A public event."""
    return rules.Event(kind, dict(data))


def replay_frames(count: int, seed: int = 4, game_name: str = "european_war") -> list[Frame]:
    """``count`` frames of a random four-player game: its start, then each action."""
    game = contract.game_named(game_name)
    words = game.presentation
    names = list(NAMES[:4])
    state, events = game.new_game([None] * 4, seed, game.options_from_dict({}))
    rng = random.Random(seed)
    out: list[Frame] = []
    while len(out) < count:
        view = state.view_for(None)
        public = tuple(e for e in events if e.public)
        said = " ".join(filter(None, (words.describe(e, view, names) for e in public)))
        out.append(Frame(view, public, f"{len(out)} / {count - 1}", said or "Nothing to see."))
        d = state.deciders()[0]
        legal = state.legal_actions(d.seat)
        events = state.apply(d.seat, legal[rng.randrange(len(legal))])
        assert not state.over
    return out
