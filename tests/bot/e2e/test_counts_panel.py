"""A battle's casualties on the counts panel, through the fake Discord with the real
client: − and + per unit type, the running total, Confirm. The panel opens at the
engine's suggestion, so agreeing takes one click; a total other than the one asked is
refused privately and changes nothing; a stale panel is refused too."""

from __future__ import annotations

from typing import Any

from bot.views.counts import CONFIRM_ID, COUNT_ID, write
from service import Prompt
from tests.bot.e2e.clicks import Clicker, _engine, counts_panel
from tests.bot.e2e.harness import World
from tests.bot.e2e.test_europe_at_war import Heuristic, _two_on_compact


async def _to_casualties(
    world: World, gid: int, clicker: Clicker, policy: Heuristic, types: int
) -> Prompt:
    """Play by clicking until a person chooses casualties among at least ``types``
    unit types; that prompt."""
    assert world.bot is not None
    for _ in range(3000):
        prompts = await world.bot.service.prompts(gid)
        p = prompts[0]
        if p.kind == "casualties" and p.tally is not None and len(p.tally.groups) >= types:
            return p
        assert await clicker.step(policy)
    raise AssertionError("no casualties to choose")


def _ids(msg: Any) -> dict[str, str]:
    """The panel's clickable buttons: Confirm, and the others by the counts they lead
    to (− and +, or a type's toggle)."""
    out: dict[str, str] = {}
    for c in msg.walk_components():
        cid = c.get("custom_id", "")
        if CONFIRM_ID.fullmatch(cid):
            out["confirm"] = cid
        elif (m := COUNT_ID.fullmatch(cid)) and not c.get("disabled"):
            out.setdefault("to:" + m["counts"], cid)
    return out


def _button(msg: Any, counts: list[int]) -> str:
    """The button leading to ``counts`` (a − or +, or a toggle)."""
    return _ids(msg)["to:" + write(counts)]


def _lost(before: Any, after: Any, space: str, seat: int) -> list[str]:
    """The kinds of ``seat``'s units gone from ``space`` between two engine states."""
    gone = set(before.stack(space, seat)) - set(after.stack(space, seat))
    return sorted(before.kind(u).name for u in gone)


async def test_casualties_preselected_adjusted_refused_and_confirmed(world: World) -> None:
    gid = await _two_on_compact(world)
    assert world.bot is not None
    svc = world.bot.service
    clicker, policy = Clicker(world, channel_every=0), Heuristic()
    prompt = await _to_casualties(world, gid, clicker, policy, 2)
    tally = prompt.tally
    assert tally is not None
    user = world.user_of(prompt.user_id)
    panel = counts_panel(world, prompt)
    suggested = [g.suggested for g in tally.groups]
    assert sum(suggested) == tally.total, "the suggestion is preselected in full"
    assert f"{tally.total} of {tally.total}**" in panel.content, panel.content
    assert _ids(panel)["confirm"].endswith(":" + write(suggested))

    # + on a type with none: one too many; Confirm is refused privately, nothing changes
    spare = next(i for i, n in enumerate(suggested) if n == 0)
    more = list(suggested)
    more[spare] += 1
    res = await world.click(user, panel, _button(panel, more))
    assert not res.ephemeral and counts_panel(world, prompt) is panel, "the panel itself is edited"
    assert f"{tally.total + 1} of {tally.total}**" in panel.content, panel.content
    version = (await svc.status(gid)).version
    res = await world.click(user, panel, _ids(panel)["confirm"])
    await world.settle()
    assert res.ephemeral and "choose exactly" in res.content, res.content
    assert (await svc.status(gid)).version == version, "a wrong total changes nothing"

    # − on the suggested type: the total is right again, with the other type; confirmed
    taken = max(i for i, n in enumerate(suggested) if n)
    fewer = list(more)
    fewer[taken] -= 1
    await world.click(user, panel, _button(panel, fewer))
    assert f"{tally.total} of {tally.total}**" in panel.content, panel.content
    assert tally.groups[spare].label in panel.content.rsplit("\n", 1)[-1]
    before = _engine(world, gid).copy()
    b = before.battle
    assert b is not None
    seat = prompt.seat
    owner = b.loser if b.stage == "first" else seat
    opener = next(
        m for m in reversed(world.fake.messages(world.channel)) if m.component(f"ew:p:{gid}:a")
    )
    shown = await world.click(user, opener, f"ew:p:{gid}:a")
    assert shown.ephemeral and shown.original is not None, shown.content
    assert _ids(shown.original)["confirm"] == _ids(panel)["confirm"].rsplit(":", 1)[0] + ":" + (
        write(suggested)
    ), "the panel from the channel opens at the suggestion too"
    res = await world.click(user, panel, _ids(panel)["confirm"])
    await world.settle()
    assert not res.ephemeral or "choose exactly" not in res.content, res.content
    assert (await svc.status(gid)).version > version, "the adjusted counts were taken"
    lost = _lost(before, _engine(world, gid), b.at, owner)
    assert tally.groups[spare].label in lost, lost
    # the panel opened from the channel is out of date now
    done = (await svc.status(gid)).version
    res = await world.click(user, shown.original, _ids(shown.original)["confirm"])
    await world.settle()
    stale = ("out of date", "nothing to decide now")  # as the seat decides again or not
    assert res.ephemeral and any(w in res.content for w in stale), res.content
    assert (await svc.status(gid)).version == done, "nothing done by the stale panel"

    # the next casualties: the suggestion confirmed in one click
    prompt = await _to_casualties(world, gid, clicker, policy, 1)
    assert prompt.tally is not None
    user = world.user_of(prompt.user_id)
    panel = counts_panel(world, prompt)
    before = _engine(world, gid).copy()
    b = before.battle
    assert b is not None
    owner = b.loser if b.stage == "first" else prompt.seat
    want = sorted(g.label for g in prompt.tally.groups for _ in range(g.suggested))
    res = await world.click(user, panel, _ids(panel)["confirm"])
    await world.settle()
    assert not res.ephemeral, res.content
    assert _lost(before, _engine(world, gid), b.at, owner) == want
