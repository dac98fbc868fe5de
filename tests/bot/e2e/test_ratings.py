"""/leaderboard and /stats through the real client and the fake Discord: games of Claim
the Line (``tests/games/claim_line.py``) played to the end through Discord in two servers
are rated; the leaderboard of a server lists only its players, everyone's lists all, with
the asker's own line; /stats gives a person's record in words and their rating over time
as a chart drawn from the stored ratings; nothing rated yet, a DM, and a server's
leaderboard asked for in a DM. Privately every time. Nothing under bot/ names the game."""

from __future__ import annotations

import pytest

import bot.reply
from render.chart import Series, rating_chart, rating_chart_text
from rules import contract
from tests.bot.e2e.harness import World
from tests.bot.e2e.test_answer_first import HeldImages
from tests.fake_discord.models import FakeChannel
from tests.render.helpers import decode


@pytest.fixture
async def claim_world(claim_line: None, world: World) -> World:
    """The bot started with Claim the Line registered (its commands, and the games
    /leaderboard offers, are made at start-up)."""
    return world


async def play(world: World, channel: FakeChannel, first: str, second: str) -> None:
    """``first`` opens a table of two in ``channel``, ``second`` joins, and they play to
    the end through Discord: ``first`` claims the top row, ``second`` cells off it, every
    claim allowed on the DM panel; ``first`` wins."""
    assert world.bot is not None
    svc = world.bot.service
    plans = {first: ["a1", "b1", "c1"], second: ["a2", "c2", "a3"]}
    res = await world.slash(first, "newgame", variant="claim_line", players=2, channel=channel)
    assert not res.ephemeral, res.content
    gid = await svc.active_game(channel.id)
    assert gid is not None
    await world.slash(second, "join", channel=channel)
    await world.slash(first, "start", channel=channel)
    names = {world.users[n].id: n for n in plans}
    for _ in range(20):
        st = await svc.status(gid)
        if st.status != "running":
            break
        decision = st.decisions[0]
        name = names[decision.user_id or 0]
        user = world.users[name]
        if decision.kind == "turn":
            free = {
                c["value"]
                for c in await world.fake.autocomplete(user, channel, "claim", focused="cell")
            }
            cell = next(c for c in plans[name] if c in free)
            res = await world.slash(user, "claim", cell=cell, channel=channel)
            assert not res.ephemeral, res.content
            continue
        panel = next(m for m in reversed(world.fake.dm_messages(user)) if m.buttons)
        allow = next(b["custom_id"] for b in panel.buttons if b["label"] == "Allow")
        await world.click(user, panel, allow)
    st = await svc.status(gid)
    assert st.status == "finished" and st.result is not None
    assert st.result.get("winners") == [0 if st.seats[0].name == first else 1]


async def test_leaderboard_and_stats_through_discord(claim_world: World) -> None:
    world = claim_world
    fake = world.fake
    assert world.bot is not None
    svc = world.bot.service
    ann, bob, cy, dee = (world.users[n] for n in ("ann", "bob", "cy", "dee"))
    synced = {c["name"]: c for c in fake.commands[None]}
    game_option, scope_option = synced["leaderboard"]["options"]
    assert {c["value"] for c in game_option["choices"]} == set(contract.game_names())
    assert [c["value"] for c in scope_option["choices"]] == ["server", "global"]
    assert synced["stats"]["options"][0]["type"] == 6  # a user

    # nothing rated yet
    res = await world.slash(ann, "leaderboard", game="claim_line")
    assert res.ephemeral and "Nobody is rated yet" in res.content, res.content
    res = await world.slash(ann, "stats")
    assert res.ephemeral and res.content == "ann has not finished a game in a server yet."
    assert not res.answer.attachments

    # Ann beats Bob here; Dee beats Cy in another server
    await play(world, world.channel, "ann", "bob")
    other = fake.add_guild("Other Server")
    war = fake.add_text_channel(other, "war")
    await play(world, war, "dee", "cy")
    await svc.idle()
    ratings = {u.id: (await svc.store.user_ratings(u.id))[0].ordinal for u in (ann, bob, cy, dee)}
    assert ratings[ann.id] == ratings[dee.id] > 0 > ratings[bob.id] == ratings[cy.id]

    def line(place: int, name: str, games: str, you: bool = False) -> str:
        who = f"**{name}** (you)" if you else name
        user = world.users[name]
        return f"{place}. {who} — {ratings[user.id]:.1f} · {games}"

    # this server's leaderboard: its two players; the game played here is the default
    res = await world.slash(bob, "leaderboard")
    assert res.ephemeral
    lines = res.content.splitlines()
    assert lines[0] == "**Claim the Line — leaderboard of Test Server** (2 rated players)"
    assert lines[1:3] == [line(1, "ann", "1 game, 1 win"), line(2, "bob", "1 game, 0 wins", True)]
    # everyone's: four, equal ratings by user id
    res = await world.slash(cy, "leaderboard", scope="global", channel=war)
    lines = res.content.splitlines()
    assert lines[0] == "**Claim the Line — leaderboard of everyone** (4 rated players)"
    assert lines[1:5] == [
        line(1, "ann", "1 game, 1 win"),
        line(2, "dee", "1 game, 1 win"),
        line(3, "bob", "1 game, 0 wins"),
        line(4, "cy", "1 game, 0 wins", True),
    ]
    # the other server's, asked for there; from a DM, everyone's (a server's is refused)
    res = await world.slash(cy, "leaderboard", game="claim_line", channel=war)
    assert res.content.splitlines()[0].endswith("of Other Server** (2 rated players)")
    dm = fake.dm_channel(ann)
    res = await world.slash(ann, "leaderboard", game="claim_line", channel=dm)
    assert res.ephemeral and "leaderboard of everyone** (4 rated players)" in res.content
    res = await world.slash(ann, "leaderboard", game="claim_line", scope="server", channel=dm)
    assert res.ephemeral and res.content.startswith("There is no server here"), res.content

    # Ann's own stats: her record, and the chart of her rating drawn from the store
    res = await world.slash(ann, "stats")
    assert res.ephemeral
    stats = await svc.player_stats(ann.id)
    (kind,) = stats.kinds
    assert res.content.splitlines() == [
        "**Stats of ann**",
        f"**Claim the Line** · rating **{ratings[ann.id]:.1f}** (1st of 4)",
        "1 game: 1 win, 0 shared wins, 0 draws, 0 losses",
        f"Favourite side: {kind.favourite} (1 game)",
    ]
    assert "Hints taken" not in res.content  # none taken yet
    (chart,) = res.answer.attachments
    results = await svc.store.user_results(ann.id)
    assert [r.game_id for r in results] == [results[0].game_id]
    points = tuple((r.ended_at, r.ordinal) for r in results if r.ordinal is not None)
    assert points == ((results[0].ended_at, ratings[ann.id]),)
    series = [Series("Claim the Line", points)]
    assert chart.filename == "rating.png" and chart.data == rating_chart("ann", series)
    assert chart.description == rating_chart_text("ann", series)
    assert decode(chart.data).size == (640, 300)

    # someone else's, by the player option; someone who never played
    res = await world.slash(dee, "stats", player=bob)
    assert res.ephemeral and res.content.splitlines()[0] == "**Stats of bob**"
    assert "1 game: 0 wins, 0 shared wins, 0 draws, 1 loss" in res.content
    assert "(3rd of 4)" in res.content and res.answer.attachments
    spectator = world.users["spectator"]
    res = await world.slash(ann, "stats", player=spectator)
    assert res.content == "spectator has not finished a game in a server yet."
    assert not res.answer.attachments

    # the hints a person took (/hint counts them) show on their stats
    for _ in range(2):
        await svc.store.count_hint(results[0].game_id, ann.id)
    res = await world.slash(ann, "stats")
    assert res.content.splitlines()[-1] == "Hints taken: 2"


async def test_stats_answer_with_words_first_while_the_chart_is_held(
    claim_world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the renderer held, /stats answers at once in words; the chart comes by an
    edit of that answer once drawn."""
    world = claim_world
    assert world.bot is not None
    await play(world, world.channel, "ann", "bob")
    monkeypatch.setattr(bot.reply, "WORDS_FIRST_AFTER", 0.05)
    held = HeldImages(world.bot.delivery.images)
    world.bot.delivery.images = held  # type: ignore[assignment]  # a stand-in for Images
    world.words_only = True
    res = await world.slash("bob", "stats")
    answer = res.answer
    assert answer is not None and res.ephemeral and "**Stats of bob**" in res.content
    assert held.held == 1 and not answer.attachments
    assert res.ack_delay is not None and res.ack_delay < world.fake.interaction_deadline
    held.gate.set()
    await world.bot.settle()
    (chart,) = world.fake.message(answer.id).attachments
    assert chart.filename == "rating.png" and decode(chart.data).size == (640, 300)
