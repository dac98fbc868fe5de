"""A full disk through the real client: the player who acts is told privately that the
bot cannot save right now because its disk is full; the game, its channel and the file
are unchanged; once there is space the very same command works."""

from __future__ import annotations

from typing import Any

from rules import pyramids
from service import DISK_FULL
from service.core import FULL_RETRY
from tests.bot.e2e.harness import World
from tests.bot.e2e.policy import Policy
from tests.bot.test_disk_full import disk_full, space_again, stored


async def test_a_full_disk_is_told_privately_and_the_same_command_works_later(world: World) -> None:
    gid = await world.open_table()
    assert world.bot is not None and world.bot.store is not None
    store = world.bot.store
    path = world.bot.settings.database_path
    policy = Policy()
    await disk_full(store)
    seen: dict[str, Any] = {}

    async def on_step(prompt: Any, action: pyramids.Action, res: Any, st: Any) -> None:
        seen.update(prompt=prompt, action=action, res=res, st=st)

    retried = 0
    for _ in range(200):  # play until a move needs space the disk no longer has
        channel_before = len(world.fake.messages(world.channel))
        disk_before = stored(path, gid)
        if not await world.step(policy, on_step):
            # the bot's own step (not a person's) met the full disk first: it waits for
            # space and goes through once there is some; then the disk fills again
            await space_again(store)
            world.clock.advance(FULL_RETRY + 1)
            await world.bot.settle()
            await disk_full(store)
            retried += 1
            assert retried < 20, "the game stopped for another reason than the full disk"
            continue
        if DISK_FULL in (seen["res"].content or ""):
            break
    else:
        raise AssertionError("the disk never filled")
    res, prompt, st = seen["res"], seen["prompt"], seen["st"]
    assert res.ephemeral and res.content.strip() == DISK_FULL
    assert len(world.fake.messages(world.channel)) == channel_before  # nothing posted
    assert stored(path, gid) == disk_before
    assert (await world.bot.service.status(gid)).version == st.version == disk_before[0]

    await space_again(store)
    assert st.view is not None
    user = world.user_of(prompt.user_id)
    again = await world.act(
        user, gid, seen["action"], prompt.kind, pyramids.load_board(st.view.board_id)
    )
    assert DISK_FULL not in (again.content or "")
    assert stored(path, gid)[0] == disk_before[0] + 1
    assert (await world.bot.service.status(gid)).version == disk_before[0] + 1
