"""The hostile-input sections of ``docs/reliability.md``, made from the hostile suites themselves.

Each suite is a test module ``tests/hostile/test_*.py``. What it attacks and how is its docstring;
what it does not defend, and why, is its module constant ``OUT_OF_SCOPE`` (a tuple of strings). Both
are read with ``ast``: the modules are never imported here. The attacks tried are its test cases
(each parametrized case is one); the figures run them with pytest, in a child process with a
timeout, and count from its JUnit XML report what passed, failed and was skipped. At the ``smoke``
scale the cases are only collected (listed, not run): the script's own test must not run pytest's
hostile suites inside pytest.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from tools.reliability.arming import REPO_ROOT, unarmed_env

HOSTILE_DIR = REPO_ROOT / "tests" / "hostile"
RUN_TIMEOUT = 3600.0
"""Seconds for the whole hostile run; each of its own subprocesses has its own, shorter timeout."""
NOT_RUN = "not run"


@dataclass
class HostileSuite:
    """One hostile test module: what it says about itself and what happened to each of its cases."""

    path: Path
    doc: str
    out_of_scope: tuple[str, ...]
    cases: dict[str, str] = field(default_factory=dict)
    """``test_name[param id]`` -> passed, failed, skipped or not run."""

    @property
    def name(self) -> str:
        return self.path.relative_to(REPO_ROOT).as_posix()

    def counts(self) -> Counter[str]:
        return Counter(self.cases.values())

    @property
    def ok(self) -> bool:
        return not self.counts().get("failed")


def read_suite(path: Path) -> HostileSuite:
    """A module's docstring and ``OUT_OF_SCOPE``, by reading its source (nothing of it runs)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out_of_scope: tuple[str, ...] = ()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "OUT_OF_SCOPE" for t in node.targets
        ):
            out_of_scope = tuple(ast.literal_eval(node.value))
    return HostileSuite(path, ast.get_docstring(tree) or "", out_of_scope)


def hostile_suites(workdir: Path, *, run: bool) -> list[HostileSuite]:
    """Every hostile suite with its cases: run (``run``) or only collected."""
    suites = {p.name: read_suite(p) for p in sorted(HOSTILE_DIR.glob("test_*.py"))}
    outcomes = _run(workdir) if run else _collect()
    for (module, case), outcome in outcomes.items():
        if module in suites:
            suites[module].cases[case] = outcome
    return list(suites.values())


def _pytest(*args: str) -> subprocess.CompletedProcess[str]:
    # The project's addopts hold a -q of their own: reset them, so one -q lists each case by its node id.
    argv = [sys.executable, "-m", "pytest", str(HOSTILE_DIR), "-o", "addopts=", "-p", "no:cacheprovider", *args]
    return subprocess.run(
        argv, cwd=REPO_ROOT, env=unarmed_env(), capture_output=True, text=True, timeout=RUN_TIMEOUT, check=False
    )


def _collect() -> dict[tuple[str, str], str]:
    done = _pytest("--collect-only", "-q")
    found = {}
    for line in done.stdout.splitlines():
        if "::" in line and line.startswith("tests/hostile/"):
            module, case = line.split("::", 1)
            found[(Path(module).name, case)] = NOT_RUN
    return found


def _run(workdir: Path) -> dict[tuple[str, str], str]:
    report = workdir / "hostile-junit.xml"
    done = _pytest("-q", f"--junitxml={report}", f"--basetemp={workdir / 'hostile-tmp'}")
    if not report.exists():
        raise RuntimeError(f"the hostile suites did not run (exit {done.returncode}): {done.stderr[-800:]}")
    found = {}
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        module = case.get("classname", "").rsplit(".", 1)[-1] + ".py"
        tags = {child.tag for child in case}
        outcome = "failed" if tags & {"failure", "error"} else "skipped" if "skipped" in tags else "passed"
        found[(module, case.get("name", ""))] = outcome
    return found


def render_hostile(suites: list[HostileSuite]) -> list[str]:
    """The section: a table of the suites, then each suite's own words, attacks and out-of-scope list."""
    lines = [
        "## Hostile inputs (`tests/hostile/`)",
        "",
        "Made from the suites themselves: each test case is one attack, built for real (git repositories, "
        "clones, a bare remote, forged logs, links, FIFOs) and run through the entry points a victim "
        "runs, as real processes with timeouts. Each suite's text below is its module docstring; its "
        "out-of-scope list is its `OUT_OF_SCOPE`.",
        "",
    ]
    lines += ["| suite | attacks tried | passed | failed | skipped | not run |", "|---|---|---|---|---|---|"]
    for suite in suites:
        c = suite.counts()
        lines.append(
            f"| `{suite.name}` | {len(suite.cases)} | {c['passed']} | {c['failed']} | {c['skipped']} | {c[NOT_RUN]} |"
        )
    lines.append("")
    for suite in suites:
        lines += _suite_section(suite)
    return lines


def _suite_section(suite: HostileSuite) -> list[str]:
    lines = [f"### `{suite.name}`", "", suite.doc.strip(), "", "Attacks (test cases):", ""]
    by_test: dict[str, list[tuple[str, str]]] = {}
    for case, outcome in suite.cases.items():
        test, _bracket, param = case.partition("[")
        by_test.setdefault(test, []).append((param.rstrip("]"), outcome))
    for test, params in by_test.items():
        outcomes = Counter(outcome for _param, outcome in params)
        summary = ", ".join(f"{n} {outcome}" for outcome, n in sorted(outcomes.items()))
        shown = "; ".join(f"`{p}`" + ("" if o in ("passed", NOT_RUN) else f" **{o}**") for p, o in params if p)
        lines.append(f"- `{test}` — {summary}" + (f": {shown}" if shown else ""))
    if suite.out_of_scope:
        lines += ["", "Out of scope, and why:", ""] + [f"- {item}" for item in suite.out_of_scope]
    return lines + [""]
