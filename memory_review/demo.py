"""``memory-review demo``: a throwaway workspace whose candidates come from the real extractor.

The workspace lives in a new temporary folder (its own user store too, so the
person's real memory is never touched). A few memories are approved first, as if
from an earlier session; then the bundled session transcript
(``data/demo_transcript.jsonl``, a realistic Claude Code session the project wrote)
goes through :func:`~memory_review.extraction.extract_transcript`, so the queue shows
what extraction really proposes: new memories, *updates* of the approved ones it
recognises (with diffs), a secret redacted and flagged. Last, the one instruction a
web page slipped into a tool result is proposed too — flagged ``untrusted-source`` and
``possible-prompt-injection`` — to show what a reviewer must never approve blindly.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from memory_review.extract import FLAG_UNTRUSTED, extract, read_transcript
from memory_review.extraction import extract_transcript, propose_findings
from memory_review.proposal import parse_proposals
from memory_review.workspace import Workspace

TRANSCRIPT = Path(__file__).resolve().parent / "data" / "demo_transcript.jsonl"
EARLIER = "demo-earlier-session"

# Approved "earlier": the extractor recognises the last three in the transcript and proposes updates.
APPROVED = [
    {
        "op": "create",
        "scope": "user",
        "memory": {
            "id": "pref-indent-4-spaces",
            "type": "preference",
            "description": "Indent with 4 spaces, never tabs",
            "body": "User prefers 4-space indentation, no tabs, in every project unless told otherwise.",
        },
        "rationale": "Stated as a standing preference.",
        "evidence": [{"quote": "use 4 spaces, not tabs — always", "session_id": EARLIER, "turn_id": "t3"}],
    },
    {
        "op": "create",
        "scope": "project",
        "memory": {
            "id": "conv-package-manager",
            "type": "convention",
            "description": "This repo uses uv for dependencies",
            "body": "We use uv for dependencies.",
        },
        "rationale": "Project convention stated by the user.",
        "evidence": [{"quote": "we use uv here", "session_id": EARLIER, "turn_id": "t7"}],
    },
    {
        "op": "create",
        "scope": "project",
        "memory": {
            "id": "fact-staging-url",
            "type": "fact",
            "description": "The staging API is behind the VPN on port 8080",
            "body": "The staging API runs behind the VPN on port 8080.",
        },
        "rationale": "Mentioned as a fixed fact about the deployment.",
        "evidence": [{"quote": "staging is behind the VPN, port 8080", "session_id": EARLIER, "turn_id": "t9"}],
    },
    {
        "op": "create",
        "scope": "project",
        "memory": {
            "id": "forbidden-mock-database",
            "type": "forbidden",
            "description": "Do not mock the database",
            "body": "Do not mock the database.",
        },
        "rationale": "The user corrected a mocked database.",
        "evidence": [{"quote": "don't mock the database", "session_id": EARLIER, "turn_id": "t12"}],
    },
]


def build_demo(directory: Path | None = None) -> Workspace:
    """Create the demo workspace (in ``directory`` or a new temp folder) and return it."""
    base = directory or Path(tempfile.mkdtemp(prefix="memory-review-demo-"))
    project = base / "project"
    project.mkdir(parents=True, exist_ok=True)
    workspace = Workspace(project.resolve(), (base / "user-home").resolve())
    workspace.init()
    approved = workspace.propose(parse_proposals(_json(APPROVED), where="demo"))
    workspace.apply([state.candidate.id for state in approved], actor="demo-user")
    extract_transcript(workspace, TRANSCRIPT)
    _propose_untrusted(workspace)
    return workspace


def _propose_untrusted(workspace: Workspace) -> None:
    """What the heuristic leaves out by default: an instruction found in a tool result, flagged."""
    transcript = read_transcript(TRANSCRIPT)
    untrusted = [f for f in extract(transcript, include_untrusted=True) if FLAG_UNTRUSTED in f.flags]
    propose_findings(workspace, untrusted, transcript=transcript, source=str(TRANSCRIPT))


def _json(items: list[dict]) -> bytes:
    import orjson

    return orjson.dumps(items)
