"""``python -m bot`` that sends itself SIGTERM at one exact moment of its start-up, named
by ``STOP_AT``, so a test can place a stop there without timing:

* ``gateway``: the gateway handshake has just completed (discord.py's ``connect`` is
  about to get its websocket back from ``asyncio.wait_for``);
* ``outbox``, ``catch_up``, ``service``: the bot's start (``GameBot.start_play``, between
  logging in and the gateway) has just loaded the outbox, told the channels what they
  were owed, or started the games.

The signal goes to the main thread (``signal.pthread_kill``: delivered before the call
returns) once the named coroutine is done, one step before it returns to its caller, so
the event loop handles the stop in the same iteration as that return.
With ``STUCK_OUTBOX=1`` the outbox's close never returns: a stop then has an await that
never ends (whatever ``STOP_AT`` says). Run as ``python -m tests.bot.e2e.stop_at``.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import os
import runpy
import signal
import threading
from collections.abc import Callable
from typing import Any

from discord.gateway import DiscordWebSocket

from bot.delivery import Delivery
from bot.outbox import Outbox
from service import GameService

POINTS: dict[str, tuple[type, str]] = {
    "gateway": (DiscordWebSocket, "from_client"),
    "outbox": (Outbox, "start"),
    "catch_up": (Delivery, "catch_up"),
    "service": (GameService, "start"),
}
_fired = threading.Event()


def _stop_now() -> None:
    if not _fired.is_set():
        _fired.set()
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGTERM)


def _signalling(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        result = await fn(*args, **kwargs)
        _stop_now()
        # the loop reads the signal while this step is still to run: the stop is handled
        # in the very iteration this coroutine returns (as a SIGTERM landing while the
        # loop waits for the last bytes of the handshake would be)
        await asyncio.sleep(0)
        return result

    return wrapper


def arm(point: str) -> None:
    """Send SIGTERM once the coroutine named by ``point`` returns."""
    owner, name = POINTS[point]
    static = inspect.getattr_static(owner, name)
    if isinstance(static, classmethod):
        setattr(owner, name, classmethod(_signalling(static.__func__)))
    else:
        setattr(owner, name, _signalling(static))


async def _stuck(self: Outbox, grace: float = 0.0) -> None:
    await asyncio.Event().wait()  # never set: the close never ends


if __name__ == "__main__":
    if os.environ.get("STOP_AT"):
        arm(os.environ["STOP_AT"])
    if os.environ.get("STUCK_OUTBOX") == "1":
        Outbox.close = _stuck  # type: ignore[method-assign]  # a stuck stop, on purpose
    runpy.run_module("bot", run_name="__main__", alter_sys=True)
