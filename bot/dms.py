"""The private half of the delivery: DMs (hands, private lines, panels), the panel a
player clicked edited in place, and players whose DMs are closed.

A DM's panel stays usable while its decision stands; once the decision is taken
elsewhere (in the channel's private panel, by a slash command), closed, or replaced by a
newer one, the DM is edited: its buttons go and a line says why (*Answered in the
channel.*), so an old DM never offers buttons that would only be refused. The bot
remembers each player's newest DM panel per game in memory: after a restart an older
one keeps its buttons, and a click on it gets the out-of-date reason.

A DM refused with HTTP 403 / code 50007 marks the user's DMs closed; the channel is told
once per game (use /hand and the *Open my panel* buttons), their prompts are offered
through an *Open my panel* button in the channel (or, for the one who just used a slash
command, an ephemeral follow-up), and nothing waits for them. The mark is also kept on the
person's seats in unfinished games (the store), so a restart does not DM them again; the
greeting DM at a join looks again.

A DM, a panel and the closing line of a DM panel are in their player's language (see
:meth:`bot.delivery.Delivery.language_of`); what is said of them in the channel, in the
game's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import discord

from rules import contract, i18n
from service import Outcome, PrivateNote, Prompt
from service.models import OutboxFile, OutboxRecord

from . import dm_parts
from . import reply as replies
from .catalogue import N_, _
from .dm_parts import held_key
from .games import decision_name, is_panel, panel_names
from .images import HAND_FILE, Images, Picture
from .outbox import BACKGROUND, NORMAL, URGENT, Outbox, Sent, files_of, message_payload
from .reply import Reply, within
from .texts import clip, stamp, where_label
from .views.panels import open_panel_view, panel_content, panel_view
from .views.turn import is_turn, root_step, step_view, with_step

if TYPE_CHECKING:
    from .client import GameBot
    from .delivery import GameRefs

log = logging.getLogger("bot.delivery")

DMS_CLOSED = 50007
ANSWERED_IN_CHANNEL = N_("✔ Answered in the channel.")
ANSWERED = N_("✔ Answered.")
REPLACED = N_("↪ A newer panel follows.")
CLOSED = N_("This decision is closed; see the channel.")
OVER = N_("The game is over.")
CLOSING = (ANSWERED_IN_CHANNEL, ANSWERED, REPLACED, CLOSED, OVER)
"""The last line of a DM panel whose buttons were taken off (in italics): it keeps the
words it was sent with (its hand as it was then) above it."""


@dataclass(slots=True)
class DmPanel:
    """A player's newest DM with buttons answering one of their decisions."""

    channel_id: int
    message_id: int
    version: int
    """The version of the prompt its buttons answer."""
    content: str
    """Its words as sent."""
    language: str | None = None
    """The language they are in (its player's; None: English)."""


class PrivateDelivery:
    """DMs and panels; mixed into :class:`bot.delivery.Delivery`."""

    bot: GameBot
    dms_closed: set[int]
    dms_open: set[int]
    """Users a DM reached in this process (their DMs are not waited for)."""
    outbox: Outbox
    images: Images
    hands_shown: dict[int, dict[int, str]]
    """Game id -> user id -> the holding whose image that player was last sent (as
    :func:`bot.dm_parts.held_key` gives it)."""
    hands_drawn: int
    """Hand images drawn for DMs at send time (for tests and benchmarks)."""
    hands_late: int
    """Of those, left out for being late (the renderer saturated)."""
    dm_panels: dict[int, dict[int, DmPanel]]
    """Game id -> user id -> that player's newest DM panel still offering its buttons."""

    def ref(self, game_id: int) -> GameRefs:  # implemented by Delivery
        raise NotImplementedError

    def language_of(self, user_id: int, outcome: Outcome) -> str:  # implemented by Delivery
        raise NotImplementedError

    @staticmethod
    async def _keep(write: Awaitable[None], what: str) -> None:
        """Store a message id or a DM flag: worth having, never worth failing a delivery
        for (e.g. the store closing at shutdown)."""
        try:
            await write
        except Exception:
            log.warning("could not store %s", what, exc_info=True)

    async def post(  # implemented by Delivery
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
        raise NotImplementedError

    async def _private(
        self, outcome: Outcome, pics: dict[Any, Picture], reply: Reply | None, note: str
    ) -> None:
        """DMs (hands, private lines, panels); the clicker's panel is edited in place."""
        prompts: dict[int, Prompt] = {}
        for p in outcome.prompts:
            if p.user_id is not None:
                prompts[p.user_id] = p
        missing = {uid: p for uid, p in prompts.items() if uid not in outcome.private}
        if missing and outcome.game_id is not None:  # e.g. a seat handed over, a resume
            private = dict(outcome.private)
            for uid, p in missing.items():
                own = await self.bot.service.view(outcome.game_id, uid)
                private[uid] = PrivateNote(uid, p.seat, (), False, own.view)
            outcome = replace(outcome, private=private)
        users = sorted(set(outcome.private) | set(prompts))
        actor = reply.interaction.user.id if reply is not None else None
        jobs = []
        for uid in users:
            prompt = prompts.get(uid)
            if uid == actor and reply is not None and reply.mode == "panel":
                jobs.append(self._panel_answer(outcome, uid, prompt, pics, reply, note))
            else:
                jobs.append(
                    self._dm_user(outcome, uid, prompt, pics, reply if uid == actor else None)
                )
        if jobs:
            await asyncio.gather(*jobs)

    @staticmethod
    def _private_lines(game: str, view: Any, names: list[str]) -> list[str]:
        """What only the viewer of ``view`` knows (the hand), in ``game``'s words."""
        if view is None:
            return []
        return contract.game_named(game).presentation.private_lines(view, names)

    def _dm_part(
        self, outcome: Outcome, uid: int, prompt: Prompt | None
    ) -> tuple[dict[str, Any], discord.ui.View | None]:
        """``uid``'s DM about ``outcome`` as a mergeable part (:mod:`bot.dm_parts`), and
        its panel."""
        note = outcome.private.get(uid)
        names = list(outcome.names)
        view_for = note.view if note is not None else None
        panel, text, kind, show_hand = None, None, None, False
        game = contract.game_named(outcome.variant) if outcome.variant else None
        if prompt is not None and view_for is not None and game and outcome.game_id:
            text = panel_content(prompt, view_for, names, game.presentation)
            kind = prompt.kind
            if is_turn(game, prompt.kind):
                step = root_step(prompt, game)
                text = with_step(text, step)
                panel = step_view(self.bot.controls, outcome.game_id, step)
            else:
                panel = panel_view(self.bot.controls, prompt, game)
        else:
            if prompt is not None:
                text, kind = f"**{prompt.text}**", prompt.kind
                if prompt.deadline:
                    until = _("Time runs out {when}.").format(when=stamp(prompt.deadline))
                    text = f"{text} {until}"
            show_hand = (
                view_for is not None and note is not None and bool(note.hand_changed or note.lines)
            )
        part = dm_parts.make_part(
            self.label(outcome),
            list(note.lines) if note is not None else [],
            prompt=text,
            kind=kind,
            open_kinds=(
                [d.kind for d in outcome.decisions if d.user_id == uid]
                if outcome.decisions
                else None
            ),
            hand=self.images.holding(view_for, outcome.variant),
            hand_text=self._private_lines(outcome.variant, view_for, names),
            show_hand=show_hand,
            draw=note is not None and note.hand_changed,
            game=outcome.variant,
            language=i18n.current(),
        )
        return part, panel

    def _dm_text(
        self, outcome: Outcome, uid: int, prompt: Prompt | None, with_label: bool = True
    ) -> tuple[str, discord.ui.View | None]:
        part, panel = self._dm_part(outcome, uid, prompt)
        if not with_label:
            part["label"] = ""
        return dm_parts.text_of(part), panel

    async def _dm_user(
        self,
        outcome: Outcome,
        uid: int,
        prompt: Prompt | None,
        pics: dict[Any, Picture],
        reply: Reply | None,
    ) -> None:
        with i18n.use(self.language_of(uid, outcome)):
            await self._dm_user_in_language(outcome, uid, prompt, pics, reply)

    async def _dm_user_in_language(
        self,
        outcome: Outcome,
        uid: int,
        prompt: Prompt | None,
        pics: dict[Any, Picture],
        reply: Reply | None,
    ) -> None:
        """:meth:`_dm_user` in the player's language."""
        note = outcome.private.get(uid)
        wants_panel = prompt is not None and is_panel(prompt.kind)
        has_news = note is not None and (note.hand_changed or bool(note.lines))
        if not (prompt is not None or has_news):
            return
        hand = pics.get(("hand", uid))
        if uid not in self.dms_closed:
            part, panel = self._dm_part(outcome, uid, prompt)
            # the one who acted is answered privately if the DM is refused, so wait for
            # it, unless a DM to them went through already (then, as for the others, the
            # outbox tells the channel if it is refused, see _dm_settled): waiting would
            # hold back the game's later DMs, which could not merge while they wait
            wait = reply is not None and uid not in self.dms_open
            meta = {} if wait else self._fallback(outcome, prompt if wants_panel else None)
            if panel is not None and prompt is not None:
                meta["answers"] = prompt.version  # what its buttons answer
            # no hand image here: the outbox has it drawn when the DM is sent (a DM
            # merged into a newer one costs no drawing)
            if await self.dm(
                uid,
                dm_parts.text_of(part),
                [],
                panel,
                wait=wait,
                game_id=outcome.game_id,
                priority=URGENT if prompt is not None or wait else NORMAL,
                meta=meta,
                part=part,
            ):
                return
            await self.tell_dms_closed(outcome, uid)
        # DMs closed: the asker gets it privately now; others get a button in the channel.
        if reply is not None:
            content, panel = self._dm_text(outcome, uid, prompt, with_label=False)
            kwargs: dict[str, Any] = {"files": [hand.file()]} if hand else {}
            if panel is not None:
                kwargs["view"] = panel
            if await reply.private(content, **kwargs):
                return
        if wants_panel and prompt is not None and outcome.game_id is not None:
            with i18n.use(outcome.language):  # the channel's
                text = _("{who}: a decision is yours ({what}). Open your panel:").format(
                    who=f"<@{uid}>", what=decision_name(outcome.variant, prompt.kind)
                )
                view = open_panel_view(self.bot.controls, outcome.game_id, uid)
            await self.post(outcome, text, pings={uid}, view=view)

    async def _panel_answer(
        self,
        outcome: Outcome,
        uid: int,
        prompt: Prompt | None,
        pics: dict[Any, Picture],
        reply: Reply,
        note: str,
    ) -> None:
        in_dm = reply.interaction.guild_id is None
        language = self.language_of(uid, outcome)
        with i18n.use(language):
            content, panel = self._dm_text(outcome, uid, prompt, with_label=False)
        hand = pics.get(("hand", uid))
        text = f"✔ {note}\n{content}" if note else content
        with i18n.use(language):
            text = clip(f"{self.label(outcome)}\n{text}" if in_dm else text)
        ok = await reply.edit_source(
            content=text, view=panel, attachments=[hand.file()] if hand else []
        )
        if not ok:
            await self._dm_user(outcome, uid, prompt, pics, None)
        elif in_dm and outcome.game_id is not None:
            clicked = reply.interaction.message
            if clicked is not None:  # now the player's DM panel, or none
                live = (
                    DmPanel(clicked.channel.id, clicked.id, prompt.version, text, language)
                    if (panel is not None and prompt is not None)
                    else None
                )
                await self._dm_panel_now(outcome.game_id, uid, live, clicked.id)

    def label(self, outcome: Outcome) -> str:
        """'**Server** › #channel · link' for a DM about this game."""
        cid = outcome.channel_id or 0
        channel = self.bot.get_channel(cid)
        guild = self.bot.get_guild(outcome.guild_id or 0)
        name = getattr(channel, "name", None)
        return where_label(guild.name if guild else None, name, outcome.guild_id, cid)

    async def dm(
        self,
        uid: int,
        content: str,
        files: list[Picture],
        view: discord.ui.View | None = None,
        *,
        wait: bool = True,
        game_id: int | None = None,
        priority: int = NORMAL,
        meta: dict[str, Any] | None = None,
        part: dict[str, Any] | None = None,
    ) -> bool:
        """Send a DM through the outbox. With ``wait``: False (and the user marked) if
        their DMs are closed; without, True once it is queued (``meta`` says what to do
        if it is refused, see :meth:`_dm_settled`). ``part``: a game's DM that may merge
        with the player's waiting one (:meth:`bot.outbox.Outbox.dm`)."""
        payload = message_payload(content, view=view, mentions=discord.AllowedMentions.none())
        pending = await self.outbox.dm(
            uid,
            payload,
            files_of(files),
            game_id=game_id,
            priority=priority,
            meta=meta,
            part=part,
        )
        if not wait:
            return True
        return (await pending).error != "dms_closed"

    async def prepare_dm(self, rec: OutboxRecord) -> list[OutboxFile]:
        """The outbox sends a game DM now: its hand image, drawn if the hand changed since
        the DM was made and differs from the last one this player was sent. A drawing
        not done within ``WORDS_FIRST_AFTER`` seconds is left out (the words list the
        cards instead)."""
        part = rec.meta.get("dm") or {}
        if not part.get("draw") or part.get("hand") is None or rec.game_id is None:
            return []
        holding = part["hand"]
        if self.hands_shown.get(rec.game_id, {}).get(rec.user_id or 0) == held_key(holding):
            return []
        game = part.get("game")
        if game is None or not self.images.draws(game):
            # kept by an older version (no game named), or a game without images
            rec.meta["dm"] = part = {**part, "show_hand": True}
            rec.payload["content"] = dm_parts.text_of(part)
            return []
        self.hands_drawn += 1
        with i18n.use(part.get("language")):  # the task drawing it keeps the DM's language
            drawing = asyncio.ensure_future(self.images.hand(holding, _("Your hand"), game=game))
        if not await within(drawing, replies.WORDS_FIRST_AFTER):
            # the renderer is saturated: the words go now, with the cards listed
            drawing.cancel()
            self.hands_late += 1
            log.info("a hand image is late; the DM goes with its cards in words")
            rec.meta["dm"] = part = {**part, "show_hand": True}
            rec.payload["content"] = dm_parts.text_of(part)
            return []
        return files_of([drawing.result()])

    @staticmethod
    def _fallback(outcome: Outcome, panel: Prompt | None) -> dict[str, Any]:
        """A DM's ``meta``: if refused, tell the game's channel (and offer the panel), in
        the game's language."""
        meta: dict[str, Any] = {
            "tell": [outcome.game_id, outcome.channel_id, outcome.guild_id, outcome.language]
        }
        if panel is not None:  # what the decision is called, for the channel's line
            with i18n.use(outcome.language):
                meta["panel"] = decision_name(outcome.variant, panel.kind)
        return meta

    async def _dm_settled(self, rec: OutboxRecord, sent: Sent) -> None:
        """A DM settled: mark closed DMs (and tell the channel, offer the panel, if its
        ``meta`` asks); note DMs open again after a join's greeting."""
        uid = rec.user_id or 0
        if sent.error is None:
            self.dms_open.add(uid)
            part = rec.meta.get("dm")
            if part and rec.game_id is not None and any(f.filename == HAND_FILE for f in rec.files):
                self.hands_shown.setdefault(rec.game_id, {})[uid] = held_key(part["hand"])
            version, msg = rec.meta.get("answers"), sent.message
            buttons = bool(rec.payload.get("components"))
            if part and buttons and rec.game_id is not None and None not in (version, msg):
                assert msg is not None and version is not None
                content = str(rec.payload.get("content") or "")
                language = part.get("language")
                live = DmPanel(msg.channel.id, msg.id, int(version), content, language)
                await self._dm_panel_now(rec.game_id, uid, live, None)
            if rec.meta.get("reopen"):
                await self._keep(
                    self.bot.db.set_dms_closed(uid, False), f"that user {uid} has DMs open"
                )
            return
        if sent.error != "dms_closed":
            return
        log.info("user %s has DMs closed", uid)
        self.dms_closed.add(uid)
        self.dms_open.discard(uid)
        await self._keep(self.bot.db.set_dms_closed(uid, True), f"that user {uid} has DMs closed")
        tell = rec.meta.get("tell")
        if not tell or tell[0] is None:
            return
        # (kept by an older version: no language, English)
        language = i18n.choose(tell[3] if len(tell) > 3 else None)
        outcome = Outcome(
            ok=True, game_id=tell[0], channel_id=tell[1], guild_id=tell[2], language=language
        )
        await self.tell_dms_closed(outcome, uid)
        called = rec.meta.get("panel")
        if called is not None:
            with i18n.use(language):
                text = _("{who}: a decision is yours ({what}). Open your panel:").format(
                    who=f"<@{uid}>", what=called
                )
                view = open_panel_view(self.bot.controls, tell[0], uid)
            await self.post(outcome, text, pings={uid}, view=view, priority=URGENT)

    # ------------------------------------------------------------------ DM panels
    async def _dm_panel_now(
        self, gid: int, uid: int, panel: DmPanel | None, clicked: int | None
    ) -> None:
        """``panel`` is ``uid``'s DM panel in game ``gid`` now (None: the DM ``clicked``
        was answered in place and offers none). An older one is closed as replaced; a
        new one whose decision no longer stands (taken meanwhile, while it waited to be
        sent) is closed at once."""
        mine = self.dm_panels.setdefault(gid, {})
        older = mine.get(uid)
        if panel is None:
            if older is not None and older.message_id == clicked:
                del mine[uid]
            return
        mine[uid] = panel
        if older is not None and older.message_id != panel.message_id:
            await self._close_dm_panel(older, REPLACED)
        if not await self.bot.service.prompt_stands(gid, uid, panel.version):
            if mine.get(uid) is panel:
                del mine[uid]
            if not mine:  # e.g. the game ended meanwhile
                self.dm_panels.pop(gid, None)
            await self._close_dm_panel(panel, CLOSED)

    async def close_stale_panels(self, outcome: Outcome, reply: Reply | None) -> None:
        """After ``outcome``: close the DM panels of its game whose decision no longer
        stands (every one, once the game is over), saying why."""
        gid = outcome.game_id
        panels = self.dm_panels.get(gid or 0)
        if gid is None or not panels:
            return
        over = outcome.game_over or outcome.kind in ("cancel", "expired", "archive")
        actor, clicked, in_dm = None, None, False
        if reply is not None:
            actor, in_dm = reply.interaction.user.id, reply.interaction.guild_id is None
            message = reply.interaction.message if reply.mode == "panel" else None
            clicked = message.id if message is not None else None
        for uid, panel in list(panels.items()):
            if panel.message_id == clicked:
                continue  # the panel clicked: answered where it is
            if not over and await self.bot.service.prompt_stands(gid, uid, panel.version):
                continue
            if panels.get(uid) is panel:
                del panels[uid]
            if over:
                why = OVER
            elif uid == actor:
                why = ANSWERED if in_dm else ANSWERED_IN_CHANNEL
            elif any(p.user_id == uid for p in outcome.prompts):
                why = REPLACED
            else:
                why = CLOSED
            await self._close_dm_panel(panel, why)
        if over:
            self.dm_panels.pop(gid, None)

    async def _close_dm_panel(self, panel: DmPanel, why: str) -> None:
        """Take the buttons off a DM panel and say ``why`` (one of :data:`CLOSING`) under
        its words, in their language."""
        with i18n.use(panel.language):
            note = f"_{_(why)}_"
        content = clip(panel.content, dm_parts.MAX_CONTENT - len(note) - 1) + "\n" + note
        # no game named: a game's computers need not wait for it (see Delivery.room)
        await self.outbox.edit(
            panel.channel_id,
            panel.message_id,
            {"content": content, "components": []},
            [],
            priority=BACKGROUND,
        )

    async def tell_dms_closed(self, outcome: Outcome, uid: int) -> None:
        """Tell the channel, once per game, that ``uid`` must use /hand and the panels."""
        refs = self.ref(outcome.game_id or 0)
        if uid in refs.told_dms_closed:
            return
        refs.told_dms_closed.add(uid)
        with i18n.use(outcome.language):  # the channel's
            text = _(
                "{who}, I cannot send you direct messages. Use /hand to see your cards, and "
                "the **{turn}** and **{panel}** buttons here for your decisions (or open your "
                "DMs to this server)."
            ).format(who=f"<@{uid}>", turn=_("Your turn"), panel=_("Open my panel"))
        await self.post(outcome, text, pings={uid})

    async def check_dms(self, outcome: Outcome, uid: int) -> None:
        """At join: greet the player by DM, which finds out whether their DMs are open."""
        if not outcome.ok:
            return
        was_closed = uid in self.dms_closed
        self.dms_closed.discard(uid)
        with i18n.use(self.language_of(uid, outcome)):
            joined = _(
                "You joined this table. What only you may see, and your private panels "
                "({panels}), will come here."
            ).format(panels=", ".join(panel_names(outcome.variant)))
            text = f"{self.label(outcome)}\n{joined}"
        meta = {**self._fallback(outcome, None), "reopen": was_closed}
        await self.dm(uid, text, [], wait=False, game_id=outcome.game_id, meta=meta)
