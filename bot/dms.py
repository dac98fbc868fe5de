"""The private half of the delivery: DMs (hands, private lines, panels), the panel a
player clicked edited in place, and players whose DMs are closed.

A DM refused with HTTP 403 / code 50007 marks the user's DMs closed; the channel is told
once per game (use /hand and the *Open my panel* buttons), their prompts are offered
through an *Open my panel* button in the channel (or, for the one who just used a slash
command, an ephemeral follow-up), and nothing waits for them. The mark is also kept on the
person's seats in unfinished games (the store), so a restart does not DM them again; the
greeting DM at a join looks again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from .images import Picture
from .models import OutboxRecord
from .outbox import NORMAL, URGENT, Outbox, Sent, files_of, message_payload
from .reply import Reply
from .service import Outcome, PrivateNote, Prompt
from .texts import clip, hand_lines, stamp, where_label
from .views.panels import PANEL_KINDS, board_of_view, open_panel_view, panel_content, panel_view

if TYPE_CHECKING:
    from .client import GameBot
    from .delivery import GameRefs

log = logging.getLogger("bot.delivery")

DMS_CLOSED = 50007
KIND_WORDS = {
    "setup": "placing your pieces",
    "duel": "the duel",
    "diplomacy": "the diplomacy window",
    "retreat": "your retreat",
}


class PrivateDelivery:
    """DMs and panels; mixed into :class:`bot.delivery.Delivery`."""

    bot: GameBot
    dms_closed: set[int]
    outbox: Outbox

    def ref(self, game_id: int) -> GameRefs:  # implemented by Delivery
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
        missing = {
            uid: p
            for uid, p in prompts.items()
            if uid not in outcome.private and p.kind in PANEL_KINDS
        }
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

    def _dm_text(
        self, outcome: Outcome, uid: int, prompt: Prompt | None, with_label: bool = True
    ) -> tuple[str, discord.ui.View | None]:
        note = outcome.private.get(uid)
        names = list(outcome.names)
        lines = [self.label(outcome)] if with_label else []
        if note is not None:
            lines += note.lines
        view_for = note.view if note is not None else None
        panel = None
        if prompt is not None and prompt.kind in PANEL_KINDS and view_for is not None:
            lines.append(panel_content(prompt, view_for, names))
            panel = panel_view(prompt, board_of_view(view_for))
        else:
            if prompt is not None:
                until = f" Time runs out {stamp(prompt.deadline)}." if prompt.deadline else ""
                lines.append(f"**{prompt.text}**{until}")
            if view_for is not None and (note is not None and (note.hand_changed or note.lines)):
                lines += hand_lines(view_for, names)
        return clip("\n".join(lines)), panel

    async def _dm_user(
        self,
        outcome: Outcome,
        uid: int,
        prompt: Prompt | None,
        pics: dict[Any, Picture],
        reply: Reply | None,
    ) -> None:
        note = outcome.private.get(uid)
        wants_panel = prompt is not None and prompt.kind in PANEL_KINDS
        has_news = note is not None and (note.hand_changed or bool(note.lines))
        if not (wants_panel or has_news or (prompt is not None and prompt.kind == "turn")):
            return
        hand = pics.get(("hand", uid))
        if uid not in self.dms_closed:
            content, panel = self._dm_text(outcome, uid, prompt)
            # the one who acted is answered privately if the DM is refused, so wait for
            # it; for the others the outbox tells the channel (see _dm_settled)
            wait = reply is not None
            meta = {} if wait else self._fallback(outcome, prompt if wants_panel else None)
            if await self.dm(
                uid,
                content,
                [hand] if hand else [],
                panel,
                wait=wait,
                game_id=outcome.game_id,
                priority=URGENT if prompt is not None or wait else NORMAL,
                meta=meta,
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
            await self.post(
                outcome,
                f"<@{uid}>: a decision is yours ("
                f"{KIND_WORDS.get(prompt.kind, prompt.kind)}). Open your panel:",
                pings={uid},
                view=open_panel_view(outcome.game_id, uid),
            )

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
        content, panel = self._dm_text(outcome, uid, prompt, with_label=False)
        hand = pics.get(("hand", uid))
        text = f"✔ {note}\n{content}" if note else content
        text = clip(f"{self.label(outcome)}\n{text}" if in_dm else text)
        ok = await reply.edit_source(
            content=text, view=panel, attachments=[hand.file()] if hand else []
        )
        if not ok:
            await self._dm_user(outcome, uid, prompt, pics, None)

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
    ) -> bool:
        """Send a DM through the outbox. With ``wait``: False (and the user marked) if
        their DMs are closed; without, True once it is queued (``meta`` says what to do
        if it is refused, see :meth:`_dm_settled`)."""
        payload = message_payload(content, view=view, mentions=discord.AllowedMentions.none())
        pending = await self.outbox.dm(
            uid, payload, files_of(files), game_id=game_id, priority=priority, meta=meta
        )
        if not wait:
            return True
        return (await pending).error != "dms_closed"

    @staticmethod
    def _fallback(outcome: Outcome, panel: Prompt | None) -> dict[str, Any]:
        """A DM's ``meta``: if refused, tell the game's channel (and offer the panel)."""
        meta: dict[str, Any] = {"tell": [outcome.game_id, outcome.channel_id, outcome.guild_id]}
        if panel is not None:
            meta["panel"] = panel.kind
        return meta

    async def _dm_settled(self, rec: OutboxRecord, sent: Sent) -> None:
        """A DM settled: mark closed DMs (and tell the channel, offer the panel, if its
        ``meta`` asks); note DMs open again after a join's greeting."""
        uid = rec.user_id or 0
        if sent.error is None:
            if rec.meta.get("reopen"):
                await self._keep(
                    self.bot.db.set_dms_closed(uid, False), f"that user {uid} has DMs open"
                )
            return
        if sent.error != "dms_closed":
            return
        log.info("user %s has DMs closed", uid)
        self.dms_closed.add(uid)
        await self._keep(self.bot.db.set_dms_closed(uid, True), f"that user {uid} has DMs closed")
        tell = rec.meta.get("tell")
        if not tell or tell[0] is None:
            return
        outcome = Outcome(ok=True, game_id=tell[0], channel_id=tell[1], guild_id=tell[2])
        await self.tell_dms_closed(outcome, uid)
        kind = rec.meta.get("panel")
        if kind is not None:
            await self.post(
                outcome,
                f"<@{uid}>: a decision is yours ({KIND_WORDS.get(kind, kind)}). Open your panel:",
                pings={uid},
                view=open_panel_view(tell[0], uid),
                priority=URGENT,
            )

    async def tell_dms_closed(self, outcome: Outcome, uid: int) -> None:
        """Tell the channel, once per game, that ``uid`` must use /hand and the panels."""
        refs = self.ref(outcome.game_id or 0)
        if uid in refs.told_dms_closed:
            return
        refs.told_dms_closed.add(uid)
        await self.post(
            outcome,
            f"<@{uid}>, I cannot send you direct messages. Use /hand to "
            "see your cards, and the **Open my panel** buttons here for your "
            "decisions (or open your DMs to this server).",
            pings={uid},
        )

    async def check_dms(self, outcome: Outcome, uid: int) -> None:
        """At join: greet the player by DM, which finds out whether their DMs are open."""
        if not outcome.ok:
            return
        was_closed = uid in self.dms_closed
        self.dms_closed.discard(uid)
        text = (
            f"{self.label(outcome)}\nYou joined this table. Your cards and private "
            "panels (duel, diplomacy, retreat) will come here."
        )
        meta = {**self._fallback(outcome, None), "reopen": was_closed}
        await self.dm(uid, text, [], wait=False, game_id=outcome.game_id, meta=meta)
