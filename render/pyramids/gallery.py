"""Sample images for people to look at: ``python -m render.gallery DIR``.

Writes boards (start, mid-game with arrows and marks, the end banner; both variants),
duels (in progress and over) and hands (every figure, a full hand, an empty one).
Positions come from seeded playouts that pick random legal actions (attacks and duel
cards preferred, so that something happens), so the set is the same on every run.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import rules
from rules import pyramids

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


def write_gallery(directory: Path) -> list[Path]:
    """Write the sample images into ``directory`` (created if needed); returns the paths."""
    directory.mkdir(parents=True, exist_ok=True)
    out: list[Path] = []

    def save(name: str, data: bytes) -> None:
        path = directory / name
        path.write_bytes(data)
        out.append(path)

    def board(
        name: str, variant: str, players: int, want: Want, options: pyramids.Options | None = None
    ) -> None:
        game, events = find(variant, players, want, options=options)
        save(name, board_png(pyramids.view_for(game, None), NAMES, events))

    board("board_start_european_war.png", "european_war", 4, _started)
    board("board_attack_european_war.png", "european_war", 4, _won_attack)
    board("board_voyage_european_war.png", "european_war", 3, _voyage)
    board(
        "board_loss_european_war.png", "european_war", 5, _loss, pyramids.Options(five_players=True)
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
    save("duel_in_progress.png", duel_png(pyramids.view_for(game, None), NAMES))
    game, events = find("european_war", 4, _duel_over)
    result = next(e for e in events if e.kind == "duel_over")
    save("duel_over.png", duel_png(pyramids.view_for(game, None), NAMES, result, events=events))

    figures = [pyramids.cards.parse_card(t) for t in ("J♣", "Q♦", "K♥", "A♠")]
    numbers = [pyramids.cards.parse_card(t) for t in ("7♥", "2♣", "10♠", "5♦")]
    save("hand_figures.png", hand_png(figures + numbers, title="Ada's hand — every figure"))
    for rank in ("J", "Q", "K", "A"):
        cards = [pyramids.cards.parse_card(rank + s) for s in "♣♦♥♠"]
        save(f"hand_{rank}.png", hand_png(cards, title=f"Four of {rank}"))
    save("hand_full.png", hand_png(list(range(0, 52, 4)) + [3, 50], title="A long hand"))
    save("hand_empty.png", hand_png([], title="Eve's hand"))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m render.gallery DIR``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print("usage: python -m render.gallery DIR", file=sys.stderr)
        return 2
    for path in write_gallery(Path(args[0])):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
