"""``python -m bot``: run the Discord bot, or offer the terminal console without a token."""

from __future__ import annotations

import asyncio
import logging
import sys

import discord

from .config import ConfigError, Settings, load_settings

NO_TOKEN = ("No DISCORD_TOKEN is set (in the environment or in .env), so the Discord bot "
            "cannot start.")
CONSOLE_HINT = "To play in this terminal against computer players, run: python -m bot.console"


def configure_logging(level: str) -> None:
    """Log to stderr at ``level`` (discord.py's own records included)."""
    discord.utils.setup_logging(level=getattr(logging, level, logging.INFO), root=True)


def offer_console() -> int:
    """Without a token: offer the console when someone is at the terminal."""
    print(NO_TOKEN)
    if not sys.stdin.isatty():
        print(CONSOLE_HINT)
        return 0
    try:
        answer = input("Play a game in this terminal instead? [Y/n] ").strip().lower()
    except (EOFError, KeyboardInterrupt):
        print()
        return 0
    if answer not in ("", "y", "yes"):
        print(CONSOLE_HINT)
        return 0
    try:
        from . import console
    except ImportError:
        print("The terminal console is not available in this installation.")
        return 1
    return int(console.main([]) or 0)


async def run(settings: Settings) -> None:
    """Run the bot until it is stopped."""
    from .client import GameBot
    from .endpoints import point_discord_at
    from .preflight import open_checked

    store = await open_checked(settings)  # checked and owned before Discord is contacted
    point_discord_at(settings.discord_api_base, settings.discord_gateway_url)
    async with GameBot(settings, store=store) as bot:
        await bot.start(settings.discord_token or "")


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        return 2
    if not settings.discord_token:
        return offer_console()
    configure_logging(settings.log_level)
    from .preflight import StartupError
    try:
        asyncio.run(run(settings))
    except StartupError as exc:
        print(f"Cannot start: {exc}", file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print("Discord refused the token in DISCORD_TOKEN: check it in the developer portal.",
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
