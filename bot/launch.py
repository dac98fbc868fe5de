"""The ``european-war-bot`` command: ``python -m bot`` as an installed script.

It catches SIGINT and SIGTERM before anything slow is imported (discord.py takes a
while), as ``python -m bot`` does, so a stop during start-up still exits 0; then it runs
:func:`bot.__main__.main` and exits with its code.
"""

from __future__ import annotations

import os
import signal
import sys


def _stop_before_start(signum: int, frame: object) -> None:
    """A stop before the event loop runs: nothing is open yet, so exit 0 at once. Not by
    raising SystemExit: an exception from a signal handler is lost when the signal lands
    while a finalizer runs (``Exception ignored in ...``), and start-up would go on."""
    os._exit(0)


def main() -> None:
    """Entry point of the ``european-war-bot`` script; never returns."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, _stop_before_start)
    from .__main__ import main as run

    raise SystemExit(run(sys.argv[1:]))
