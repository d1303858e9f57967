"""docs/architecture.md stays true: it names every module and subpackage, and names none that is gone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAP = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
NAMED = set(re.findall(r"`([a-z_][a-z0-9_]*)`", MAP))


def _parts(package: str) -> list[str]:
    """The modules (``*.py`` but ``__init__``) and subpackages directly in ``package``."""
    folder = ROOT / package
    modules = [p.stem for p in folder.glob("*.py") if p.stem != "__init__"]
    packages = [p.name for p in folder.iterdir() if (p / "__init__.py").is_file()]
    return sorted(modules + packages)


@pytest.mark.parametrize("package", ["events", "memory_review", "tui"])
def test_the_map_names_every_module(package: str) -> None:
    assert [name for name in _parts(package) if name not in NAMED] == []


def test_every_module_the_events_table_names_exists() -> None:
    table = MAP.split("## `events/`", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.MULTILINE)
    assert listed, "the events/ table lists its modules"
    assert [name for name in listed if not (ROOT / "events" / f"{name}.py").is_file()] == []


def test_every_design_citation_names_a_section_that_exists() -> None:
    """Code cites the design as ``docs/design.md §n``; each n is a numbered section of that file."""
    design = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    sections = {int(n) for n in re.findall(r"^## (\d+)\.", design, flags=re.MULTILINE)}
    cited = set()
    for folder in ("events", "memory_review", "tui", "benchmarks", "tools"):
        for path in (ROOT / folder).rglob("*.py"):
            for first, last in re.findall(r"docs/design\.md §(\d+)(?:-(\d+))?", path.read_text(encoding="utf-8")):
                cited |= {int(first), int(last or first)}
    assert cited and cited <= sections
