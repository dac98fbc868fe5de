"""The drawing kit's import hygiene: render/ imports only the rules, Pillow and the
standard library, and the kit (``render/*.py``) no game's room."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

RENDER_DIR = Path(__file__).resolve().parents[2] / "render"


def _allowed(module: str) -> bool:
    root = module.split(".")[0]
    allowed = {"PIL", "rules", "render", "__future__"}
    return root in allowed or root in sys.stdlib_module_names


def _imports(tree: ast.AST) -> list[str]:
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append(node.module)
    return out


def test_render_imports_only_rules_render_pil_and_stdlib() -> None:
    files = sorted(RENDER_DIR.rglob("*.py"))
    assert any(p.name == "static_layer.py" for p in files)
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for module in _imports(tree):
            assert _allowed(module), f"{path.name} imports {module}"


def test_the_drawing_kit_knows_no_game() -> None:
    """The kit (``render/*.py``) imports no game's room, of the renderer or the rules;
    only ``render/__init__.py`` imports the rooms, to register their images."""
    kit = [p for p in sorted(RENDER_DIR.glob("*.py")) if p.name != "__init__.py"]
    assert {"text.py", "palette.py", "pngwrite.py", "arrows.py", "registry.py"} <= {
        p.name for p in kit
    }
    for path in kit:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        relative = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level]
        assert all(n.level == 1 and n.module != "pyramids" for n in relative), path.name
        for module in _imports(tree):
            assert not module.startswith(("render.pyramids", "rules.pyramids")), (
                f"{path.name} imports {module}"
            )
