"""The child process of the trials: ``python -m tools.reliability.driver COMMAND JSON``.

A child is armed (or not) by the harness's start-up hook (``tools/reliability/arming.py``)
before it runs any of our code, so the fault fires inside the real library code of a
real, separate process. Commands:

``op``          run one named operation of the scenario on a trial copy;
``recover``     run recovery (``verify``: lock, roll forward, check);
``hold-lock``   take the store lock, say ``locked``, and sleep (to be SIGKILLed);
``busy``        loop random operations, printing each success as a JSON line (to be SIGKILLed);
``workload``    wait for a go-file, run N random operations, print a JSON summary;
``apply-one``   wait for a go-file, apply one candidate, print the outcome;
``zygote``      import everything once, then fork one child per request read from stdin.

The zygote makes a crash trial cost a fork instead of an interpreter start: each
request (command, arguments, fault plan, output files) is run in a forked child,
armed with :func:`events.faults.arm` right after the fork, whose exit status the
zygote reports back. The child is a separate process like any other: it dies by
``os._exit`` at its fault point and the kernel releases its file lock.

Exit status: 0 done; 3 a library error (its type is printed as JSON); anything
else is a crash of the code under test (a traceback on stderr), or the fault.
"""

from __future__ import annotations

import os
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import orjson

from memory_review.errors import MemoryReviewError
from memory_review.events import faults
from memory_review.events.faults import FaultPlan
from tools.reliability.scenario import ACTOR, OPERATIONS, Context, Trial
from tools.reliability.workload import Workload, WorkloadResult

LIBRARY_ERROR_EXIT = 3


def _emit(doc: Any) -> None:
    sys.stdout.buffer.write(orjson.dumps(doc) + b"\n")
    sys.stdout.flush()


def _wait_for(go_file: str | None) -> None:
    """Spin until the parent creates ``go_file``, so that every child starts at the same moment."""
    if go_file is None:
        return
    _emit({"ready": True})
    while not Path(go_file).exists():
        time.sleep(0.001)


def _workspace(args: dict[str, Any]) -> Any:
    return Trial(Path(args["root"])).workspace(lock_timeout=args.get("lock_timeout", 10.0))


def cmd_op(args: dict[str, Any]) -> None:
    OPERATIONS[args["op"]](_workspace(args), Context.model_validate(args["ctx"]))
    _emit({"done": args["op"]})


def cmd_recover(args: dict[str, Any]) -> None:
    reports = _workspace(args).verify()
    _emit({"ok": all(r.ok for r in reports)})


def cmd_hold_lock(args: dict[str, Any]) -> None:
    ws = _workspace(args)
    with ws.project.transact():
        _emit({"locked": True})
        time.sleep(args.get("seconds", 60))


def cmd_busy(args: dict[str, Any]) -> None:
    workload = Workload(_workspace(args), args["seed"])
    result = WorkloadResult()
    _emit({"ready": True})
    for _ in range(args.get("steps", 1_000_000)):
        seen = len(result.unexpected)
        workload.run_step(result, _emit)  # each success is printed the moment the call returns
        for text in result.unexpected[seen:]:
            _emit({"unexpected": text})


def cmd_workload(args: dict[str, Any]) -> None:
    workload = Workload(_workspace(args), args["seed"], ops=tuple(args["ops"]))
    _wait_for(args.get("go_file"))
    result = workload.run(args["steps"])
    _emit(result.to_json())


def cmd_apply_one(args: dict[str, Any]) -> None:
    ws = _workspace(args)
    _wait_for(args.get("go_file"))
    events = ws.apply([args["candidate"]], actor=ACTOR)
    _emit({"applied": [e.seq for e in events], "at": time.time()})


def cmd_zygote(args: dict[str, Any]) -> None:
    _emit({"ready": True})
    for line in sys.stdin.buffer:
        request = orjson.loads(line)
        pid = os.fork()
        if pid == 0:
            _forked(request)  # never returns
        _emit({"code": _reap(pid, request.get("timeout", 60.0))})


def _forked(request: dict[str, Any]) -> None:
    """In the forked child: point stdout/stderr at the request's files, arm the plan, run, exit."""
    code = 1
    try:
        for fd, name in ((1, request["out"]), (2, request["err"])):
            target = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(target, fd)
            os.close(target)
        faults.arm(FaultPlan.model_validate(request["plan"]) if request.get("plan") else None)
        code = main([request["command"], orjson.dumps(request["args"]).decode()])
    except BaseException:  # noqa: BLE001 — a forked child must never return into the zygote's loop
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _reap(pid: int, timeout: float) -> int:
    """The child's exit status; a child still running after ``timeout`` seconds is killed (-9)."""
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return -9
        time.sleep(0.001)


COMMANDS = {
    "op": cmd_op,
    "recover": cmd_recover,
    "hold-lock": cmd_hold_lock,
    "busy": cmd_busy,
    "workload": cmd_workload,
    "apply-one": cmd_apply_one,
    "zygote": cmd_zygote,
}


def main(argv: list[str]) -> int:
    """Run one command; a library error is reported as JSON with exit status 3."""
    command, raw = argv[0], argv[1] if len(argv) > 1 else "{}"
    try:
        COMMANDS[command](orjson.loads(raw))
    except MemoryReviewError as exc:
        _emit({"error": type(exc).__name__, "message": str(exc)})
        return LIBRARY_ERROR_EXIT
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
