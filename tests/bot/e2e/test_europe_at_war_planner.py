"""Europe at War's move planner on the turn panel, through the fake Discord with the real
client: an order built step by step (the General, a destination, the way, the payment,
Confirm), a drop-off on its way, Undo, then Submit to show the plan. A panel of an
earlier version, a click by the player who is not deciding, and an order the rules do not
allow are each refused with a short private reason that changes nothing."""

from __future__ import annotations

from typing import Any

from tests.bot.e2e.clicks import Clicker, _engine
from tests.bot.e2e.harness import World
from tests.bot.e2e.test_europe_at_war import Heuristic, _two_on_compact
from tests.fake_discord import FakeMessage, FakeUser


def _buttons(panel: FakeMessage) -> dict[str, str]:
    """The panel's buttons: label -> custom id."""
    return {b.get("label", ""): b["custom_id"] for b in panel.buttons}


def _steps(panel: FakeMessage) -> list[tuple[str, str]]:
    """The buttons that go one step further (not Back, Cancel or Confirm)."""
    return [
        (b.get("label", ""), b["custom_id"])
        for b in panel.buttons
        if b["custom_id"].startswith("ew:t:") and b.get("label") not in ("◀ Back", "✖ Cancel")
    ]


def _forged(world: World, user: FakeUser, custom_id: str) -> FakeMessage:
    """A DM to ``user`` with one button ``custom_id``: what a client sends from an
    out-of-date or tampered copy of a panel."""
    button = {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}
    return world.fake._create_message(
        world.fake.dm_channel(user),
        world.fake.bot_user,
        {"content": "a panel", "components": [{"type": 1, "components": [button]}]},
        [],
    )


async def _press(world: World, user: FakeUser, panel: FakeMessage, custom_id: str) -> Any:
    res = await world.click(user, panel, custom_id)
    assert res.responded and not res.errors and not res.expired, res
    assert not (res.ephemeral and res.response_type == 4), res.content  # not refused
    return res


async def test_the_move_planner_by_clicking(world: World) -> None:
    gid = await _two_on_compact(world)
    assert world.bot is not None
    svc = world.bot.service
    clicker, policy = Clicker(world, channel_every=0), Heuristic()
    while (prompt := (await svc.prompts(gid))[0]).kind != "plan":
        assert await clicker.step(policy) and policy.steps < 300
    mover = world.user_of(prompt.user_id)
    waiting = next(u for u in (world.users["ann"], world.users["bob"]) if u is not mover)
    panel = clicker._freshest_turn(mover, gid)
    version = (await svc.status(gid)).version
    assert "Order" in _buttons(panel) and "show the plan" in _buttons(panel)
    assert "take back the last order" not in _buttons(panel), "no Undo before an order"

    # the order: its General ...
    await _press(world, mover, panel, _buttons(panel)["Order"])
    general = next((lab, cid) for lab, cid in _steps(panel) if lab.startswith("General"))
    await _press(world, mover, panel, general[1])
    assert "➤ **Order** ·" in panel.content
    # ... a destination from the legal ones ...
    select = next(c for c in panel.walk_components() if c.get("type") == 3)
    group = general[1].rsplit(".", 1)[-1]
    legal = {a.dest for a in prompt.choices if a.kind == "move" and a.group == group}
    offered = [o["value"] for c in panel.walk_components() for o in c.get("options", [])]
    assert legal and set(offered) == legal, (offered, legal)
    dest = offered[0]
    await world.fake.select(mover, panel, select["custom_id"], [dest])
    await world.settle()
    # ... the way there ...
    way = _steps(panel)
    assert way, panel.content
    await _press(world, mover, panel, way[0][1])
    # ... and the payment: the free move
    pay = dict(_steps(panel))
    assert "free move" in pay, pay
    await _press(world, mover, panel, pay["free move"])
    assert (await svc.status(gid)).version == version, "nothing is done before Confirm"
    first_order = _buttons(panel)["✔ Confirm"]
    await _press(world, mover, panel, first_order)
    plan = _engine(world, gid).plan
    assert [(o.kind, o.path[-1], o.pay) for o in plan] == [("move", dest, "free")]
    assert (await svc.status(gid)).version == version + 1

    # the panel opened from the channel now, to go out of date later
    turn_msg = next(
        m for m in reversed(world.fake.messages(world.channel)) if m.component(f"ew:p:{gid}:t")
    )
    shown = await world.click(mover, turn_msg, f"ew:p:{gid}:t")
    assert shown.ephemeral and shown.original is not None
    old_panel = shown.original
    old_order = _buttons(old_panel)["Order"]

    # the other player cannot act on the mover's panel, nor on the channel's button
    res = await world.click(waiting, turn_msg, f"ew:p:{gid}:t")
    assert res.ephemeral and "nothing to decide now" in res.content, res.content
    res = await world.click(waiting, _forged(world, waiting, old_order), old_order)
    assert res.ephemeral and "nothing to decide now" in res.content, res.content
    assert len(res.content) < 200
    # the same order again (its General stands at its destination now), as a tampered
    # panel would send it at the prompt's own version: refused with the rule's reason
    panel = clicker._freshest_turn(mover, gid)
    ver = (await svc.status(gid)).version
    path = first_order.split(":", 4)[4]
    assert path.endswith(".free"), path
    confirm = f"ew:tc:{gid}:{ver}:{path}"
    res = await world.click(mover, _forged(world, mover, confirm), confirm)
    assert res.ephemeral and res.content == "That is not a path from the group's space.", res

    assert (await svc.status(gid)).version == ver and len(_engine(world, gid).plan) == 1

    # a drop-off on the order's way
    buttons = _buttons(panel)
    assert "Drop" in buttons and "take back the last order" in buttons, buttons
    await _press(world, mover, panel, buttons["Drop"])
    for _ in range(4):
        if "✔ Confirm" in _buttons(panel):
            break
        sel = next((c for c in panel.walk_components() if c.get("type") == 3), None)
        if sel is not None:
            await world.fake.select(mover, panel, sel["custom_id"], [sel["options"][0]["value"]])
            await world.settle()
        else:
            await _press(world, mover, panel, _steps(panel)[0][1])
    first_order = _buttons(panel)["✔ Confirm"]
    await _press(world, mover, panel, first_order)
    plan = _engine(world, gid).plan
    assert len(plan) == 1 and len(plan[0].drops) == 1, "the drop-off is on the order"

    # Undo takes back the last step, then the order itself
    await _press(world, mover, panel, _buttons(panel)["take back the last order"])
    first_order = _buttons(panel)["✔ Confirm"]
    await _press(world, mover, panel, first_order)
    plan = _engine(world, gid).plan
    assert len(plan) == 1 and not plan[0].drops, "Undo took back the drop-off, not the order"
    while _engine(world, gid).plan:
        await _press(world, mover, panel, _buttons(panel)["take back the last order"])
        await _press(world, mover, panel, _buttons(panel)["✔ Confirm"])
    assert "take back the last order" not in _buttons(panel)

    # the order again, then Submit shows the plan and opens W1
    order = next(a for a in (await svc.prompts(gid))[0].choices if a.kind == "move")
    await clicker.turn(mover, gid, order, in_channel=False)
    panel = clicker._freshest_turn(mover, gid)
    await _press(world, mover, panel, _buttons(panel)["show the plan"])
    await _press(world, mover, panel, _buttons(panel)["✔ Confirm"])
    state = _engine(world, gid)
    assert state.step != "plan" and len(state.plan) == 1
    channel = "\n".join(m.content for m in world.fake.messages(world.channel)[-6:])
    assert "plan" in channel.lower(), channel

    # the panel opened before the plan was shown is out of date and changes nothing
    now = (await svc.status(gid)).version
    res = await world.click(mover, old_panel, old_order)
    assert res.ephemeral and ("out of date" in res.content or "nothing to decide" in res.content)
    assert (await svc.status(gid)).version == now
