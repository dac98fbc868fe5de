"""Sample images for people to look at: ``python -m render.pyramids.gallery DIR [LANGUAGE]``.

Writes boards (start, mid-game with arrows and marks, a whole turn told in the
last-action box, the end banner; both variants), duels (in progress and over), hands
(every figure, a full hand, an empty one; all but the empty one in their power's
colour), the rating charts of ``/stats`` (a player of both variants over months, a first
game) and a replay (``replay_european_war.gif``: the first 60 actions of a four-player
game, as ``/replay`` draws it). Positions come from seeded playouts that pick random
legal actions (attacks and duel cards preferred, so that something
happens), so the set is the same on every run. :func:`samples` lists them (the render
tests check the text drawn on each).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import rules
from render.replay import Frame, animate
from rules import i18n, pyramids

from ..chart import Series, rating_chart
from . import board_png, duel_png, hand_png

NAMES: tuple[str, ...] = ("Ada", "Bartholomew the Magnificent", "Chloé", "Dmitri", "Eve", "Fay")

Want = Callable[[pyramids.GameState, list[rules.Event]], bool]

_PREFERRED = ("attack", "play_card", "let_pass", "sabotage", "move", "build", "grow")


def _choose(game: pyramids.GameState, seat: int, rng: random.Random) -> pyramids.Action:
    actions = game.legal_actions(seat)
    keen = [a for a in actions if a.kind in _PREFERRED]
    if keen and rng.random() < 0.6:
        return rng.choice(keen)
    return rng.choice(actions)


def playout(
    variant: str,
    players: int,
    seed: int,
    want: Want,
    max_steps: int = 4000,
    options: pyramids.Options | None = None,
) -> tuple[pyramids.GameState, list[rules.Event]] | None:
    """Play random legal actions from a new game until ``want(game, events)`` holds.

    Returns the game and the events of the last action, or ``None`` if it never held.
    """
    game, events = pyramids.new_game(variant, [None] * players, seed, options)
    rng = random.Random(seed)
    for _ in range(max_steps):
        if want(game, events):
            return game, events
        if game.over:
            return None
        decision = rng.choice(game.deciders())
        events = game.apply(decision.seat, _choose(game, decision.seat, rng))
    return None


def find(
    variant: str,
    players: int,
    want: Want,
    seeds: Sequence[int] = range(1, 200),
    options: pyramids.Options | None = None,
) -> tuple[pyramids.GameState, list[rules.Event]]:
    """The first seeded playout where ``want`` holds.

    Raises:
        LookupError: no seed gave such a position.
    """
    for seed in seeds:
        found = playout(variant, players, seed, want, options=options)
        if found is not None:
            return found
    raise LookupError(f"no {variant} position found")


def _kinds(events: Sequence[rules.Event]) -> set[str]:
    return {e.kind for e in events}


def _started(game: pyramids.GameState, events: list[rules.Event]) -> bool:
    return "setup_done" in _kinds(events)


def _won_attack(game: pyramids.GameState, events: list[rules.Event]) -> bool:
    return {"retreated", "moved_in"} <= _kinds(events) and game.turn > 8


def _voyage(game: pyramids.GameState, events: list[rules.Event]) -> bool:
    return any(e.kind == "moved" and e.data.get("by_sea") for e in events)


def _loss(game: pyramids.GameState, events: list[rules.Event]) -> bool:
    return bool({"shrunk", "destroyed"} & _kinds(events))


def _duel_on(game: pyramids.GameState, events: list[rules.Event]) -> bool:
    view = pyramids.view_for(game, None)
    b = view.battle
    return (
        b is not None
        and b.stage == "duel"
        and len(b.attacker_cards) >= 2
        and len(b.defender_cards) >= 1
    )


def _duel_over(game: pyramids.GameState, events: list[rules.Event]) -> bool:
    return "duel_over" in _kinds(events) and "attack_declared" not in _kinds(events)


def _over(game: pyramids.GameState, events: list[rules.Event]) -> bool:
    return game.over and not game.draw


def _ww_battle(game: pyramids.GameState, events: list[rules.Event]) -> bool:
    view = pyramids.view_for(game, None)
    return "dice" in _kinds(events) and any(s.eliminated for s in view.seats)


def find_turn(
    variant: str, players: int, want: Want, seeds: Sequence[int] = range(1, 200)
) -> tuple[pyramids.GameState, list[rules.Event]]:
    """Like :func:`find`, for a whole turn: the position right after a turn ended, with
    the public events of every action of that turn (from its ``turn_start`` to the next
    one), as a front end gathers them for the board it posts then.

    Raises:
        LookupError: no seed gave such a turn.
    """
    for seed in seeds:
        game, _ = pyramids.new_game(variant, [None] * players, seed)
        rng = random.Random(seed)
        turn: list[rules.Event] = []
        for _ in range(4000):
            if game.over:
                break
            decision = rng.choice(game.deciders())
            events = game.apply(decision.seat, _choose(game, decision.seat, rng))
            starts = [i for i, e in enumerate(events) if e.kind == "turn_start"]
            if not starts:
                turn += events
                continue
            turn += events[: starts[0] + 1]
            if turn[0].kind == "turn_start" and want(game, turn):
                return game, [e for e in turn if e.to is None]
            turn = events[starts[0] :]
    raise LookupError(f"no {variant} turn found")


def _long_turn(game: pyramids.GameState, events: list[rules.Event]) -> bool:
    kinds = _kinds(events)
    return {"attack_declared", "duel_over", "retreated"} <= kinds and len(events) >= 8


@dataclass(frozen=True)
class BoardSample:
    """A board image of the gallery: what it shows."""

    file: str
    view: pyramids.View
    events: tuple[rules.Event, ...]


@dataclass(frozen=True)
class DuelSample:
    """A duel image of the gallery."""

    file: str
    view: pyramids.View
    result: rules.Event | None
    events: tuple[rules.Event, ...]


@dataclass(frozen=True)
class HandSample:
    """A hand image of the gallery."""

    file: str
    cards: tuple[int, ...]
    title: str
    side: str | None = None
    """The power holding them (its colour on the image), if any."""


@dataclass(frozen=True)
class ChartSample:
    """A rating chart of the gallery (``/stats``)."""

    file: str
    name: str
    series: tuple[Series, ...]


Sample = BoardSample | DuelSample | HandSample | ChartSample

START = 1_759_276_800.0
"""1 October 2025, 00:00 UTC: when the charts' made-up games begin."""


def rating_walk(seed: int, games: int, start: float = START) -> tuple[tuple[float, float], ...]:
    """Made-up (when, rating) after each of ``games`` rated games: hours to days apart,
    the rating drifting up from about 0."""
    rng = random.Random(seed)
    when, rating, out = start, 0.0, []
    for _ in range(games):
        when += rng.uniform(3600, 4 * 86400)
        rating += rng.uniform(-1.5, 2.2)
        out.append((round(when), round(rating, 2)))
    return tuple(out)


def samples() -> list[Sample]:
    """Every image of the gallery, in order (drawn with :data:`NAMES`)."""
    out: list[Sample] = []

    def board(
        file: str, variant: str, players: int, want: Want, options: pyramids.Options | None = None
    ) -> None:
        game, events = find(variant, players, want, options=options)
        out.append(BoardSample(file, pyramids.view_for(game, None), tuple(events)))

    board("board_start_european_war.png", "european_war", 4, _started)
    board("board_attack_european_war.png", "european_war", 4, _won_attack)
    board("board_voyage_european_war.png", "european_war", 3, _voyage)
    board(
        "board_loss_european_war.png", "european_war", 5, _loss, pyramids.Options(five_players=True)
    )
    game, events = find_turn("european_war", 4, _long_turn)
    out.append(
        BoardSample("board_turn_european_war.png", pyramids.view_for(game, None), tuple(events))
    )
    board("board_end_european_war.png", "european_war", 4, _over)
    board("board_start_world_war_5.png", "world_war_5", 4, _started)
    board(
        "board_battle_world_war_5.png",
        "world_war_5",
        6,
        _ww_battle,
        pyramids.Options(five_players=True),
    )
    board("board_end_world_war_5.png", "world_war_5", 3, _over)
    board(
        "board_arcade_world_war_5.png",
        "world_war_5",
        2,
        _won_attack,
        pyramids.Options(pyramid_arcade=True),
    )

    game, events = find("european_war", 4, _duel_on)
    out.append(DuelSample("duel_in_progress.png", pyramids.view_for(game, None), None, ()))
    game, events = find("european_war", 4, _duel_over)
    result = next(e for e in events if e.kind == "duel_over")
    out.append(DuelSample("duel_over.png", pyramids.view_for(game, None), result, tuple(events)))

    figures = [pyramids.cards.parse_card(t) for t in ("J♣", "Q♦", "K♥", "A♠")]
    numbers = [pyramids.cards.parse_card(t) for t in ("7♥", "2♣", "10♠", "5♦")]
    out.append(
        HandSample(
            "hand_figures.png", (*figures, *numbers), "Ada's hand — every figure", "france_allies"
        )
    )
    powers = pyramids.load_board("european_war").power_order
    for rank, power in zip(("J", "Q", "K", "A"), powers, strict=False):
        cards = tuple(pyramids.cards.parse_card(rank + s) for s in "♣♦♥♠")
        out.append(HandSample(f"hand_{rank}.png", cards, f"Four of {rank}", power))
    out.append(HandSample("hand_full.png", (*range(0, 52, 4), 3, 50), "A long hand", powers[-1]))
    out.append(HandSample("hand_empty.png", (), "Eve's hand"))

    ew, ww = (rules.game_named(v).presentation.title for v in ("european_war", "world_war_5"))
    both = (Series(ew, rating_walk(3, 30)), Series(ww, rating_walk(5, 7, START + 40 * 86400)))
    out.append(ChartSample("stats_rating_chart.png", NAMES[1], both))
    first = (Series(ew, ((START + 50_000.0, 3.36),)),)
    out.append(ChartSample("stats_first_game.png", NAMES[0], first))
    return out


def draw(sample: Sample) -> bytes:
    """The PNG of one gallery sample."""
    if isinstance(sample, BoardSample):
        return board_png(sample.view, NAMES, sample.events)
    if isinstance(sample, DuelSample):
        return duel_png(sample.view, NAMES, sample.result, events=sample.events)
    if isinstance(sample, ChartSample):
        return rating_chart(sample.name, sample.series)
    return hand_png(sample.cards, title=sample.title, side=sample.side)


REPLAY_FILE = "replay_european_war.gif"


def replay_frames(
    variant: str = "european_war", players: int = 4, seed: int = 19, actions: int = 60
) -> list[Frame]:
    """The first ``actions`` actions of a seeded random game (attacks and duel cards
    preferred) as replay frames: the start, then the spectator's view, public events
    and words after each action, as the service rebuilds a stored game."""
    game, events = pyramids.new_game(variant, [None] * players, seed)
    words = rules.contract.game_named(variant).presentation
    rng = random.Random(seed)

    def frame(title: str) -> Frame:
        view = pyramids.view_for(game, None)
        public = tuple(e for e in events if e.public)
        lines = [t for t in (words.describe(e, view, NAMES[:players]) for e in public) if t]
        return Frame(view, public, title, " ".join(lines) or "(a private decision)")

    out = [frame("Start")]
    for n in range(1, actions + 1):
        if game.over:
            break
        decision = rng.choice(game.deciders())
        events = game.apply(decision.seat, _choose(game, decision.seat, rng))
        out.append(frame(f"{n} / {actions}"))
    return out


def write_gallery(directory: Path) -> list[Path]:
    """Write the sample images and the replay into ``directory`` (created if needed);
    returns the paths."""
    directory.mkdir(parents=True, exist_ok=True)
    out: list[Path] = []
    for sample in samples():
        path = directory / sample.file
        path.write_bytes(draw(sample))
        out.append(path)
    path = directory / REPLAY_FILE
    path.write_bytes(animate("european_war", replay_frames(), NAMES[:4]).data)
    out.append(path)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m render.pyramids.gallery DIR [LANGUAGE]`` (en, de, fr or
    cs: the images' words in that language; English by default)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not 1 <= len(args) <= 2 or args[0] in ("-h", "--help") or not _language_ok(args[1:]):
        print("usage: python -m render.pyramids.gallery DIR [en|de|fr|cs]", file=sys.stderr)
        return 2
    with i18n.use(args[1] if len(args) == 2 else None):
        for path in write_gallery(Path(args[0])):
            print(path)
    return 0


def _language_ok(given: Sequence[str]) -> bool:
    return all(i18n.supported(tag) == tag for tag in given)


if __name__ == "__main__":
    raise SystemExit(main())
