"""One ``apply`` at 100 memories: in-process, and through a warm resident server (ADR 0060), beside a bare
interpreter, interleaved in one run.

``python -m benchmarks.case_resident [--rounds N]`` builds a git project of 100 memories with pending
candidates and its user store, twice (resident off in the first world, on in the second, its server started
and warmed before round 0: each way's applies follow its own, as a user's do), and runs, once per round and
in turn:

- ``python -c pass``;
- ``memory-review apply ID`` with resident off: the console script, as today;
- ``memory-review apply ID`` with resident on, counted whole: the client process's own CPU (``wait4``) plus
  what the server reports for that request: the forked child's CPU (``wait4`` in the server, with the git
  processes the child waited for) and the server's own CPU from accepting the connection to reporting the
  exit. The client here is ``python -c`` running the console script's first step
  (:func:`memory_review.resident.client.hand_over`, the same function, with a dict to receive the cost);
- ``memory-review apply ID`` with resident on, through the real console script: its own CPU only, for the
  client's share as a user runs it (its server side is in the line above).

As a cross-check that nothing the server spends escapes the per-request figures, the server's whole CPU
(its own and its reaped children's, ``/proc/PID/stat``, in clock ticks) is read before and after the rounds.
Prints CPU and wall (min / median / max), each median as a multiple of the bare interpreter's, and the load.
Not part of ``python -m benchmarks`` (it would need a server running in the background of that report).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from statistics import median

from benchmarks.build import fill_store, proposal, trust_filled, workspace
from benchmarks.measure import scratch

DRIVER = (
    "import sys\n"
    "from memory_review.resident.client import hand_over\n"
    "cost = {}\n"
    "code = hand_over(sys.argv[1:], cost=cost)\n"
    "if code is None or not cost:\n"
    "    sys.exit('not handed over')\n"
    "sys.stderr.write(repr(cost))\n"
    "sys.exit(code)\n"
)


def _run(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, bytes]:
    """Wall and CPU seconds of one process (with the processes it waited for), and its stderr; exit 0."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert child.stderr is not None
    stderr = child.stderr.read()
    _pid, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(argv)}: {stderr.decode()[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, stderr


def _ticks(pid: int) -> int:
    """utime + stime + cutime + cstime of ``pid``, in clock ticks."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15])


def _server_pid(env: dict[str, str], project: Path) -> int:
    script = str(Path(sys.executable).with_name("memory-review"))
    for _ in range(600):
        status = json.loads(subprocess.check_output([script, "resident", "status", "--json"], env=env, cwd=project))
        if status["running"]:
            return int(status["pid"])
        time.sleep(0.05)
    raise RuntimeError("the resident server did not start")


def _measure(argv: list[str], work: Path) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--pending", type=int, default=10, help="candidates left pending beside those applied")
    args = parser.parse_args(argv)
    ws = workspace(work / "off")
    fill_store(ws.project, 100)
    trust_filled(ws)
    subprocess.run(["git", "init", "-q", str(ws.project.root.parent)], check=True, timeout=60)
    count = 2 + 2 * (args.rounds + 1) + args.pending
    ids = [s.candidate.id for s in ws.propose([proposal(i, "project", prefix="rs") for i in range(count)])]
    # The same world twice, each with its own project and user store: an apply in one never leaves the other
    # stale (its read index and verify record to redo), so each way pays only for its own commands.
    shutil.copytree(work / "off", work / "on", symlinks=True)
    trust_filled(workspace(work / "on"))  # trust is kept by the store's path
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    env.update(PYTHONPYCACHEPREFIX=str(work / "pycache"), MEMORY_REVIEW_ACTOR="bench")
    worlds = {
        way: ({**env, "MEMORY_REVIEW_HOME": str(work / way / "user")}, work / way / "project", list(ids))
        for way in ("off", "on")
    }
    script = str(Path(sys.executable).with_name("memory-review"))
    py = _interpreter(script)
    on, project_on, ids_on = worlds["on"]
    subprocess.run([script, "resident", "on"], env=on, cwd=project_on, check=True, stdout=subprocess.DEVNULL)
    try:
        for environ, project, pending in worlds.values():  # the first history commit in each
            _run([script, "--project", str(project), "apply", pending.pop()], environ, project)
        server = _server_pid(on, project_on)
        for _ in range(600):  # until it serves (it binds before it has imported the library)
            try:
                _run([py, "-c", DRIVER, "--project", str(project_on), "apply", ids_on[-1]], on, project_on)
                ids_on.pop()
                break
            except RuntimeError:
                time.sleep(0.05)
        return _rounds(args, worlds, server)
    finally:
        subprocess.run([script, "resident", "off"], env=on, cwd=project_on, check=False, stdout=subprocess.DEVNULL)


def _rounds(args: argparse.Namespace, worlds: dict[str, tuple[dict[str, str], Path, list[str]]], server: int) -> int:
    script = str(Path(sys.executable).with_name("memory-review"))
    py = _interpreter(script)
    (off, project_off, ids_off), (on, project_on, ids_on) = worlds["off"], worlds["on"]
    names = (
        "python -c pass",
        "apply, in-process",
        "apply, resident (whole)",
        "  client's own",
        "  child",
        "  server",
        "apply, resident: console script's own",
    )
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    faults: list[float] = []
    ticks_before = _ticks(server)
    for round_ in range(args.rounds + 1):  # round 0 warms the caches and is not counted
        taken = {"python -c pass": _run([py, "-c", "pass"], off, project_off)[:2]}
        command = [script, "--project", str(project_off), "apply", ids_off.pop()]
        taken["apply, in-process"] = _run(command, off, project_off)[:2]
        command = [py, "-c", DRIVER, "--project", str(project_on), "apply", ids_on.pop()]
        wall, cpu, err = _run(command, on, project_on)
        cost = ast.literal_eval(err.decode().strip().splitlines()[-1])
        taken["apply, resident (whole)"] = (wall, cpu + cost["child"] + cost["server"])
        taken["  client's own"] = (wall, cpu)
        taken["  child"] = (wall, cost["child"])
        taken["  server"] = (wall, cost["server"])
        faults.append(cost.get("child_minor_faults", 0))
        command = [script, "--project", str(project_on), "apply", ids_on.pop()]
        taken["apply, resident: console script's own"] = _run(command, on, project_on)[:2]
        if round_:
            for name, sample in taken.items():
                samples[name].append(sample)
    ticks = (_ticks(server) - ticks_before) / os.sysconf("SC_CLK_TCK")
    print(f"{args.rounds} rounds; uptime after the run: {_uptime()}")
    bare = median(c for _w, c in samples["python -c pass"])
    for name, values in samples.items():
        cpu, wall = sorted(c for _w, c in values), sorted(w for w, _c in values)
        walls = f"  wall {wall[0] * 1e3:4.0f} / {median(wall) * 1e3:4.0f} / {wall[-1] * 1e3:4.0f} ms"
        print(
            f"  {name:40s} CPU {cpu[0] * 1e3:5.1f} / {median(cpu) * 1e3:5.1f} / {cpu[-1] * 1e3:5.1f} ms"
            f"{walls if not name.startswith('  ') else ''}  {median(cpu) / bare:5.2f}x bare"
        )
    print(f"  the child's minor page faults (copy-on-write and first touches): median {median(faults[1:]):.0f}")
    per_request = sum(c for _w, c in samples["  child"]) + sum(c for _w, c in samples["  server"])
    print(
        f"cross-check: the server's whole CPU over all {2 * (args.rounds + 1)} resident applies (/proc, ticks) "
        f"{ticks * 1e3:.0f} ms; reported per request for the {args.rounds} counted driver rounds "
        f"{per_request * 1e3:.0f} ms (the console-script rounds and round 0 are in the first figure only)"
    )
    return 0


def _interpreter(script: str) -> str:
    """The interpreter the console script runs on (its ``#!`` line): the server it starts runs on it, and
    serves only clients of the same one."""
    first = Path(script).read_text().splitlines()[0]
    return first.removeprefix("#!").strip()


def _uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def main(argv: list[str]) -> int:
    with scratch("resident") as work:
        return _measure(argv, work)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
