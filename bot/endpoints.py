"""Point discord.py at a different Discord API / gateway (a fake one in tests, a proxy in prod).

discord.py keeps both endpoints in class attributes: every REST call (including interaction
webhooks) is built from ``discord.http.Route.BASE`` and the first gateway connection goes to
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``. Changing them is process-wide, so call
this before the client logs in (``bot.config`` reads DISCORD_API_BASE / DISCORD_GATEWAY_URL).
"""

from __future__ import annotations

import discord.gateway
import discord.http
import yarl


def point_discord_at(api_base: str | None, gateway_url: str | None) -> None:
    """Redirect discord.py's REST API base and/or gateway URL.

    Args:
        api_base: REST base including the version, e.g. ``"http://127.0.0.1:8080/api/v10"``.
            ``None`` (or empty) leaves the current base untouched.
        gateway_url: websocket URL, e.g. ``"ws://127.0.0.1:8080/gateway"``. ``None`` (or
            empty) leaves the current gateway untouched.
    """
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
