"""A fake Discord (REST API under ``/api/v10`` + gateway websocket) for end-to-end tests.

The real discord.py client logs into it (see :func:`bot.endpoints.point_discord_at`). Tests
set up guilds/channels/users, then act as users (:meth:`FakeDiscord.slash`, :meth:`click`,
...) and inspect what the bot did (:meth:`messages`, :attr:`requests`). Everything the fake
does not understand is answered 404 and kept in :attr:`unknown_requests`.
"""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import json
import mimetypes
import re
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from aiohttp import WSMsgType, web

from tests.fake_discord.limits import (
    ATTACHMENT_LIMIT,
    check_choices,
    check_commands,
    check_files,
    check_message,
    check_modal,
    check_option_value,
    resolve_subcommand,
)
from tests.fake_discord.models import (
    ALL_PERMISSIONS,
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    DM,
    EMBED_LINKS,
    EPHEMERAL,
    LOADING,
    MANAGE_CHANNELS,
    MANAGE_MESSAGES,
    MANAGE_ROLES,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    READ_HISTORY,
    SEND_IN_THREADS,
    SEND_MESSAGES,
    TEXT,
    VIEW_CHANNEL,
    ApiError,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeRole,
    FakeUser,
    InteractionFailed,
    InteractionResult,
    InvalidInvocation,
    RecordedRequest,
    SnowflakeFactory,
    iso_now,
)
from tests.fake_discord.ratelimit import RateLimiter

# Gateway intents the fake honours when dispatching.
GUILDS, GUILD_MEMBERS, GUILD_MESSAGES, DIRECT_MESSAGES, MESSAGE_CONTENT = 1, 2, 512, 4096, 32768
DM_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_HISTORY
SETTABLE_FLAGS = 4 | 4096 | 32768  # suppress embeds, suppress notifications, components v2
Handler = Callable[..., Awaitable[tuple[int, Any]]]
PermsLike = discord.Permissions | int


def _acked(session: _Session, seq: int) -> Callable[[], bool]:
    """Whether ``session``'s client has processed frame ``seq`` (a condition to wait for)."""
    return lambda: session.acked_seq >= seq


def _guild_of(event: str, data: dict) -> int | None:
    """The server a gateway event belongs to (None: a DM's, or no server's)."""
    if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
        return int(data["id"])
    guild = data.get("guild_id")
    return int(guild) if guild is not None else None


def _key(thing: FakeMessage | InteractionResult) -> tuple[str, int]:
    """What keyed waiters on ``thing`` wait for (see :meth:`FakeDiscord.wait_until`)."""
    return ("interaction" if isinstance(thing, InteractionResult) else "message", thing.id)


@dataclass(eq=False)
class _Session:
    """One gateway connection; frames go through a queue so their order is preserved."""

    ws: web.WebSocketResponse
    queue: asyncio.Queue[dict | None] = field(default_factory=asyncio.Queue)
    seq: int = 0
    acked_seq: int = 0
    intents: int = 0
    identified: bool = False
    shard: tuple[int, int] | None = None
    """(shard id, shard count) the client identified with (None: unsharded, shard 0 of 1)."""

    def on_shard(self, guild_id: int | None) -> bool:
        """Whether this session gets a server's events (``guild_id`` None: a DM's, which
        Discord sends on shard 0 only)."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return shard_id == (0 if guild_id is None else (guild_id >> 22) % count)


@dataclass(eq=False)
class _Fault:
    method: str
    path_glob: str
    status: int
    body: dict
    headers: dict[str, str]
    times: int


@dataclass(eq=False)
class Hold:
    """Requests matching ``method`` + ``path_glob`` wait (unanswered) until :meth:`release`
    — a Discord that is slow on purpose, for as long as a test says (see
    :meth:`FakeDiscord.hold`)."""

    method: str
    path_glob: str
    released: asyncio.Event = field(default_factory=asyncio.Event)
    waiting: int = 0
    """Requests held right now."""
    seen: int = 0
    """Requests held so far."""

    def release(self) -> None:
        """Answer the held requests (and every later one) normally."""
        self.released.set()


def _perm_value(p: PermsLike | None) -> int:
    return p.value if isinstance(p, discord.Permissions) else int(p or 0)


class FakeDiscord:
    """In-process fake of Discord's API and gateway. See the package docstring for usage."""

    def __init__(self, *, bot_name: str = "GameBot", token: str = "fake-token") -> None:
        self.token = token
        self._snow = SnowflakeFactory()
        self.bot_user = FakeUser(self._snow(), bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.app_owner = FakeUser(self._snow(), "app-owner")
        self.users: dict[int, FakeUser] = {u.id: u for u in (self.bot_user, self.app_owner)}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        #: Synced application commands: ``None`` -> global, guild id -> that guild's.
        self.commands: dict[int | None, list[dict]] = {}
        #: Every request the bot made, in order.
        self.requests: list[RecordedRequest] = []
        #: Requests no route matched (answered 404); the fixture fails the test if any.
        self.unknown_requests: list[RecordedRequest] = []
        #: Errors the bot logged (filled by ``fixtures.running_bot``): a pending
        #: :meth:`slash`/:meth:`click`... fails fast with them instead of timing out.
        self.bot_errors: list[str] = []
        #: Exceptions raised inside the fake's handlers (bugs in the fake); answered 418.
        self.internal_errors: list[str] = []
        #: Interactions older than this (seconds) get 404 Unknown interaction (10062).
        self.interaction_deadline = 3.0
        #: An interaction's token (follow-ups, ``@original``) is valid this long (seconds);
        #: after it, 401 Invalid Webhook Token (50027).
        self.followup_lifetime = 15 * 60.0
        #: The largest file the bot may attach (bytes; told in every interaction).
        self.attachment_limit = ATTACHMENT_LIMIT
        self.interactions: dict[int, InteractionResult] = {}
        self._by_token: dict[str, InteractionResult] = {}
        self._messages: dict[int, FakeMessage] = {}
        self._attachments: dict[int, FakeAttachment] = {}
        self._dm_by_user: dict[int, int] = {}
        self._faults: list[_Fault] = []
        self._holds: list[Hold] = []
        #: Discord's global and per-route rate limits (off until :meth:`set_rate_limits`).
        self.limits = RateLimiter()
        self._nonces: dict[tuple[int, str], int] = {}
        self._sessions: list[_Session] = []
        self._change: asyncio.Future[None] | None = None
        #: Waiters on one message or interaction (``wait_until(on=...)``), by key: woken
        #: only when a request touches that object, not by every request (300 waiters
        #: re-checking on every request cost more than the requests themselves).
        self._keyed: dict[tuple[str, int], list[asyncio.Future[None]]] = {}
        self._touched: set[tuple[str, int]] = set()
        self._runner: web.AppRunner | None = None
        self.port = 0
        #: The shard count ``GET /gateway/bot`` recommends.
        self.shard_count = 1
        self._routes = self._build_routes()

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> FakeDiscord:
        """Listen on 127.0.0.1 (random free port)."""
        app = web.Application(client_max_size=64 * 1024**2)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._handle_api)
        app.router.add_get("/gateway", self._handle_gateway)
        app.router.add_get("/attachments/{aid}/{name}", self._handle_attachment)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        """Close gateway connections and the server."""
        for h in self._holds:
            h.release()
        for s in list(self._sessions):
            s.queue.put_nowait(None)
            await s.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """Value for ``DiscordWebSocket.DEFAULT_GATEWAY``."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def connected(self) -> bool:
        """A bot has identified on the gateway."""
        return any(s.identified for s in self._sessions)

    def shards_connected(self) -> set[int]:
        """The shard ids identified now (0 for an unsharded session)."""
        return {s.shard[0] if s.shard else 0 for s in self._sessions if s.identified}

    # ------------------------------------------------------------------ world setup

    def add_user(
        self,
        name: str,
        *,
        dms_open: bool = True,
        bot: bool = False,
        guild: FakeGuild | None = None,
        permissions: PermsLike | None = None,
        locale: str = "en-US",
    ) -> FakeUser:
        """Create a user (whose client speaks ``locale``); with ``guild`` also make them a
        member (see :meth:`add_member`)."""
        user = FakeUser(self._snow(), name, bot=bot, dms_open=dms_open, locale=locale)
        self.users[user.id] = user
        if guild is not None:
            self.add_member(guild, user, permissions=permissions)
        return user

    def add_guild(
        self,
        name: str = "Test Server",
        *,
        owner: FakeUser | None = None,
        bot_permissions: PermsLike = DEFAULT_BOT_PERMISSIONS,
        shard: tuple[int, int] | None = None,
        locale: str = "en-US",
    ) -> FakeGuild:
        """Create a guild with @everyone, the bot (with a managed role) and an owner member
        (``shard``: (id, count) of the shard its events go to; ``locale``: its language,
        the ``preferred_locale`` of its Community settings)."""
        owner = owner or self.add_user(f"{name} owner")
        guild = FakeGuild(self._snow(shard), name, owner.id, preferred_locale=locale)
        guild.roles[guild.id] = FakeRole(
            guild.id, guild.id, "@everyone", DEFAULT_EVERYONE_PERMISSIONS
        )
        bot_role = FakeRole(
            self._snow(),
            guild.id,
            self.bot_user.name,
            _perm_value(bot_permissions),
            managed=True,
            bot_id=self.bot_user.id,
        )
        guild.roles[bot_role.id] = bot_role
        guild.members = {owner.id: [], self.bot_user.id: [bot_role.id]}
        self.guilds[guild.id] = guild
        self._dispatch("GUILD_CREATE", self._guild_payload(guild, full=True), GUILDS)
        return guild

    def add_role(self, guild: FakeGuild, name: str, permissions: PermsLike = 0) -> FakeRole:
        """Create a role in ``guild``."""
        role = FakeRole(self._snow(), guild.id, name, _perm_value(permissions))
        guild.roles[role.id] = role
        self._dispatch(
            "GUILD_ROLE_CREATE",
            {"guild_id": str(guild.id), "role": self._role_payload(role)},
            GUILDS,
        )
        return role

    def set_role_permissions(self, role: FakeRole, permissions: PermsLike) -> None:
        """Change a role's guild-wide permissions (dispatches GUILD_ROLE_UPDATE)."""
        role.permissions = _perm_value(permissions)
        self._dispatch(
            "GUILD_ROLE_UPDATE",
            {"guild_id": str(role.guild_id), "role": self._role_payload(role)},
            GUILDS,
        )

    def bot_role(self, guild: FakeGuild) -> FakeRole:
        """The bot's managed role in ``guild`` (holds the ``bot_permissions`` of add_guild)."""
        return next(r for r in guild.roles.values() if r.bot_id == self.bot_user.id)

    def add_member(
        self,
        guild: FakeGuild,
        user: FakeUser,
        *,
        roles: Sequence[FakeRole] = (),
        permissions: PermsLike | None = None,
    ) -> None:
        """Make ``user`` a member of ``guild``. ``permissions`` (e.g. ``discord.Permissions(
        manage_channels=True)``) go into a personal role on top of @everyone's."""
        role_ids = [r.id for r in roles]
        if permissions is not None:
            role_ids.append(self.add_role(guild, f"{user.name}-perms", permissions).id)
        new = user.id not in guild.members
        guild.members[user.id] = sorted({*guild.members.get(user.id, []), *role_ids})
        payload = {"guild_id": str(guild.id), **self._member_payload(guild, user)}
        self._dispatch(
            "GUILD_MEMBER_ADD" if new else "GUILD_MEMBER_UPDATE",
            payload,
            GUILD_MEMBERS if new else GUILDS,
        )

    def add_text_channel(
        self, guild: FakeGuild, name: str = "general", *, topic: str | None = None
    ) -> FakeChannel:
        """Create a text channel (dispatches CHANNEL_CREATE when a bot is connected)."""
        ch = FakeChannel(
            self._snow(),
            TEXT,
            name,
            guild_id=guild.id,
            topic=topic,
            position=len(guild.channel_ids),
        )
        self.channels[ch.id] = ch
        guild.channel_ids.append(ch.id)
        self._dispatch("CHANNEL_CREATE", self._channel_payload(ch), GUILDS)
        return ch

    def set_overwrite(
        self, channel: FakeChannel, target: FakeUser | FakeRole, **flags: bool | None
    ) -> None:
        """Channel permission overwrite, discord.py-style: ``send_messages=False`` denies,
        ``True`` allows, ``None`` resets. E.g. ``set_overwrite(ch, fake.bot_user,
        attach_files=False)``."""
        kind = 0 if isinstance(target, FakeRole) else 1
        _, allow, deny = channel.overwrites.get(target.id, (kind, 0, 0))
        for name, value in flags.items():
            bit = getattr(discord.Permissions, name).flag
            allow, deny = allow & ~bit, deny & ~bit
            if value is True:
                allow |= bit
            elif value is False:
                deny |= bit
        channel.overwrites[target.id] = (kind, allow, deny)
        self._dispatch("CHANNEL_UPDATE", self._channel_payload(channel), GUILDS)

    def set_bot_permissions(self, channel: FakeChannel, **flags: bool | None) -> None:
        """Shorthand for :meth:`set_overwrite` on the bot user."""
        self.set_overwrite(channel, self.bot_user, **flags)

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between ``user`` and the bot (created on first use)."""
        if user.id not in self._dm_by_user:
            ch = FakeChannel(self._snow(), DM, "", recipient_id=user.id)
            self.channels[ch.id] = ch
            self._dm_by_user[user.id] = ch.id
        return self.channels[self._dm_by_user[user.id]]

    def permissions_for(self, user: FakeUser, channel: FakeChannel) -> discord.Permissions:
        """Effective permissions of ``user`` in ``channel`` (roles, overwrites, owner, admin)."""
        return discord.Permissions(self._perms(user.id, channel))

    async def delete_channel(self, channel: FakeChannel) -> None:
        """Delete a channel/thread as a moderator would; waits until the bot has seen it."""
        self._delete_channel(channel)
        await self.sync()

    async def remove_bot_from_guild(self, guild: FakeGuild) -> None:
        """Kick the bot (GUILD_DELETE); its later requests there get 403 Missing Access."""
        guild.bot_present = False
        guild.members.pop(self.bot_user.id, None)
        self._dispatch("GUILD_DELETE", {"id": str(guild.id)}, GUILDS)
        await self.sync()

    async def user_message(self, user: FakeUser, channel: FakeChannel, content: str) -> FakeMessage:
        """``user`` posts ``content`` in ``channel``; waits until the bot has received it."""
        self._check_user_can_use(user, channel)
        msg = self._create_message(channel, user, {"content": content}, [])
        await self.sync()
        return msg

    # ------------------------------------------------------------------ inspection

    def messages(self, channel: FakeChannel | FakeUser | int) -> list[FakeMessage]:
        """Visible messages of a channel (a user means their DM channel), oldest first."""
        ch = self._as_channel(channel)
        return [m for i in ch.message_ids if not (m := self._messages[i]).deleted]

    def dm_messages(self, user: FakeUser) -> list[FakeMessage]:
        """Messages in the DM channel between ``user`` and the bot."""
        return self.messages(user)

    def message(self, message_id: int) -> FakeMessage:
        """Any stored message (ephemeral ones included) by id."""
        return self._messages[message_id]

    def requests_to(self, method: str, path_glob: str) -> list[RecordedRequest]:
        """Recorded requests whose method and path match the fnmatch globs (``"*"`` = any)."""
        return [
            r
            for r in self.requests
            if fnmatch.fnmatchcase(r.method, method) and fnmatch.fnmatchcase(r.path, path_glob)
        ]

    async def wait_for_message(
        self,
        channel: FakeChannel | FakeUser | int,
        predicate: Callable[[FakeMessage], bool] | None = None,
        *,
        timeout: float = 5.0,
        include_existing: bool = False,
    ) -> FakeMessage:
        """Wait for a message posted in ``channel`` after this call (or any existing one with
        ``include_existing``) that satisfies ``predicate``; the predicate is re-checked on
        every change, so it also sees edits."""
        ch = self._as_channel(channel)
        start = 0 if include_existing else len(ch.message_ids)
        found: list[FakeMessage] = []

        def check() -> bool:
            for mid in ch.message_ids[start:]:
                m = self._messages[mid]
                if not m.deleted and (predicate is None or predicate(m)):
                    found.append(m)
                    return True
            return False

        await self.wait_until(check, timeout, f"a message in channel {ch.name or ch.id}")
        return found[0]

    async def wait_until(
        self,
        predicate: Callable[[], bool],
        timeout: float = 5.0,
        what: str = "condition",
        poll: float = 0.01,
        *,
        on: FakeMessage | InteractionResult | None = None,
    ) -> None:
        """Wait until ``predicate()`` is true, re-checking it after every request and gateway
        frame the fake handles (and every ``poll`` seconds, for predicates on the bot's own
        state).

        With ``on`` (a message or an interaction whose state the predicate reads) it is
        re-checked only when a request touches that object (and every ``poll`` seconds):
        many waiters then cost nothing per unrelated request."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        key = None if on is None else _key(on)
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
            if key is not None:
                wake: asyncio.Future[None] = loop.create_future()
                self._keyed.setdefault(key, []).append(wake)
            else:
                if self._change is None or self._change.done():
                    self._change = loop.create_future()
                wake = self._change
            try:
                await asyncio.wait([wake], timeout=min(remaining, poll))
            finally:
                if key is not None and not wake.done():
                    waiting = self._keyed.get(key, [])
                    if wake in waiting:
                        waiting.remove(wake)
                    if not waiting:
                        self._keyed.pop(key, None)

    async def sync(self, timeout: float = 5.0) -> None:
        """Barrier: return once the bot has parsed every gateway event sent so far.

        Sends a HEARTBEAT request (op 1); discord.py answers it with the last sequence number
        it processed, and it processes frames in order."""
        for s in [s for s in self._sessions if s.identified]:
            target = s.seq
            s.queue.put_nowait({"op": 1, "d": None})
            await self.wait_until(_acked(s, target), timeout, "gateway sync")

    def _notify(self) -> None:
        if self._change is not None and not self._change.done():
            self._change.set_result(None)
        touched, self._touched = self._touched, set()
        for key in touched:
            for wake in self._keyed.pop(key, ()):
                if not wake.done():
                    wake.set_result(None)

    def _touch(self, thing: FakeMessage | InteractionResult) -> None:
        """``thing`` changed: wake its keyed waiters at the next :meth:`_notify`."""
        self._touched.add(_key(thing))

    # ------------------------------------------------------------------ fault injection

    def fail_next(
        self,
        method: str,
        path_glob: str,
        status: int,
        body: dict | None = None,
        *,
        headers: Mapping[str, str] | None = None,
        times: int = 1,
    ) -> None:
        """Answer the next ``times`` requests matching ``method`` + fnmatch ``path_glob``
        (relative to /api/v10, e.g. ``"/channels/*/messages"``) with ``status``/``body``."""
        body = body if body is not None else {"message": f"{status}: injected", "code": 0}
        self._faults.append(_Fault(method, path_glob, status, body, dict(headers or {}), times))

    def hold(self, method: str, path_glob: str) -> Hold:
        """Hold every request matching ``method`` + fnmatch ``path_glob`` until the returned
        :class:`Hold` is released (or the fake stops)."""
        h = Hold(method, path_glob)
        self._holds.append(h)
        return h

    def rate_limit_once(self, method: str, path_glob: str, retry_after: float = 0.05) -> None:
        """One 429 with ``retry_after`` and X-RateLimit headers, as Discord sends them."""
        headers = {
            "Via": "1.1 google",
            "Retry-After": str(max(1, round(retry_after))),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": str(retry_after),
            "X-RateLimit-Bucket": "fakebucket",
            "X-RateLimit-Scope": "user",
        }
        body = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": False,
        }
        self.fail_next(method, path_glob, 429, body, headers=headers)

    def set_rate_limits(
        self, per_second: float | None = 50.0, route_limit: tuple[int, float] | None = None
    ) -> None:
        """Enforce Discord's global limit (``per_second`` requests per second across
        routes, interaction routes exempt; None: off) and, with ``route_limit`` =
        (requests, seconds), a per-route bucket limit. See :mod:`.ratelimit`."""
        self.limits.configure(per_second, route_limit)

    # ------------------------------------------------------------------ acting as users

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        /,
        subcommand: str | None = None,
        *,
        timeout: float = 5.0,
        options: Mapping[str, Any] | None = None,
        **kw_options: Any,
    ) -> InteractionResult:
        """``user`` runs ``/name [subcommand] option:value...`` in ``channel``.

        Options are checked against the synced schema like Discord's client does (unknown
        command/option, missing required option, choices, ranges, lengths, types: raises
        :class:`InvalidInvocation`). Users/channels/roles are passed as fake objects; a user
        who is not in the channel's guild yet joins it first. Returns once the bot answered
        (a deferred reply: once completed) or its answer was rejected; raises TimeoutError if
        it never answers, :class:`InteractionFailed` if it logged an error instead."""
        result = self._command_interaction(
            2, user, channel, name, subcommand, {**(options or {}), **kw_options}, None
        )
        await self._await_answer(result, timeout, f"/{name}")
        return result

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        /,
        subcommand: str | None = None,
        *,
        focused: str,
        timeout: float = 5.0,
        options: Mapping[str, Any] | None = None,
        **kw_options: Any,
    ) -> list[dict]:
        """``user`` types into option ``focused``; returns the bot's choices
        (``[{"name", "value"}]``). Raises :class:`InteractionFailed` if they were rejected."""
        result = self._command_interaction(
            4, user, channel, name, subcommand, {**(options or {}), **kw_options}, focused
        )
        await self._await_answer(result, timeout, f"autocomplete of /{name} {focused}")
        if result.choices is None:
            raise InteractionFailed(f"autocomplete rejected: {result.errors}")
        return result.choices

    async def click(
        self, user: FakeUser, message: FakeMessage, custom_id: str, /, *, timeout: float = 5.0
    ) -> InteractionResult:
        """``user`` clicks the (enabled, non-link) button ``custom_id`` on ``message``."""
        comp = self._find_component(message, custom_id)
        if comp["type"] != 2 or comp.get("style") in (5, 6) or comp.get("disabled"):
            raise InvalidInvocation(f"{custom_id!r} is not a clickable button: {comp}")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._component_interaction(user, message, data, timeout)

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        values: Sequence[str],
        /,
        *,
        timeout: float = 5.0,
    ) -> InteractionResult:
        """``user`` picks ``values`` in the string select ``custom_id`` on ``message``."""
        comp = self._find_component(message, custom_id)
        allowed = [o["value"] for o in comp.get("options", [])]
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if comp["type"] != 3 or comp.get("disabled"):
            raise InvalidInvocation(f"{custom_id!r} is not an enabled string select")
        if not lo <= len(values) <= hi or any(v not in allowed for v in values):
            raise InvalidInvocation(f"cannot pick {values} (options {allowed}, {lo}-{hi} values)")
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        return await self._component_interaction(user, message, data, timeout)

    async def submit_modal(
        self,
        user: FakeUser,
        shown: InteractionResult,
        values: Mapping[str, str | Sequence[str]],
        /,
        *,
        timeout: float = 5.0,
    ) -> InteractionResult:
        """``user`` fills the modal the bot answered ``shown`` with (custom_id -> text)."""
        modal = shown.modal
        if modal is None or user is not shown.user:
            raise InvalidInvocation("no modal was shown to this user by that interaction")
        left = dict(values)

        def fill(c: dict) -> dict:
            t = c["type"]
            cid: Any = c.get("custom_id")  # None for layout components
            if t == 1:
                return {"type": 1, "components": [fill(x) for x in c["components"]]}
            if t == 18:
                return {"type": 18, "id": c.get("id"), "component": fill(c["component"])}
            if t == 4:
                text = left.pop(cid, None)
                if text is None and c.get("required", True):
                    raise InvalidInvocation(f"modal field {cid!r} is required")
                text = str(text or "")
                if text and not c.get("min_length", 0) <= len(text) <= c.get("max_length", 4000):
                    raise InvalidInvocation(f"modal field {cid!r}: bad length {len(text)}")
                return {"type": 4, "custom_id": cid, "value": text}
            if t == 3:
                return {"type": 3, "custom_id": cid, "values": list(left.pop(cid, []))}
            return {"type": t, "id": c.get("id")}

        data = {
            "custom_id": modal["custom_id"],
            "components": [fill(c) for c in modal["components"]],
        }
        if left:
            raise InvalidInvocation(f"modal has no fields {sorted(left)}")
        result = self._new_interaction(5, user, shown.channel, data, shown.source_message)
        await self._await_answer(result, timeout, f"modal {modal['custom_id']!r}")
        return result

    async def raw_command(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        options: Sequence[dict] = (),
        *,
        command_id: int | None = None,
        timeout: float = 5.0,
    ) -> InteractionResult:
        """``user`` runs ``/name`` with ``options`` exactly as given (``[{"name", "type",
        "value"}]``), NOT checked against the synced schema: what a client with an out of
        date command list sends (a command that is gone, a value of the old type, a choice
        that no longer exists). Returns like :meth:`slash`."""
        synced = next((c for cs in self.commands.values() for c in cs if c["name"] == name), None)
        cid = command_id or (int(synced["id"]) if synced else self._snow())
        data: dict[str, Any] = {
            "id": str(cid),
            "name": name,
            "type": 1,
            "options": [dict(o) for o in options],
        }
        if channel.guild_id is not None and synced is not None and synced.get("guild_id"):
            data["guild_id"] = synced["guild_id"]
        result = self._new_interaction(2, user, channel, data)
        await self._await_answer(result, timeout, f"raw /{name}")
        return result

    def _command_interaction(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        subcommand: str | None,
        values: dict[str, Any],
        focused: str | None,
    ) -> InteractionResult:
        cmd, guild_id = self._find_command(user, channel, name)
        schema = resolve_subcommand(cmd, subcommand)
        by_name = {o["name"]: o for o in schema}
        if focused is not None:
            if not by_name.get(focused, {}).get("autocomplete"):
                raise InvalidInvocation(f"/{name} option {focused!r} has no autocomplete")
            values.setdefault(focused, "")
        resolved: dict[str, dict] = {}
        leaf = []
        for key, value in values.items():
            opt = by_name.get(key)
            if opt is None:
                raise InvalidInvocation(f"/{name} has no option {key!r} (has {sorted(by_name)})")
            entry = {"name": key, "type": opt["type"]}
            if key == focused:
                entry.update(value=str(value), focused=True)
            else:
                check_option_value(opt, value)
                if isinstance(value, FakeUser | FakeChannel | FakeRole):
                    self._resolve(resolved, value, user, channel)
                    value = str(value.id)
                entry["value"] = value
            leaf.append(entry)
        missing = [o["name"] for o in schema if o.get("required") and o["name"] not in values]
        if missing and focused is None:
            raise InvalidInvocation(f"/{name} is missing required option(s) {missing}")
        leaf.sort(key=lambda e: list(by_name).index(e["name"]))
        parts = subcommand.split() if subcommand else []
        for i, part in reversed(list(enumerate(parts))):
            leaf = [{"name": part, "type": 1 if i == len(parts) - 1 else 2, "options": leaf}]
        data: dict[str, Any] = {"id": cmd["id"], "name": name, "type": 1, "options": leaf}
        if resolved:
            data["resolved"] = resolved
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        return self._new_interaction(kind, user, channel, data)

    def _find_command(
        self, user: FakeUser, channel: FakeChannel, name: str
    ) -> tuple[dict, int | None]:
        scopes: list[int | None] = [channel.guild_id, None] if channel.guild_id else [None]
        for scope in scopes:
            cmd = next(
                (
                    c
                    for c in self.commands.get(scope, [])
                    if c["name"] == name and c.get("type", 1) == 1
                ),
                None,
            )
            if cmd is None:
                continue
            contexts = cmd.get("contexts") or [0, 1, 2]
            in_dm = channel.guild_id is None
            if in_dm and (1 not in contexts or cmd.get("dm_permission") is False):
                raise InvalidInvocation(f"/{name} is not available in DMs")
            if channel.guild_id is not None and 0 not in contexts:
                raise InvalidInvocation(f"/{name} is not available in servers")
            need = int(cmd.get("default_member_permissions") or 0)
            if channel.guild_id and self._perms(user.id, channel) & need != need:
                raise InvalidInvocation(f"{user.name} lacks the permissions /{name} requires")
            return cmd, scope
        synced = sorted({c["name"] for cs in self.commands.values() for c in cs})
        raise InvalidInvocation(f"/{name} is not a synced command (synced: {synced})")

    def _resolve(
        self,
        resolved: dict[str, dict],
        value: FakeUser | FakeChannel | FakeRole,
        user: FakeUser,
        channel: FakeChannel,
    ) -> None:
        key = str(value.id)
        if isinstance(value, FakeUser):
            resolved.setdefault("users", {})[key] = self._user_payload(value)
            guild = self.guilds.get(channel.guild_id or 0)
            if guild and value.id in guild.members:
                member = self._member_payload(guild, value, with_user=False)
                member["permissions"] = str(self._perms(value.id, channel))
                resolved.setdefault("members", {})[key] = member
        elif isinstance(value, FakeRole):
            resolved.setdefault("roles", {})[key] = self._role_payload(value)
        else:
            payload = {
                **self._channel_payload(value),
                "permissions": str(self._perms(user.id, value)),
            }
            resolved.setdefault("channels", {})[key] = payload

    def _find_component(self, message: FakeMessage, custom_id: str) -> dict:
        msg = self._messages.get(message.id)
        if msg is None or msg.deleted:
            raise InvalidInvocation(f"message {message.id} does not exist (any more)")
        comp = msg.component(custom_id)
        if comp is None:
            ids = [c["custom_id"] for c in msg.walk_components() if "custom_id" in c]
            raise InvalidInvocation(f"no component {custom_id!r} on the message (has {ids})")
        return comp

    async def _component_interaction(
        self, user: FakeUser, message: FakeMessage, data: dict, timeout: float
    ) -> InteractionResult:
        if message.ephemeral:
            owner = self.interactions[message.interaction_id or 0].user
            if owner is not user:
                raise InvalidInvocation(f"only {owner.name} can see that ephemeral message")
        channel = self.channels[message.channel_id]
        result = self._new_interaction(3, user, channel, data, message)
        await self._await_answer(result, timeout, f"component {data['custom_id']!r}")
        return result

    def _check_user_can_use(self, user: FakeUser, channel: FakeChannel) -> None:
        if channel.deleted:
            raise InvalidInvocation(f"channel {channel.id} was deleted")
        if channel.guild_id is None:
            if channel.recipient_id != user.id:
                raise InvalidInvocation(f"{user.name} is not the recipient of that DM channel")
            return
        guild = self.guilds[channel.guild_id]
        if user.id not in guild.members:
            self.add_member(guild, user)
        if not self._perms(user.id, channel) & VIEW_CHANNEL:
            raise InvalidInvocation(f"{user.name} cannot see #{channel.name}")

    def _new_interaction(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict,
        message: FakeMessage | None = None,
    ) -> InteractionResult:
        if not self.connected:
            raise RuntimeError("no bot is connected to the fake gateway")
        self._check_user_can_use(user, channel)
        guild = self.guilds.get(channel.guild_id or 0)
        if guild is not None and not guild.bot_present:
            raise InvalidInvocation(f"the bot is not in {guild.name}")
        iid = self._snow()
        token = f"itok-{iid}-{secrets.token_urlsafe(8)}"
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "token": token,
            "version": 1,
            "locale": user.locale,
            "channel_id": str(channel.id),
            "channel": self._channel_payload(channel),
            "app_permissions": str(self._perms(self.bot_user.id, channel)),
            "entitlements": [],
            "attachment_size_limit": self.attachment_limit,
            "context": 0 if guild else 1,
        }
        if guild is not None:
            member = self._member_payload(guild, user)
            member["permissions"] = str(self._perms(user.id, channel))
            payload.update(
                guild_id=str(guild.id),
                member=member,
                guild_locale=guild.preferred_locale,
                guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                authorizing_integration_owners={"0": str(guild.id)},
            )
        else:
            payload.update(
                user=self._user_payload(user), authorizing_integration_owners={"1": str(user.id)}
            )
        if message is not None:
            payload["message"] = self._message_payload(message)
        result = InteractionResult(
            iid,
            token,
            kind,
            user,
            channel,
            data,
            asyncio.get_running_loop().time(),
            message,
            _fake=self,
        )
        self.interactions[iid] = result
        self._by_token[token] = result
        self._dispatch("INTERACTION_CREATE", payload)
        return result

    async def _await_answer(self, result: InteractionResult, timeout: float, what: str) -> None:
        """Wait until the bot answered ``result`` (a deferral: completed — the placeholder
        filled, the clicked message edited, or a follow-up sent), the fake rejected its
        answer, or the bot logged an error (then raise instead of timing out)."""
        seen_errors = len(self.bot_errors)

        def answered() -> bool:
            if result.errors or result.expired:
                return True
            if result.response_type in (5, 6):  # a deferral: once filled, edited or followed
                return result.answered_at is not None
            return result.response_type is not None

        def bot_failed() -> bool:
            return len(self.bot_errors) > seen_errors

        try:
            # the answer is a request to the fake (which wakes this at once); only the bot's
            # logged errors are polled, rarely: a hundred waits polling every 10 ms would
            # cost the shared event loop more than the bot does
            await self.wait_until(
                lambda: answered() or bot_failed(),
                timeout,
                f"the bot to answer {what}",
                0.25,
                on=result,
            )
        except TimeoutError as exc:
            state = (
                "deferred but never completed"
                if result.response_type
                else "never acknowledged (did the handler raise? see the log)"
            )
            raise TimeoutError(f"{exc}: {state}") from None
        if not answered():
            raise InteractionFailed(
                f"the bot logged an error while handling {what}:\n{self.bot_errors[-1]}"
            )

    # ------------------------------------------------------------------ gateway

    def _dispatch(
        self,
        event: str,
        data: dict,
        intent: int = 0,
        transform: Callable[[_Session, dict], dict] | None = None,
    ) -> None:
        guild = _guild_of(event, data)
        for s in self._sessions:
            if s.identified and (not intent or s.intents & intent) and s.on_shard(guild):
                s.seq += 1
                d = transform(s, data) if transform else data
                s.queue.put_nowait({"op": 0, "t": event, "s": s.seq, "d": d})

    async def _handle_gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = _Session(ws)
        self._sessions.append(session)
        writer = asyncio.create_task(self._gateway_writer(session))
        session.queue.put_nowait({"op": 10, "d": {"heartbeat_interval": 41250}})
        try:
            async for frame in ws:
                if frame.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
                await self._gateway_op(session, json.loads(frame.data))
                self._notify()
        finally:
            self._sessions.remove(session)
            session.queue.put_nowait(None)
            await writer
        return ws

    async def _gateway_writer(self, session: _Session) -> None:
        while (frame := await session.queue.get()) is not None:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await session.ws.send_str(json.dumps(frame))

    async def _gateway_op(self, session: _Session, msg: dict) -> None:
        op = msg.get("op")
        d: Any = msg.get("d")  # the op's payload: a number, an object or null
        if op == 1:  # heartbeat: d is the last sequence number the client processed
            session.acked_seq = max(session.acked_seq, d or 0)
            session.queue.put_nowait({"op": 11})
        elif op == 2:  # identify
            if d.get("token") != self.token:
                await session.ws.close(code=4004, message=b"Authentication failed.")
                return
            session.intents, session.identified = d.get("intents", 0), True
            shard = d.get("shard")
            if shard is not None:
                session.shard = (int(shard[0]), int(shard[1]))
            session.seq += 1
            session.queue.put_nowait(
                {
                    "op": 0,
                    "t": "READY",
                    "s": session.seq,
                    "d": {
                        "v": 10,
                        "user": self._user_payload(self.bot_user, me=True),
                        "guilds": [
                            {"id": str(g), "unavailable": True}
                            for g, guild in self.guilds.items()
                            if guild.bot_present and session.on_shard(g)
                        ],
                        **({"shard": list(session.shard)} if session.shard else {}),
                        "session_id": secrets.token_hex(16),
                        "resume_gateway_url": self.gateway_url,
                        "application": {"id": str(self.application_id), "flags": 0},
                        "private_channels": [],
                        "relationships": [],
                    },
                }
            )
            for guild in self.guilds.values():
                if guild.bot_present and session.on_shard(guild.id):
                    session.seq += 1
                    session.queue.put_nowait(
                        {
                            "op": 0,
                            "t": "GUILD_CREATE",
                            "s": session.seq,
                            "d": self._guild_payload(guild, full=True),
                        }
                    )
        elif op == 6:  # resume: not supported, ask for a fresh identify
            session.queue.put_nowait({"op": 9, "d": False})
        elif op == 8:  # request guild members
            guild = self.guilds[int(d["guild_id"])]
            session.seq += 1
            session.queue.put_nowait(
                {
                    "op": 0,
                    "t": "GUILD_MEMBERS_CHUNK",
                    "s": session.seq,
                    "d": {
                        "guild_id": str(guild.id),
                        "chunk_index": 0,
                        "chunk_count": 1,
                        "nonce": d.get("nonce"),
                        "not_found": [],
                        "members": [
                            self._member_payload(guild, self.users[u]) for u in guild.members
                        ],
                    },
                }
            )

    # ------------------------------------------------------------------ payloads

    def _user_payload(self, u: FakeUser, me: bool = False) -> dict:
        p = {
            "id": str(u.id),
            "username": u.name,
            "discriminator": "0",
            "global_name": u.name,
            "avatar": None,
            "bot": u.bot,
            "public_flags": 0,
        }
        if me:
            p.update(verified=True, mfa_enabled=False, flags=0)
        return p

    def _member_payload(self, g: FakeGuild, u: FakeUser, with_user: bool = True) -> dict:
        p = {
            "roles": [str(r) for r in g.members.get(u.id, [])],
            "joined_at": iso_now(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
        }
        return {"user": self._user_payload(u), **p} if with_user else p

    def _role_payload(self, r: FakeRole) -> dict:
        p: dict[str, Any] = {
            "id": str(r.id),
            "name": r.name,
            "permissions": str(r.permissions),
            "position": 0 if r.id == r.guild_id else 1,
            "color": 0,
            "hoist": False,
            "managed": r.managed,
            "mentionable": False,
            "flags": 0,
        }
        if r.bot_id:
            p["tags"] = {"bot_id": str(r.bot_id)}
        return p

    def _channel_payload(self, c: FakeChannel) -> dict:
        last = str(c.message_ids[-1]) if c.message_ids else None
        if c.type == DM:
            return {
                "id": str(c.id),
                "type": DM,
                "last_message_id": last,
                "recipients": [self._user_payload(self.users[c.recipient_id or 0])],
            }
        p: dict[str, Any] = {
            "id": str(c.id),
            "type": c.type,
            "guild_id": str(c.guild_id),
            "name": c.name,
            "last_message_id": last,
            "rate_limit_per_user": 0,
        }
        if c.is_thread:
            p.update(
                parent_id=str(c.parent_id),
                owner_id=str(c.owner_id),
                flags=0,
                message_count=len(c.message_ids),
                member_count=len(c.thread_members),
                total_message_sent=len(c.message_ids),
                thread_metadata={
                    "archived": c.archived,
                    "locked": c.locked,
                    "invitable": True,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso_now(),
                },
            )
            if self.bot_user.id in c.thread_members:
                p["member"] = {
                    "id": str(c.id),
                    "user_id": str(self.bot_user.id),
                    "join_timestamp": iso_now(),
                    "flags": 0,
                }
        else:
            p.update(
                position=c.position,
                topic=c.topic,
                nsfw=False,
                parent_id=None,
                permission_overwrites=[
                    {"id": str(t), "type": k, "allow": str(a), "deny": str(d)}
                    for t, (k, a, d) in c.overwrites.items()
                ],
            )
        return p

    def _guild_payload(self, g: FakeGuild, full: bool = False) -> dict:
        p: dict[str, Any] = {
            "id": str(g.id),
            "name": g.name,
            "owner_id": str(g.owner_id),
            "icon": None,
            "roles": [self._role_payload(r) for r in g.roles.values()],
            "features": [],
            "emojis": [],
            "stickers": [],
            "preferred_locale": g.preferred_locale,
            "unavailable": False,
        }
        if full:
            chans = [self.channels[c] for c in g.channel_ids if not self.channels[c].deleted]
            p.update(
                channels=[self._channel_payload(c) for c in chans if not c.is_thread],
                threads=[self._channel_payload(c) for c in chans if c.is_thread and not c.archived],
                members=[self._member_payload(g, self.users[u]) for u in g.members],
                member_count=len(g.members),
                large=False,
                joined_at=iso_now(),
                voice_states=[],
                presences=[],
                stage_instances=[],
                guild_scheduled_events=[],
                soundboard_sounds=[],
            )
        return p

    def _message_payload(self, m: FakeMessage) -> dict:
        ids = {int(x) for x in re.findall(r"<@!?(\d+)>", m.content)}
        p: dict[str, Any] = {
            "id": str(m.id),
            "channel_id": str(m.channel_id),
            "type": m.type,
            "flags": m.flags,
            "author": self._user_payload(m.author),
            "content": m.content,
            "timestamp": m.created_at,
            "edited_timestamp": m.edited_at,
            "tts": False,
            "mention_everyone": False,
            "mention_roles": [],
            "pinned": m.pinned,
            "mentions": [self._user_payload(self.users[i]) for i in ids if i in self.users],
            "embeds": m.embeds,
            "components": m.components,
            "attachments": [
                {
                    "id": str(a.id),
                    "filename": a.filename,
                    "size": len(a.data),
                    "url": f"{self.base_url}/attachments/{a.id}/{a.filename}",
                    "proxy_url": f"{self.base_url}/attachments/{a.id}/{a.filename}",
                    "content_type": a.content_type,
                    "description": a.description,
                }
                for a in m.attachments
            ],
            "reactions": [
                {"emoji": {"id": None, "name": e}, "count": len(us), "me": self.bot_user.id in us}
                for e, us in m.reactions.items()
                if us
            ],
        }
        if m.guild_id:
            p["guild_id"] = str(m.guild_id)
        if m.interaction_id is not None:
            it = self.interactions[m.interaction_id]
            p.update(
                webhook_id=str(self.application_id),
                application_id=str(self.application_id),
                interaction_metadata={
                    "id": str(it.id),
                    "type": it.type,
                    "user": self._user_payload(it.user),
                    "authorizing_integration_owners": {},
                },
            )
        return p

    # ------------------------------------------------------------------ world mutations

    def _perms(
        self, user_id: int, channel: FakeChannel | None, guild: FakeGuild | None = None
    ) -> int:
        """Discord's permission algorithm (base -> @everyone -> roles -> member overwrites)."""
        if channel is not None and channel.guild_id is None:
            return DM_PERMISSIONS
        if guild is None:
            assert channel is not None and channel.guild_id is not None, "no server to ask"
            guild = self.guilds[channel.guild_id]
        if user_id not in guild.members:
            return 0
        if user_id == guild.owner_id:
            return ALL_PERMISSIONS
        roles = guild.members[user_id]
        perms = guild.everyone.permissions
        for r in roles:
            perms |= guild.roles[r].permissions
        if perms & discord.Permissions.administrator.flag:
            return ALL_PERMISSIONS
        if channel is None:
            return perms
        target = channel
        if channel.is_thread:
            assert channel.parent_id is not None, "a thread has a parent"
            target = self.channels[channel.parent_id]
        ow = target.overwrites
        if guild.id in ow:
            perms = (perms & ~ow[guild.id][2]) | ow[guild.id][1]
        allow = deny = 0
        for r in roles:
            if r in ow:
                allow, deny = allow | ow[r][1], deny | ow[r][2]
        perms = (perms & ~deny) | allow
        if user_id in ow:
            perms = (perms & ~ow[user_id][2]) | ow[user_id][1]
        private_hidden = (
            channel.type == PRIVATE_THREAD
            and user_id not in channel.thread_members
            and not perms & MANAGE_THREADS
        )
        if not perms & VIEW_CHANNEL or private_hidden:
            return 0
        if not channel.is_thread and not perms & SEND_MESSAGES:
            perms &= ~(ATTACH_FILES | EMBED_LINKS)
        return perms

    def _as_channel(self, channel: FakeChannel | FakeUser | int) -> FakeChannel:
        if isinstance(channel, FakeUser):
            return self.dm_channel(channel)
        return self.channels[channel] if isinstance(channel, int) else channel

    def _delete_channel(self, ch: FakeChannel) -> None:
        ch.deleted = True
        if ch.is_thread:
            self._dispatch(
                "THREAD_DELETE",
                {
                    "id": str(ch.id),
                    "guild_id": str(ch.guild_id),
                    "parent_id": str(ch.parent_id),
                    "type": ch.type,
                },
                GUILDS,
            )
            return
        for child in self.channels.values():
            if child.parent_id == ch.id:
                child.deleted = True
        self._dispatch("CHANNEL_DELETE", self._channel_payload(ch), GUILDS)

    def _dispatch_message(self, event: str, m: FakeMessage) -> None:
        payload = self._message_payload(m)
        guild = self.guilds.get(m.guild_id or 0)
        if guild is not None and m.author.id in guild.members:
            payload["member"] = self._member_payload(guild, m.author, with_user=False)

        def hide_content(s: _Session, d: dict) -> dict:
            mentioned = f"<@{self.bot_user.id}>" in m.content
            if s.intents & MESSAGE_CONTENT or m.author is self.bot_user or mentioned or not guild:
                return d
            return {**d, "content": "", "embeds": [], "attachments": [], "components": []}

        self._dispatch(event, payload, GUILD_MESSAGES if guild else DIRECT_MESSAGES, hide_content)

    def _collect_attachments(
        self,
        payload: Mapping[str, Any],
        files: list[FakeAttachment],
        existing: Sequence[FakeAttachment] = (),
    ) -> list[FakeAttachment]:
        entries = payload.get("attachments")
        if entries is None:
            out = [*existing, *files]
        else:
            old = {a.id: a for a in existing}
            out = []
            for e in entries:
                aid = int(e["id"])
                att = old.get(aid) or (files[aid] if aid < len(files) else None)
                if att is None:
                    raise ApiError.invalid_form("attachments", f"Unknown attachment {aid}")
                att.description = e.get("description", att.description)
                out.append(att)
        for a in out:
            self._attachments[a.id] = a
        return out

    def _create_message(
        self,
        ch: FakeChannel,
        author: FakeUser,
        payload: Mapping[str, Any],
        files: list[FakeAttachment],
        *,
        flags: int = 0,
        type: int = 0,
        interaction: InteractionResult | None = None,
        allow_empty: bool = False,
    ) -> FakeMessage:
        check_message(payload, len(files), allow_empty=allow_empty)
        msg = FakeMessage(
            self._snow(),
            ch.id,
            author,
            guild_id=ch.guild_id,
            content=payload.get("content") or "",
            embeds=list(payload.get("embeds") or []),
            components=list(payload.get("components") or []),
            attachments=self._collect_attachments(payload, files),
            flags=((payload.get("flags") or 0) & SETTABLE_FLAGS) | flags,
            type=type,
            interaction_id=interaction.id if interaction else None,
        )
        self._messages[msg.id] = msg
        self._touch(msg)
        if not msg.ephemeral:
            ch.message_ids.append(msg.id)
            self._dispatch_message("MESSAGE_CREATE", msg)
        return msg

    def _edit_message(
        self, msg: FakeMessage, payload: Mapping[str, Any], files: list[FakeAttachment]
    ) -> None:
        new: dict[str, Any] = {
            "content": msg.content,
            "embeds": msg.embeds,
            "components": msg.components,
            "flags": msg.flags,
        }
        for key, empty in (("content", ""), ("embeds", []), ("components", [])):
            if key in payload:
                new[key] = payload[key] if payload[key] is not None else empty
        if payload.get("flags") is not None:
            new["flags"] = (msg.flags & ~SETTABLE_FLAGS) | (payload["flags"] & SETTABLE_FLAGS)
        atts = self._collect_attachments(payload, files, msg.attachments)
        check_message({**new, "attachments": atts}, len(files))
        was_loading = msg.loading
        msg.content, msg.embeds, msg.components = new["content"], new["embeds"], new["components"]
        msg.flags, msg.attachments = new["flags"] & ~LOADING, atts
        if not was_loading:
            msg.edited_at = iso_now()
        self._touch(msg)
        if not msg.ephemeral:
            self._dispatch_message("MESSAGE_UPDATE", msg)

    def _delete_message(self, msg: FakeMessage) -> None:
        msg.deleted = True
        self._touch(msg)
        if not msg.ephemeral:
            d = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id:
                d["guild_id"] = str(msg.guild_id)
            self._dispatch("MESSAGE_DELETE", d, GUILD_MESSAGES if msg.guild_id else DIRECT_MESSAGES)

    # ------------------------------------------------------------------ HTTP plumbing

    def _build_routes(self) -> list[tuple[str, re.Pattern[str], Handler]]:
        c, m, t = r"/channels/(?P<cid>\d+)", r"/messages/(?P<mid>\d+)", r"(?P<token>[^/]+)"
        app, g = r"/applications/(?P<app>\d+)", r"/guilds/(?P<gid>\d+)"
        wh = rf"/webhooks/(?P<app>\d+)/{t}"
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self._r_me),
            ("GET", "/oauth2/applications/@me", self._r_app),
            ("GET", "/applications/@me", self._r_app),
            ("GET", "/gateway/bot", self._r_gateway),
            ("GET", r"/users/(?P<uid>\d+)", self._r_user),
            ("POST", "/users/@me/channels", self._r_create_dm),
            ("PUT", f"{app}/commands", self._r_put_commands),
            ("GET", f"{app}/commands", self._r_get_commands),
            ("PUT", rf"{app}/guilds/(?P<gid>\d+)/commands", self._r_put_commands),
            ("GET", rf"{app}/guilds/(?P<gid>\d+)/commands", self._r_get_commands),
            ("GET", g, self._r_guild),
            ("GET", f"{g}/channels", self._r_guild_channels),
            ("POST", f"{g}/channels", self._r_create_channel),
            ("GET", rf"{g}/members/(?P<uid>\d+)", self._r_member),
            ("GET", c, self._r_channel),
            ("PATCH", c, self._r_edit_channel),
            ("DELETE", c, self._r_delete_channel),
            ("PUT", rf"{c}/permissions/(?P<target>\d+)", self._r_put_overwrite),
            ("DELETE", rf"{c}/permissions/(?P<target>\d+)", self._r_delete_overwrite),
            ("POST", f"{c}/typing", self._r_typing),
            ("GET", f"{c}/messages", self._r_history),
            ("POST", f"{c}/messages", self._r_send),
            ("GET", f"{c}/messages/pins", self._r_pins),
            ("PUT", rf"{c}/messages/pins/(?P<mid>\d+)", self._r_pin),
            ("DELETE", rf"{c}/messages/pins/(?P<mid>\d+)", self._r_pin),
            ("GET", f"{c}{m}", self._r_get_message),
            ("PATCH", f"{c}{m}", self._r_edit_message),
            ("DELETE", f"{c}{m}", self._r_delete_message),
            ("PUT", rf"{c}{m}/reactions/(?P<emoji>[^/]+)/@me", self._r_react),
            ("DELETE", rf"{c}{m}/reactions/(?P<emoji>[^/]+)/@me", self._r_react),
            ("POST", f"{c}/threads", self._r_create_thread),
            ("POST", f"{c}{m}/threads", self._r_create_thread),
            ("PUT", rf"{c}/thread-members/(?P<uid>\d+|@me)", self._r_thread_member),
            ("DELETE", rf"{c}/thread-members/(?P<uid>\d+|@me)", self._r_thread_member),
            ("POST", rf"/interactions/(?P<iid>\d+)/{t}/callback", self._r_callback),
            ("POST", wh, self._r_followup),
            ("GET", rf"{wh}/messages/(?P<mid>\d+|@original)", self._r_webhook_message),
            ("PATCH", rf"{wh}/messages/(?P<mid>\d+|@original)", self._r_webhook_message),
            ("DELETE", rf"{wh}/messages/(?P<mid>\d+|@original)", self._r_webhook_message),
        ]
        return [(meth, re.compile(pattern), handler) for meth, pattern, handler in table]

    async def _read_body(self, request: web.Request) -> tuple[Any, list[FakeAttachment]]:
        if not request.content_type.startswith("multipart/"):
            raw = await request.read()
            return (json.loads(raw) if raw else None), []
        payload, files = None, {}
        async for part in await request.multipart():
            name = getattr(part, "name", None) or ""
            if name == "payload_json":
                payload = json.loads(await part.text())  # type: ignore[union-attr]  # a part, not a reader
            elif match := re.fullmatch(r"files\[(\d+)\]", name):
                filename = getattr(part, "filename", None) or "file"
                data = bytes(await part.read())  # type: ignore[union-attr]  # a part, not a reader
                files[int(match[1])] = FakeAttachment(
                    self._snow(), filename, data, mimetypes.guess_type(filename)[0]
                )
        return payload, [files[i] for i in sorted(files)]

    @staticmethod
    def _json(status: int, data: Any, headers: Mapping[str, str] | None = None) -> web.Response:
        if status == 204:
            return web.Response(status=204, headers=headers)
        # Exactly "application/json": discord.py only parses JSON for that content type.
        hdrs = {"Content-Type": "application/json", **(headers or {})}
        return web.Response(status=status, body=json.dumps(data).encode(), headers=hdrs)

    async def _handle_api(self, request: web.Request) -> web.Response:
        path = request.path.removeprefix("/api/v10")
        body, files = await self._read_body(request)
        req = RecordedRequest(request.method, path, dict(request.query), body, files)
        self.requests.append(req)
        try:
            return self._respond(req, *await self._route(request, req))
        except Exception as exc:  # a bug in the fake: fail the test, don't make discord.py retry
            self.internal_errors.append(f"{req.method} {req.path}: {exc!r}")
            return self._respond(
                req, 418, {"message": f"fake discord crashed: {exc!r}", "code": 0}, None
            )
        finally:
            self._notify()

    async def _route(
        self, request: web.Request, req: RecordedRequest
    ) -> tuple[int, Any, Mapping[str, str] | None]:
        for h in list(self._holds):
            if (
                not h.released.is_set()
                and h.method == req.method
                and fnmatch.fnmatchcase(req.path, h.path_glob)
            ):
                h.waiting += 1
                h.seen += 1
                self._notify()
                try:
                    await h.released.wait()
                finally:
                    h.waiting -= 1
        for fault in self._faults:
            if fault.method == req.method and fnmatch.fnmatchcase(req.path, fault.path_glob):
                fault.times -= 1
                if fault.times <= 0:
                    self._faults.remove(fault)
                return fault.status, fault.body, fault.headers
        found = next(
            (
                (handler, match)
                for method, pattern, handler in self._routes
                if method == req.method and (match := pattern.fullmatch(req.path))
            ),
            None,
        )
        if found is None:
            self.unknown_requests.append(req)
            return 404, {"message": "404: Not Found", "code": 0}, None
        handler, match = found
        params = {k: int(v) if v.isdigit() else v for k, v in match.groupdict().items()}
        webhook = req.path.startswith(("/webhooks/", "/interactions/"))
        if not webhook and request.headers.get("Authorization") != f"Bot {self.token}":
            return 401, {"message": "401: Unauthorized", "code": 0}, None
        limited = self.limits.check(req.method, req.path)
        if limited is not None:
            return 429, *limited
        headers = self.limits.headers(req.method, req.path)
        it = self._by_token.get(str(params.get("token")))
        try:
            check_files(req.files, self.attachment_limit)
            status, data = await handler(req, **params)
        except ApiError as err:
            if it is not None:
                it.errors.append(err.body())
            return err.status, err.body(), headers
        finally:
            if it is not None:  # acknowledged, answered, refused or expired: after the change
                self._touch(it)
        return status, data, headers

    def _respond(
        self, req: RecordedRequest, status: int, data: Any, headers: Mapping[str, str] | None
    ) -> web.Response:
        req.status, req.response = status, data
        return self._json(status, data, headers)

    async def _handle_attachment(self, request: web.Request) -> web.Response:
        att = self._attachments.get(int(request.match_info["aid"]))
        if att is None:
            return web.Response(status=404)
        ctype = att.content_type or "application/octet-stream"
        return web.Response(body=att.data, content_type=ctype)

    # ------------------------------------------------------------------ REST helpers

    def _channel(self, cid: int, need: int = 0) -> FakeChannel:
        """Channel the bot acts on: 404 if unknown/deleted, 403 if hidden or ``need`` missing."""
        ch = self.channels.get(cid)
        if ch is None or ch.deleted:
            raise ApiError(404, 10003, "Unknown Channel")
        if ch.guild_id is not None:
            perms = self._perms(self.bot_user.id, ch)
            if not self.guilds[ch.guild_id].bot_present or not perms & VIEW_CHANNEL:
                raise ApiError(403, 50001, "Missing Access")
            if perms & need != need:
                raise ApiError(403, 50013, "Missing Permissions")
        return ch

    def _channel_message(self, ch: FakeChannel, mid: int) -> FakeMessage:
        msg = self._messages.get(mid)
        if msg is None or msg.deleted or msg.channel_id != ch.id or msg.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def _guild(self, gid: int, need: int = 0) -> FakeGuild:
        guild = self.guilds.get(gid)
        if guild is None or not guild.bot_present:
            raise ApiError(
                403 if guild else 404,
                50001 if guild else 10004,
                "Missing Access" if guild else "Unknown Guild",
            )
        if self._perms(self.bot_user.id, None, guild) & need != need:
            raise ApiError(403, 50013, "Missing Permissions")
        return guild

    def _interaction(self, token: str, app: int | None = None) -> InteractionResult:
        it = self._by_token.get(token)
        if it is None or (app is not None and app != self.application_id):
            raise ApiError(404, 10015, "Unknown Webhook")
        if asyncio.get_running_loop().time() - it.created > self.followup_lifetime:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return it

    # ------------------------------------------------------------------ REST: users, apps

    async def _r_me(self, req: RecordedRequest) -> tuple[int, Any]:
        return 200, self._user_payload(self.bot_user, me=True)

    async def _r_app(self, req: RecordedRequest) -> tuple[int, Any]:
        return 200, {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": 0,
            "owner": self._user_payload(self.app_owner),
            "team": None,
            "bot": self._user_payload(self.bot_user),
        }

    async def _r_gateway(self, req: RecordedRequest) -> tuple[int, Any]:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return 200, {
            "url": self.gateway_url,
            "shards": self.shard_count,
            "session_start_limit": limit,
        }

    async def _r_user(self, req: RecordedRequest, uid: int) -> tuple[int, Any]:
        if uid not in self.users:
            raise ApiError(404, 10013, "Unknown User")
        return 200, self._user_payload(self.users[uid])

    async def _r_create_dm(self, req: RecordedRequest) -> tuple[int, Any]:
        uid = int(req.json["recipient_id"])
        if uid not in self.users:
            raise ApiError(404, 10013, "Unknown User")
        if uid == self.bot_user.id:
            raise ApiError(400, 50007, "Cannot send messages to this user")
        return 200, self._channel_payload(self.dm_channel(self.users[uid]))

    async def _r_put_commands(
        self, req: RecordedRequest, app: int, gid: int | None = None
    ) -> tuple[int, Any]:
        if app != self.application_id:
            raise ApiError(403, 50001, "Missing Access")
        if gid is not None:
            self._guild(gid)
        check_commands(req.json)
        old = {(c["name"], c["type"]): c["id"] for c in self.commands.get(gid, [])}
        stored = []
        for cmd in req.json:
            kind = cmd.get("type", 1)
            stored.append(
                {
                    "description": "",
                    "options": [],
                    "nsfw": False,
                    **cmd,
                    "type": kind,
                    "id": old.get((cmd["name"], kind)) or str(self._snow()),
                    "application_id": str(app),
                    "version": str(self._snow()),
                    **({"guild_id": str(gid)} if gid else {}),
                }
            )
        self.commands[gid] = stored
        return 200, stored

    async def _r_get_commands(
        self, req: RecordedRequest, app: int, gid: int | None = None
    ) -> tuple[int, Any]:
        if gid is not None:
            self._guild(gid)
        return 200, self.commands.get(gid, [])

    # ------------------------------------------------------------------ REST: guilds

    async def _r_guild(self, req: RecordedRequest, gid: int) -> tuple[int, Any]:
        return 200, self._guild_payload(self._guild(gid))

    async def _r_guild_channels(self, req: RecordedRequest, gid: int) -> tuple[int, Any]:
        guild = self._guild(gid)
        chans = [self.channels[c] for c in guild.channel_ids]
        return 200, [self._channel_payload(c) for c in chans if not c.deleted and not c.is_thread]

    async def _r_member(self, req: RecordedRequest, gid: int, uid: int) -> tuple[int, Any]:
        guild = self._guild(gid)
        if uid not in guild.members:
            raise ApiError(404, 10007, "Unknown Member")
        return 200, self._member_payload(guild, self.users[uid])

    async def _r_create_channel(self, req: RecordedRequest, gid: int) -> tuple[int, Any]:
        guild = self._guild(gid, MANAGE_CHANNELS)
        body = req.json
        if body.get("type", TEXT) != TEXT:
            raise ApiError.invalid_form("type", "The fake only creates text channels")
        ch = self.add_text_channel(guild, body["name"], topic=body.get("topic"))
        for ow in body.get("permission_overwrites", []):
            ch.overwrites[int(ow["id"])] = (
                ow["type"],
                int(ow.get("allow", 0)),
                int(ow.get("deny", 0)),
            )
        self._dispatch("CHANNEL_UPDATE", self._channel_payload(ch), GUILDS)
        return 201, self._channel_payload(ch)

    # ------------------------------------------------------------------ REST: channels

    async def _r_channel(self, req: RecordedRequest, cid: int) -> tuple[int, Any]:
        return 200, self._channel_payload(self._channel(cid))

    async def _r_edit_channel(self, req: RecordedRequest, cid: int) -> tuple[int, Any]:
        ch, body = self._channel(cid), req.json or {}
        if ch.is_thread:
            if ch.owner_id != self.bot_user.id:
                self._channel(cid, MANAGE_THREADS)
            ch.name = body.get("name", ch.name)
            ch.archived = body.get("archived", ch.archived)
            ch.locked = body.get("locked", ch.locked)
            self._dispatch("THREAD_UPDATE", self._channel_payload(ch), GUILDS)
        else:
            self._channel(cid, MANAGE_CHANNELS)
            ch.name, ch.topic = body.get("name", ch.name), body.get("topic", ch.topic)
            self._dispatch("CHANNEL_UPDATE", self._channel_payload(ch), GUILDS)
        return 200, self._channel_payload(ch)

    async def _r_delete_channel(self, req: RecordedRequest, cid: int) -> tuple[int, Any]:
        ch = self._channel(cid)
        if ch.type == DM:
            raise ApiError(400, 50003, "Cannot execute action on a DM channel")
        self._channel(cid, MANAGE_THREADS if ch.is_thread else MANAGE_CHANNELS)
        self._delete_channel(ch)
        return 200, self._channel_payload(ch)

    async def _r_put_overwrite(
        self, req: RecordedRequest, cid: int, target: int
    ) -> tuple[int, Any]:
        ch = self._channel(cid, MANAGE_ROLES)
        body = req.json
        ch.overwrites[target] = (body["type"], int(body.get("allow", 0)), int(body.get("deny", 0)))
        self._dispatch("CHANNEL_UPDATE", self._channel_payload(ch), GUILDS)
        return 204, None

    async def _r_delete_overwrite(
        self, req: RecordedRequest, cid: int, target: int
    ) -> tuple[int, Any]:
        ch = self._channel(cid, MANAGE_ROLES)
        ch.overwrites.pop(target, None)
        self._dispatch("CHANNEL_UPDATE", self._channel_payload(ch), GUILDS)
        return 204, None

    async def _r_typing(self, req: RecordedRequest, cid: int) -> tuple[int, Any]:
        self._channel(cid, SEND_MESSAGES)
        return 204, None

    async def _r_history(self, req: RecordedRequest, cid: int) -> tuple[int, Any]:
        ch = self._channel(cid, READ_HISTORY)
        msgs = self.messages(ch)
        before, after = int(req.query.get("before", 0)), int(req.query.get("after", 0))
        limit = int(req.query.get("limit", 50))
        msgs = [m for m in msgs if (not before or m.id < before) and m.id > after]
        msgs = msgs[:limit] if after else msgs[-limit:]
        return 200, [self._message_payload(m) for m in reversed(msgs)]

    async def _r_send(self, req: RecordedRequest, cid: int) -> tuple[int, Any]:
        ch = self._channel(cid)
        need = (SEND_IN_THREADS if ch.is_thread else SEND_MESSAGES) | (
            ATTACH_FILES if req.files else 0
        )
        self._channel(cid, need)
        if ch.type == DM:
            recipient = self.users[ch.recipient_id or 0]
            if recipient.bot or not recipient.dms_open:
                raise ApiError(403, 50007, "Cannot send messages to this user")
        if ch.is_thread and ch.archived:
            if ch.locked:
                raise ApiError(400, 50083, "Thread is archived")
            ch.archived = False
            self._dispatch("THREAD_UPDATE", self._channel_payload(ch), GUILDS)
        payload = req.json or {}
        nonce = payload.get("nonce") if payload.get("enforce_nonce") else None
        if nonce is not None and (cid, str(nonce)) in self._nonces:
            # Discord: the same nonce within a few minutes returns the message sent first
            return 200, self._message_payload(self._messages[self._nonces[cid, str(nonce)]])
        msg = self._create_message(ch, self.bot_user, payload, req.files)
        if nonce is not None:
            self._nonces[cid, str(nonce)] = msg.id
        return 200, self._message_payload(msg)

    async def _r_get_message(self, req: RecordedRequest, cid: int, mid: int) -> tuple[int, Any]:
        ch = self._channel(cid, READ_HISTORY)
        return 200, self._message_payload(self._channel_message(ch, mid))

    async def _r_edit_message(self, req: RecordedRequest, cid: int, mid: int) -> tuple[int, Any]:
        msg = self._channel_message(self._channel(cid), mid)
        if msg.author is not self.bot_user:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        self._edit_message(msg, req.json or {}, req.files)
        return 200, self._message_payload(msg)

    async def _r_delete_message(self, req: RecordedRequest, cid: int, mid: int) -> tuple[int, Any]:
        ch = self._channel(cid)
        msg = self._channel_message(ch, mid)
        if msg.author is not self.bot_user:
            self._channel(cid, MANAGE_MESSAGES)
        self._delete_message(msg)
        return 204, None

    async def _r_pins(self, req: RecordedRequest, cid: int) -> tuple[int, Any]:
        items = [
            {"pinned_at": iso_now(), "message": self._message_payload(m)}
            for m in self.messages(self._channel(cid, READ_HISTORY))
            if m.pinned
        ]
        return 200, {"items": items[::-1], "has_more": False}

    async def _r_pin(self, req: RecordedRequest, cid: int, mid: int) -> tuple[int, Any]:
        self._channel_message(self._channel(cid, MANAGE_MESSAGES), mid).pinned = req.method == "PUT"
        return 204, None

    async def _r_react(
        self, req: RecordedRequest, cid: int, mid: int, emoji: str
    ) -> tuple[int, Any]:
        msg = self._channel_message(self._channel(cid, READ_HISTORY), mid)
        users = msg.reactions.setdefault(emoji, set())
        (users.add if req.method == "PUT" else users.discard)(self.bot_user.id)
        return 204, None

    async def _r_create_thread(
        self, req: RecordedRequest, cid: int, mid: int | None = None
    ) -> tuple[int, Any]:
        parent, body = self._channel(cid), req.json or {}
        if parent.type != TEXT:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        kind = PUBLIC_THREAD if mid is not None else body.get("type", PRIVATE_THREAD)
        self._channel(
            cid, CREATE_PUBLIC_THREADS if kind == PUBLIC_THREAD else CREATE_PRIVATE_THREADS
        )
        if mid is not None:
            self._channel_message(parent, mid)
            if mid in self.channels:
                raise ApiError(400, 160004, "A thread has already been created for this message")
        if not 1 <= len(body.get("name", "")) <= 100:
            raise ApiError.invalid_form("name", "Must be between 1 and 100 in length.")
        thread = FakeChannel(
            mid or self._snow(),
            kind,
            body["name"],
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            thread_members={self.bot_user.id},
        )
        self.channels[thread.id] = thread
        self.guilds[parent.guild_id or 0].channel_ids.append(thread.id)
        payload = self._channel_payload(thread)
        self._dispatch("THREAD_CREATE", {**payload, "newly_created": True}, GUILDS)
        return 201, payload

    async def _r_thread_member(
        self, req: RecordedRequest, cid: int, uid: int | str
    ) -> tuple[int, Any]:
        th = self._channel(cid)
        user_id = self.bot_user.id if uid == "@me" else int(uid)
        if not th.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if user_id not in self.guilds[th.guild_id or 0].members:
            raise ApiError(404, 10007, "Unknown Member")
        if req.method == "PUT":
            th.thread_members.add(user_id)
        else:
            if user_id != self.bot_user.id:
                self._channel(cid, MANAGE_THREADS)
            th.thread_members.discard(user_id)
        return 204, None

    # ------------------------------------------------------------------ REST: interactions

    async def _r_callback(self, req: RecordedRequest, iid: int, token: str) -> tuple[int, Any]:
        it = self.interactions.get(iid)
        if it is None or it.token != token:
            raise ApiError(404, 10062, "Unknown interaction")
        if asyncio.get_running_loop().time() - it.created > self.interaction_deadline:
            it.expired = True
            raise ApiError(404, 10062, "Unknown interaction")
        if it.response_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = req.json or {}
        rtype, data = body.get("type"), body.get("data") or {}
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}[it.type]
        if rtype not in allowed or (rtype in (6, 7) and it.source_message is None):
            raise ApiError.invalid_form("type", f"Response type {rtype} invalid here")
        msg = None
        ephemeral = (data.get("flags") or 0) & EPHEMERAL
        if rtype in (4, 5):
            msg = self._create_message(
                it.channel,
                self.bot_user,
                data if rtype == 4 else {},
                req.files,
                flags=ephemeral | (LOADING if rtype == 5 else 0),
                interaction=it,
                type=20 if it.type == 2 else 0,
                allow_empty=rtype == 5,
            )
        elif rtype == 7:
            msg = it.source_message
            assert msg is not None
            self._edit_message(msg, data, req.files)
        elif rtype == 8:
            check_choices(data.get("choices", []))
            it.choices = data.get("choices", [])
        elif rtype == 9:
            check_modal(data)
            it.modal = data
        now = asyncio.get_running_loop().time()
        it.response_type, it.acknowledged_at = rtype, now
        if rtype in (4, 7):
            it.answered_at = now
        it.original = msg if rtype != 6 else it.source_message
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(iid),
                "type": it.type,
                "response_message_loading": rtype == 5,
                "response_message_ephemeral": bool(msg and msg.ephemeral),
                **({"response_message_id": str(msg.id)} if msg else {}),
            }
        }
        if msg is not None:
            answer["resource"] = {"type": rtype, "message": self._message_payload(msg)}
        return 200, answer

    async def _r_followup(self, req: RecordedRequest, app: int, token: str) -> tuple[int, Any]:
        it = self._interaction(token, app)
        if it.response_type is None or it.type == 4:
            raise ApiError(404, 10015, "Unknown Webhook")
        if it.channel.deleted:
            raise ApiError(404, 10003, "Unknown Channel")
        payload = req.json or {}
        original = it.original
        if (
            it.response_type == 5
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # the first follow-up fills the "thinking..." placeholder and keeps its
            # visibility (an ephemeral flag on the follow-up is ignored); once the
            # placeholder is deleted, follow-ups are new messages with their own flags
            msg = original
            self._edit_message(msg, payload, req.files)
        else:
            msg = self._create_message(
                it.channel,
                self.bot_user,
                payload,
                req.files,
                flags=(payload.get("flags") or 0) & EPHEMERAL,
                interaction=it,
            )
            it.followups.append(msg)
        if it.answered_at is None:
            it.answered_at = asyncio.get_running_loop().time()
        return 200, self._message_payload(msg)

    async def _r_webhook_message(
        self, req: RecordedRequest, app: int, token: str, mid: int | str
    ) -> tuple[int, Any]:
        it = self._interaction(token, app)
        if mid == "@original":
            msg = it.original or (it.source_message if it.response_type == 6 else None)
        else:
            known = [it.original, *it.followups]
            msg = next((m for m in known if m is not None and m.id == mid), None)
        if msg is None or msg.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        if req.method == "PATCH":
            self._edit_message(msg, req.json or {}, req.files)
            if it.answered_at is None:
                it.answered_at = asyncio.get_running_loop().time()
        elif req.method == "DELETE":
            self._delete_message(msg)
            return 204, None
        return 200, self._message_payload(msg)
