"""Turns a service :class:`Outcome` into Discord messages.

Per outcome: ONE channel message (what happened in words + the board PNG, its text
summary as alt text) or, while a contest is under way (the game's presentation says what
one is, see :class:`rules.presentation.Contest`), an edit of the one contest message; the lobby
message redrawn; a DM to each player whose hand changed or who has a new private prompt
(labelled with server, channel and link); pings only for the player(s) to move.

Outcomes of one game are sent in the order they arrive (a ticket chain per game), while
their images are drawn concurrently in worker threads. A DM refused with HTTP 403 /
code 50007 marks the user's DMs closed; the channel is told once per game, and their
prompts are offered through an *Open my panel* button instead, so nothing blocks.
Logs name games and users, never cards.

The lobby message, the contest message and who has DMs closed are also kept in the store
(through ``bot.db``, the :class:`~service.store.FrontStore` the service hands out), so
after a restart the bot edits those messages instead of posting new ones and does not DM
people known to have DMs closed. (A contest message's running log starts afresh after a
restart; its board stays.)

Everything but the interaction's own answer is sent through :mod:`bot.outbox` (paced,
prioritised, coalesced, retried, kept across a restart); only the lobby and contest
messages, whose ids are kept, are waited for. :meth:`Delivery.room` is how computer
players wait for their game's messages. A channel that refuses the bot for a missing
permission holds its messages, pauses its game and says which permission
(:meth:`Delivery._forbidden`); :meth:`Delivery.permissions_changed` undoes it. The hold
is kept in the store, so a restart keeps it (:meth:`Delivery.restore_holds`).

Each part is written in the language of whoever reads it: what the channel shows (the
lobby, the action message, its board, its buttons, the waiting lines, a reminder) in the
game's (:attr:`Outcome.language`), a DM or a panel in its player's (their client's as
last seen, else the game's: :meth:`Delivery.language_of`), and the answer to the one who
clicked in theirs (the context the interaction is handled in).

Nothing a committed action did is lost to a crash: the store marks each action as owed
to its channel in the action's own transaction; the mark moves on in the transaction that
keeps the action's message in the outbox, or once the message (the interaction's answer)
is sent — with its board: a message whose board follows by an edit stays owed until that
edit is kept or made. At start-up, :meth:`Delivery.catch_up` tells each channel what is
still owed, rebuilt from the stored log. (A crash in the moment between sending an answer
and marking it may tell an action twice; never not at all.)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from rules import contract, i18n
from rules.presentation import Contest
from service import DecisionInfo, GameStatus, LobbyInfo, Outcome, ServiceError
from service.models import OutboxRecord

from . import reply as replies
from .catalogue import _
from .dms import PrivateDelivery
from .images import BOARD_FILE, Images, Picture
from .outbox import BACKGROUND, NORMAL, URGENT, Outbox, Sent, files_of, message_payload
from .permissions import can_talk, missing_permissions, missing_text
from .reply import Reply, attach, within
from .texts import clip, lobby_text, stamp, waiting_lines
from .undo_offers import META as UNDO
from .undo_offers import UndoOffers, offer_meta
from .views.lobby import lobby_view
from .views.panels import opener_view
from .views.table import draw_items

if TYPE_CHECKING:
    from .client import GameBot

log = logging.getLogger("bot.delivery")

SHOWN_KEPT = 256
"""How many messages' late images are remembered (to never add an older board)."""
GAME_KINDS = frozenset({"start", "player", "computer", "timeout", "undo"})
CONTEST = "contest"
"""What an outbox item's ``meta`` says of the contest message (``remember`` it once sent;
post it afresh if ``gone``)."""
KEPT_CONTEST = (CONTEST, "duel")
"""How ``meta`` names it, including in items kept by releases that called it the duel."""
ACTION_KINDS = frozenset({"player", "computer", "timeout", "system"})
"""Outcomes of a committed action: the channel is owed their message until it is kept in
the outbox or sent (the store's ``announcements``, see :meth:`Delivery.catch_up`)."""


@dataclass
class GameRefs:
    """Messages the bot keeps editing for one game: in memory, the ids also in the store
    (read back once per game after a restart, see :meth:`Delivery.refs_of`)."""

    lobby: tuple[int, int] | None = None
    lobby_info: LobbyInfo | None = None
    contest_id: int | None = None
    contest_board: discord.Attachment | None = None
    contest_log: list[str] = field(default_factory=list)
    told_dms_closed: set[int] = field(default_factory=set)
    loaded: bool = False
    """The stored message ids were read (or this process made them)."""
    contest_seen: bool = True
    """False while ``contest_id`` comes from the store and its board is not known yet."""
    contest_wanted: bool = False
    """A contest is under way: a contest message sent late (through the outbox) is kept."""
    contest_edits: int = 0
    """Edits of the contest message so far (a late contest image is added only to the
    latest)."""


def _mentions(users: set[int] | list[int]) -> discord.AllowedMentions:
    return discord.AllowedMentions(
        users=[discord.Object(u) for u in sorted(users)],
        everyone=False,
        roles=False,
        replied_user=False,
    )


class Delivery(PrivateDelivery):
    """Sends outcomes for :class:`bot.client.GameBot` (see the module docstring)."""

    def __init__(
        self,
        bot: GameBot,
        images: Images,
        *,
        outbox: dict[str, Any] | None = None,
        backlog: int = 0,
    ) -> None:
        self.bot = bot
        self.images = images
        self.refs: dict[int, GameRefs] = {}
        self.dms_closed: set[int] = set()
        self.dms_open: set[int] = set()
        self.outbox = Outbox(bot, **(outbox or {}))
        self.outbox.on_settled = self._settled
        self.outbox.on_forbidden = self._forbidden
        self.outbox.prepare = self.prepare_dm
        self.hands_shown = {}
        self.dm_panels = {}
        self.hands_drawn = 0
        self.hands_late = 0
        self.backlog = backlog
        """A game's computer players wait while more than this many of its outcomes,
        deliveries and outbox items are outstanding (see :meth:`room`)."""
        self.paused_for_permissions: dict[int, tuple[int, bool]] = {}
        """Channel id -> (its game, whether the bot paused it) while the bot lacks a
        permission there."""
        self._tails: dict[int, asyncio.Future[None]] = {}
        """Game id -> its latest outcome's delivery, done once its channel part is sent:
        a game's channel messages go in order."""
        self._dm_tails: dict[int, asyncio.Future[None]] = {}
        """Game id -> its latest outcome's delivery, done once all of it is: a game's DMs
        go in order, but a channel answer never waits for an earlier outcome's DMs (which
        the global rate limit may hold for a while)."""
        self._in_flight: dict[int, int] = {}
        self._channels: dict[int, int] = {}
        self._later: set[asyncio.Task[None]] = set()
        self._shown: dict[int, int] = {}
        """Message id -> the game version whose images were added to it late."""
        self._pings: dict[int, bool] = {}
        self._telling: set[tuple[int, int]] = set()
        """(game, version) whose channel message was kept, sent or is on its way (so
        :meth:`_send` need not mark it told)."""
        self._active = 0
        self._quiet = asyncio.Event()
        self._quiet.set()
        self._delivering: set[asyncio.Task[Any]] = set()
        """Tasks running :meth:`deliver` (whoever called it)."""
        self.undo = UndoOffers(bot, self.outbox)
        """The Undo buttons up under the games' messages."""

    # ------------------------------------------------------------------ bookkeeping
    def ref(self, game_id: int) -> GameRefs:
        """The game's message references (created empty)."""
        return self.refs.setdefault(game_id, GameRefs())

    async def refs_of(self, game_id: int) -> GameRefs:
        """The game's message references, with the ids the store kept (after a restart)."""
        refs = self.ref(game_id)
        if refs.loaded:
            return refs
        refs.loaded = True
        try:
            stored = await self.bot.db.game_messages(game_id)
        except Exception:
            log.warning("game %s: could not read its message ids", game_id, exc_info=True)
            return refs
        if refs.lobby is None and stored.lobby_message_id is not None:
            refs.lobby = (stored.lobby_channel_id or 0, stored.lobby_message_id)
        if refs.contest_id is None and stored.duel_message_id is not None:
            refs.contest_id, refs.contest_seen = stored.duel_message_id, False
        return refs

    async def remember_lobby(self, game_id: int, message: discord.Message) -> None:
        """The lobby message of ``game_id`` is ``message``."""
        refs = self.ref(game_id)
        where = (message.channel.id, message.id)
        if refs.lobby != where:
            refs.lobby = where
            await self._save_lobby(game_id, where)

    async def _save_lobby(self, game_id: int, where: tuple[int, int] | None) -> None:
        cid, mid = where if where is not None else (None, None)
        await self._keep(
            self.bot.db.set_lobby_message(game_id, cid, mid), f"the lobby message of game {game_id}"
        )

    async def _save_contest(self, game_id: int, message_id: int | None) -> None:
        await self._keep(
            # the store keeps it as the game's duel message
            self.bot.db.set_duel_message(game_id, message_id),
            f"the contest message of game {game_id}",
        )

    def forget(self, game_id: int) -> None:
        """Drop what is kept about a finished, cancelled or archived game."""
        self.refs.pop(game_id, None)
        self._channels.pop(game_id, None)
        self.hands_shown.pop(game_id, None)
        self.dm_panels.pop(game_id, None)
        self.undo.forget(game_id)

    async def restore_holds(self) -> None:
        """At start-up, before the outbox sends: the channels held for a missing
        permission when the bot stopped stay held, their games paused (until the
        permission is back, see :meth:`permissions_changed`, or /resume)."""
        for cid, gid, paused, missing in await self.bot.db.held_channels():
            if not await self.bot.service.hosting(gid):
                continue  # another process's (or gone with its server: released there)
            if await self.bot.service.active_game(cid) != gid:  # the game is over
                await self._keep(self.bot.db.release_channel(cid), f"channel {cid} released")
                continue
            log.info("channel %s of game %s is still held: missing %s", cid, gid, missing)
            self.outbox.hold(cid)
            self.paused_for_permissions[cid] = (gid, paused)
            self._channels[gid] = cid

    async def catch_up(self, only: int | None = None) -> int:
        """At start-up, once the outbox has what the previous process kept: tell each
        game's channel of the actions it was owed (committed, but the bot stopped before
        their message was kept or sent, or another process made them), rebuilt from the
        stored log, with the board as stored — only this process's games, and with
        ``only``, that one game. Returns how many games' channels were told."""
        outcomes = []
        for gid, owed_from in await self.bot.db.announcements():
            if only is not None and gid != only:
                continue
            try:
                outcome = await self.bot.service.untold(gid, owed_from)
            except Exception:  # e.g. a snapshot that fails validation: the others go on
                log.exception("game %s: its untold actions cannot be rebuilt", gid)
                continue
            if outcome is None:
                continue  # not a game of this front end, or nothing left to tell
            outcomes.append(outcome)
        if outcomes:
            log.info("telling %d game channel(s) of actions not announced", len(outcomes))
        await asyncio.gather(*(self.deliver(o) for o in outcomes))
        return len(outcomes)

    @staticmethod
    def _owed(outcome: Outcome) -> int | None:
        """The version whose actions ``outcome``'s channel message tells (None if it
        tells no committed action)."""
        return outcome.version if outcome.kind in ACTION_KINDS else None

    async def _told(self, outcome: Outcome) -> None:
        """``outcome``'s actions are told (sent, or nothing to say): no longer owed."""
        gid, owed = outcome.game_id, self._owed(outcome)
        if gid is not None and owed is not None:
            await self._keep(self.bot.db.announced(gid, owed), f"game {gid} announced")

    @property
    def busy(self) -> bool:
        """Deliveries are in flight."""
        return self._active > 0

    async def pings(self, user_id: int) -> bool:
        """Whether ``user_id`` wants pings: read from the store once per process (not on
        every action's way to the channel), kept current by :meth:`set_pings`."""
        known = self._pings.get(user_id)
        if known is None:
            known = self._pings[user_id] = await self.bot.db.user_pings(user_id)
        return known

    def set_pings(self, user_id: int, on: bool) -> None:
        """``user_id`` changed their ping preference (``/pings``)."""
        self._pings[user_id] = on

    @property
    def sending(self) -> bool:
        """Deliveries are in flight besides images waiting to be added to messages."""
        return self._active > len(self._later)

    async def idle(self) -> None:
        """Wait until no delivery is in flight."""
        await self._quiet.wait()

    def abandon(self) -> int:
        """A stop out of time: cancel every delivery still in flight and every image
        still to be added to a message (a renderer can take seconds, e.g. while its
        workers warm up). What they would have told stays owed to the channels and is
        told at the next start (:meth:`catch_up`). Returns how many were cancelled."""
        tasks = [t for t in (*self._delivering, *self._later) if not t.done()]
        for task in tasks:
            task.cancel()
        return len(tasks)

    def later(self, job: Coroutine[Any, Any, Any]) -> None:
        """Run ``job`` (an image added to a message sent with words only, a stale
        button taken off) in the background; :meth:`idle` waits for it too."""
        self._active += 1
        self._quiet.clear()
        task = asyncio.ensure_future(job)
        self._later.add(task)
        task.add_done_callback(self._later_done)

    def _later_done(self, task: asyncio.Task[None]) -> None:
        self._later.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a delivery's later step failed", exc_info=task.exception())
            self.outbox.metrics.error("delivery")
        self._active -= 1
        if self._active == 0:
            self._quiet.set()

    async def on_outcome(self, outcome: Outcome) -> None:
        """The service's listener: computer moves, timeouts, reminders, expiries."""
        await self.deliver(outcome)

    async def room(self, game_id: int) -> bool:
        """Wait until game ``game_id`` has at most :attr:`backlog` outcomes not yet
        delivered, deliveries in progress and outbox items outstanding: how the service
        paces computer players to what Discord takes (with the default 0, a computer
        moves once its game's previous move is shown). False, at once, if the game's
        channel is held for a missing permission."""
        while True:
            if self.outbox.held(self._channels.get(game_id)):
                return False
            outstanding = (
                self.bot.service.undelivered(game_id)
                + self._in_flight.get(game_id, 0)
                + self.outbox.pending(game_id)
            )
            if outstanding <= self.backlog:
                return True
            await self.outbox.changed()

    # ------------------------------------------------------------------ the entry point
    async def deliver(
        self,
        outcome: Outcome,
        interaction: discord.Interaction | None = None,
        *,
        mode: str = "reply",
        note: str = "",
    ) -> None:
        """Send ``outcome`` (a successful one); answer ``interaction`` with it.

        ``mode``: ``reply`` (slash command), ``panel`` (a private panel's button: the panel
        is edited, ``note`` says what was chosen), ``lobby`` (a lobby button). The
        interaction was acknowledged on entry (:mod:`bot.reply`).

        The words never wait long for an image: a board not drawn within
        ``WORDS_FIRST_AFTER`` seconds follows its message by an edit, and a hand image not
        ready by then is left out of the DM or panel (its cards are listed in words).
        """
        if not outcome.ok or outcome.game_id is None:
            return
        gid = outcome.game_id
        if interaction is not None and not await self.bot.service.hosting(gid):
            await self._answer_only(outcome, Reply.of(interaction), mode, note)
            return
        reply = Reply.of(interaction) if interaction is not None else None
        if reply is not None:
            reply.mode = mode
        loop = asyncio.get_running_loop()
        prev, prev_dms = self._tails.get(gid), self._dm_tails.get(gid)
        mine: asyncio.Future[None] = loop.create_future()
        mine_dms: asyncio.Future[None] = loop.create_future()
        self._tails[gid], self._dm_tails[gid] = mine, mine_dms
        self._active += 1
        self._in_flight[gid] = self._in_flight.get(gid, 0) + 1
        if outcome.channel_id is not None:
            self._channels[gid] = outcome.channel_id
        self._quiet.clear()
        task = asyncio.current_task()
        if task is not None:
            self._delivering.add(task)
        hands: asyncio.Future[dict[Any, Picture]] | None = None
        try:
            with i18n.use(outcome.language):  # the channel's pictures
                drawing = asyncio.ensure_future(self._render(outcome))
            # hands are for DMs, sent after the channel message: draw them meanwhile
            # only for an answer in the interaction itself (a panel edited in place, or
            # closed DMs); a DM's hand image is drawn when the outbox sends it
            actor = interaction.user.id if interaction is not None else None
            if actor is not None and mode != "panel" and actor not in self.dms_closed:
                actor = None
            hands = asyncio.ensure_future(self._render_hands(outcome, actor))
            if prev is not None:
                await asyncio.shield(prev)
            if not await within(drawing, replies.WORDS_FIRST_AFTER):
                log.info("game %s: the images are late; the words go first", gid)
            pictures = drawing.result() if drawing.done() else {}
            await self._send(
                outcome,
                pictures,
                hands,
                reply,
                note,
                None if drawing.done() else drawing,
                posted=mine,
                dms_after=prev_dms,
            )
        except Exception:
            log.exception("game %s: delivering a %s outcome failed", gid, outcome.kind)
            self.outbox.metrics.error("delivery")
            if reply is not None and not reply.answered:
                await reply.private(_("Done — but I could not post the result here; see /status."))
        finally:
            if task is not None:
                self._delivering.discard(task)
            if hands is not None and not hands.done():
                hands.cancel()
            if reply is not None:
                reply.close()
            for fut, tails in ((mine, self._tails), (mine_dms, self._dm_tails)):
                if not fut.done():
                    fut.set_result(None)
                if tails.get(gid) is fut:
                    del tails[gid]
            self._in_flight[gid] -= 1
            if not self._in_flight[gid]:
                del self._in_flight[gid]
            self.outbox.poke()
            self._active -= 1
            if self._active == 0:
                self._quiet.set()

    async def _answer_only(self, outcome: Outcome, reply: Reply, mode: str, note: str) -> None:
        """Answer an interaction about a game another process hosts (a DM's panel, which
        Discord sends to shard 0): only the one who acted is answered here; the action is
        owed to the game's channel, and its host, told of the change, says it there and
        sends the DMs and panels (see :meth:`catch_up`)."""
        reply.mode = mode
        try:
            if mode == "panel":
                head = self.label(outcome) + "\n" if reply.interaction.guild_id is None else ""
                await reply.edit_source(
                    content=f"{head}✔ {note or _('Done.')}", view=None, attachments=[]
                )
            elif not reply.answered:
                await reply.private(_("Done."))
        finally:
            reply.close()

    # ------------------------------------------------------------------ images
    @staticmethod
    def _contest(outcome: Outcome) -> Contest | None:
        """The game's contest when its spectator's view after ``outcome`` shows one under
        way, else None."""
        view = outcome.spectator_view
        contest = contract.game_named(outcome.variant).presentation.contest()
        if view is None or contest is None or not contest.under_way(view):
            return None
        return contest

    @staticmethod
    def _progress(outcome: Outcome) -> bool:
        """An action that only took a contest under way a step further: it edits the
        contest message instead of posting."""
        if outcome.kind not in GAME_KINDS:
            return False
        contest = Delivery._contest(outcome)
        return contest is not None and contest.step(outcome.events)

    async def _render(self, outcome: Outcome) -> dict[Any, Picture]:
        """The channel's pictures (the board, or a contest's), drawn concurrently off the
        event loop."""
        jobs: dict[Any, Any] = {}
        view, names = outcome.spectator_view, list(outcome.names)
        if outcome.kind in GAME_KINDS and view is not None and self.images.draws(outcome.variant):
            game = outcome.variant
            if self._progress(outcome):
                jobs[CONTEST] = self.images.contest(view, names, game=game)
            else:
                jobs["board"] = self.images.board(
                    view,
                    names,
                    outcome.board_events,
                    game=game,
                    key=(outcome.game_id or 0, outcome.version),
                )
                contest = contract.game_named(game).presentation.contest()
                result = contest.result(outcome.events) if contest is not None else None
                if result is not None:
                    jobs[CONTEST] = self.images.contest(
                        view, names, result, outcome.board_events, game=game
                    )
        if not jobs:
            return {}
        done = await asyncio.gather(*jobs.values())
        return {k: pic for k, pic in zip(jobs.keys(), done, strict=True) if pic is not None}

    async def _render_hands(self, outcome: Outcome, actor: int | None) -> dict[Any, Picture]:
        """The hand image of the one who acted, when they are answered in the interaction
        (their panel, or privately for closed DMs) and have news."""
        note = outcome.private.get(actor) if actor is not None else None
        if note is None or not (note.hand_changed or note.lines):
            return {}
        holding = self.images.holding(note.view, outcome.variant)
        if holding is None:  # a game without images, or nothing held
            return {}
        with i18n.use(self.language_of(note.user_id, outcome)):
            drawn = await self.images.hand(holding, _("Your hand"), game=outcome.variant)
        return {("hand", actor): drawn}

    def language_of(self, user_id: int, outcome: Outcome) -> str:
        """The language ``user_id`` reads their DMs and panels about ``outcome``'s game
        in: their client's as last seen, else the game's."""
        return i18n.choose(self.bot.service.locale_of(user_id), outcome.language)

    # ------------------------------------------------------------------ sending
    def channel(self, outcome: Outcome) -> Any:
        """The game's channel (cached, or a partial one)."""
        cid = outcome.channel_id or 0
        return self.bot.get_channel(cid) or self.bot.get_partial_messageable(
            cid, guild_id=outcome.guild_id
        )

    async def _send(
        self,
        outcome: Outcome,
        pics: dict[Any, Picture],
        hands: asyncio.Future[dict[Any, Picture]],
        reply: Reply | None,
        note: str,
        late: asyncio.Future[dict[Any, Picture]] | None = None,
        *,
        posted: asyncio.Future[None] | None = None,
        dms_after: asyncio.Future[None] | None = None,
    ) -> None:
        """Send ``outcome``'s channel part, then (``posted`` done: the game's next outcome
        may post) its DMs and panels, after the game's previous outcome's (``dms_after``)."""
        gid = outcome.game_id or 0
        refs = await self.refs_of(gid)
        with i18n.use(outcome.language):
            if outcome.kind == "lobby":
                await self._lobby(outcome, refs, reply)
                return
            await self._send_to_channel(outcome, refs, pics, reply, late)
        if posted is not None and not posted.done():
            posted.set_result(None)
        if dms_after is not None:
            await asyncio.shield(dms_after)
        if await within(hands, replies.WORDS_FIRST_AFTER):
            pics = {**pics, **hands.result()}
        await self._private(outcome, pics, reply, note)
        await self.close_stale_panels(outcome, reply)
        if reply is not None and not reply.answered:
            if reply.mode == "panel":
                head = self.label(outcome) + "\n" if reply.interaction.guild_id is None else ""
                await reply.edit_source(
                    content=f"{head}✔ {note or _('Done.')}", view=None, attachments=[]
                )
            elif reply.mode == "reply":
                await reply.private(_("Done."))
        if outcome.kind in ("cancel", "expired") or outcome.game_over:
            if outcome.game_over:
                log.info("game %s finished in channel %s", gid, outcome.channel_id)
            self.forget(gid)

    async def _send_to_channel(
        self,
        outcome: Outcome,
        refs: GameRefs,
        pics: dict[Any, Picture],
        reply: Reply | None,
        late: asyncio.Future[dict[Any, Picture]] | None,
    ) -> None:
        """``outcome``'s channel part but a lobby's (in the game's language): the action
        message or the contest's edit, a reminder; then nothing of it is owed any more."""
        gid = outcome.game_id or 0
        kind = outcome.kind
        await self.undo.check(gid, outcome.channel_id)  # an older action's Undo goes
        if kind == "resume" and outcome.channel_id is not None:
            # /resume: try the channel again (if the permission is still missing, the
            # first message fails, the game pauses again and the host is told again)
            self.paused_for_permissions.pop(outcome.channel_id, None)
            if self.outbox.held(outcome.channel_id):
                await self._keep(
                    self.bot.db.release_channel(outcome.channel_id), "a released channel"
                )
            self.outbox.release(outcome.channel_id)
        if kind in ("cancel", "expired", "start"):
            lobby_reply = reply if reply is not None and reply.mode == "lobby" else None
            closing = {
                "start": _("The game has started: see below."),
                "cancel": _("This table was closed."),
                "expired": _("This lobby expired."),
            }[kind]
            await self._close_lobby(outcome, refs, closing, lobby_reply)
        if self._progress(outcome):
            refs.contest_edits += 1
            await self._edit_contest(outcome, refs, pics, late=late is not None)
            if late is not None:
                self.later(self._attach_contest(outcome, refs, late, refs.contest_edits))
        elif kind == "reminder":
            await self._reminder(outcome)
        elif outcome.public_lines or kind in GAME_KINDS or kind == "resume":
            await self._post_action(outcome, refs, pics, reply, late)
        elif late is not None:
            late.cancel()
        owed = (gid, outcome.version)
        if self._owed(outcome) is not None and owed not in self._telling:
            await self._told(outcome)  # nothing was said in the channel: nothing owed
        self._telling.discard(owed)

    async def post(
        self,
        outcome: Outcome,
        content: str,
        *,
        files: Sequence[Picture] = (),
        pings: set[int] | None = None,
        view: discord.ui.View | None = None,
        reply: Reply | None = None,
        wait: bool = False,
        priority: int = NORMAL,
        tail: str | None = None,
        meta: dict[str, Any] | None = None,
        late: asyncio.Future[dict[Any, Picture]] | None = None,
        announces: bool = False,
    ) -> discord.Message | None:
        """One channel message: the slash command's answer when there is one, else
        through the outbox. Returns the message if it was the answer, or if ``wait``
        (then once the outbox sent it; None if it could not be sent now). With ``tail``
        (the lines saying who is to play) it is an action message ``content`` + ``tail``
        that the outbox may coalesce with the channel's previous one. ``late``: the
        images still being drawn, added to the message by an edit once it is sent.
        ``announces``: it is the message of the outcome's actions, which stay owed to
        the channel until it is kept in the outbox or sent with its board. ``meta`` goes
        with an outbox item (:meth:`_settled` does what it asks once the item is sent);
        its *Undo* offer is taken up here for the answer."""
        owed = self._owed(outcome) if announces else None
        if owed is not None:
            self._telling.add((outcome.game_id or 0, owed))
        full = "\n".join(x for x in (content, tail) if x) if tail is not None else content
        if reply is not None and reply.mode == "reply" and not reply.answered:
            kwargs: dict[str, Any] = {
                "content": clip(full),
                "allowed_mentions": _mentions(pings or set()),
            }
            if files:
                kwargs["files"] = [p.file() for p in files]
            if view is not None:
                kwargs["view"] = view
            msg = await reply.public(**kwargs)
            if msg is not None:
                if meta is not None and UNDO in meta:
                    await self.undo.shown(outcome.game_id or 0, msg.channel.id, msg.id, meta[UNDO])
                if late is not None:
                    self.later(self._attach(outcome, msg, late))
                elif owed is not None:
                    await self._told(outcome)
                return msg
        payload = message_payload(clip(full), view=view, mentions=_mentions(pings or set()))
        words = None
        if tail is not None and len(full) <= 2000:
            # an action message (its buttons are its tail's: a merge keeps the newest)
            words = [content] if content else []
        pending = await self.outbox.send(
            outcome.channel_id or 0,
            payload,
            files_of(files),
            game_id=outcome.game_id,
            priority=priority,
            words=words,
            tail=tail,
            meta=meta,
            announces=owed if late is None else None,  # else once the board is added
        )
        if late is not None:
            self.later(self._attach_when_sent(outcome, pending, late))
        if not wait:
            return None
        return (await pending).message

    def _result_line(self, outcome: Outcome, names: list[str]) -> str | None:
        """The end of a finished game in the game's words (None while it goes on)."""
        view = outcome.spectator_view
        if view is None:
            return None
        return contract.game_named(outcome.variant).presentation.result_line(view, names)

    async def _post_action(
        self,
        outcome: Outcome,
        refs: GameRefs,
        pics: dict[Any, Picture],
        reply: Reply | None,
        late: asyncio.Future[dict[Any, Picture]] | None = None,
    ) -> discord.Message | None:
        """The outcome's channel message (the command's answer when there is one)."""
        names = list(outcome.names)
        words = contract.game_named(outcome.variant).presentation
        lines = list(outcome.public_lines)
        waiting: list[str] = []
        ended = self._result_line(outcome, names)
        if ended:
            if not any(e.kind == "game_over" for e in outcome.events):
                lines.append(ended)
        elif outcome.kind != "pause":
            waiting = waiting_lines(outcome.decisions, words)
        pinged = {k for k, spoken in words.decisions().items() if spoken.ping}
        pings = {
            p.user_id
            for p in outcome.prompts
            if p.user_id is not None and p.kind in pinged and await self.pings(p.user_id)
        }
        files = [pics[k] for k in ("board", CONTEST) if k in pics]
        contest = self._contest(outcome) is not None
        refs.contest_wanted = contest
        content = "\n".join(lines) or ("" if waiting else "…")
        buttons = await self._buttons(outcome, bool(ended))
        meta: dict[str, Any] = {"remember": CONTEST} if contest else {}
        undo = await self._undo_item(outcome, bool(ended))
        if undo is not None:
            item, until = undo
            edit = message_payload(None, view=buttons, clear_view=True)  # it taken off
            meta[UNDO] = offer_meta(outcome.version, until, edit)
            buttons = buttons or discord.ui.View(timeout=None)
            buttons.add_item(item)
        msg = await self.post(
            outcome,
            content,
            files=files,
            pings=pings,
            view=buttons,
            reply=reply,
            wait=contest,
            priority=URGENT,
            tail="\n".join(waiting),
            meta=meta or None,
            late=late,
            announces=True,
        )
        if contest and msg is not None:
            self._contest_sent(refs, msg)
            refs.contest_log = list(outcome.public_lines)
            await self._save_contest(outcome.game_id or 0, msg.id)
        elif not contest:
            if refs.contest_id is not None:
                await self._save_contest(outcome.game_id or 0, None)
            refs.contest_id, refs.contest_board, refs.contest_log = None, None, []
        return msg

    async def _buttons(self, outcome: Outcome, ended: bool) -> discord.ui.View | None:
        """A game message's buttons: *Rematch* once the game is over; else *Your turn* /
        *Open my panel* while people decide, and the vote while a draw is proposed."""
        gid, controls = outcome.game_id, self.bot.controls
        if gid is None or outcome.kind == "pause":
            return None
        if ended:
            if not outcome.game_over:
                return None
            rematch = discord.ui.View(timeout=None)
            rematch.add_item(controls.rematch(gid))
            return rematch
        view = opener_view(controls, gid, outcome.decisions, outcome.variant)
        if outcome.kind == "draw" and await self._draw_proposed(gid):
            view = view or discord.ui.View(timeout=None)
            for item in draw_items(controls, gid):
                view.add_item(item)
        return view

    async def _undo_item(
        self, outcome: Outcome, ended: bool
    ) -> tuple[discord.ui.Item[Any], float] | None:
        """*Undo* under an action its player may still take back, and until when; else
        None (also when the game has changed since)."""
        gid = outcome.game_id
        if gid is None or ended or outcome.undo_until is None:
            return None
        standing = await self.bot.service.undo_open(gid)
        if standing is None or standing[0] != outcome.version:
            return None
        return self.bot.controls.undo(gid, outcome.version), standing[1]

    async def _draw_proposed(self, gid: int) -> bool:
        """Some people at the table agree to a draw, not all yet."""
        try:
            seats = (await self.bot.service.status(gid)).seats
        except ServiceError:  # gone meanwhile: nothing to vote on
            return False
        votes = [s.agrees_draw for s in seats if s.user_id is not None and s.seat is not None]
        return any(votes) and not all(votes)

    async def _attach_when_sent(
        self,
        outcome: Outcome,
        pending: asyncio.Future[Sent],
        drawing: asyncio.Future[dict[Any, Picture]],
    ) -> None:
        """Once the outbox has sent the words, add the late images to that message."""
        sent = await pending
        msg = sent.message
        if msg is None:
            drawing.cancel()
            if sent.error in ("gone", "discarded", "refused"):
                await self._told(outcome)  # no message to add a board to, nor to owe
            # else (held, or the bot is stopping) it stays owed: told again after a restart
            return
        await self._attach(outcome, msg, drawing)

    async def _attach(
        self, outcome: Outcome, msg: discord.Message, drawing: asyncio.Future[dict[Any, Picture]]
    ) -> None:
        """Add the late board (and contest) images to ``msg``, sent with words only.

        A message the outbox merged with a later outcome's shows the latest board only:
        an older outcome's images are not added over a newer one's. The outcome's
        actions stay owed to the channel until the edit is kept or made: a restart
        before then tells them again, with the board."""
        pics = await drawing
        files = [pics[k] for k in ("board", CONTEST) if k in pics]
        version = outcome.version or 0
        if not files or self._shown.get(msg.id, -1) > version:
            await self._told(outcome)
            return
        self._shown[msg.id] = version
        while len(self._shown) > SHOWN_KEPT:
            del self._shown[next(iter(self._shown))]
        refs = self.refs.get(outcome.game_id or 0)
        # the answer (a deferred one's is a WebhookMessage): its interaction's webhook,
        # which Discord's global limit does not count, never behind the outbox's queue
        if isinstance(msg, discord.InteractionMessage | discord.WebhookMessage):
            edited = await attach(msg, files)
            await self._told(outcome)
            if edited is not None and refs is not None and refs.contest_id == msg.id:
                refs.contest_board = next(
                    (a for a in edited.attachments if a.filename == BOARD_FILE), None
                )
            return
        replaced = self.images.channel_files(outcome.variant)
        kept = [a.to_dict() for a in msg.attachments if a.filename not in replaced]
        sent = await (
            await self.outbox.edit(
                msg.channel.id,
                msg.id,
                {"attachments": kept},
                files_of(files),
                game_id=outcome.game_id,
                priority=NORMAL,
                announces=self._owed(outcome),
            )
        )
        if sent.message is not None and refs is not None and refs.contest_id == msg.id:
            refs.contest_board = next(
                (a for a in sent.message.attachments if a.filename == BOARD_FILE), None
            )

    async def _attach_contest(
        self,
        outcome: Outcome,
        refs: GameRefs,
        drawing: asyncio.Future[dict[Any, Picture]],
        edit: int,
    ) -> None:
        """Add a late contest image to the contest message, unless a newer edit replaced
        it (then, or once the edit is kept, the outcome is no longer owed)."""
        picture = (await drawing).get(CONTEST)
        if picture is None or refs.contest_id is None or refs.contest_edits != edit:
            await self._told(outcome)
            return
        kept = [refs.contest_board.to_dict()] if refs.contest_board else []
        await self.outbox.edit(
            outcome.channel_id or 0,
            refs.contest_id,
            {"attachments": kept},
            files_of([picture]),
            game_id=outcome.game_id,
            priority=NORMAL,
            meta={"gone": CONTEST},
            announces=self._owed(outcome),
        )

    @staticmethod
    def _contest_sent(refs: GameRefs, msg: discord.Message) -> None:
        refs.contest_id, refs.contest_seen = msg.id, True
        refs.contest_board = next((a for a in msg.attachments if a.filename == BOARD_FILE), None)

    async def _edit_contest(
        self, outcome: Outcome, refs: GameRefs, pics: dict[Any, Picture], *, late: bool = False
    ) -> None:
        """Edit the contest message with the outcome's lines, where the contest stands
        and who is awaited (``late``: its contest image follows, and the outcome stays
        owed to the channel until it does)."""
        if not outcome.public_lines:
            return  # a quiet step (nobody else saw it): nothing public to show
        owed = self._owed(outcome)
        if owed is not None:
            self._telling.add((outcome.game_id or 0, owed))
        refs.contest_log += outcome.public_lines
        words = contract.game_named(outcome.variant).presentation
        contest = words.contest()
        names = list(outcome.names)
        view = outcome.spectator_view
        stands = contest.lines(view, names) if contest is not None and view is not None else []
        waiting = waiting_lines(outcome.decisions, words)
        content = "\n".join(refs.contest_log[-12:] + stands + waiting)
        picture = pics.get(CONTEST)
        if refs.contest_id is not None and not refs.contest_seen:
            await self._find_contest(outcome, refs)
        if refs.contest_id is None:
            await self._new_contest(outcome, refs, content, picture, announces=not late)
            return
        buttons = opener_view(
            self.bot.controls, outcome.game_id or 0, outcome.decisions, outcome.variant
        )
        payload = message_payload(
            clip(content), view=buttons, clear_view=True, mentions=_mentions(set())
        )
        payload["attachments"] = [refs.contest_board.to_dict()] if refs.contest_board else []
        # a contest message deleted meanwhile is posted afresh (see _settled)
        await self.outbox.edit(
            outcome.channel_id or 0,
            refs.contest_id,
            payload,
            files_of([picture] if picture else []),
            game_id=outcome.game_id,
            priority=URGENT,
            meta={"gone": CONTEST},
            announces=None if late else owed,
        )

    async def _new_contest(
        self,
        outcome: Outcome,
        refs: GameRefs,
        content: str,
        picture: Picture | None,
        *,
        announces: bool = True,
    ) -> None:
        """Post the contest message afresh (there was none, or it is gone)."""
        msg = await self.post(
            outcome,
            content,
            files=[picture] if picture else [],
            view=opener_view(
                self.bot.controls, outcome.game_id or 0, outcome.decisions, outcome.variant
            ),
            wait=True,
            priority=URGENT,
            meta={"remember": CONTEST},
            announces=announces,
        )
        refs.contest_id, refs.contest_board, refs.contest_seen = None, None, True
        if msg is not None:
            self._contest_sent(refs, msg)
        await self._save_contest(outcome.game_id or 0, refs.contest_id)

    async def _find_contest(self, outcome: Outcome, refs: GameRefs) -> None:
        """After a restart: fetch the stored contest message once, to keep its board image
        when it is edited (or learn that it is gone)."""
        refs.contest_seen = True
        await self.outbox.bucket.take()  # one request, under the same pace
        try:
            msg = await self.channel(outcome).fetch_message(refs.contest_id)
        except discord.HTTPException as exc:
            log.info(
                "game %s: the contest message cannot be read (%s); posting a new one",
                outcome.game_id,
                exc,
            )
            refs.contest_id = None
            return
        refs.contest_board = next((a for a in msg.attachments if a.filename == BOARD_FILE), None)

    async def _reminder(self, outcome: Outcome) -> None:
        for p in outcome.prompts:
            if p.user_id is None:
                continue
            if p.deadline:
                text = _("⏰ {who}, a reminder: {prompt} Time runs out {when}.")
            else:
                text = _("⏰ {who}, a reminder: {prompt}")
            ping = await self.pings(p.user_id)
            mine = [DecisionInfo(p.seat, p.kind, p.user_id, "", p.deadline)]
            await self.post(
                outcome,
                text.format(who=f"<@{p.user_id}>", prompt=p.text, when=stamp(p.deadline)),
                pings={p.user_id} if ping else set(),
                view=opener_view(self.bot.controls, outcome.game_id or 0, mine, outcome.variant),
            )

    # ------------------------------------------------------------------ lobby
    async def _lobby(self, outcome: Outcome, refs: GameRefs, reply: Reply | None) -> None:
        info = outcome.lobby
        assert info is not None and outcome.game_id is not None
        refs.lobby_info = info
        text, view = lobby_text(info), lobby_view(self.bot.controls, outcome.game_id)
        if reply is not None and reply.mode == "lobby":
            await reply.edit_source(content=text, view=view)
            return
        if refs.lobby is None:
            msg = await self.post(
                outcome,
                text,
                view=view,
                reply=reply,
                wait=True,
                priority=URGENT,
                meta={"remember": "lobby"},
            )
            if msg is not None:
                refs.lobby = (msg.channel.id, msg.id)
                await self._save_lobby(outcome.game_id, refs.lobby)
            return
        await self._edit_lobby(outcome, refs, text, view)
        if reply is not None:
            await self.post(outcome, "\n".join(outcome.public_lines), reply=reply)

    async def _edit_lobby(
        self, outcome: Outcome, refs: GameRefs, text: str, view: discord.ui.View | None
    ) -> None:
        if refs.lobby is None:
            return
        cid, mid = refs.lobby
        # a lobby message deleted meanwhile is forgotten (see _settled)
        await self.outbox.edit(
            cid,
            mid,
            message_payload(text, view=view, clear_view=True),
            [],
            game_id=outcome.game_id,
            priority=BACKGROUND,
            meta={"gone": "lobby"},
        )

    async def _close_lobby(
        self, outcome: Outcome, refs: GameRefs, closing: str, reply: Reply | None
    ) -> None:
        text = lobby_text(refs.lobby_info, closed=closing) if refs.lobby_info else closing
        if reply is not None:
            await reply.edit_source(content=text, view=None)
        else:
            await self._edit_lobby(outcome, refs, text, None)
        if refs.lobby is not None:
            refs.lobby = None
            await self._save_lobby(outcome.game_id or 0, None)

    # ------------------------------------------------------------------ after the outbox
    async def _settled(self, rec: OutboxRecord, sent: Sent) -> None:
        """What an outbox item's ``meta`` asks for once it is settled (also for items
        kept from before a restart, whose senders are gone)."""
        meta, gid, msg = rec.meta, rec.game_id, sent.message
        if rec.kind == "dm":
            await self._dm_settled(rec, sent)
            return
        if gid is None:
            return
        if msg is not None and UNDO in meta:  # an action message under its Undo
            await self.undo.shown(gid, msg.channel.id, msg.id, meta[UNDO])
        refs = self.refs.get(gid)
        if msg is not None and meta.get("remember") == "lobby":
            if refs is not None and refs.lobby is None:
                refs.lobby = (msg.channel.id, msg.id)
            await self._save_lobby(gid, (msg.channel.id, msg.id))
        elif msg is not None and meta.get("remember") in KEPT_CONTEST:
            if refs is None or (refs.contest_wanted and refs.contest_id is None):
                if refs is not None:
                    self._contest_sent(refs, msg)
                await self._save_contest(gid, msg.id)
        elif sent.error == "gone" and meta.get("gone") == "lobby":
            if refs is not None and refs.lobby == (rec.channel_id, rec.message_id):
                refs.lobby = None
            await self._save_lobby(gid, None)
        elif sent.error == "gone" and meta.get("gone") in KEPT_CONTEST:
            log.info("game %s: the contest message is gone; posting a new one", gid)
            if refs is not None and refs.contest_id == rec.message_id:
                refs.contest_id, refs.contest_board = None, None
            payload = {k: v for k, v in rec.payload.items() if k != "attachments"}
            await self.outbox.send(
                rec.channel_id or 0,
                payload,
                rec.files,
                game_id=gid,
                priority=URGENT,
                meta={"remember": CONTEST},
            )
        elif sent.error == "gone" and rec.kind == "send":
            log.info("game %s: channel %s is gone", gid, rec.channel_id)

    async def _forbidden(self, rec: OutboxRecord, exc: discord.Forbidden) -> None:
        """The bot lost a permission in a game's channel: its messages wait (the outbox
        holds them), the game's timers pause, and the channel (or, if the bot cannot
        post there at all, the host by DM) is told which permission is missing."""
        cid = rec.channel_id or 0
        service = self.bot.service
        gid = rec.game_id if rec.game_id is not None else await service.active_game(cid)
        channel = self.bot.get_channel(cid)
        missing = missing_permissions(channel) if channel is not None else []
        log.warning(
            "game %s: missing permission(s) in channel %s: %s",
            gid,
            cid,
            ", ".join(missing) or exc.text,
        )
        if gid is None:
            return
        paused = await service.pause_for_permissions(gid, ", ".join(missing) or exc.text)
        if cid not in self.paused_for_permissions or paused.ok:
            self.paused_for_permissions[cid] = (gid, paused.ok)
        self._channels.setdefault(gid, cid)
        if not paused.ok:  # else kept with the pause; either way a restart keeps it held
            await self._keep(
                self.bot.db.hold_channel(
                    cid, gid, self.paused_for_permissions[cid][1], ", ".join(missing) or exc.text
                ),
                f"that channel {cid} is held",
            )
        try:
            status: GameStatus | None = await service.status(gid)
        except ServiceError:
            status = None
        language = status.language if status is not None else i18n.DEFAULT
        if missing and can_talk(missing):
            with i18n.use(language):  # the channel's
                notice = _(
                    "⚠️ I cannot post the game here: I am missing {what} in this channel. "
                    "The game is paused; it resumes by itself when the permission is back, "
                    "or the host can use /resume."
                ).format(what=missing_text(missing, exc.text))
            if await self.outbox.notice(cid, notice):
                return
        if status is None or status.host_id is None:
            return
        host = Outcome(
            ok=True, game_id=gid, channel_id=cid, guild_id=status.guild_id, language=language
        )
        with i18n.use(self.language_of(status.host_id, host)):
            text = _(
                "{where}\n⚠️ I can no longer post your game in that channel: I am missing "
                "{what} there. The game is paused; it resumes by itself when the permission "
                "is back, or the host can use /resume."
            ).format(where=self.label(host), what=missing_text(missing, exc.text))
        await self.outbox.dm(
            status.host_id,
            message_payload(text, mentions=discord.AllowedMentions.none()),
            [],
            game_id=None,
            priority=URGENT,
        )

    async def permissions_changed(self, guild_id: int | None = None) -> None:
        """A channel, role or member changed: release the held channels (of that server)
        where the bot has every permission it needs again, and resume the games paused
        for them."""
        for cid in sorted(self.outbox.held_channels):
            channel = self.bot.get_channel(cid)
            guild = getattr(channel, "guild", None)  # private channels have none
            if channel is None or (
                guild_id is not None and guild is not None and guild.id != guild_id
            ):
                continue
            if missing_permissions(channel):
                continue
            log.info("channel %s: the bot's permissions are back", cid)
            self.outbox.release(cid)
            await self._keep(self.bot.db.release_channel(cid), f"that channel {cid} is released")
            entry = self.paused_for_permissions.pop(cid, None)
            if entry is None:
                continue
            gid, paused_here = entry
            if not paused_here:  # paused by the host meanwhile, or a lobby: stays so
                self.bot.service.wake_computers(gid)
                continue
            outcome = await self.bot.service.resume(gid, 0, is_admin=True)
            if outcome.ok:
                await self.deliver(outcome)
