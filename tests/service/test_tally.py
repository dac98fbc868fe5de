"""A decision answered by counts per type (Europe at War's casualties, EA-23) through
``service.GameService`` on a real SQLite file: the prompt carries the types and the
engine's suggestion; Confirm takes every counted casualty as one outcome, or, for a
wrong total, a count out of range or an old panel, nothing at all."""

from __future__ import annotations

from pathlib import Path

from ai.europe_at_war import EaPlayer
from rules.europe_at_war.state import EaState
from rules.europe_at_war.suggest import casualties
from service import GameService, Prompt
from service.scheduler import FakeClock
from tests.bot.helpers import make_service

T0 = 1_700_000_000.0


async def _casualties(svc: GameService) -> tuple[int, Prompt]:
    """Two people on the compact map (seed 1), played by the computer player's choices
    until one chooses two casualties or more among several unit types."""
    opened = await svc.open_lobby(
        channel_id=1, host_id=101, host_name="Ann", guild_id=7, variant="europe_at_war"
    )
    gid = opened.game_id
    assert gid is not None
    assert (await svc.join(gid, 102, "Bob")).ok
    assert (await svc.configure(gid, 101, options={"compact_map": True})).ok
    assert (await svc.start_game(gid, 101, seed=1)).ok
    player = EaPlayer()
    for step in range(2000):
        p = (await svc.prompts(gid))[0]
        t = p.tally
        if p.kind == "casualties" and t is not None and t.total >= 2 and len(t.groups) >= 2:
            return gid, p
        view = _state(svc, gid).view_for(p.seat)
        out = await svc.act(
            gid,
            p.user_id or 0,
            player.choose(view, list(p.choices), "normal", step),
            version=p.version,
        )
        assert out.ok, out.error
    raise AssertionError("no casualties to choose")


def _state(svc: GameService, gid: int) -> EaState:
    state = svc._games[gid].state
    assert isinstance(state, EaState)
    return state


async def test_counts_start_at_the_suggestion_and_take_all_or_nothing(tmp_path: Path) -> None:
    svc = await make_service(tmp_path / "g.db", FakeClock(T0))
    gid, prompt = await _casualties(svc)
    tally = prompt.tally
    assert tally is not None
    user = prompt.user_id or 0
    g = _state(svc, gid)
    b = g.battle
    assert b is not None and tally.total == b.left
    # every legal casualty is in exactly one type, and the suggestion is the engine's
    legal = list(g.legal_actions(prompt.seat))
    assert sorted(map(str, (a for grp in tally.groups for a in grp.actions))) == sorted(
        map(str, legal)
    )
    engine = sorted(g.kind(u).name for u in casualties(g))
    assert sorted(grp.label for grp in tally.groups for _ in range(grp.suggested)) == engine
    now = await svc.counts_now(gid, user, prompt.version)
    assert now.counts == tuple(grp.suggested for grp in tally.groups)

    version = (await svc.status(gid)).version
    before = g.to_dict()
    # a wrong total, a count beyond its type, an old panel: refused, nothing changed
    over = list(now.counts)
    over[next(i for i, n in enumerate(over) if n < len(tally.groups[i].actions))] += 1
    out = await svc.act_counts(gid, user, prompt.version, over)
    assert not out.ok and out.error == (
        f"Casualties: choose exactly {tally.total}; you have chosen {tally.total + 1}."
    )
    beyond = [0] * len(tally.groups)
    beyond[0] = len(tally.groups[0].actions) + 1
    assert not (await svc.act_counts(gid, user, prompt.version, beyond)).ok
    assert not (await svc.act_counts(gid, user, prompt.version - 1, now.counts)).ok
    assert not (await svc.act_counts(gid, 999, prompt.version, now.counts)).ok
    assert (await svc.status(gid)).version == version and _state(svc, gid).to_dict() == before

    # all the casualties of one type chosen instead: every one is taken, as one outcome
    big = max(range(len(tally.groups)), key=lambda i: len(tally.groups[i].actions))
    counts = [0] * len(tally.groups)
    take = min(tally.total, len(tally.groups[big].actions))
    counts[big] = take
    rest = tally.total - take
    for i, grp in enumerate(tally.groups):
        if i != big and rest:
            counts[i] = min(rest, len(grp.actions))
            rest -= counts[i]
    owner = b.loser if b.stage == "first" else prompt.seat
    mine = list(g.stack(b.at, owner))
    out = await svc.act_counts(gid, user, prompt.version, counts)
    assert out.ok, out.error
    assert out.version == version + tally.total, "one action per casualty"
    after = _state(svc, gid)
    gone = [u for u in mine if u not in after.stack(b.at, owner)]
    want = sorted(grp.label for grp, n in zip(tally.groups, counts, strict=True) for _ in range(n))
    assert sorted(g.kind(u).name for u in gone) == want
    assert len(out.public_lines) >= tally.total, out.public_lines
    # the same counts again: the panel is out of date
    again = await svc.act_counts(gid, user, prompt.version, counts)
    assert not again.ok and (await svc.status(gid)).version == out.version
    await svc.close()
