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
