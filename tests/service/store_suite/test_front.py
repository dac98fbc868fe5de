"""What a front end keeps through the protocol (:class:`service.store.FrontStore`): the
outbox, the actions owed to channels, held channels, message ids, closed DMs, pings,
departures and facts about itself."""

from __future__ import annotations

import pytest

from service.models import GameMessages, OutboxFile, OutboxRecord, UndoOffer
from service.store import InvalidRecord, Store

from .conftest import Opener
from .records import SNOWFLAKE, act, running_game

PNG = bytes(range(256)) * 40


def item(
    kind: str = "send",
    *,
    game: int | None = None,
    channel: int | None = 7,
    user: int | None = None,
    message: int | None = None,
    content: str = "a",
    files: list[OutboxFile] | None = None,
) -> OutboxRecord:
    """An outbox item (no id yet)."""
    return OutboxRecord(
        None,
        game,
        kind,
        channel,
        user,
        message,
        0,
        None,
        {"content": content},
        {},
        1.0,
        files or [],
    )


async def test_the_outbox_keeps_items_with_their_files_across_a_reopen(reopen: Opener) -> None:
    store = await reopen()
    try:
        first = OutboxRecord(
            None,
            None,
            "send",
            SNOWFLAKE,
            None,
            None,
            0,
            "action",
            {"content": "a", "nonce": "n1"},
            {"words": ["a"], "tail": ""},
            1.0,
            [OutboxFile("board.png", PNG, "the board")],
        )
        dm = item("dm", channel=None, user=SNOWFLAKE, content="d")
        edit = item("edit", message=SNOWFLAKE + 1, content="e")
        first.id = await store.outbox_add(first)
        dm.id = await store.outbox_add(dm)
        edit.id = await store.outbox_add(edit)
        assert len({first.id, dm.id, edit.id}) == 3
        first.payload["content"] = "a\nb"
        first.priority, first.merge_key = 2, "merged"
        first.files = [OutboxFile("board.png", PNG[::-1], "newer"), OutboxFile("duel.png", b"x")]
        await store.outbox_update(first)
    finally:
        await store.close()
    store = await reopen()
    try:
        kept = await store.outbox_items()
        assert [i.id for i in kept] == [first.id, dm.id, edit.id]  # oldest first
        assert kept[0] == first
        assert [(f.filename, f.data, f.description) for f in kept[0].files] == [
            ("board.png", PNG[::-1], "newer"),
            ("duel.png", b"x", None),
        ]
        assert (kept[1].kind, kept[1].user_id, kept[1].channel_id) == ("dm", SNOWFLAKE, None)
        assert (kept[2].kind, kept[2].message_id) == ("edit", SNOWFLAKE + 1)
        await store.outbox_remove([first.id or 0, edit.id or 0])
        assert [i.id for i in await store.outbox_items()] == [dm.id]
        await store.outbox_remove([])
        await store.outbox_remove([first.id or 0])  # gone already: nothing happens
        assert [i.id for i in await store.outbox_items()] == [dm.id]
    finally:
        await store.close()


@pytest.mark.parametrize(
    "bad",
    [
        item("dm", channel=3),  # a DM names its person
        item("send", user=3),  # only a DM does
        item("edit"),  # an edit names its message
        item("send", message=3),  # only an edit does
        item("post"),  # no such kind
    ],
)
async def test_the_outbox_refuses_an_item_that_does_not_hold_together(
    store: Store, bad: OutboxRecord
) -> None:
    with pytest.raises(InvalidRecord):
        await store.outbox_add(bad)
    assert await store.outbox_items() == []


async def test_an_action_is_owed_to_its_channel_until_its_message_is_kept(
    reopen: Opener,
) -> None:
    store = await reopen()
    try:
        gid = await running_game(store)
        other = await running_game(store, channel=2)
        await act(store, other)  # a front end that does not owe: nothing owed
        for _ in range(3):
            await act(store, gid, owe=True)
        assert await store.announcements() == [(gid, 1)], "owed from the first untold action"
        await store.announced(gid, 1)
        assert await store.announcements() == [(gid, 2)]
    finally:
        await store.close()
    store = await reopen()  # kept across a restart
    try:
        assert await store.announcements() == [(gid, 2)]
        message = OutboxRecord(None, gid, "send", 1, None, None, 0, "action", {}, {}, 1.0, [])
        # the message of actions 2 and 3 is kept: in the same transaction, nothing is owed
        message.id = await store.outbox_add(message, announces=3)
        assert await store.announcements() == []
        assert [i.id for i in await store.outbox_items()] == [message.id]
        await act(store, gid, owe=True)
        await store.announced(gid, 3)  # an older message told: the newest action still owed
        assert await store.announcements() == [(gid, 4)]
        message.payload = {"content": "2, 3 and 4"}
        await store.outbox_update(message, announces=4)  # coalesced: now tells action 4 too
        assert await store.announcements() == []
        await store.announced(gid, 4)  # told twice: still nothing owed
        assert await store.announcements() == []
    finally:
        await store.close()


async def test_held_channels_are_kept_until_released(store: Store) -> None:
    a = await running_game(store, channel=SNOWFLAKE)
    b = await running_game(store, channel=2)
    assert await store.held_channels() == []
    await store.hold_channel(SNOWFLAKE, a, False, "Send Messages")
    await store.hold_channel(2, b, True, "Attach Files")
    assert sorted(await store.held_channels()) == [
        (2, b, True, "Attach Files"),
        (SNOWFLAKE, a, False, "Send Messages"),
    ]
    await store.hold_channel(SNOWFLAKE, a, True, "Embed Links")  # paused for it now
    await store.hold_channel(2, b, False, "Send Messages")  # a pause is not forgotten
    assert sorted(await store.held_channels()) == [
        (2, b, True, "Send Messages"),
        (SNOWFLAKE, a, True, "Embed Links"),
    ]
    await store.release_channel(SNOWFLAKE)
    await store.release_channel(SNOWFLAKE)
    assert await store.held_channels() == [(2, b, True, "Send Messages")]


async def test_message_ids_are_kept_per_game_and_go_with_it(store: Store) -> None:
    gid = await running_game(store, guild=4)
    assert await store.game_messages(gid) == GameMessages()
    await store.set_lobby_message(gid, SNOWFLAKE, SNOWFLAKE + 1)
    await store.set_duel_message(gid, 12)
    assert await store.game_messages(gid) == GameMessages(SNOWFLAKE, SNOWFLAKE + 1, 12)
    await store.set_lobby_message(gid, None, None)
    await store.set_duel_message(gid, 13)
    assert await store.game_messages(gid) == GameMessages(None, None, 13)
    await store.set_duel_message(gid + 999, 14)  # no such game: nothing recorded, no error
    await store.set_lobby_message(gid + 999, 1, 2)
    assert await store.game_messages(gid + 999) == GameMessages()
    assert await store.delete_guild(4) == 1
    assert await store.game_messages(gid) == GameMessages()


async def test_an_undo_button_is_kept_per_game_replaced_forgotten_and_goes_with_it(
    reopen: Opener,
) -> None:
    store = await reopen()
    try:
        a, b = await running_game(store, channel=1, guild=4), await running_game(store, channel=2)
        assert await store.undo_offers() == {}
        edit = {"components": [{"type": 1, "components": [{"type": 2, "custom_id": "x"}]}]}
        first = UndoOffer(SNOWFLAKE, SNOWFLAKE + 1, 3, 1_700_000_030.5, edit)
        await store.set_lobby_message(a, 5, 6)
        await store.set_undo_offer(a, first)
        await store.set_undo_offer(b, UndoOffer(2, 20, 1, 9.0, {"components": []}))
        await store.set_undo_offer(b + 999, first)  # no such game: nothing recorded
    finally:
        await store.close()
    store = await reopen()
    try:
        assert await store.undo_offers() == {
            a: first,
            b: UndoOffer(2, 20, 1, 9.0, {"components": []}),
        }
        assert await store.game_messages(a) == GameMessages(5, 6, None)  # the others stay
        second = UndoOffer(SNOWFLAKE, SNOWFLAKE + 2, 4, 1_700_000_040.0, {"components": []})
        await store.set_undo_offer(a, second)
        await store.set_undo_offer(b, None)
        assert await store.undo_offers() == {a: second}
        assert await store.game_messages(a) == GameMessages(5, 6, None)
        assert await store.delete_guild(4) == 1
        assert await store.undo_offers() == {}
    finally:
        await store.close()


async def test_closed_dms_are_marked_on_the_seats_of_unfinished_games(store: Store) -> None:
    a = await running_game(store, channel=1)
    b = await running_game(store, channel=2)
    assert await store.users_with_dms_closed() == set()
    await store.set_dms_closed(1, True)  # user 1 (Ann) sits in both
    await store.set_dms_closed(1, True)
    await store.set_dms_closed(55, True)  # seated nowhere: nothing to mark
    assert await store.users_with_dms_closed() == {1}
    rec = await store.load_game(a)
    assert rec is not None
    await store.end_game(a, rec.revision, "cancelled", None, 5.0)
    assert await store.users_with_dms_closed() == {1}  # still seated in b
    rec = await store.load_game(b)
    assert rec is not None
    await store.replace_seat(
        b, rec.revision, 0, user_id=7, computer_level=None, display_name="Gus", now=6.0
    )
    assert await store.users_with_dms_closed() == set(), "the flag was Ann's, not Gus's"
    await store.set_dms_closed(7, True)
    assert await store.users_with_dms_closed() == {7}
    await store.set_dms_closed(7, False)
    assert await store.users_with_dms_closed() == set()


async def test_pings_default_on_and_survive_a_reopen(reopen: Opener) -> None:
    store = await reopen()
    try:
        assert await store.user_pings(SNOWFLAKE) is True
        await store.set_user_pings(SNOWFLAKE, False, 10.0)
        await store.set_user_pings(6, True, 11.0)
    finally:
        await store.close()
    store = await reopen()
    try:
        assert await store.user_pings(SNOWFLAKE) is False and await store.user_pings(6) is True
        await store.set_user_pings(SNOWFLAKE, True, 12.0)
        assert await store.user_pings(SNOWFLAKE) is True
    finally:
        await store.close()


async def test_departures_first_one_counts_until_forgotten_or_deleted(store: Store) -> None:
    await store.record_departure(4, 100.0)
    await store.record_departure(4, 500.0)  # removed again before coming back: first counts
    await store.record_departure(SNOWFLAKE, 300.5)
    assert await store.departures() == {4: 100.0, SNOWFLAKE: 300.5}
    assert await store.departures_due(99.0) == []
    assert await store.departures_due(100.0) == [4]
    assert await store.departures_due(1000.0) == [4, SNOWFLAKE]
    await store.forget_departure(SNOWFLAKE)  # the server took the bot back
    await store.forget_departure(SNOWFLAKE)
    assert await store.departures() == {4: 100.0}
    gid = await running_game(store, guild=4)
    assert await store.delete_guild(4) == 1  # its data, departure included
    assert await store.load_game(gid) is None
    assert await store.departures() == {}


async def test_facts_are_kept_by_key(reopen: Opener) -> None:
    store = await reopen()
    try:
        assert await store.meta("commands_hash") is None
        await store.set_meta("commands_hash", "1:abc")
        await store.set_meta("commands_hash", "1:def")
        await store.set_meta("other", "ünïcode")
    finally:
        await store.close()
    store = await reopen()
    try:
        assert await store.meta("commands_hash") == "1:def"
        assert await store.meta("other") == "ünïcode"
        assert await store.meta("missing") is None
    finally:
        await store.close()
