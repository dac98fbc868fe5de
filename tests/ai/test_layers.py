"""The ai package imports only the standard library, itself and the rules engine."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

AI_DIR = Path(__file__).resolve().parents[2] / "ai"
ALLOWED = {"ai", "rules"}


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_ai_imports_only_stdlib_ai_and_rules() -> None:
    files = sorted(AI_DIR.rglob("*.py"))
    assert files, "no ai modules found"
    bad = {
        f"{path.relative_to(AI_DIR.parent)}: {root}"
        for path in files
        for root in _imported_roots(path)
        if root not in ALLOWED and root not in sys.stdlib_module_names
    }
    assert not bad, f"ai/ imports outside the standard library, ai and rules: {sorted(bad)}"


def test_ai_does_not_touch_the_clock_or_global_random_except_the_deadline() -> None:
    """Decisions are pure: no global random module state; the clock only for the cap."""
    for path in sorted(AI_DIR.rglob("*.py")):
        text = path.read_text("utf-8")
        assert "random.seed(" not in text, path
        assert "random.random(" not in text and "random.choice(" not in text, path
        if "import time" in text or "from time import" in text:
            assert path.name in ("ismcts.py", "lookahead.py"), f"{path.name} reads the clock"
