"""The Dockerfile's promises, checked without a Docker engine: a base image pinned to a
full Python version, exec-form entry point and command (signals reach the bot), an init
as PID 1, a health check that runs ``python -m bot.health``, the health file set, and the
dependencies installed from the lock (exact versions, hash-checked)."""

from __future__ import annotations

import json
import re
from pathlib import Path

DOCKERFILE = Path(__file__).resolve().parents[1] / "Dockerfile"


def instructions() -> list[tuple[str, str]]:
    text = DOCKERFILE.read_text(encoding="utf-8").replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def one(name: str) -> str:
    found = [rest for word, rest in instructions() if word == name]
    assert len(found) == 1, (name, found)
    return found[0]


def test_the_base_image_is_pinned_to_a_full_version() -> None:
    assert re.fullmatch(r"python:3\.11\.\d+-slim-bookworm(@sha256:[0-9a-f]{64})?", one("FROM")), (
        one("FROM")
    )


def test_entry_point_and_command_are_exec_form_under_tini() -> None:
    assert json.loads(one("ENTRYPOINT")) == ["/usr/bin/tini", "--"]
    assert json.loads(one("CMD")) == ["european-war-bot"]
    assert any(
        "install" in rest and "tini" in rest for word, rest in instructions() if word == "RUN"
    )


def test_the_health_check_runs_the_module_against_the_health_file() -> None:
    check = one("HEALTHCHECK")
    assert json.loads(check.split("CMD", 1)[1]) == ["python", "-m", "bot.health"]
    assert "--start-period=" in check
    assert "HEALTH_FILE=/tmp/" in one("ENV")


def test_the_image_installs_the_lock_and_then_only_the_bot() -> None:
    runs = [rest for word, rest in instructions() if word == "RUN"]
    assert any(
        r.split() == ["pip", "install", "--no-cache-dir", "-r", "requirements/bot.txt"]
        for r in runs
    ), runs
    assert any("pip install --no-cache-dir --no-deps . " in r for r in runs), runs
    assert not any(
        "pip install" in r and "--no-deps" not in r and "-r requirements/" not in r for r in runs
    ), "every install is locked"
    assert "requirements/bot.txt ./requirements/" in [
        rest for word, rest in instructions() if word == "COPY"
    ]


def test_the_image_copies_every_package_the_project_installs() -> None:
    """A package left out of the image installs nothing and the bot fails on import."""
    pyproject = (DOCKERFILE.parent / "pyproject.toml").read_text(encoding="utf-8")
    include = re.search(r"include = \[(.*?)\]", pyproject)
    assert include is not None
    packages = {name.strip(' "*') for name in include.group(1).split(",")}
    copied = {rest.split()[0] for word, rest in instructions() if word == "COPY"}
    assert packages <= copied, packages - copied
