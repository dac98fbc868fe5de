"""The message catalogues: extract, update, compile and check them (with Babel).

A package with words of its own has a ``catalogue.py`` and a ``locale/`` folder beside it
(see :mod:`rules.i18n`). Its messages are the marked strings of its Python files (``_``, ``n_``,
``p_``, ``N_``) and every block of its rule book (``RULES.md``: each run of lines
between blank lines, as :func:`i18n.blocks` splits it), but for subpackages with a
catalogue of their own; and the strings its ``catalogue.py`` names in its data files
(``DATA_FIELDS = {"data/cards.json": ("name", "text")}``: every string under those keys),
translated where they are shown with ``_(value)``.

Usage::

    .venv/bin/python -m tools.i18n update    # extract each messages.pot, merge it into every .po
    .venv/bin/python -m tools.i18n compile   # write each .mo from its .po
    .venv/bin/python -m tools.i18n check     # what tests/test_catalogues.py holds, in words
    .venv/bin/python -m tools.i18n take FILE.po rules/pyramids de   # fill from a translator's file

A translator fills the ``msgstr`` of each ``locale/<lang>/LC_MESSAGES/messages.po``, then
runs ``compile``.
"""

from __future__ import annotations

import ast
import io
import json
import string
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_python
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from rules import i18n

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "render", "ai", "service", "bot", "console")
KEYWORDS = {"_": None, "N_": None, "n_": (1, 2), "p_": ((1, "c"), 2)}
ARGUMENTS = {"_": 1, "N_": 1, "n_": 2, "p_": 2}
"""How many leading arguments of each marker are the message (and its context)."""
TRANSLATED = tuple(locale for locale in i18n.LOCALES if locale != i18n.DEFAULT)
# fixed, so that extracting twice writes the same bytes
STAMP = datetime(2026, 1, 1, tzinfo=UTC)

Key = tuple[str | None, str]  # (context, message id)


def catalogue_dirs() -> list[Path]:
    """Every package folder with a ``catalogue.py``, sorted."""
    found: list[Path] = []
    for package in PACKAGES:
        found += [p.parent for p in (ROOT / package).rglob("catalogue.py")]
    return sorted(found)


def sources(directory: Path) -> list[Path]:
    """The Python and Markdown files whose messages go into ``directory``'s catalogue."""
    files: list[Path] = []
    for path in sorted(directory.rglob("*")):
        if not (path.suffix == ".py" or path.name == "RULES.md") or "locale" in path.parts:
            continue
        # a file belongs to the nearest package above it with a catalogue
        owner = next(p for p in path.parents if p == directory or (p / "catalogue.py").exists())
        if owner == directory:
            files.append(path)
    return files


def data_fields(directory: Path) -> dict[str, tuple[str, ...]]:
    """The data files of ``directory`` whose strings are messages, with the keys that
    hold them: its ``catalogue.py``'s ``DATA_FIELDS`` (a literal), if it has one."""
    tree = ast.parse((directory / "catalogue.py").read_text("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "DATA_FIELDS" for t in targets):
                assert node.value is not None
                found = ast.literal_eval(node.value)
                return {str(k): tuple(v) for k, v in found.items()}
    return {}


def _json_strings(value: object, keys: tuple[str, ...]) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in keys and isinstance(item, str) and item:
                yield item
            else:
                yield from _json_strings(item, keys)
    elif isinstance(value, list):
        for item in value:
            yield from _json_strings(item, keys)


def _markdown(path: Path) -> Iterator[tuple[int, str]]:
    text = path.read_text("utf-8")
    at = 0
    for block in i18n.blocks(text):
        at = text.index(block, at)
        yield text.count("\n", 0, at) + 1, block
        at += len(block)


def extract(directory: Path, root: Path = ROOT) -> Catalog:
    """The template of ``directory``'s catalogue, freshly extracted from its sources."""
    template = Catalog(
        project="European War bot", creation_date=STAMP, revision_date=STAMP, fuzzy=False
    )
    for path in sources(directory):
        where = path.relative_to(root).as_posix()
        if path.suffix == ".md":
            for line, block in _markdown(path):
                template.add(block, locations=[(where, line)])
            continue
        with path.open("rb") as stream:
            found = extract_python(stream, KEYWORDS, [], {"encoding": "utf-8"})
            for line, func, raw, _comments in found:
                context: str | None = None
                given = (raw if isinstance(raw, tuple) else (raw,))[: ARGUMENTS[str(func)]]
                if not given or not all(isinstance(p, str) and p for p in given):
                    continue  # not a string literal: the INT rules of ruff refuse those
                parts = [str(p) for p in given]
                if func == "p_":
                    context, parts = parts[0], parts[1:]
                message: str | tuple[str, str] = (
                    parts[0] if len(parts) == 1 else (parts[0], parts[1])
                )
                template.add(message, locations=[(where, line)], context=context)
    for name, keys in data_fields(directory).items():
        path = directory / name
        for text in _json_strings(json.loads(path.read_text("utf-8")), keys):
            template.add(text, locations=[(path.relative_to(root).as_posix(), 0)])
    return template


def _po(directory: Path, locale: str) -> Path:
    return directory / "locale" / locale / "LC_MESSAGES" / "messages.po"


def _write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    out = io.BytesIO()
    write_po(out, catalog, width=100, ignore_obsolete=True, include_previous=False)
    path.write_bytes(out.getvalue())


def read(path: Path, locale: str | None = None) -> Catalog:
    """A ``.po`` or ``.pot`` file as Babel reads it."""
    with path.open("rb") as stream:
        return read_po(stream, locale=locale)


def compiled(po: Path, locale: str) -> bytes:
    """The ``.mo`` bytes of ``po`` (its fuzzy entries left out)."""
    out = io.BytesIO()
    write_mo(out, read(po, locale), use_fuzzy=False)
    return out.getvalue()


def update() -> None:
    """Extract every template and merge it into every language's ``.po`` (new ones
    untranslated, ones gone dropped), then compile."""
    for directory in catalogue_dirs():
        template = extract(directory)
        _write(template, directory / "locale" / "messages.pot")
        for locale in TRANSLATED:
            path = _po(directory, locale)
            if path.exists():
                catalog = read(path, locale)
                catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
            else:
                catalog = Catalog(locale=locale, project="European War bot", fuzzy=False)
                catalog.creation_date = catalog.revision_date = STAMP
                catalog.update(template, no_fuzzy_matching=True)
            _write(catalog, path)
    compile_all()


def compile_all() -> None:
    """Write every ``.mo`` from its ``.po``."""
    for directory in catalogue_dirs():
        for locale in TRANSLATED:
            path = _po(directory, locale)
            if path.exists():
                path.with_suffix(".mo").write_bytes(compiled(path, locale))


def take(source: Path, directory: Path, locale: str) -> int:
    """Fill the untranslated messages of ``directory``'s ``locale`` catalogue from the
    ``.po`` file ``source`` (a translator's file); compile it. Returns how many it filled."""
    given = {_key(m): m.string for m in read(source, locale) if m.id and all(_strings(m))}
    path = _po(directory, locale)
    catalog = read(path, locale)
    filled = 0
    for message in catalog:
        if message.id and not all(_strings(message)) and _key(message) in given:
            message.string = given[_key(message)]
            message.flags.discard("fuzzy")
            filled += 1
    _write(catalog, path)
    path.with_suffix(".mo").write_bytes(compiled(path, locale))
    return filled


def fields(text: str) -> set[str]:
    """The names of ``text``'s ``{placeholders}``.

    Raises:
        ValueError: a brace that is neither a placeholder nor doubled.
    """
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


def _forms(message: Message) -> tuple[str, ...]:
    found = message.id
    return tuple(str(f) for f in found) if isinstance(found, (tuple, list)) else (str(found),)


def _strings(message: Message) -> tuple[str, ...]:
    found = message.string
    if isinstance(found, (tuple, list)):
        return tuple(str(f or "") for f in found)
    return (str(found or ""),)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a catalogue, in words."""

    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


def _key(message: Message) -> Key:
    return (message.context, _forms(message)[0])


def problems(directory: Path, root: Path = ROOT) -> list[Problem]:
    """What is wrong with ``directory``'s catalogue: a stale template, a language missing
    a message or translating it with other placeholders, a ``.mo`` not compiled from its
    ``.po``."""
    found: list[Problem] = []
    name = directory.relative_to(root).as_posix()
    fresh = extract(directory, root)
    wanted = {_key(m): m for m in fresh if m.id}
    pot = directory / "locale" / "messages.pot"
    if not pot.exists() or {_key(m) for m in read(pot) if m.id} != set(wanted):
        found.append(Problem(name, "messages.pot is stale: run python -m tools.i18n update"))
    for locale in TRANSLATED:
        path = _po(directory, locale)
        where = f"{name} [{locale}]"
        if not path.exists():
            found.append(Problem(where, "no messages.po"))
            continue
        catalog = read(path, locale)
        have = {_key(m): m for m in catalog if m.id}
        for key, source in wanted.items():
            message = have.get(key)
            label = repr(key[1][:60])
            if message is None:
                found.append(Problem(where, f"lacks {label}"))
                continue
            if message.fuzzy or not all(_strings(message)):
                found.append(Problem(where, f"does not translate {label}"))
                continue
            if all(path.endswith(".md") for path, _line in source.locations):
                continue  # a rule book's block is shown as it is, never formatted
            try:
                want = set().union(*(fields(form) for form in _forms(source)))
                plural = len(_forms(source)) > 1
                for text in _strings(message):
                    got = fields(text)
                    if got - want or (not plural and got != want):
                        found.append(
                            Problem(
                                where, f"{label} has placeholders {sorted(got)}, not {sorted(want)}"
                            )
                        )
            except ValueError as exc:
                found.append(Problem(where, f"{label} has a broken placeholder ({exc})"))
        for key in set(have) - set(wanted):
            found.append(Problem(where, f"keeps {key[1][:60]!r}, which nothing says any more"))
        mo = path.with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != compiled(path, locale):
            found.append(Problem(where, "messages.mo is not compiled from messages.po"))
    return found


def main(argv: list[str]) -> int:
    """The command line: ``update``, ``compile``, ``check`` or ``take``."""
    command = argv[0] if argv else "check"
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "take" and len(argv) == 4:
        print(take(Path(argv[1]), Path(argv[2]).resolve(), argv[3]), "messages filled")
    elif command == "check":
        wrong = [p for d in catalogue_dirs() for p in problems(d)]
        for problem in wrong:
            print(problem)
        return 1 if wrong else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
