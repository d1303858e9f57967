"""Every size limit of the records memory-review accepts, in one place (docs/limits.md explains each).

The limits are chosen so that a *maximal valid* proposal always yields a candidate
file the readers accept (:data:`MAX_CANDIDATE_BYTES`): :func:`candidate_bytes_bound`
adds up the worst case from these numbers, and a test builds that proposal for real.
Only constants and arithmetic live here, so the per-prompt path can import it for free.
"""

from __future__ import annotations

# --- what readers accept (a file past these is refused before it is parsed) -------------------
MAX_CANDIDATE_BYTES = 1024 * 1024
"""A ``candidates/<id>.json`` file; larger ones are refused unread."""
MAX_SESSION_FILE_BYTES = 4 * 1024 * 1024
"""A ``sessions/<id>.json`` file."""
MAX_PROPOSAL_INPUT_BYTES = 8 * 1024 * 1024
"""What one ``propose`` call reads (stdin or ``--file``)."""

# --- one memory (docs/design.md §3) --------------------------------------------------------------------
MAX_MEMORY_BYTES = 4096
"""A serialised memory file, frontmatter included."""
MAX_MEMORY_LINES = 200
MAX_DESCRIPTION_CHARS = 200
MAX_BODY_CHARS = MAX_MEMORY_BYTES
"""A body can never be longer than its file (every character takes at least one byte)."""
MAX_SOURCES = 5
"""Evidence a memory keeps (the newest); also its ``related_sessions``."""
MAX_ACTOR_CHARS = 64
"""A person's name, as stamped in ``applied_by`` and an event's ``actor``."""

# --- ids -----------------------------------------------------------------------------------------
MAX_SLUG_CHARS = 64
MAX_SESSION_ID_CHARS = 128
MAX_TURN_ID_CHARS = 200
"""A turn id is a label, not a file name: a transcript uuid, ``line-12``, ``notes/AGENTS.md:3-9``."""
CANDIDATE_ID_CHARS = 31

# --- one proposal (docs/design.md §9) ------------------------------------------------------------------
MAX_PROPOSALS_PER_CALL = 1000
MAX_RATIONALE_CHARS = 2000
MAX_QUOTE_CHARS = 2000
MAX_EVIDENCE_ITEMS = 10
MAX_PROPOSER_NAME_CHARS = 100
MAX_PROPOSER_MODEL_CHARS = 100
MAX_CONSOLIDATE_RESULTS = 4
MAX_CONSOLIDATE_SOURCES = 6
MAX_FLAGS = 16
MAX_FLAG_CHARS = 80  # room for "similar-to:" and a 64-character memory id (ADR 0034)

# --- a person's words ----------------------------------------------------------------------------
MAX_REASON_CHARS = 2000
"""A discard or delete reason."""

# --- the session tier ------------------------------------------------------------------------------
MAX_SESSION_MEMORIES = 100
"""Memories one session may hold; with each under MAX_MEMORY_BYTES the file stays far under its limit."""

# --- the proof ---------------------------------------------------------------------------------------
JSON_BYTES_PER_CHAR = 6
"""The most bytes orjson writes for one character of a string: a control character is ``\\u001f``."""
_OVERHEAD_PER_MEMORY = 2048
"""Keys, quotes, nulls and the two-space indentation of one memory record, generously."""
_OVERHEAD_PER_ITEM = 256
"""Keys, quotes and indentation of one evidence item, base entry or flag, generously."""
_OVERHEAD_CANDIDATE = 4096
"""The candidate's own keys, id, op, scope, priority and timestamps, generously."""


def memory_json_bound() -> int:
    """The most bytes one memory record takes inside a candidate file.

    Every character of every string field is rendered in the memory file, taking at least one of
    its MAX_MEMORY_BYTES; in JSON it takes at most JSON_BYTES_PER_CHAR.
    """
    return JSON_BYTES_PER_CHAR * MAX_MEMORY_BYTES + _OVERHEAD_PER_MEMORY


def diff_json_bound(sides: int) -> int:
    """The most bytes the unified diff of one change takes, for ``sides`` (1 or 2) memory files.

    Each side's lines at most, plus a one-character prefix per line, the two file headers
    (``--- a/memory/<slug>.md``) and the hunk headers (``@@ -a,b +c,d @@``: hunks are at least
    seven lines apart, so there are at most MAX_MEMORY_LINES // 7 + 1 of them per side).
    """
    lines = sides * MAX_MEMORY_LINES
    headers = 2 * (len("+++ b/memory/.md\n") + MAX_SLUG_CHARS)
    hunks = sides * (MAX_MEMORY_LINES // 7 + 1) * len("@@ -999,999 +999,999 @@\n")
    chars = sides * MAX_MEMORY_BYTES + lines + headers + hunks
    return JSON_BYTES_PER_CHAR * chars


def evidence_json_bound() -> int:
    """One evidence item: its quote, session id and turn id, every character at its worst."""
    chars = MAX_QUOTE_CHARS + MAX_SESSION_ID_CHARS + MAX_TURN_ID_CHARS
    return JSON_BYTES_PER_CHAR * chars + _OVERHEAD_PER_ITEM


def candidate_bytes_bound() -> int:
    """The largest candidate file a valid proposal can produce.

    The worst proposal is a consolidation with every result an update (before, after and a
    two-sided diff) and every source a deletion of another memory (before and a one-sided diff).
    """
    upsert = 2 * memory_json_bound() + diff_json_bound(2) + _OVERHEAD_PER_ITEM
    deletion = memory_json_bound() + diff_json_bound(1) + _OVERHEAD_PER_ITEM
    changes = MAX_CONSOLIDATE_RESULTS * upsert + MAX_CONSOLIDATE_SOURCES * deletion
    evidence = MAX_EVIDENCE_ITEMS * evidence_json_bound()
    texts = JSON_BYTES_PER_CHAR * (
        MAX_RATIONALE_CHARS + MAX_PROPOSER_NAME_CHARS + MAX_PROPOSER_MODEL_CHARS + MAX_SESSION_ID_CHARS
    )
    flags = MAX_FLAGS * (MAX_FLAG_CHARS + _OVERHEAD_PER_ITEM)
    return changes + evidence + texts + flags + _OVERHEAD_CANDIDATE
