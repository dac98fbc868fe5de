"""Europe at War through ``service.GameService`` on a real SQLite file: a window waits
the same time for every player whoever holds a card (EA-15), unless Fast windows is on
(EA-36), and the channel's words never name a card of a hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ai.europe_at_war import EaPlayer
from rules.europe_at_war.data import deck
from service import GameService, Outcome, Prompt
from service.scheduler import FakeClock
from tests.bot.helpers import collector, make_service

T0 = 1_700_000_000.0
USERS = {101: "Ann", 102: "Bob", 103: "Cy"}
WINDOW = 45


async def _table(svc: GameService, options: dict[str, Any]) -> int:
    opened = await svc.open_lobby(
        channel_id=1, host_id=101, host_name="Ann", guild_id=7, variant="europe_at_war"
    )
    assert opened.ok, opened.error
    gid = opened.game_id
    assert gid is not None
    for uid in (102, 103):
        assert (await svc.join(gid, uid, USERS[uid])).ok
    assert (await svc.configure(gid, 101, options={"window_seconds": WINDOW, **options})).ok
    started = await svc.start_game(gid, 101, seed=9)
    assert started.ok, started.error
    return gid


def _window_card(prompt: Prompt) -> bool:
    """Whether the prompt offers a card (not only passing)."""
    return any(getattr(c, "card", "") for c in prompt.choices)


async def _until_window(svc: GameService, gid: int, got: list[Outcome], want: Any) -> list[Prompt]:
    """Play every decision with the computer player's choice until the open prompts
    are a W1 window that ``want`` accepts; return those prompts."""
    bot = EaPlayer()
    engine = svc._games[gid]
    for step in range(4000):
        prompts = await svc.prompts(gid)
        assert prompts, "a person always decides"
        w1 = [p for p in prompts if p.kind == "w1"]
        if w1 and want(w1):
            return w1
        p = prompts[0]
        assert engine.state is not None
        view = engine.state.view_for(p.seat)
        action = bot.choose(view, list(p.choices), "normal", step)
        out = await svc.act(gid, p.user_id or 0, action, version=p.version)
        assert out.ok, out.error
        for o in got:
            _no_hand_in_public(o, engine.state)
        got.clear()
    raise AssertionError("no such window")


def _no_hand_in_public(outcome: Outcome, state: Any) -> None:
    public = "\n".join([*outcome.public_lines, *outcome.status_lines])
    shown = {deck()[c].name for c in state.discard + state.table}
    for hand in state.hands:
        for c in hand:
            name = deck()[c].name
            assert name in shown or name not in public, name


async def test_a_window_waits_alike_for_everyone_whoever_holds_a_card(tmp_path: Path) -> None:
    clock = FakeClock(T0)
    got, listener = collector()
    svc = await make_service(tmp_path / "games.db", clock, listener)
    gid = await _table(svc, {})

    def mixed(prompts: list[Prompt]) -> bool:
        return len(prompts) == 2 and len({_window_card(p) for p in prompts}) == 2

    prompts = await _until_window(svc, gid, got, mixed)
    # the one with a card and the one with none: asked alike, the same deadline
    assert len({p.deadline for p in prompts}) == 1
    deadline = prompts[0].deadline
    assert deadline is not None
    empty = next(p for p in prompts if not _window_card(p))
    assert [c.kind for c in empty.choices] == ["done"], "nothing to play: only submit"
    # the one with nothing passes: the window still waits for the other
    out = await svc.act(gid, empty.user_id or 0, empty.choices[0], version=empty.version)
    assert out.ok
    left = [p for p in await svc.prompts(gid) if p.kind == "w1"]
    assert [p.user_id for p in left] == [next(p for p in prompts if p is not empty).user_id]
    assert left[0].deadline == deadline, "passing early does not hurry the others"
    await svc.close()


async def test_fast_windows_skip_whoever_holds_no_window_card(tmp_path: Path) -> None:
    clock = FakeClock(T0)
    got, listener = collector()
    svc = await make_service(tmp_path / "games.db", clock, listener)
    gid = await _table(svc, {"fast_windows": True})

    def any_window(prompts: list[Prompt]) -> bool:
        return True

    prompts = await _until_window(svc, gid, got, any_window)
    assert prompts and all(_window_card(p) for p in prompts), "only holders are asked"
    await svc.close()


async def test_a_game_replays_as_its_channel_saw_it(tmp_path: Path) -> None:
    """/replay's source: every step of a game under way rebuilt from its log (the
    spectator's view the channel saw, ending where the game stands), drawn as one
    animation whose frames are all one size."""
    import io

    from PIL import Image

    from render.replay import Frame, animate

    clock = FakeClock(T0)
    got, listener = collector()
    svc = await make_service(tmp_path / "games.db", clock, listener)
    try:
        gid = await _table(svc, {"compact_map": True})
        await _until_window(svc, gid, got, lambda prompts: True)
        replay = await svc.replay(gid)
        assert replay.actions == (await svc.status(gid)).version > 20
        last = replay.steps[-1]
        engine = svc._games[gid]
        assert engine.state is not None
        assert last.view == engine.state.view_for(None), "the replay ends where the game is"
        frames = [Frame(s.view, s.events, s.title, s.caption) for s in replay.steps]
        anim = animate("europe_at_war", frames, list(replay.names), max_frames=12)
        image = Image.open(io.BytesIO(anim.data))
        count = int(getattr(image, "n_frames", 1))
        sizes = set()
        for index in range(count):
            image.seek(index)
            sizes.add(image.size)
        assert count == 12 and len(sizes) == 1
    finally:
        await svc.close()
