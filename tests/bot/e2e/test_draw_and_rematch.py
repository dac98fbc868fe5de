"""A draw by agreement and a rematch, through the real client and the fake Discord: /draw
and the proposal's *Agree to a draw* ask to confirm privately, each vote is shown in the
channel, one *Refuse* withdraws them all, computers never block a draw (alone with them,
one confirmed vote ends the game), a game without draws says so; *Rematch* on the last
message opens a table here with the same seats (started at once for a lone person), and
every stale click gets a short private reason."""

from __future__ import annotations

from typing import Any

from tests.bot.e2e.harness import World
from tests.fake_discord import FakeMessage


async def _table(world: World, people: tuple[str, ...], computers: int) -> int:
    host, *others = people
    await world.slash(host, "newgame")
    gid = await world.gid()
    lobby = world.lobby_message()
    for name in others:
        await world.click(name, lobby, f"ew:l:{gid}:join")
    for _ in range(computers):
        await world.click(host, lobby, f"ew:l:{gid}:bot")
    await world.click(host, lobby, f"ew:l:{gid}:start")
    return gid


def _newest(world: World, custom_id: str) -> FakeMessage:
    found = next(
        (m for m in reversed(world.fake.messages(world.channel)) if m.component(custom_id)), None
    )
    assert found is not None, custom_id
    return found


async def _confirm(world: World, user: str, asked: Any) -> Any:
    """Press the confirmation's first button (the danger one)."""
    panel = asked.answer
    assert asked.ephemeral and panel is not None and panel.buttons, asked.content
    return await world.click(user, panel, panel.buttons[0]["custom_id"])


async def test_a_draw_vote_passes_and_the_rematch_seats_everyone_again(world: World) -> None:
    gid = await _table(world, ("ann", "bob"), computers=1)
    assert world.bot is not None
    svc = world.bot.service
    asked = await world.slash("ann", "draw")
    assert "Propose a draw?" in asked.content and "computer players are not asked" in asked.content
    keep = await world.click("ann", asked.answer, asked.answer.buttons[1]["custom_id"])
    assert "Nothing changed" in keep.content
    assert not any(s.agrees_draw for s in (await svc.status(gid)).seats)
    done = await _confirm(world, "ann", await world.slash("ann", "draw"))
    assert "You agreed to a draw" in done.content
    proposal = _newest(world, f"ew:d:{gid}:yes")
    assert "ann agrees to a draw (1 of 2)" in proposal.content
    again = await world.slash("ann", "draw")
    assert again.ephemeral and "already agree" in again.content and not again.answer.buttons
    spectator = await world.click("spectator", proposal, f"ew:d:{gid}:yes")
    assert spectator.ephemeral and "not playing" in spectator.content
    asked = await world.click("bob", proposal, f"ew:d:{gid}:yes")
    assert "End the game in a draw now?" in asked.content
    ended = await _confirm(world, "bob", asked)
    assert "ended in a draw" in ended.content
    st = await svc.status(gid)
    assert st.status == "finished" and st.result is not None and st.result["draw"]
    last = _newest(world, f"ew:r:{gid}")
    assert "bob agrees to a draw (2 of 2)" in last.content and "draw" in last.content.lower()
    stale = await world.click("ann", proposal, f"ew:d:{gid}:yes")
    assert stale.ephemeral and "over" in stale.content

    # the rematch: same people and computer, at the same sides; bob hosts it
    before = sorted((s.user_id or 0, s.computer_level, s.power) for s in st.seats)
    spectator = await world.click("spectator", last, f"ew:r:{gid}")
    assert spectator.ephemeral and "Only a player" in spectator.content
    res = await world.click("bob", last, f"ew:r:{gid}")
    assert not res.ephemeral and "Seats (3/" in res.content, res.content
    for name in ("ann", "bob"):
        assert world.users[name].mention in res.content
    new = await world.gid()
    assert new != gid
    lobby = world.lobby_message()
    assert lobby.component(f"ew:l:{new}:start") is not None
    twice = await world.click("ann", last, f"ew:r:{gid}")
    assert twice.ephemeral and "already open in this channel" in twice.content
    await world.click("bob", lobby, f"ew:l:{new}:start")
    after = await svc.status(new)
    assert after.status == "running" and after.host_id == world.users["bob"].id
    assert sorted((s.user_id or 0, s.computer_level, s.power) for s in after.seats) == before


async def test_a_refused_draw_withdraws_every_vote(world: World) -> None:
    gid = await _table(world, ("ann", "bob", "cy"), computers=0)
    assert world.bot is not None
    await _confirm(world, "ann", await world.slash("ann", "draw"))
    proposal = _newest(world, f"ew:d:{gid}:yes")
    await _confirm(world, "bob", await world.click("bob", proposal, f"ew:d:{gid}:yes"))
    assert "bob agrees to a draw (2 of 3)" in _newest(world, f"ew:d:{gid}:yes").content
    refused = await world.click("cy", proposal, f"ew:d:{gid}:no")
    assert refused.ephemeral and "refused the draw" in refused.content
    text = world.fake.messages(world.channel)[-1].content
    assert "cy refuses a draw; the game goes on." in text
    st = await world.bot.service.status(gid)
    assert st.status == "running" and not any(s.agrees_draw for s in st.seats)
    stale = await world.click("bob", proposal, f"ew:d:{gid}:yes")
    assert stale.ephemeral and "No draw is proposed now" in stale.content
    twice = await world.click("cy", proposal, f"ew:d:{gid}:no")
    assert twice.ephemeral and "Nobody has proposed a draw" in twice.content


async def test_alone_with_computers_one_vote_ends_the_game_and_a_rematch_starts_at_once(
    world: World,
) -> None:
    gid = await _table(world, ("ann",), computers=2)
    assert world.bot is not None
    asked = await world.slash("ann", "draw")
    assert "the game ends at once" in asked.content
    await _confirm(world, "ann", asked)
    assert (await world.bot.service.status(gid)).status == "finished"
    end = _newest(world, f"ew:r:{gid}")
    res = await world.click("ann", end, f"ew:r:{gid}")
    assert not res.ephemeral and "The game has started" in res.content
    new = await world.gid()
    assert new != gid and (await world.bot.service.status(new)).status == "running"
    after = [m for m in world.fake.messages(world.channel) if m.id > end.id]
    assert any("Seat order" in m.content for m in after)


async def test_a_game_without_draws_says_so(claim_line: None, world: World) -> None:
    await world.slash("ann", "newgame", variant="claim_line", players=2)
    gid = await world.gid()
    lobby = world.lobby_message()
    await world.click("bob", lobby, f"ew:l:{gid}:join")
    await world.click("ann", lobby, f"ew:l:{gid}:start")
    res = await world.slash("ann", "draw")
    assert res.ephemeral and "Claim the Line cannot end in a draw" in res.content
    assert not res.answer.buttons
