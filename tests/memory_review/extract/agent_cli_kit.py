"""Stand-in agent CLIs: real executables in tmp_path that speak claude's, codex's and gemini's headless JSON.

Each stand-in reads its whole stdin, records the call (argv, stdin, cwd, the nested marker) in
``calls.jsonl`` next to it, then acts out ``scenario.json``:

* ``{"answer": "<text>"}`` — a successful run whose model answer is the text;
* ``{"error": true}`` — the CLI's own error shape (claude ``is_error``, codex ``turn.failed``, gemini ``error``);
* ``{"tool": true}`` — a run showing a tool was used;
* ``{"exit": 3, "stdout": "...", "stderr": "..."}`` — raw output and an exit status;
* ``{"sleep": 600}`` — never answers (the caller's deadline must stop it, and its child); with
  ``"say": "..."`` it first writes that to stdout (what a real CLI printed before it hung);
* ``{"delay": 2, "answer": ...}`` — answers after a while (``overlap`` in a call says another was running);
* ``{"huge": 20000000}`` — writes that many bytes;
* ``{"escape": 600, ...}`` / ``{"linger": 30, ...}`` — first starts a child that keeps its stdout open and sleeps,
  in a session of its own (out of reach of the CLI's group) or in the CLI's group;
* ``{"per_call": [scenario, ...]}`` — the n-th call acts out the n-th scenario (the last for later calls);
* ``{"when": [[text, scenario], ...], "otherwise": scenario}`` — the first scenario whose text the prompt holds
  (what a model says depends on what it is asked).
"""

from __future__ import annotations

import json
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

STAND_IN = r"""#!{python}
import json, os, sys, time, subprocess
here = os.path.dirname(os.path.abspath(__file__))
agent = os.path.basename(__file__)
data = sys.stdin.buffer.read()
running = os.path.join(here, "running")
try:
    os.close(os.open(running, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    overlap = False
except FileExistsError:
    overlap = True  # another call of this stand-in is still running
with open(os.path.join(here, "calls.jsonl"), "a") as log:
    log.write(json.dumps({{"agent": agent, "argv": sys.argv[1:], "stdin": data.decode("utf-8", "replace"),
                          "cwd": os.getcwd(), "cwd_entries": os.listdir("."), "overlap": overlap,
                          "nested": os.environ.get("MEMORY_REVIEW_NESTED"),
                          "trust": os.environ.get("GEMINI_CLI_TRUST_WORKSPACE")}}) + "\n")
with open(os.path.join(here, "scenario.json")) as f:
    s = json.load(f)
if "per_call" in s:  # the n-th call acts out the n-th scenario (the last one for any call after)
    with open(os.path.join(here, "calls.jsonl")) as log:
        n = sum(1 for _ in log)
    s = s["per_call"][min(n, len(s["per_call"])) - 1]
if "when" in s:  # the first scenario whose text the prompt holds
    asked = data.decode("utf-8", "replace")
    s = next((then for text, then in s["when"] if text in asked), s["otherwise"])
for key, own_session in (("escape", True), ("linger", False)):  # a descendant that keeps stdout open
    if key in s:
        kept = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(%d)" % s[key]],
                                start_new_session=own_session)
        with open(os.path.join(here, key + ".pid"), "w") as f:
            f.write(str(kept.pid))
if "delay" in s:
    time.sleep(s["delay"])
if not overlap:
    os.unlink(running)
if "sleep" in s:
    sys.stdout.write(s.get("say", "")); sys.stdout.flush()
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(%d)" % s["sleep"]])
    with open(os.path.join(here, "grandchild.pid"), "w") as f:
        f.write(str(child.pid))
    time.sleep(s["sleep"])
if "huge" in s:
    chunk = b"x" * 65536
    left = s["huge"]
    while left > 0:
        sys.stdout.buffer.write(chunk[:left]); left -= len(chunk)
    sys.exit(0)
if "exit" in s:
    sys.stdout.write(s.get("stdout", "")); sys.stderr.write(s.get("stderr", "")); sys.exit(s["exit"])
model = s.get("model", "stand-in-model")
def claude():
    if s.get("error"):
        return [{{"type": "result", "subtype": "error_during_execution", "is_error": True, "result": "API Error: 529",
                  "session_id": "s1", "total_cost_usd": 0, "num_turns": 1}}], 1
    out = {{"type": "result", "subtype": "success", "is_error": False, "duration_ms": 1200, "num_turns": 1,
           "result": s.get("answer", ""), "session_id": "0f6c", "total_cost_usd": 0.0123,
           "usage": {{"input_tokens": 10, "output_tokens": 20}}, "permission_denials": [],
           "modelUsage": {{model: {{"inputTokens": 10, "outputTokens": 20}}, "claude-haiku-x": {{"outputTokens": 2}}}}}}
    if s.get("tool"):
        out["permission_denials"] = [{{"tool_name": "Bash", "tool_use_id": "t1", "tool_input": {{"command": "ls"}}}}]
    return [out], 0
def gemini():
    if s.get("error"):
        return [{{"response": None, "stats": {{}}, "error": {{"type": "ApiError", "message": "quota", "code": 429}}}}], 1
    calls = 1 if s.get("tool") else 0
    return [{{"response": s.get("answer", ""), "stats": {{"models": {{model: {{"api": {{"totalRequests": 1}},
             "tokens": {{"prompt": 10, "candidates": 20, "total": 30}}}}}},
             "tools": {{"totalCalls": calls, "totalSuccess": calls, "totalFail": 0, "byName": {{}}}},
             "files": {{"totalLinesAdded": 0, "totalLinesRemoved": 0}}}}}}], 0
def codex():
    events = [{{"type": "thread.started", "thread_id": "th_1"}}, {{"type": "turn.started"}}]
    if s.get("error"):
        return events + [{{"type": "turn.failed", "error": {{"message": "stream disconnected"}}}}], 1
    if s.get("tool"):
        events.append({{"type": "item.completed", "item": {{"id": "item_0", "type": "command_execution",
                       "command": "ls", "aggregated_output": "", "exit_code": 0, "status": "completed"}}}})
    events += [{{"type": "item.completed", "item": {{"id": "item_1", "type": "reasoning", "text": "thinking"}}}},
               {{"type": "item.completed", "item": {{"id": "item_2", "type": "agent_message", "text": s.get("answer", "")}}}},
               {{"type": "turn.completed", "usage": {{"input_tokens": 10, "cached_input_tokens": 0, "output_tokens": 20}}}}]
    return events, 0
lines, code = {{"claude": claude, "gemini": gemini, "codex": codex}}[agent]()
if agent == "codex":
    sys.stdout.write("".join(json.dumps(e) + "\n" for e in lines))
else:
    sys.stdout.write(json.dumps(lines[0]))
sys.exit(code)
"""


@dataclass
class StandIn:
    """One stand-in CLI: its program path, and what it was asked."""

    program: Path

    @property
    def folder(self) -> Path:
        return self.program.parent

    def act(self, **scenario: Any) -> None:
        (self.folder / "scenario.json").write_text(json.dumps(scenario), encoding="utf-8")

    def calls(self) -> list[dict[str, Any]]:
        log = self.folder / "calls.jsonl"
        if not log.exists():
            return []
        text = log.read_text(encoding="utf-8")
        complete = text[: text.rfind("\n") + 1]  # a call being written right now is not read half-way
        return [json.loads(line) for line in complete.splitlines()]


def make_stand_in(folder: Path, agent: str) -> StandIn:
    """Write an executable named ``agent`` into ``folder`` (its own folder: it keeps its calls there)."""
    folder.mkdir(parents=True, exist_ok=True)
    program = folder / agent
    program.write_text(STAND_IN.format(python=sys.executable), encoding="utf-8")
    program.chmod(program.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    stand_in = StandIn(program)
    stand_in.act(answer="[]")
    return stand_in


def pid_alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its reaper has stopped running: it counts as gone)."""
    try:
        stat_line = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat_line.rsplit(")", 1)[1].split()[0] != "Z"


# Two rules a stand-in answers with, each backed by a sentence the tests' sessions say.
MOCKS = {
    "name": "forbidden-mock-database",
    "type": "forbidden",
    "scope": "project",
    "description": "Never mock the database in tests",
    "body": "Never mock the database in tests; use the test container.",
}
PNPM = {
    "name": "pref-pnpm",
    "type": "preference",
    "scope": "user",
    "description": "Use pnpm rather than npm",
    "body": "Always use pnpm, not npm.",
}
