"""A fake Discord backend for end-to-end tests of the real discord.py client.

Quick tour (see ``fixtures.py`` for the pytest side)::

    fake = await FakeDiscord().start()            # or the ``fake_discord`` fixture
    point_discord_at(fake.api_base, fake.gateway_url)
    guild = fake.add_guild("Server")
    games = fake.add_text_channel(guild, "games")
    alice = fake.add_user("alice", guild=guild)
    bob = fake.add_user("bob", dms_open=False)
    ...start the bot (``start_bot`` fixture)...
    res = await fake.slash(alice, games, "game", "new", players=3)   # InteractionResult
    res.content, res.ephemeral, res.original.components, res.followups
    await fake.click(alice, res.original, "join")
    fake.messages(games)[-1].attachments[0].data                       # PNG bytes
    fake.dm_messages(alice); await fake.wait_for_message(games, lambda m: "turn" in m.text)
    fake.rate_limit_once("POST", "/channels/*/messages"); fake.interaction_deadline = 0.05
    res.ack_delay, res.answered_at, res.answer        # when acknowledged / answered, and what
    await fake.raw_command(alice, games, "log", [{"name": "n", "type": 3, "value": "x"}])

Modelled failures: DMs closed / DM to a bot (403, 50007), missing channel permissions (403,
50013 / 50001), unknown or deleted channel (404, 10003), late interaction answers (404, 10062),
double acknowledgements (400, 40060), callback types an interaction kind does not allow
(400, 50035), interaction tokens older than 15 minutes (401, 50027), Discord's
length/count limits (400, 50035 / 50006).
Rate limits (off by default): ``fake.set_rate_limits(per_second=50, route_limit=(5, 1.0))``
enforces the global limit (interaction routes exempt; 429 ``global: true``) and per-route
buckets, with Discord's headers (see ``ratelimit.py``); ``enforce_nonce`` is honoured.
"""

from tests.fake_discord.models import (
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
)
from tests.fake_discord.server import FakeDiscord

__all__ = [
    "ApiError",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "InteractionFailed",
    "InteractionResult",
    "InvalidInvocation",
    "RecordedRequest",
]
