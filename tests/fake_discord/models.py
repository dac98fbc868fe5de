"""State objects of the fake Discord: users, guilds, channels, messages and interactions.

These are plain dataclasses the tests read directly (``msg.content``, ``msg.attachments[0].data``);
the server (:mod:`tests.fake_discord.server`) owns and mutates them.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from tests.fake_discord.server import FakeDiscord

DISCORD_EPOCH_MS = 1420070400000
P = discord.Permissions
ALL_PERMISSIONS = P.all().value
ADMINISTRATOR = P.administrator.flag
VIEW_CHANNEL = P.view_channel.flag
SEND_MESSAGES = P.send_messages.flag
SEND_IN_THREADS = P.send_messages_in_threads.flag
ATTACH_FILES = P.attach_files.flag
EMBED_LINKS = P.embed_links.flag
READ_HISTORY = P.read_message_history.flag
MANAGE_CHANNELS = P.manage_channels.flag
MANAGE_THREADS = P.manage_threads.flag
MANAGE_MESSAGES = P.manage_messages.flag
MANAGE_ROLES = P.manage_roles.flag
CREATE_PUBLIC_THREADS = P.create_public_threads.flag
CREATE_PRIVATE_THREADS = P.create_private_threads.flag

#: What a fresh server's @everyone role may do (roughly Discord's defaults).
DEFAULT_EVERYONE_PERMISSIONS = P(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    create_private_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_application_commands=True,
    use_external_emojis=True,
    change_nickname=True,
).value
#: The bot's managed role: everyone's permissions plus what a game bot usually asks for.
DEFAULT_BOT_PERMISSIONS = (
    DEFAULT_EVERYONE_PERMISSIONS | MANAGE_CHANNELS | MANAGE_THREADS | (MANAGE_MESSAGES)
)
#: Channel types used by the fake.
TEXT, DM, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12
EPHEMERAL, LOADING = 64, 128


class SnowflakeFactory:
    """Hands out strictly increasing, timestamp-based snowflakes (so ``created_at`` works)."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self, shard: tuple[int, int] | None = None) -> int:
        """Return a new snowflake; with ``shard`` (id, count), one of a server whose
        events Discord sends on that shard (``(id >> 22) % count``: a later millisecond)."""
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(self._last + 1, now)
        if shard is not None:
            shard_id, count = shard
            while (self._last >> 22) % count != shard_id:
                self._last = ((self._last >> 22) + 1) << 22
        return self._last


def iso_now() -> str:
    """Current UTC time in Discord's ISO-8601 format."""
    return datetime.datetime.now(datetime.UTC).isoformat()


class ApiError(Exception):
    """An error response as Discord would send it (status, JSON error code, message)."""

    def __init__(self, status: int, code: int, message: str, errors: dict | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    @classmethod
    def invalid_form(cls, path: str, message: str, code: str = "BASE_TYPE_MAX_LENGTH") -> ApiError:
        """A 400 'Invalid Form Body' (50035) whose ``errors`` point at dotted ``path``."""
        errors: dict = {"_errors": [{"code": code, "message": message}]}
        for part in reversed(path.split(".")):
            errors = {part: errors}
        return cls(400, 50035, "Invalid Form Body", errors)

    def body(self) -> dict[str, Any]:
        """JSON body of the error response."""
        out: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            out["errors"] = self.errors
        return out


class InvalidInvocation(ValueError):
    """The test asked for something Discord's client would not let a user do."""


class InteractionFailed(AssertionError):
    """The bot's answer to an interaction was rejected by the fake (see ``errors``)."""


@dataclass(eq=False)
class FakeUser:
    """A Discord user. ``dms_open=False`` makes DMs to them fail with 403/50007."""

    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"
    """Their client's language (Discord's locale: ``de``, ``fr``, ``cs``, ``en-US``…), sent
    with each of their interactions."""

    @property
    def mention(self) -> str:
        """``<@id>``."""
        return f"<@{self.id}>"


@dataclass(eq=False)
class FakeRole:
    """A guild role; the @everyone role has the guild's id."""

    id: int
    guild_id: int
    name: str
    permissions: int = 0
    managed: bool = False
    bot_id: int | None = None


@dataclass(eq=False)
class FakeGuild:
    """A guild. ``members`` maps user id -> role ids (besides @everyone)."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = field(default_factory=dict)
    members: dict[int, list[int]] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    bot_present: bool = True
    preferred_locale: str = "en-US"
    """The server's language (its Community settings): the guild's ``preferred_locale``
    and an interaction's ``guild_locale``."""

    @property
    def everyone(self) -> FakeRole:
        """The @everyone role."""
        return self.roles[self.id]


@dataclass(eq=False)
class FakeChannel:
    """A text channel, DM channel or thread. ``overwrites``: target id -> (type, allow, deny)."""

    id: int
    type: int
    name: str
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    recipient_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    deleted: bool = False
    overwrites: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    thread_members: set[int] = field(default_factory=set)
    message_ids: list[int] = field(default_factory=list)

    @property
    def is_thread(self) -> bool:
        """True for public and private threads."""
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def mention(self) -> str:
        """``<#id>``."""
        return f"<#{self.id}>"


@dataclass(eq=False)
class FakeAttachment:
    """An uploaded file; ``data`` holds the exact bytes the bot sent."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None


@dataclass(eq=False)
class FakeMessage:
    """A message as stored by the fake (channel message, DM, ephemeral or interaction reply)."""

    id: int
    channel_id: int
    author: FakeUser
    guild_id: int | None = None
    content: str = ""
    embeds: list[dict] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    interaction_id: int | None = None
    created_at: str = field(default_factory=iso_now)
    edited_at: str | None = None
    deleted: bool = False
    pinned: bool = False
    reactions: dict[str, set[int]] = field(default_factory=dict)

    @property
    def ephemeral(self) -> bool:
        """Only the interacting user can see it."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred 'Bot is thinking...' placeholder."""
        return bool(self.flags & LOADING)

    def walk_components(self) -> Iterator[dict]:
        """Every component, depth-first (rows, buttons, selects, v2 containers...)."""
        stack = list(reversed(self.components))
        while stack:
            comp = stack.pop()
            yield comp
            children = list(comp.get("components", []))
            children += [comp[k] for k in ("component", "accessory") if k in comp]
            stack.extend(reversed(children))

    def component(self, custom_id: str) -> dict | None:
        """The component with this ``custom_id``, or None."""
        return next((c for c in self.walk_components() if c.get("custom_id") == custom_id), None)

    @property
    def buttons(self) -> list[dict]:
        """All buttons, in display order."""
        return [c for c in self.walk_components() if c.get("type") == 2]

    @property
    def text(self) -> str:
        """Content plus all embed text, newline-joined: handy for ``in`` assertions."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title", ""), e.get("description", "")]
            parts += [e.get("author", {}).get("name", ""), e.get("footer", {}).get("text", "")]
            for f in e.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
        parts += [c.get("content", "") for c in self.walk_components() if c.get("type") == 10]
        return "\n".join(p for p in parts if p)


@dataclass(eq=False)
class RecordedRequest:
    """One HTTP request the bot made, and how the fake answered it."""

    method: str
    path: str
    query: dict[str, str]
    json: Any = None
    files: list[FakeAttachment] = field(default_factory=list)
    status: int | None = None
    response: Any = None

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}>"


@dataclass(eq=False)
class InteractionResult:
    """What the bot did with one interaction the test sent.

    ``original`` is the response message (for a deferred ``thinking`` reply: the placeholder,
    completed by the first follow-up or an edit of ``@original``; for a component update,
    deferred or not: the clicked message). ``followups`` are further webhook messages.
    ``answer`` is what the user sees as the answer (see there). ``errors`` lists the error
    bodies the fake returned to the bot for this interaction (limits, late answer, ...).
    ``created``, ``acknowledged_at`` and ``answered_at`` are event-loop times: when the
    interaction was sent, when its callback was accepted, and when it first showed content
    (type 4/7 at once; a deferral when filled, edited or followed up).
    """

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    data: dict
    created: float
    source_message: FakeMessage | None = None
    response_type: int | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    choices: list[dict] | None = None
    modal: dict | None = None
    errors: list[dict] = field(default_factory=list)
    expired: bool = False
    acknowledged_at: float | None = None
    answered_at: float | None = None
    _fake: FakeDiscord | None = field(default=None, repr=False)

    @property
    def responded(self) -> bool:
        """The bot acknowledged the interaction in time."""
        return self.response_type is not None

    @property
    def deferred(self) -> bool:
        """The bot answered with a deferral (type 5 or 6)."""
        return self.response_type in (5, 6)

    @property
    def ack_delay(self) -> float | None:
        """Seconds from the interaction to its acknowledgement (None: never)."""
        return None if self.acknowledged_at is None else self.acknowledged_at - self.created

    @property
    def answer(self) -> FakeMessage | None:
        """The message the user sees as the answer: the response message once it has
        content (a deleted "thinking…" placeholder is skipped), else the first follow-up;
        for a component update whose bot followed up instead (a refusal), that
        follow-up, else the updated message."""
        visible = [m for m in self.followups if not m.deleted]
        first = self.original
        if self.response_type == 6 and visible:
            return visible[0]
        if first is not None and not first.deleted and not first.loading:
            return first
        return visible[0] if visible else None

    @property
    def ephemeral(self) -> bool:
        """The answer (see :attr:`answer`) is ephemeral."""
        return self.answer is not None and self.answer.ephemeral

    @property
    def content(self) -> str:
        """Content of the answer (see :attr:`answer`; '' if none)."""
        return self.answer.content if self.answer else ""

    @property
    def messages(self) -> list[FakeMessage]:
        """Response message (unless still a placeholder) then follow-ups, deleted ones skipped."""
        msgs = [self.original] if self.original and not self.original.loading else []
        return [m for m in msgs + self.followups if not m.deleted]

    async def wait_for_followups(self, count: int = 1, timeout: float = 5.0) -> list[FakeMessage]:
        """Wait until at least ``count`` follow-ups exist; returns ``followups``."""
        assert self._fake is not None
        await self._fake.wait_until(
            lambda: len(self.followups) >= count, timeout, f"{count} follow-up(s)"
        )
        return self.followups
