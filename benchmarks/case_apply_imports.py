"""Where one ``memory-review apply``'s whole-process CPU goes, step by step, in one interleaved run (ADR 0052).

``python -m benchmarks.case_apply_imports [--rounds N] [--python LABEL=PATH ...]`` builds a git project of
100 memories with pending candidates and runs, once per round and in turn: a bare interpreter, ``import
orjson``, ``from pydantic import BaseModel``, one model defined and validated, the models a commit validates,
every module an apply imports (the list an apply's own ``sys.modules`` reports, imported in its order),
``memory-review --help``, and one ``apply`` per ``--python`` (each a venv whose editable install maps its own
checkout: an old commit in a detached worktree with its own venv is the "before"). Every process runs with
the project as its working directory and no ``PYTHONPATH``, so each venv imports only its own checkout.
Prints CPU (user + system from ``wait4``, with the git processes an apply waits for) and wall, min / median
/ max, each step's median as a multiple of the bare interpreter's, and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from statistics import median

from benchmarks.build import fill_store, proposal, trust_filled, workspace
from benchmarks.measure import scratch

NO_PLUGIN_SCAN = "from memory_review.main import _no_plugin_loader\n_no_plugin_loader()\n"
"""What the console script does before anything imports pydantic (docs/adr/0042)."""
ONE_MODEL = (
    "import orjson\nfrom pydantic import BaseModel\n"
    "class M(BaseModel):\n    x: int\n    s: str\n"
    "M.model_validate({'x': 1, 's': 'a'})\n"
)
APPLY_MODULES = (
    "import json, sys\n"
    "sys.argv = ['memory-review', *sys.argv[1:]]\n"
    "from memory_review.main import main\n"
    "main()\n"
    "sys.stderr.write(json.dumps(list(sys.modules)))\n"
)


def _cpu(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one process, with the processes it waited for; it must exit 0."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    stderr = child.stderr.read() if child.stderr else b""
    if child.stderr:
        child.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(argv)}: {stderr.decode()[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


def _apply_command(python: str, project: Path) -> list[str]:
    script = Path(python).with_name("memory-review")
    entry = (
        [str(script)]
        if script.exists()
        else [python, "-c", "import sys\nfrom memory_review.main import main\nsys.exit(main())"]
    )
    return [*entry, "--project", str(project)]


def _modules_of_an_apply(project: Path, cid: str, env: dict[str, str]) -> list[str]:
    """The modules one apply loads, in the order it loaded them (this checkout's)."""
    done = subprocess.run(
        [sys.executable, "-c", APPLY_MODULES, "--project", str(project), "apply", cid],
        env=env,
        cwd=project,
        capture_output=True,
        check=True,
        timeout=120,
    )
    names = json.loads(done.stderr.decode().splitlines()[-1])
    return [
        n for n in names if n not in ("__main__", "sitecustomize", "usercustomize") and not n.startswith("__editable__")
    ]


def _measure(argv: list[str], work: Path) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--pending", type=int, default=10, help="candidates left pending beside those applied")
    parser.add_argument("--python", action="append", default=[], metavar="LABEL=PATH")
    args = parser.parse_args(argv)
    pythons = [tuple(p.split("=", 1)) for p in args.python] or [("apply", sys.executable)]
    ws = workspace(work / "store")
    fill_store(ws.project, 100)
    trust_filled(ws)
    project = ws.project.root.parent
    subprocess.run(["git", "init", "-q", str(project)], check=True, timeout=60)
    count = 2 + (args.rounds + 1) * len(pythons) + args.pending
    ids = [s.candidate.id for s in ws.propose([proposal(i, "project", prefix="ai") for i in range(count)])]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    env.update(PYTHONPYCACHEPREFIX=str(work / "pycache"), MEMORY_REVIEW_HOME=str(ws.user.root))
    env["MEMORY_REVIEW_ACTOR"] = "bench"
    _cpu([*_apply_command(sys.executable, project), "apply", ids.pop()], env, project)  # the first history commit
    modules = _modules_of_an_apply(project, ids.pop(), env)
    every = NO_PLUGIN_SCAN + "import importlib\n" + "".join(f"importlib.import_module({m!r})\n" for m in modules)
    py = sys.executable
    steps: list[tuple[str, list[str] | None]] = [
        ("python -c pass", [py, "-c", "pass"]),
        ("import orjson", [py, "-c", "import orjson"]),
        ("+ from pydantic import BaseModel", [py, "-c", "import orjson\nfrom pydantic import BaseModel"]),
        ("+ one model defined and validated", [py, "-c", ONE_MODEL]),
        ("+ the same, pydantic's plugin scan skipped", [py, "-c", NO_PLUGIN_SCAN + ONE_MODEL]),
        (
            "the models a commit validates",
            [py, "-c", NO_PLUGIN_SCAN + "import memory_review.events, memory_review.candidate"],
        ),
        (f"every module an apply imports ({len(modules)})", [py, "-c", every]),
        ("memory-review --help", [*_apply_command(py, project), "--help"]),
        *((f"apply: {label}", None) for label, _path in pythons),
    ]
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in steps}
    for round_ in range(args.rounds + 1):  # round 0 writes the bytecode caches and is not counted
        for name, command in steps:
            if command is None:
                path = dict(pythons)[name.removeprefix("apply: ")]
                command = [*_apply_command(path, project), "apply", ids.pop()]
            sample = _cpu(command, env, project)
            if round_:
                samples[name].append(sample)
    print(f"load average after the run: {os.getloadavg()}; {args.rounds} rounds, {args.pending} pending candidates")
    bare = median(c for _w, c in samples["python -c pass"])
    for name, values in samples.items():
        cpu, wall = sorted(c for _w, c in values), sorted(w for w, _c in values)
        print(
            f"  {name:44s} CPU {cpu[0] * 1e3:4.0f} / {median(cpu) * 1e3:4.0f} / {cpu[-1] * 1e3:4.0f} ms"
            f"  wall {wall[0] * 1e3:4.0f} / {median(wall) * 1e3:4.0f} / {wall[-1] * 1e3:4.0f} ms"
            f"  {median(cpu) / bare:5.2f}x bare"
        )
    return 0


def main(argv: list[str]) -> int:
    with scratch("apply-imports") as work:
        return _measure(argv, work)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
