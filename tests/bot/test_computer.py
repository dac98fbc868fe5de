"""The service's computer seats are the ai package's players; a failing or slow one is
replaced by a seeded uniform choice."""

from __future__ import annotations

import random
from pathlib import Path

import ai
import ai.pyramids
from rules import pyramids
from service import GameService, computer
from service.scheduler import FakeClock
from tests.bot.helpers import make_service, new_game


def positions(count: int) -> list[tuple[pyramids.View, list[pyramids.Action]]]:
    """Views of deciding seats reached by random play."""
    out = []
    rng = random.Random(4)
    for seed in range(count):
        g, _ = pyramids.new_game("european_war", [None, None, None], seed)
        for _ in range(rng.randrange(5, 40)):
            if g.over:
                break
            d = rng.choice(g.deciders())
            g.apply(d.seat, rng.choice(g.legal_actions(d.seat)))
        if not g.over:
            d = g.deciders()[0]
            out.append((pyramids.view_for(g, d.seat), g.legal_actions(d.seat)))
    return out


def test_the_chooser_asks_the_computer_players() -> None:
    for view, legal in positions(12):
        for level in ("easy", "normal"):
            picked = computer.choose("european_war", view, legal, level, 99)
            assert picked == ai.pyramids.choose(view, level, 99)
            assert picked in legal


def test_uniform_is_seeded_and_legal() -> None:
    view, legal = positions(1)[0]
    pick = computer.uniform("european_war", view, legal, "hard", 5)
    assert pick == computer.uniform("european_war", view, legal, "hard", 5) and pick in legal


async def test_a_failing_computer_player_is_replaced_by_a_uniform_choice(tmp_path: Path) -> None:
    calls: list[int] = []

    def broken(
        game: str, view: pyramids.View, legal: object, level: str, seed: int
    ) -> pyramids.Action:
        calls.append(seed)
        raise RuntimeError("the computer player crashed")

    svc: GameService = await make_service(tmp_path / "g.db", FakeClock(0.0), chooser=broken)
    try:
        assert svc.chooser is broken
        gid, _ = await new_game(svc, humans=1, computers=2)
        await svc.idle(gid)
        status = await svc.status(gid)
        assert calls and status.version >= 2  # the computers placed their pieces anyway
    finally:
        await svc.close()


async def test_the_service_uses_the_computer_players_by_default(tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "g.db", FakeClock(0.0))
    try:
        assert svc.chooser is computer.choose
    finally:
        await svc.close()
