"""``python -m bot`` whose renderer never finishes a board: every action's words go first
and its board would follow by an edit that never comes, so a test can kill the process
(SIGKILL) in exactly that window. Run as ``python -m tests.bot.e2e.held_bot``."""

from __future__ import annotations

import asyncio
import runpy
from typing import Any

from bot.images import Images, Picture


async def _never(self: Images, *args: Any, **kwargs: Any) -> Picture:
    await asyncio.Event().wait()  # never set: the board is never drawn
    raise AssertionError("unreachable")


if __name__ == "__main__":
    Images.board = _never  # type: ignore[method-assign]  # the held renderer, on purpose
    runpy.run_module("bot", run_name="__main__", alter_sys=True)
