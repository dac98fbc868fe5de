"""``python -m bot``: run the Discord bot, or offer the terminal console without a token.

Stopping: SIGTERM (``docker stop``) or SIGINT (Ctrl+C) at any moment, start-up included,
cancels what the bot is doing and closes it (queued writes committed, messages in flight
given a bounded time, see :meth:`bot.client.GameBot.close`); the process exits 0 within
about 2 s. A second signal exits at once (128 + the signal's number).

Exit codes: 0 stopped, 1 Discord refused the token, 2 a malformed setting, 78 (EX_CONFIG)
no token and no terminal to offer the console on.
"""

from __future__ import annotations

import signal
import sys


def _stop_before_start(signum: int, frame: object) -> None:
    """A stop before the event loop runs: nothing is open yet, so just exit 0."""
    raise SystemExit(0)


if __name__ == "__main__":  # from the first moment: importing discord.py takes a while
    for _sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(_sig, _stop_before_start)

import asyncio
import contextlib
import logging
import os
import threading
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import discord

from . import logs
from .config import ConfigError, Settings, load_settings

EX_CONFIG = 78
NO_TOKEN = (
    "No DISCORD_TOKEN is set (in the environment or in .env), so the Discord bot cannot start."
)
NO_TOKEN_NO_TERMINAL = (
    "No DISCORD_TOKEN is set (in the environment or in .env) and there "
    "is no terminal for the console: set DISCORD_TOKEN to run the bot."
)
CONSOLE_HINT = "To play in this terminal against computer players, run: python -m console"
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

log = logging.getLogger("bot")


def configure_logging(level: str, fmt: str = "text") -> None:
    """Log to stderr at ``level`` in ``fmt`` (see :mod:`bot.logs`)."""
    logs.configure(level, fmt)
    # the bot has no voice features: discord.py's start-up warnings about them are noise
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False


def offer_console() -> int:
    """Without a token: offer the console when someone is at the terminal; without a
    terminal (a container, a service manager) say so in one line and fail."""
    if not sys.stdin.isatty():
        print(NO_TOKEN_NO_TERMINAL, file=sys.stderr)
        return EX_CONFIG
    print(NO_TOKEN)
    try:
        answer = input("Play a game in this terminal instead? [Y/n] ").strip().lower()
    except (EOFError, KeyboardInterrupt):
        print()
        return 0
    if answer not in ("", "y", "yes"):
        print(CONSOLE_HINT)
        return 0
    try:
        from console import main as console
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


class _Stopper:
    """The signal handler: the first signal cancels the main task (whose ``async with``
    closes the bot), a second one exits at once."""

    def __init__(self, task: asyncio.Task[Any]) -> None:
        self.task = task
        self.signal: int | None = None

    def __call__(self, signum: int) -> None:
        name = signal.Signals(signum).name
        if self.signal is None:
            self.signal = signum
            log.info("%s received: stopping (send it again to exit at once)", name)
            self.task.cancel()
            return
        log.warning("second %s: exiting now, without finishing the stop", name)
        _exit_now(128 + signum)


def _exit_now(code: int) -> None:
    """Flush what was logged and printed, then end the process without waiting for
    anything (threads included)."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


def run_until_signalled(main: Coroutine[Any, Any, None]) -> None:
    """Run ``main`` on a new event loop until it ends or SIGINT/SIGTERM stops it.

    Unlike ``asyncio.run``, the end does not wait for worker threads still drawing or
    reading (their results are no longer wanted): the default executor is shut down
    without waiting, and :func:`main` exits the process if such threads linger.

    Raises:
        Exception: whatever ``main`` raised (a stop by signal is a normal end).
    """
    loop = asyncio.new_event_loop()
    executor = ThreadPoolExecutor(thread_name_prefix="bot-worker")
    loop.set_default_executor(executor)
    asyncio.set_event_loop(loop)
    task = loop.create_task(main)
    stopper = _Stopper(task)
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, stopper, sig)
    try:
        loop.run_until_complete(task)
    except asyncio.CancelledError:
        if stopper.signal is None:
            raise
    finally:
        try:
            _cancel_leftovers(loop)
            loop.run_until_complete(loop.shutdown_asyncgens())
            executor.shutdown(wait=False, cancel_futures=True)
        finally:
            for sig in STOP_SIGNALS:
                loop.remove_signal_handler(sig)
            asyncio.set_event_loop(None)
            loop.close()


def _cancel_leftovers(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel the tasks still running (answers still being sent after the stop's budget)
    and give them one short moment to unwind."""
    tasks = [t for t in asyncio.all_tasks(loop) if not t.done()]
    for t in tasks:
        t.cancel()
    if tasks:
        loop.run_until_complete(asyncio.wait(tasks, timeout=0.1))


def _lingering_threads() -> list[threading.Thread]:
    return [
        t
        for t in threading.enumerate()
        if t is not threading.main_thread() and not t.daemon and t.is_alive()
    ]


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        return 2
    if not settings.discord_token:
        # the console has its own Ctrl+C handling: give it Python's usual signals back
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        return offer_console()
    configure_logging(settings.log_level, settings.log_format)
    from .preflight import StartupError

    try:
        run_until_signalled(run(settings))
    except StartupError as exc:
        print(f"Cannot start: {exc}", file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print(
            "Discord refused the token in DISCORD_TOKEN: check it in the developer portal.",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:  # a signal before the loop's handlers were in place
        pass
    log.info("stopped")
    until = time.monotonic() + 0.1
    for thread in _lingering_threads():  # idle pool threads end at once, busy ones don't
        thread.join(timeout=max(0.0, until - time.monotonic()))
    stuck = _lingering_threads()
    if stuck:  # a drawing or a database thread the stop cut short: not worth waiting for
        log.debug(
            "not waiting for %d worker thread(s): %s", len(stuck), ", ".join(t.name for t in stuck)
        )
        _exit_now(0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
