"""/replay and /export through the real client and the fake Discord: a finished game's
animation posted in its channel (acknowledged first, one frame per step, within the
attachment limit the interaction tells, smaller or sampled when that limit is low), a
running game so far, the public record as a private JSON file with no card of any hand
in it, the game picked by number (autocomplete lists the channel's games), and every
refusal private, with its reason."""

from __future__ import annotations

import io
import json

from PIL import Image
from PIL.GifImagePlugin import GifImageFile

from bot.cogs.replays import NOTHING_PLAYED
from rules.pyramids.cards import card_name
from tests.bot.e2e.harness import World, cards_in, make_world
from tests.bot.e2e.policy import Policy, aggressive_computer
from tests.fake_discord import FakeMessage


def gif_of(message: FakeMessage | None, game_id: int) -> GifImageFile:
    """The replay GIF attached to ``message``."""
    assert message is not None
    [att] = message.attachments
    assert att.filename == f"game-{game_id}-replay.gif"
    image = Image.open(io.BytesIO(att.data))
    assert isinstance(image, GifImageFile)
    return image


async def finished_game(world: World) -> int:
    """ann against two computers, to the end."""
    await world.slash("ann", "newgame")
    gid = await world.gid()
    await world.slash("ann", "addbot", level="easy")
    await world.slash("ann", "addbot", level="easy")
    await world.slash("ann", "start")
    st = await world.play_to_end(gid, Policy(), 120)
    assert st.status == "finished"
    return gid


async def test_replay_and_export_of_a_finished_game(fake_discord, tmp_path) -> None:
    world = await make_world(fake_discord, tmp_path, start=False)
    world.seed = 113
    await world.start(service_options={"chooser": aggressive_computer})
    try:
        fake, bot = world.fake, world.bot
        assert bot is not None
        gid = await finished_game(world)
        replay = await bot.service.replay(gid)
        assert 20 < replay.actions < 200

        res = await world.slash("spectator", "replay")
        assert res.response_type == 5 and not res.ephemeral  # public "thinking…" first
        assert res.content.startswith(f"**Replay of game #{gid}** — European War: ")
        assert "(computer), " in res.content and "ann (" in res.content
        assert f"Finished after {replay.actions} actions." in res.content
        assert replay.result_line and replay.result_line in res.content
        gif = gif_of(res.answer, gid)
        assert gif.n_frames == replay.actions + 1  # every step, the start first
        assert len(res.answer.attachments[0].data) <= fake.attachment_limit
        assert not res.errors

        # a server with a low limit: the same game, smaller and sampled, within it
        fake.attachment_limit = 400_000
        res = await world.slash("ann", "replay", game=gid)
        data = res.answer.attachments[0].data
        assert len(data) <= 400_000 and not res.errors
        small = gif_of(res.answer, gid)
        assert small.size[0] < gif.size[0] or small.n_frames < gif.n_frames
        assert "the whole game would not fit in one file" in res.content
        fake.attachment_limit = 10 * 1024 * 1024

        # the public record, privately, as a JSON file
        res = await world.slash("bob", "export")
        assert res.ephemeral and f"The public record of game #{gid}" in res.content
        [att] = res.answer.attachments
        assert att.filename == f"game-{gid}.json"
        record = json.loads(att.data)
        assert record == await bot.service.record(gid)
        assert record["game"]["id"] == gid and len(record["steps"]) == replay.actions + 1
        rec = await bot.service.store.load_game(gid)
        assert rec is not None and rec.creation is not None and rec.state is not None
        text = att.data.decode()
        assert "seed" not in record and str(rec.creation["seed"]) not in text
        # no card left in a hand at the end is named anywhere in it
        held = {card_name(c) for hand in rec.state["hands"] for c in hand}
        assert held and not held & cards_in(text)

        # the game's number, offered by autocomplete in its channel only
        choices = await fake.autocomplete(
            world.users["ann"], world.channel, "replay", focused="game", game=""
        )
        assert [c["value"] for c in choices] == [gid]
        assert choices[0]["name"].startswith(f"#{gid} European War · ")
        assert "ann" in choices[0]["name"] and choices[0]["name"].endswith(" · finished")
        quiet = fake.add_text_channel(world.guild, "quiet")
        assert (
            await fake.autocomplete(world.users["ann"], quiet, "replay", focused="game", game="")
            == []
        )
    finally:
        await world.stop()


async def test_replay_of_a_running_game_and_the_refusals(world: World) -> None:
    fake = world.fake
    spectator = world.users["spectator"]
    res = await world.slash(spectator, "replay")
    assert res.ephemeral and res.content == NOTHING_PLAYED
    res = await world.slash(spectator, "export")
    assert res.ephemeral and res.content == NOTHING_PLAYED

    gid = await world.open_table(("ann", "bob"), start=False)
    res = await world.slash(spectator, "replay", game=gid)
    assert res.ephemeral and "has not started yet" in res.content
    assert not any(m.attachments for m in fake.messages(world.channel) if "Replay" in m.content)

    await world.click("ann", world.lobby_message(), f"ew:l:{gid}:start")
    policy = Policy()
    for _ in range(6):
        assert await world.step(policy)
    st = await world.bot.service.status(gid)  # type: ignore[union-attr]
    res = await world.slash(spectator, "replay")
    assert not res.ephemeral
    assert f"Running after {st.version} actions." in res.content
    assert gif_of(res.answer, gid).n_frames == st.version + 1

    # another channel's game is not found here
    other = fake.add_text_channel(world.guild, "other")
    res = await world.slash(spectator, "replay", game=gid, channel=other)
    assert res.ephemeral and res.content == f"There is no game #{gid} in this channel."
    res = await world.slash(spectator, "export", game=gid, channel=other)
    assert res.ephemeral and res.content == f"There is no game #{gid} in this channel."
    # nothing was posted for any refusal
    assert not [m for m in fake.messages(other) if m.content]
