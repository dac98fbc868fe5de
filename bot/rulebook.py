"""The rules text behind ``/rules [topic]``: RULES.md split into sections and rulings."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

_RULING = re.compile(r"^- ((?:EW|WW)-\d+) ")


@dataclass(frozen=True)
class Section:
    """A heading of RULES.md with its rulings (``EW-13`` -> text)."""

    title: str
    variant: str
    """'european_war' or 'world_war_5'."""
    rulings: dict[str, str]

    def text(self) -> str:
        """The section as Markdown: the title, then each ruling with its number in bold."""
        lines = [f"**{self.title}**"]
        lines += [f"**{number}** {body}" for number, body in self.rulings.items()]
        return "\n".join(lines)


@lru_cache(maxsize=1)
def sections() -> tuple[Section, ...]:
    """RULES.md's sections that carry rulings, in order (read once per process)."""
    text = resources.files("rules").joinpath("RULES.md").read_text("utf-8")
    out: list[Section] = []
    title = ""
    current: dict[str, str] = {}
    number = ""

    def flush() -> None:
        if current:
            variant = "world_war_5" if next(iter(current)).startswith("WW") else "european_war"
            out.append(Section(title, variant, dict(current)))

    for line in text.splitlines():
        if line.startswith("## "):
            flush()
            title, current, number = line[3:].strip(), {}, ""
            continue
        match = _RULING.match(line)
        if match:
            number = match.group(1)
            current[number] = line[match.end() :].strip()
        elif number and line.startswith("  ") and line.strip():
            current[number] += " " + line.strip()
    flush()
    return tuple(out)


def topics(variant: str | None = None) -> list[str]:
    """Every topic name (section titles and ruling numbers) for autocomplete."""
    out: list[str] = []
    for s in sections():
        if variant is None or s.variant == variant:
            out.append(s.title)
            out.extend(s.rulings)
    return out


def lookup(topic: str | None, variant: str = "european_war") -> str:
    """The text for ``topic``: a ruling number (``EW-19``), a section title or a word
    in it; without a topic, the list of sections of ``variant``. Always returns text.
    """
    chosen = [s for s in sections() if s.variant == variant]
    if not topic:
        names = "\n".join(f"- {s.title} ({', '.join(s.rulings)})" for s in chosen)
        return f"Rules sections — ask `/rules topic:<name or number>`:\n{names}"
    key = topic.strip().upper()
    for s in sections():
        if key in s.rulings:
            return f"**{key}** ({s.title}) {s.rulings[key]}"
    low = topic.strip().lower()
    for s in chosen + [s for s in sections() if s not in chosen]:
        if low and low in s.title.lower():
            return s.text()
    hits = [
        f"**{n}** {body}" for s in chosen for n, body in s.rulings.items() if low in body.lower()
    ]
    if hits:
        return "\n".join(hits[:6])
    return f"No rule matches {topic!r}. Try `/rules` for the list of sections."
