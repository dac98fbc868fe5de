"""/replay and /export: a game of this channel (the latest by default, or one picked by
number) rebuilt from its stored log, as everyone in the channel saw it.

``/replay`` is public: everything in it was shown in the channel already. It is
acknowledged with a public "thinking…" on entry (the rebuild and the drawing take
seconds), then answered with the animation (:meth:`bot.images.Images.replay`, drawn by
the replay worker, under the attachment limit Discord tells with the interaction); when
it is not drawn within ``WORDS_FIRST_AFTER`` seconds the words go first and the animation
follows by an edit, as every other picture does (:mod:`bot.reply`). A game without
images, or one whose animation cannot fit, is replayed in words as a text file.
``/export`` answers privately with the game's public record as a JSON file (no hand, no
seed: see :mod:`service.replays`). A refusal is private and changes nothing.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from render.replay import Animation, Frame, TooLarge
from rules import contract, i18n
from service import Replay
from service.queries import STATUS_WORDS
from service.replays import public_record, seat_words

from ..catalogue import N_, _, n_
from ..entry import ANSWER_PUBLIC
from ..errors import UserError
from ..reply import WORDS_FIRST_AFTER, Reply, within
from ..texts import clip
from .common import MAX_CHOICES, safe

if TYPE_CHECKING:
    from ..client import GameBot

log = logging.getLogger("bot")

Choice = app_commands.Choice

NOTHING_PLAYED = N_("No game has been played in this channel yet: there is nothing to replay.")
NO_IMAGES = N_("(This game has no pictures: its replay in words.)")
TOO_LARGE = N_("(The animation does not fit in one file here: the replay in words.)")
DRAWING = N_("(The animation is being drawn; it appears here in a moment.)")
NOT_DRAWN = N_("(The animation could not be drawn; try again later.)")
HEADROOM = 64 * 1024
"""Bytes kept free under the attachment limit (the upload's own framing)."""


def status_words(status: str) -> str:
    """A game's stored status (``finished``, ``running``…) in the current language."""
    return i18n.translate_any(STATUS_WORDS.get(status, status), i18n.current())


def replay_file(game_id: int, extension: str) -> str:
    """The attachment name of game ``game_id``'s replay or record."""
    return f"game-{game_id}-replay.{extension}"


def heading(replay: Replay) -> str:
    """The first line of a replay's message: the game, its players, where it stands."""
    seats = ", ".join(seat_words(s) for s in replay.seats)
    return n_(
        "**Replay of game #{game}** — {title}: {seats}. {status} after {n} action.",
        "**Replay of game #{game}** — {title}: {seats}. {status} after {n} actions.",
        replay.actions,
    ).format(
        game=replay.game_id,
        title=replay.title,
        seats=seats,
        status=status_words(replay.status).capitalize(),
        n=replay.actions,
    )


def shown_line(animation: Animation) -> str:
    """What the animation leaves out, if anything."""
    parts = []
    if animation.sampled:
        parts.append(
            n_(
                "{shown} of the {n} step, evenly spread",
                "{shown} of the {n} steps, evenly spread",
                animation.steps,
            ).format(shown=animation.shown, n=animation.steps)
        )
    if animation.scale < 1:
        parts.append(_("drawn at {percent} %").format(percent=round(animation.scale * 100)))
    if not parts:
        return ""
    return _("({what}: the whole game would not fit in one file.)").format(what="; ".join(parts))


def lines_of(replay: Replay) -> list[str]:
    """The words above a replay: its heading and, once over, how it ended."""
    return [heading(replay)] + ([replay.result_line] if replay.result_line else [])


def in_words(replay: Replay, limit: int, why: str) -> tuple[str, discord.File]:
    """The replay in words as a text file, and its message saying ``why``.

    Raises:
        UserError: even the words are larger than ``limit`` bytes.
    """
    text = replay.text().encode()
    if len(text) > limit:
        raise UserError(_("This game's replay is too long to send here, even in words."))
    file = discord.File(io.BytesIO(text), replay_file(replay.game_id, "txt"))
    return clip("\n".join([*lines_of(replay), why])), file


def finished(
    replay: Replay, drawing: asyncio.Future[Animation], limit: int
) -> tuple[str, discord.File]:
    """The message and file of a replay whose drawing is done: the animation, or the
    words when not even its smallest form fits.

    Raises:
        Exception: what the drawing raised (but :class:`TooLarge`).
    """
    try:
        animation = drawing.result()
    except TooLarge:
        return in_words(replay, limit, _(TOO_LARGE))
    file = discord.File(
        io.BytesIO(animation.data),
        replay_file(replay.game_id, "gif"),
        description=n_(
            "Replay of game #{game}, {n} frame",
            "Replay of game #{game}, {n} frames",
            animation.shown,
        ).format(game=replay.game_id, n=animation.shown),
    )
    return clip("\n".join(filter(None, [*lines_of(replay), shown_line(animation)]))), file


class ReplaysCog(commands.Cog):
    """Replays and records of this channel's games."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @safe
    async def _played(self, interaction: discord.Interaction, current: str) -> list[Choice[int]]:
        """``game``: the channel's started games, newest first (matching the number or
        the words typed)."""
        if interaction.guild_id is None:
            return []
        typed = str(current or "").strip().lower().lstrip("#")
        played = await self.bot.service.played_in_channel(
            interaction.guild_id, interaction.channel_id or 0
        )
        out = []
        for game in played:
            title = contract.game_named(game.variant).presentation.title
            name = f"#{game.id} {title} · {', '.join(game.names)} · {status_words(game.status)}"
            if not typed or typed in name.lower():
                out.append(Choice(name=name[:100], value=game.id))
        return out[:MAX_CHOICES]

    async def _replay(self, interaction: discord.Interaction, game: int | None) -> Replay:
        """The replay of ``game`` of this channel, or of its latest started game.

        Raises:
            UserError: none was played here; no such game here; it has not started.
            ServiceError: its record does not replay.
        """
        service, channel = self.bot.service, interaction.channel_id or 0
        if game is None:
            latest = await service.played_in_channel(interaction.guild_id or 0, channel, 1)
            if not latest:
                raise UserError(_(NOTHING_PLAYED))
            game = latest[0].id
        return await service.replay(game, channel)

    @app_commands.command(
        name="replay",
        description=N_("An animation of a game of this channel, one frame per action"),
        extras=ANSWER_PUBLIC,
    )
    @app_commands.guild_only()
    @app_commands.describe(game=N_("The game's number (default: the latest game in this channel)"))
    @app_commands.autocomplete(game=_played)
    async def replay(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None
    ) -> None:
        """Post the replay of a game of this channel (finished, or so far): the animation
        with its words, or, when it is not drawn within ``WORDS_FIRST_AFTER`` seconds, the
        words at once and the animation added by an edit."""
        replay = await self._replay(interaction, game)
        reply = Reply.of(interaction)
        images = self.bot.delivery.images
        limit = max(HEADROOM, interaction.filesize_limit - HEADROOM)
        if not images.draws(replay.variant):
            await self._post(interaction, reply, *in_words(replay, limit, _(NO_IMAGES)))
            return
        frames = [Frame(s.view, s.events, s.title, s.caption) for s in replay.steps]
        drawing = asyncio.ensure_future(
            images.replay(frames, replay.names, game=replay.variant, limit=limit)
        )
        if await within(drawing, WORDS_FIRST_AFTER):
            await self._post(interaction, reply, *finished(replay, drawing, limit))
            return
        msg = await self._post(interaction, reply, "\n".join([*lines_of(replay), _(DRAWING)]))
        if msg is None:
            drawing.cancel()
            return
        self.bot.delivery.later(self._add_when_drawn(msg, replay, drawing, limit))

    async def _add_when_drawn(
        self,
        msg: discord.Message,
        replay: Replay,
        drawing: asyncio.Future[Animation],
        limit: int,
    ) -> None:
        """Put the animation (or, failing that, the words) on ``msg``, posted with words
        only; a replay that could not be drawn says so."""
        await asyncio.wait({drawing})
        try:
            content, file = finished(replay, drawing, limit)
        except RuntimeError:  # the bot is stopping
            log.info("game %s: its replay was not drawn (stopping)", replay.game_id)
            content, file = "\n".join([*lines_of(replay), _(NOT_DRAWN)]), None
        except Exception:
            log.exception("game %s: its replay could not be drawn", replay.game_id)
            content, file = "\n".join([*lines_of(replay), _(NOT_DRAWN)]), None
        try:
            await msg.edit(content=content, attachments=[file] if file is not None else [])
        except discord.HTTPException as exc:
            log.warning("could not add the replay to message %s: %s", msg.id, exc)

    async def _post(
        self,
        interaction: discord.Interaction,
        reply: Reply,
        content: str,
        file: discord.File | None = None,
    ) -> discord.Message | None:
        """The public answer (in the channel if the interaction is gone)."""
        files = [file] if file is not None else []
        msg = await reply.public(content=content, files=files)
        if msg is not None:
            return msg
        channel = interaction.channel
        if not isinstance(channel, discord.abc.Messageable):
            return None
        if file is not None:
            file.reset()
        return await channel.send(content=content, files=files)

    @app_commands.command(
        name="export",
        description=N_("The public record of a game of this channel as a JSON file (no hands)"),
    )
    @app_commands.guild_only()
    @app_commands.describe(game=N_("The game's number (default: the latest game in this channel)"))
    @app_commands.autocomplete(game=_played)
    async def export(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1] | None = None
    ) -> None:
        """Send the asker the public record of a game of this channel, privately."""
        replay = await self._replay(interaction, game)
        record = public_record(replay)
        data = json.dumps(record, ensure_ascii=False, indent=1).encode()
        if len(data) > interaction.filesize_limit - HEADROOM:
            raise UserError(_("This game's record is too large to send here."))
        name = f"game-{replay.game_id}.json"
        await Reply.of(interaction).private(
            n_(
                "The public record of game #{game} ({title}, {status}, {n} action): every "
                "public event and what the channel was told. No hand and no deal are in it.",
                "The public record of game #{game} ({title}, {status}, {n} actions): every "
                "public event and what the channel was told. No hand and no deal are in it.",
                replay.actions,
            ).format(
                game=replay.game_id,
                title=replay.title,
                status=status_words(replay.status),
                n=replay.actions,
            ),
            file=discord.File(io.BytesIO(data), name),
        )
