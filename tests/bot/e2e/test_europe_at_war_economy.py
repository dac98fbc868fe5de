"""Europe at War's Recruit and Upkeep Phases on the counts panel, through the fake
Discord with the real client: the drawn chits as buy toggles with the running cost
against the treasury and a city select (EA-29); the units to disband with the engine's
suggestion preselected and an "at least" total, then the savings split with all in the
capital (EA-30, EA-28). Happy paths, a total the bound refuses, and stale clicks.

The treasury is set by hand before a phase (on the engine state the service holds) so
that the refusals are certain to be reachable: nothing else is changed."""

from __future__ import annotations

from typing import Any

from bot.views.counts import CONFIRM_ID, COUNT_ID, PLACE_ID, read, write
from rules.europe_at_war.state import EaState
from service import Prompt
from tests.bot.e2e.clicks import Clicker, _engine, counts_panel
from tests.bot.e2e.harness import World
from tests.bot.e2e.test_europe_at_war import Heuristic, _two_on_compact


async def _to(world: World, gid: int, clicker: Clicker, kind: str, fits: Any) -> Prompt:
    """Play by clicking until a person's decision of ``kind`` that ``fits``; its prompt."""
    assert world.bot is not None
    policy = Heuristic()
    for _n in range(4000):
        prompts = await world.bot.service.prompts(gid)
        p = prompts[0]
        if p.kind == kind and p.tally is not None and fits(p, _engine(world, gid)):
            return p
        assert await clicker.step(policy)
    raise AssertionError(f"no {kind} decision")


def _set_treasury(world: World, gid: int, seat: int, rp: int) -> None:
    """Set ``seat``'s treasury on the engine state the service holds (and drop the views
    it made of the state before)."""
    assert world.bot is not None
    live = world.bot.service._games[gid]
    assert live.state is not None
    live.state.treasury[seat] = rp  # type: ignore[attr-defined]
    live.cached_views = None


def _to_counts(msg: Any, counts: list[int]) -> str:
    """The button of ``msg`` leading to ``counts`` (a toggle, − or +)."""
    for c in msg.walk_components():
        m = COUNT_ID.fullmatch(c.get("custom_id", ""))
        if m and not c.get("disabled") and m["counts"] == write(counts):
            return str(c["custom_id"])
    raise AssertionError(f"no button to {counts}: {msg.components}")


def _confirm(msg: Any, more: bool = False) -> str:
    """Confirm (``more``: the one that does not finish)."""
    for c in msg.walk_components():
        m = CONFIRM_ID.fullmatch(c.get("custom_id", ""))
        if m and bool(m["more"]) == more:
            return str(c["custom_id"])
    raise AssertionError(f"no confirm: {msg.components}")


def _toggle(c: dict[str, Any]) -> bool:
    """A component is a type's toggle (a button leading to counts, not *Suggested* nor
    a page)."""
    m = COUNT_ID.fullmatch(c.get("custom_id", ""))
    return bool(m and m["counts"] and c.get("label", "")[:1] in "☐☑")


def _line(msg: Any) -> str:
    """The panel's last line (the running total)."""
    return str(msg.content).rsplit("\n", 1)[-1]


def _recruits(prompt: Prompt, state: EaState) -> bool:
    """At least two chits drawn and two cities to place them in."""
    t = prompt.tally
    return t is not None and len(t.groups) >= 2 and len(t.places) >= 2


async def test_recruits_as_toggles_with_a_running_cost_and_a_city(world: World) -> None:
    gid = await _two_on_compact(world)
    assert world.bot is not None
    svc = world.bot.service
    clicker = Clicker(world, channel_every=0)
    prompt = await _to(world, gid, clicker, "recruit", _recruits)
    state = _engine(world, gid)
    seat = prompt.seat
    drawn = list(state.drawn[seat])
    costs = [state.kind(u).force for u in drawn]
    cheap = sorted(range(len(drawn)), key=lambda i: costs[i])[:2]
    money = costs[cheap[0]] + costs[cheap[1]] - 1  # one of them, not both
    _set_treasury(world, gid, seat, money)
    user = world.user_of(prompt.user_id)
    panel = counts_panel(world, prompt)
    toggles = [c["label"] for c in panel.walk_components() if _toggle(c)]
    assert len(toggles) == len(drawn) and all(t.startswith("☐") for t in toggles), toggles

    # toggle both cheap chits: the running cost is over the treasury; Confirm is refused
    counts = [0] * len(drawn)
    for i in cheap:
        counts[i] = 1
        res = await world.click(user, panel, _to_counts(panel, counts))
        assert not res.ephemeral, res.content
    line = _line(panel)
    total = costs[cheap[0]] + costs[cheap[1]]
    assert f"RP: **{total}** of at most {money}" in line and "(adjust the counts)" in line, line
    version = (await svc.status(gid)).version
    res = await world.click(user, panel, _confirm(panel))
    await world.settle()
    assert res.ephemeral and f"no more than {money}" in res.content, res.content
    assert (await svc.status(gid)).version == version, "an over-budget buy changes nothing"

    # one chit off, a second city chosen: confirmed, the chit is there and paid for
    counts[cheap[1]] = 0
    await world.click(user, panel, _to_counts(panel, counts))
    chosen = drawn[cheap[0]]
    tally = prompt.tally
    assert tally is not None
    place = next(p for p in range(1, len(tally.places)) if tally.groups[cheap[0]].at(p))
    select = next(
        c["custom_id"]
        for c in panel.walk_components()
        if PLACE_ID.fullmatch(c.get("custom_id", ""))
    )
    res = await world.fake.select(user, panel, select, [str(place)])
    await world.settle()
    assert f"**{tally.places[place]}**" in _line(panel), _line(panel)
    assert f"RP: **{costs[cheap[0]]}** of at most {money}" in _line(panel)
    opener = next(
        m for m in reversed(world.fake.messages(world.channel)) if m.component(f"ew:p:{gid}:a")
    )
    shown = await world.click(user, opener, f"ew:p:{gid}:a")
    assert shown.ephemeral and shown.original is not None, shown.content
    old_panel = shown.original
    assert _line(old_panel).startswith("➤ RP: **0** of at most"), "it opens at the suggestion"
    res = await world.click(user, panel, _confirm(panel))
    await world.settle()
    assert not res.ephemeral, res.content
    after = _engine(world, gid)
    bought = after.units.get(chosen)
    assert bought is not None and bought.owner == seat, "the chit was recruited"
    assert after.units[chosen].space == tally.groups[cheap[0]].at(place)[0].at
    assert after.treasury[seat] == money - costs[cheap[0]]
    assert (
        after.step != "recruit"
        or after.current != seat
        or after.drawn[seat] != [u for u in drawn if u != chosen]
    ), "Confirm finished the Recruit Phase (no chit left drawn unbought)"
    # the old panel is out of date now: its Confirm changes nothing
    done = (await svc.status(gid)).version
    res = await world.click(user, old_panel, _confirm(old_panel, more=True))
    await world.settle()
    assert res.ephemeral and ("out of date" in res.content or "nothing to decide" in res.content)
    assert (await svc.status(gid)).version == done


async def test_upkeep_preselected_then_savings_in_the_capital(world: World) -> None:
    gid = await _two_on_compact(world)
    assert world.bot is not None
    svc = world.bot.service
    clicker = Clicker(world, channel_every=0)

    def several(prompt: Prompt, state: EaState) -> bool:
        return len(state.units_of(prompt.seat)) >= 3

    prompt = await _to(world, gid, clicker, "upkeep", several)
    state = _engine(world, gid)
    seat = prompt.seat
    units = len(state.units_of(seat))
    _set_treasury(world, gid, seat, units - 1)  # one unit cannot be paid for (EA-30 step 5)
    user = world.user_of(prompt.user_id)
    panel = counts_panel(world, prompt)
    # the panel reads the game as it stands: Suggested brings the engine's pick
    res = await world.click(user, panel, _suggested(panel))
    assert not res.ephemeral, res.content
    assert "Units to disband: **1**, at least 1" in _line(panel), _line(panel)
    counts = _counts_of(panel)
    assert sum(counts) == 1
    # one less: refused with the bound's reason, nothing changed
    fewer = [0] * len(counts)
    await world.click(user, panel, _to_counts(panel, fewer))
    assert "**0**, at least 1" in _line(panel), _line(panel)
    version = (await svc.status(gid)).version
    res = await world.click(user, panel, _confirm(panel))
    await world.settle()
    assert res.ephemeral and "at least 1" in res.content, res.content
    assert (await svc.status(gid)).version == version
    # back to the suggestion: one click confirms it and pays the upkeep
    await world.click(user, panel, _suggested(panel))
    res = await world.click(user, panel, _confirm(panel))
    await world.settle()
    assert not res.ephemeral, res.content
    after = _engine(world, gid)
    assert len(after.units_of(seat)) == units - 1
    assert after.step != "upkeep" or after.current != seat
    # the savings: all in the capital, preselected; one click (or none: one city only)
    prompts = await svc.prompts(gid)
    if prompts and prompts[0].kind == "deposit" and prompts[0].seat == seat:
        p = prompts[0]
        assert p.tally is not None
        left = p.tally.total
        panel = counts_panel(world, p)
        assert f"RP: **{left} of {left}**" in _line(panel), _line(panel)
        capital = after.map.home(after.nations[seat]).capital
        res = await world.click(user, panel, _confirm(panel))
        await world.settle()
        assert not res.ephemeral, res.content
        assert _engine(world, gid).deposits.get(capital, 0) >= left


def _suggested(msg: Any) -> str:
    """*Suggested*: the button with no counts."""
    for c in msg.walk_components():
        m = COUNT_ID.fullmatch(c.get("custom_id", ""))
        if m and not m["counts"]:
            return str(c["custom_id"])
    raise AssertionError("no Suggested button")


def _counts_of(msg: Any) -> list[int]:
    """The counts a panel's Confirm carries."""
    m = CONFIRM_ID.fullmatch(_confirm(msg))
    assert m is not None
    return list(read(m["counts"]) or ())
