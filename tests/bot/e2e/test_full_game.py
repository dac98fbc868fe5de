"""A whole European War game through slash commands and buttons, every turn checked:
one channel message with a PNG per action (or the duel message edited), hands only in
DMs, no card of a hand in any channel message (EW-24), pings only for the player to move.
"""

from __future__ import annotations

import re
from typing import Any

from bot.dms import CLOSING
from rules.pyramids.cards import card_name
from tests.bot.e2e.harness import World, cards_in
from tests.bot.e2e.policy import Policy
from tests.fake_discord import FakeMessage, FakeUser

HAND_LINE = re.compile(r"Your hand \((\d+)\): (.*)")


def _snapshot(msgs: list[FakeMessage]) -> dict[int, tuple[str, tuple[int, ...]]]:
    return {m.id: (m.content, tuple(a.id for a in m.attachments)) for m in msgs}


def _changed(
    msgs: list[FakeMessage], before: dict[int, Any]
) -> tuple[list[FakeMessage], list[FakeMessage]]:
    new = [m for m in msgs if m.id not in before]
    edited = [
        m
        for m in msgs
        if m.id in before and before[m.id] != (m.content, tuple(a.id for a in m.attachments))
    ]
    return new, edited


async def check_dms(
    world: World, gid: int, user: FakeUser, msgs: list[FakeMessage], public: set[str]
) -> None:
    """A DM shows only the owner's own cards (plus public ones and spy results), and its
    hand line is the owner's hand as it stands."""
    assert world.bot is not None
    uv = await world.bot.service.view(gid, user.id)
    own = {card_name(c) for c in uv.view.hand or ()}
    known = {card_name(c) for cs in uv.view.known_cards.values() for c in cs}
    for m in msgs:
        assert m.content.startswith("**Test Server** › #games") or "✔" in m.content, m.content
        leaked = cards_in(m.text) - own - known - public
        assert not leaked, (user.name, m.content, leaked)
        if m.content.rsplit("\n", 1)[-1].strip("_") in CLOSING:
            continue  # a panel closed since: its words (its hand) as they were sent
        for count, cards in HAND_LINE.findall(m.content):
            shown = set() if cards == "no cards" else set(cards.split(", "))
            assert shown == own and int(count) == len(own), (user.name, m.content, own)


def _allowed_users(req: Any) -> list[int] | None:
    body = req.json or {}
    data = body.get("data", body) if isinstance(body, dict) else {}
    am = data.get("allowed_mentions") if isinstance(data, dict) else None
    return None if am is None else [int(u) for u in am.get("users", [])]


async def test_three_players_play_a_whole_game(world: World) -> None:
    fake, ch = world.fake, world.channel
    players = [world.users[n] for n in ("ann", "bob", "cy")]
    gid = await world.open_table()
    assert world.bot is not None
    svc = world.bot.service
    lobby = fake.messages(ch)[0]
    assert not lobby.buttons, "the lobby's buttons are gone once the game started"
    assert "The game has started" in lobby.content
    start = fake.messages(ch)[-1]
    assert "Seat order" in start.content and start.attachments[0].filename == "board.png"
    assert start.attachments[0].description, "the board has alt text"
    assert start.attachments[0].data.startswith(b"\x89PNG")

    policy = Policy()
    seen: list[str] = []
    while True:
        before = _snapshot(fake.messages(ch))
        dm_before = {u.id: _snapshot(fake.dm_messages(u)) for u in players}
        if not await world.step(policy):
            break
        new, edited = _changed(fake.messages(ch), before)
        # one channel message with a PNG per action, or the duel message edited
        assert len(new) + len(edited) == 1 or (not new and not edited), (new, edited)
        touched = (new + edited)[0] if new or edited else None
        if touched is not None:
            assert any(
                a.filename in ("board.png", "duel.png") and a.data[:4] == b"\x89PNG"
                for a in touched.attachments
            ), touched.content
            seen.append(touched.content)
        st = await svc.status(gid)
        public = world.public_cards(st.view)
        for m in new + edited:
            leaked = cards_in(m.text) - public
            assert not leaked, (m.content, leaked)
        for u in players:
            dnew, dedit = _changed(fake.dm_messages(u), dm_before[u.id])
            await check_dms(world, gid, u, dnew + dedit, public)
        assert policy.steps < 100

    st = await svc.status(gid)
    assert st.view is not None and st.view.over and st.status == "finished"
    assert await world.gid_or_none() is None
    assert await world.bot.db.announcements() == [], "every action's message was kept or sent"
    text = "\n".join(seen)
    for phrase in (
        "spied on",
        "sabotaged",
        "shrank to a",
        "small on Hungary was destroyed",
        "stopped bob's attack with K",
        "retreated from",
        "Game over. Winner",
    ):
        assert phrase in text, phrase
    duel = next(line for line in text.splitlines() if line.startswith("Duel over: ann"))
    assert "against bob" in duel
    assert re.search(r"bob played \S+ \(total", text), "the defender played cards too"

    # the spy's look is the spy's alone (EW-10, EW-24)
    assert not any("holds:" in m.content for m in fake.messages(ch))
    assert any("holds:" in m.content for u in players for m in fake.dm_messages(u))
    # every player got the hand image by DM once cards were dealt
    for u in players:
        hands = [
            m for m in fake.dm_messages(u) if any(a.filename == "hand.png" for a in m.attachments)
        ]
        assert hands, u.name
    # pings: only the player(s) to move (or a player asked to open a panel)
    for req in fake.requests:
        body = req.json if isinstance(req.json, dict) else {}
        content = (body.get("data") or body).get("content") or ""
        users = _allowed_users(req)
        if not users:
            continue
        to_move = {
            int(x)
            for line in content.splitlines()
            if line.startswith(("▶", "⏰"))
            or "a decision is yours" in line
            or "cannot send you direct messages" in line
            for x in re.findall(r"<@(\d+)>", line)
        }
        assert set(users) <= to_move, (content, users)
        assert {int(t) for t in re.findall(r"<@(\d+)>, your turn", content)} <= set(users)
    # nobody's DM ever went to someone else: every DM channel belongs to its player
    for u in players:
        for m in fake.dm_messages(u):
            assert m.author.id == fake.bot_user.id
