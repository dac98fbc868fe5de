"""One person against two computer seats, to the end: computers play their turns and
answer their prompts by themselves; their moves reach the channel like anyone's."""

from __future__ import annotations

from tests.bot.e2e.harness import World, make_world
from tests.bot.e2e.policy import Policy, aggressive_computer


async def test_one_person_against_two_computers(fake_discord, tmp_path) -> None:
    world: World = await make_world(fake_discord, tmp_path, start=False)
    world.seed = 113
    await world.start(service_options={"chooser": aggressive_computer})
    try:
        res = await world.slash("ann", "newgame")
        gid = await world.gid()
        res = await world.slash("ann", "addbot", level="easy")
        assert "Computer 1 (easy)" in res.content
        await world.click("ann", world.lobby_message(), f"ew:l:{gid}:bot")
        res = await world.slash("ann", "start")
        assert not res.ephemeral and "Seat order" in res.content
        policy = Policy()
        st = await world.play_to_end(gid, policy, 120)
        assert st.status == "finished"
        assert world.bot is not None
        texts = [m.content for m in world.fake.messages(world.channel)]
        assert any("(computer)" in t and "attacks" in t for t in texts), "computers attacked"
        assert any("(computer) is to play" in t for t in texts)
        boards = [
            m
            for m in world.fake.messages(world.channel)
            if m.attachments and m.attachments[0].filename == "board.png"
        ]
        assert len(boards) > policy.steps, "computer moves have their own board messages"
        # computers get no DMs and never block: every human prompt was answered
        assert not await world.bot.service.prompts(gid)
    finally:
        await world.stop()
