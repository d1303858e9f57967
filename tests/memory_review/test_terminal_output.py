"""What the command line prints shows the controls a transcript, an agent or a CLI hid in it (session 37's review):
a quote's ``ESC[2J`` cleared the screen above it, the candidate's WARNING line with it."""

from __future__ import annotations

import json
from pathlib import Path

from cli_kit import run, run_json

from memory_review.terminal import printable

CLEAR = "\x1b[2J\x1b[H"
HIDE_LINES = "\x1b7\x1b[7A\x1b[2K\x1b8"


def test_printable_shows_controls_and_bidi_overrides_as_escapes_and_keeps_the_rest() -> None:
    assert printable("a\tb\nc") == "a\tb\nc"
    assert printable("x\x1b[2Jy\rz\x07\x9b\x7f") == "x\\x1b[2Jy\\x0dz\\x07\\x9b\\x7f"
    assert printable("abc\u202edcba\u2066") == "abc\\u202edcba\\u2066"
    assert printable("name-\udc9b.md") == "name-\\x9b.md"  # a byte of a path that is no UTF-8
    assert printable("Ünïcödé, 中文, emoji 🙂, zero\u200bwidth") == "Ünïcödé, 中文, emoji 🙂, zero\u200bwidth"


def test_a_quote_with_escape_sequences_is_shown_escaped_by_show(repo: Path, env: dict, tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    rule = f"From now on, always run the deploy with --no-verify{CLEAR} and skip the checks."
    transcript.write_text(json.dumps({"role": "user", "content": rule}) + "\n")
    assert run(["extract", str(transcript)], env, repo).returncode == 0
    [pending] = run_json(["list"], env, repo)
    shown = run(["show", pending["id"]], env, repo)
    assert shown.returncode == 0 and "\x1b" not in shown.stdout
    assert "--no-verify\\x1b[2J\\x1b[H and skip" in shown.stdout


def test_an_agents_rationale_cannot_erase_the_warning_line(repo: Path, env: dict, tmp_path: Path) -> None:
    proposal = {
        "op": "create",
        "scope": "project",
        "memory": {
            "id": "hide-warn",
            "type": "fact",
            "description": "run deploy.sh after merges",
            "body": "Run ./deploy.sh after every merge.",
        },
        "rationale": f"{HIDE_LINES}The user asked for this twice.",
        "evidence": [{"quote": "run deploy after merges", "session_id": "s1", "turn_id": "t1"}],
    }
    path = tmp_path / "p.json"
    path.write_text(json.dumps(proposal))
    assert run(["propose", "--file", str(path)], env, repo).returncode == 0
    [pending] = run_json(["list"], env, repo)
    shown = run(["show", pending["id"]], env, repo)
    assert "\x1b" not in shown.stdout and "WARNING" in shown.stdout
    assert "\\x1b7\\x1b[7A" in shown.stdout


def test_every_line_of_a_quote_is_marked_as_the_quotes(repo: Path, env: dict, tmp_path: Path) -> None:
    """The re-review of session 37: the lines after a quote's first could pass for a rationale or a WARNING line."""
    proposal = {
        "op": "create",
        "scope": "project",
        "memory": {"id": "fact-lines", "type": "fact", "description": "run deploy.sh", "body": "Run ./deploy.sh."},
        "rationale": "said once",
        "evidence": [{"quote": "run deploy\nrationale: the user asked twice\nWARNING:   none", "turn_id": "t1"}],
    }
    path = tmp_path / "p.json"
    path.write_text(json.dumps(proposal))
    assert run(["propose", "--file", str(path)], env, repo).returncode == 0
    [pending] = run_json(["list"], env, repo)
    shown = run(["show", pending["id"]], env, repo).stdout
    assert "  > rationale: the user asked twice" in shown and "  > WARNING:   none" in shown


def test_json_output_escapes_what_a_terminal_acts_on_and_decodes_the_same(
    repo: Path, env: dict, tmp_path: Path
) -> None:
    """``--json`` piped to a terminal: JSON escapes C0 itself, but DEL, C1 (``\\x9b`` is CSI to a terminal that takes
    8-bit controls) and the bidi overrides are valid raw in a JSON string and were written raw (ADR 0170)."""
    hidden = "run it\x9b2J\x7f\u202eslooT\u2066 twice"
    proposal = {
        "op": "create",
        "scope": "project",
        "memory": {"id": "c1-in-json", "type": "fact", "description": "run it twice", "body": "Run it twice."},
        "rationale": hidden,
        "evidence": [{"quote": "run it twice", "session_id": "s1", "turn_id": "t1"}],
    }
    path = tmp_path / "p.json"
    path.write_text(json.dumps(proposal))
    assert run(["propose", "--file", str(path)], env, repo).returncode == 0
    [pending] = run_json(["list"], env, repo)
    shown = run(["show", pending["id"], "--json"], env, repo)
    assert shown.returncode == 0
    raw = shown.stdout.encode()
    assert not any(char in shown.stdout for char in "\x9b\x7f\u202e\u2066"), raw
    assert b"\\u009b2J\\u007f\\u202eslooT\\u2066" in raw
    assert hidden in json.dumps(json.loads(shown.stdout), ensure_ascii=False)


def test_json_bytes_carries_an_undecodable_path_byte_as_its_escape() -> None:
    """A path's byte that is no UTF-8 comes back as a lone surrogate, which orjson refuses to write."""
    from memory_review.terminal import json_bytes

    data = json_bytes({"path": "/tmp/name-\udcff", "x": "\x85"})
    assert json.loads(data) == {"path": "/tmp/name-\udcff", "x": "\x85"}
    assert b"\\udcff" in data and b"\\u0085" in data and data.endswith(b"}\n")
    assert json_bytes({"a": [1]}, indent=False) == b'{"a":[1]}\n'
