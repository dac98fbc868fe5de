"""What a fresh machine installs and runs: README's two commands (the test one is what CI
runs, byte for byte), the lock in ``requirements/`` (exact versions with hashes, agreeing
with ``pyproject.toml``'s requirements, the bot's lock held to the test lock's versions),
every imported package declared, and the installed scripts."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
LOCAL = {
    *("rules", "render", "ai", "service", "bot", "console"),
    *("tests", "benchmarks", "tools"),
}
# import names that differ from the distribution's, for packages CI does not install
NOT_INSTALLED = {"shapefile": "pyshp", "shapely": "shapely"}


def readme_command(after: str) -> str:
    """The indented command line that follows the paragraph starting with ``after``."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    tail = text[text.index("\n" + after) :]
    return next(line[4:] for line in tail.splitlines() if line.startswith("    "))


def lock(name: str) -> dict[str, Requirement]:
    """The entries of ``requirements/<name>``, by canonical name (each must be exact and
    carry hashes)."""
    text = (ROOT / "requirements" / name).read_text(encoding="utf-8")
    entries: dict[str, Requirement] = {}
    for block in re.split(r"\n(?=\S)", text):
        first = block.split("\\", 1)[0].strip()
        if not first or first.startswith("#"):
            continue
        req = Requirement(first)
        assert re.fullmatch(r"==[\w.]+", str(req.specifier)), f"{name}: {first} is not exact"
        assert re.search(r"--hash=sha256:[0-9a-f]{64}", block), f"{name}: {first} has no hash"
        entries[canonicalize_name(req.name)] = req
    return entries


def pinned(req: Requirement) -> str:
    return str(req.specifier).removeprefix("==")


def requirements(*extras: str) -> list[Requirement]:
    names = [*PROJECT["dependencies"]]
    for extra in extras:
        names += PROJECT["optional-dependencies"][extra]
    return [Requirement(r) for r in names]


def test_the_test_command_is_what_ci_runs() -> None:
    command = readme_command("Test")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert command in ci, f"README's test command is not a line of .ci/run:\n{command}"
    assert "-r requirements/test.txt" in command and command.endswith(" && tools/check")
    play = readme_command("Play")
    assert "-r requirements/bot.txt" in play and play.endswith(" .venv/bin/european-war-bot")


def test_the_locks_satisfy_pyproject() -> None:
    for name, reqs in (("bot.txt", requirements()), ("test.txt", requirements("test"))):
        locked = lock(name)
        for req in reqs:
            key = canonicalize_name(req.name)
            assert key in locked, f"{req} is not in requirements/{name}: run tools/lock"
            assert req.specifier.contains(pinned(locked[key]), prereleases=True), (
                f"requirements/{name} has {locked[key]}, pyproject.toml wants {req}: run tools/lock"
            )


def test_the_bot_runs_the_versions_the_tests_ran() -> None:
    bot, test = lock("bot.txt"), lock("test.txt")
    assert {k: pinned(v) for k, v in bot.items()} == {k: pinned(test[k]) for k in bot}


def test_the_checkers_are_pinned_exactly() -> None:
    test_extra = {str(canonicalize_name(r.name)): str(r.specifier) for r in requirements("test")}
    for checker in ("ruff", "mypy"):
        assert test_extra[checker].startswith("=="), f"{checker} is not pinned exactly"


def top_imports(folder: str) -> dict[str, str]:
    """Third-party top-level modules imported anywhere under ``folder``, with where."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top not in LOCAL:
                    found.setdefault(top, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_every_imported_package_is_declared() -> None:
    installed = importlib.metadata.packages_distributions()
    declared = {
        ("bot", "console", "service", "render", "ai", "rules"): requirements(),
        ("tests", "benchmarks"): requirements("test"),
        ("tools",): requirements("test", "maps"),
    }
    missing = []
    for folders, reqs in declared.items():
        names = {canonicalize_name(r.name) for r in reqs}
        for folder in folders:
            for module, where in top_imports(folder).items():
                dists = installed.get(module) or [NOT_INSTALLED.get(module, module)]
                if not {canonicalize_name(d) for d in dists} & names:
                    missing.append(f"{where} imports {module} ({', '.join(dists)})")
    assert not missing, "not declared in pyproject.toml:\n" + "\n".join(missing)


def test_the_scripts_run_the_bot_and_the_console() -> None:
    scripts = PROJECT["scripts"]
    assert scripts == {"european-war": "console.main:main", "european-war-bot": "bot.launch:main"}
    entry = {
        e.name: e.value
        for e in importlib.metadata.entry_points(group="console_scripts")
        if e.name in scripts
    }
    assert entry == scripts, "the installed scripts are stale: reinstall (README's commands)"
