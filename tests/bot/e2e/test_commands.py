"""Autocomplete (only what is legal now, by readable name, at most 25), /place, the
information commands, World War 5's commands, and `python -m bot` without a token."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ai
import rules
from rules import pyramids
from tests.bot.e2e.harness import World
from tests.bot.e2e.policy import Policy

ROOT = Path(__file__).resolve().parents[3]


async def _turn(world: World) -> tuple[int, str, pyramids.GameState]:
    gid, mover = await world.open_at_turn()
    assert world.bot is not None
    state = world.bot.service._games[gid].state
    assert isinstance(state, pyramids.GameState)
    return gid, mover, state


async def test_autocomplete_offers_legal_fields_by_name(world: World) -> None:
    _, mover, state = await _turn(world)
    user = world.users[mover]
    seat = state.current
    legal = state.legal_actions(seat)
    board = state.board
    moves = [a for a in legal if isinstance(a, pyramids.Move)]
    got = await world.fake.autocomplete(user, world.channel, "move", focused="from")
    assert {c["value"] for c in got} == {a.src for a in moves}
    assert all(c["name"] == board.fields[c["value"]].name for c in got)
    src = moves[0].src
    got = await world.fake.autocomplete(
        user, world.channel, "move", focused="to", options={"from": board.fields[src].name}
    )
    assert {c["value"] for c in got} == {a.dst for a in moves if a.src == src}
    attacks = [a for a in legal if isinstance(a, pyramids.Attack)]
    got = await world.fake.autocomplete(user, world.channel, "invade", focused="from")
    assert {c["value"] for c in got} == {a.src for a in attacks}
    conscripts = {a.field for a in legal if isinstance(a, pyramids.Conscript)}
    got = await world.fake.autocomplete(user, world.channel, "conscript", focused="field")
    assert {c["value"] for c in got} == conscripts
    typed = board.fields[next(iter(conscripts))].name[:3] if conscripts else "zz"
    got = await world.fake.autocomplete(
        user, world.channel, "conscript", focused="field", field=typed
    )
    assert all(typed.lower() in c["name"].lower() for c in got)
    # someone whose turn it is not is offered nothing
    other = next(u for n, u in world.users.items() if n in ("ann", "bob", "cy") and n != mover)
    assert await world.fake.autocomplete(other, world.channel, "move", focused="from") == []
    spies = await world.fake.autocomplete(user, world.channel, "spy", focused="player")
    assert {int(c["value"]) for c in spies} == {
        a.target for a in legal if isinstance(a, pyramids.Spy)
    }
    topics = await world.fake.autocomplete(
        user, world.channel, "rules", focused="topic", topic="EW-1"
    )
    assert 0 < len(topics) <= 25 and all("EW-1" in c["name"] for c in topics)


async def test_place_with_slash_command(world: World) -> None:
    gid = await world.open_table()
    assert world.bot is not None
    prompts = {p.user_id: p for p in await world.bot.service.prompts(gid)}
    ann = world.users["ann"]
    choice = prompts[ann.id].choices[1]
    assert isinstance(choice, pyramids.PlaceAll)
    board = pyramids.load_board("european_war")
    got = await world.fake.autocomplete(ann, world.channel, "place", focused="large")
    assert {c["value"] for c in got} == set(
        board.powers[
            (await world.bot.service.view(gid, ann.id)).view.seats[prompts[ann.id].seat].power
        ].fields
    )
    res = await world.slash(
        ann, "place", large=board.fields[choice.large].name, medium=board.fields[choice.medium].name
    )
    assert (
        not res.ephemeral and f"placed a large on {board.fields[choice.large].name}" in res.content
    )
    res = await world.slash(ann, "place", large=board.fields[choice.large].name)
    assert res.ephemeral


async def test_information_commands(world: World) -> None:
    _, mover, _ = await _turn(world)
    spectator = world.users["spectator"]
    res = await world.slash(spectator, "board")
    att = res.original.attachments[0]
    assert res.ephemeral and att.filename == "board.png" and att.description
    assert "Pieces:" in res.content or "Germany" in att.description
    res = await world.slash(spectator, "status")
    assert res.ephemeral and "Turn 1" in res.content and "cards" in res.content
    res = await world.slash(mover, "hand")
    assert res.ephemeral and "Your hand (6)" in res.content
    res = await world.slash(mover, "log", n=5)
    assert res.ephemeral and len(res.content.splitlines()) <= 5
    assert "You received" in (await world.slash(mover, "log", n=50)).content
    assert "You received" not in (await world.slash(spectator, "log", n=50)).content
    res = await world.slash(spectator, "rules", topic="EW-19")
    assert res.ephemeral and res.content.startswith("**EW-19**")
    res = await world.slash(spectator, "rules")
    assert "Diplomacy" in res.content
    for name, words in (("help", "How to play European War"), ("about", "What is stored")):
        res = await world.slash(spectator, name)
        assert res.ephemeral and words in res.content
    # /help works in a DM with the bot too
    dm = world.fake.dm_channel(spectator)
    res = await world.fake.slash(spectator, dm, "help")
    assert "/newgame" in res.content
    # a game command outside a game
    other = world.fake.add_text_channel(world.guild, "quiet")
    await world.fake.sync()
    res = await world.slash(spectator, "status", channel=other)
    assert res.ephemeral and "no game in this channel" in res.content


async def test_world_war_5_table_uses_its_own_commands(world: World) -> None:
    res = await world.slash("ann", "newgame", variant="world_war_5", players=2)
    assert "World War 5" in res.content
    gid = await world.gid()
    res = await world.slash("bob", "help")  # /help and /rules speak this table's variant
    assert "How to play World War 5" in res.content and "/grow" in res.content
    res = await world.slash("bob", "rules")
    assert "WW-2" in res.content and "EW-11" not in res.content
    await world.click("bob", world.lobby_message(), f"ew:l:{gid}:join")
    await world.click("ann", world.lobby_message(), f"ew:l:{gid}:start")
    assert world.bot is not None
    svc = world.bot.service
    for _ in range(12):  # setup: smalls, mediums, larges in turn order (WW-6)
        prompts = await svc.prompts(gid)
        if not prompts or prompts[0].kind != "setup":
            break
        p = prompts[0]
        user = world.user_of(p.user_id)
        board = pyramids.load_board("world_war_5")
        await world.answer_panel(user, gid, p.choices[0], board)
    prompts = await svc.prompts(gid)
    assert prompts and prompts[0].kind == "turn"
    mover = world.user_of(prompts[0].user_id)
    for name, options in (
        ("conscript", {"field": "usa"}),
        ("arm", {}),
        ("spy", {"player": "0"}),
        ("sabotage", {"target": "usa"}),
    ):
        res = await world.slash(mover, name, **options)
        assert res.ephemeral and "not in this variant" in res.content, (name, res.content)
    action = prompts[0].choices[0]
    assert action.kind in ("grow", "build", "move", "attack")
    if action.kind in ("grow", "build"):
        res = await world.slash(mover, action.kind, field=action.field)
        assert not res.ephemeral and res.original.attachments


def test_python_m_bot_without_a_token(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path}/x.db"
    out = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    # no terminal (a container, a service manager): a failure an orchestrator sees, one line
    assert out.returncode == 78, out.stderr
    assert out.stdout == "" and out.stderr.count("\n") == 1
    assert "No DISCORD_TOKEN is set" in out.stderr and "no terminal" in out.stderr
    assert not (tmp_path / "x.db").exists()


async def test_a_player_can_turn_pings_off(world: World) -> None:
    bob = world.users["bob"]
    res = await world.slash(bob, "pings", setting="off")
    assert res.ephemeral and "no longer ping" in res.content
    await world.open_table()
    policy = Policy()
    turn_line = f"<@{bob.id}>, your turn"
    for _ in range(40):
        if any(turn_line in m.content for m in world.fake.messages(world.channel)):
            break
        assert await world.step(policy)
    for req in world.fake.requests:
        body = req.json if isinstance(req.json, dict) else {}
        data = body.get("data") or body
        if turn_line in (data.get("content") or ""):
            assert data["allowed_mentions"]["users"] == [], "named, not pinged"
            break
    else:
        raise AssertionError("bob's turn never came")
    assert world.bot is not None and not await world.bot.db.user_pings(bob.id)
    await world.stop()  # the choice is in the database: a restart keeps it
    await world.start()
    assert world.bot is not None and not await world.bot.db.user_pings(bob.id)
    await world.slash(bob, "pings", setting="on")
    assert await world.bot.db.user_pings(bob.id)


async def test_a_world_war_5_game_to_the_end(world: World) -> None:
    world.seed = 37
    await world.slash("ann", "newgame", variant="world_war_5", players=2)
    gid = await world.gid()
    await world.click("bob", world.lobby_message(), f"ew:l:{gid}:join")
    await world.click("ann", world.lobby_message(), f"ew:l:{gid}:start")
    policy = Policy()
    st = await world.play_to_end(gid, policy, 60)
    assert st.status == "finished"
    text = "\n".join(m.content for m in world.fake.messages(world.channel))
    assert "Dice:" in text and "Game over" in text
    assert "♠" not in text and "♥" not in text, "no cards in World War 5"


async def test_hint_answers_privately_first_and_only_for_ones_own_decision(
    world: World,
) -> None:
    gid, mover, state = await _turn(world)
    assert world.bot is not None
    svc = world.bot.service
    seat = state.current
    names = [s.name for s in (await svc.status(gid)).seats]
    words = rules.game_named("european_war").presentation
    view = state.view_for(seat)
    labels = {words.action_label(a, view, names) for a in state.legal_actions(seat)}

    # the search waits until the interaction is acknowledged: the answer comes after
    release = threading.Event()
    real = svc.adviser

    def held(game: str, view: Any, legal: Sequence[Any], seed: int) -> ai.Hint:
        release.wait(10)
        return real(game, view, legal, seed)

    svc.adviser = held
    try:
        asking = asyncio.ensure_future(
            world.fake.slash(world.users[mover], world.channel, "hint", timeout=15)
        )
        for _ in range(1000):  # until the bot acknowledged it
            pending = [i for i in world.fake.interactions.values() if i.data.get("name") == "hint"]
            if pending and pending[-1].acknowledged_at is not None:
                break
            await asyncio.sleep(0.005)
        assert pending and pending[-1].answered_at is None, "acknowledged before the answer"
        release.set()
        res = await asking
    finally:
        release.set()
        svc.adviser = real
    await world.settle()
    assert res.ephemeral and res.ack_delay is not None
    assert res.ack_delay < world.fake.interaction_deadline
    first, *why = res.content.splitlines()
    assert first.startswith("**Hint:** ") and first.removeprefix("**Hint:** ") in labels
    assert why[-1] == "(Hints you took in this game: 1.)" and len(why) >= 2
    assert await svc.store.hints_taken(world.users[mover].id, gid) == 1

    # nobody else gets a hint for this decision
    other = next(n for n in ("ann", "bob", "cy") if n != mover)
    res = await world.slash(other, "hint")
    assert res.ephemeral and "no decision to make now" in res.content
    res = await world.slash("spectator", "hint")
    assert res.ephemeral and "not playing in this game" in res.content
    quiet = world.fake.add_text_channel(world.guild, "quiet-hints")
    await world.fake.sync()
    res = await world.slash(mover, "hint", channel=quiet)
    assert res.ephemeral and "no game in this channel" in res.content
    assert await svc.store.hints_taken(world.users[other].id) == 0
