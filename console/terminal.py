"""The console's terminal: reading lines (a person or a script), printing, yes/no
questions, and showing the images it writes with the system viewer."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from .catalogue import _, p_


# ---------------------------------------------------------------------- images
def open_viewer(path: Path) -> bool:
    """Show ``path`` with the system viewer, if there is one. Returns whether it tried."""
    if sys.platform.startswith("win"):
        startfile = getattr(os, "startfile", None)
        if startfile is not None:
            startfile(str(path))
            return True
        return False
    for tool in ("xdg-open", "open"):
        exe = shutil.which(tool)
        if exe:
            subprocess.Popen(
                [exe, str(path)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            return True
    return False


# ---------------------------------------------------------------------- terminal
def say(text: str = "") -> None:
    """Print one line (or block) to the console."""
    print(text, flush=True)


def interactive() -> bool:
    """True when a person types at a terminal (not a script on stdin)."""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def read_line(prompt: str) -> str:
    """One line from the player. A script on stdin is echoed after the prompt so the
    transcript reads like a session.

    Raises:
        EOFError: the input ended.
    """
    if interactive():
        return input(prompt)
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        sys.stdout.write("\n")
        raise EOFError
    line = line.rstrip("\r\n")
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
    return line


def ask(question: str, default: str, valid: Callable[[str], bool] = lambda _answer: True) -> str:
    """Ask until the answer is valid; Enter takes ``default``."""
    while True:
        answer = read_line(f"{question} [{default}] ").strip() or default
        if valid(answer):
            return answer
        say(_("  Please answer again."))


def yes_words() -> set[str]:
    """The answers that mean yes: English ``y`` and ``yes``, and the reader's language's."""
    return {"y", "yes", p_("answer", "y").lower(), p_("answer", "yes").lower()}


def confirm(question: str) -> bool:
    """A yes/no question, no by default (``[y/N]`` in the reader's language)."""
    choices = p_("answer", "[y/N]")
    try:
        answer = read_line(f"{question} {choices} ")
    except EOFError:
        return False
    return answer.strip().lower() in yes_words()


# ---------------------------------------------------------------------- the session
