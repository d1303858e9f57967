"""The event log: schema, append, read, verify and the replay fold. Imports nothing of ours.

``events.jsonl`` is the write-ahead log of a store: one canonical JSON line per
event, hash-chained by ``prev``, appended with one fsync per batch. See
``docs/adr/0002-event-log-format.md`` for the format and why.
"""

from __future__ import annotations

from .durable import (
    TEMP_PREFIX,
    atomic_replace,
    fsync_dir,
    is_temp_file,
    remove_file,
    write_new_file,
)
from .errors import (
    EventNotFoundError,
    LogConflictError,
    LogError,
    LogIntegrityError,
    LogIOError,
    ReplayError,
)
from .faults import FaultPlan, arm, point, points_hit
from .log import EventLog, utc_timestamp
from .model import (
    CANDIDATE_TYPES,
    CHANGE_TYPES,
    GENESIS,
    MEMORY_TYPES,
    PERSON_TYPES,
    RESTORED,
    TERMINAL_TYPES,
    TRUST_TYPES,
    Change,
    Event,
    EventDraft,
    EventType,
    decode_event,
    encode_event,
    line_hash,
)
from .replay import ReplayState, apply_event, replay
from .report import LogHead, Problem, TornTail, VerifyReport, WalkState
from .verify import Resume, ResumeRefused

__all__ = [
    "CANDIDATE_TYPES",
    "CHANGE_TYPES",
    "GENESIS",
    "MEMORY_TYPES",
    "PERSON_TYPES",
    "RESTORED",
    "TEMP_PREFIX",
    "TERMINAL_TYPES",
    "TRUST_TYPES",
    "Change",
    "Event",
    "EventDraft",
    "EventLog",
    "EventNotFoundError",
    "EventType",
    "FaultPlan",
    "LogConflictError",
    "LogError",
    "LogHead",
    "LogIOError",
    "LogIntegrityError",
    "Problem",
    "ReplayError",
    "ReplayState",
    "Resume",
    "ResumeRefused",
    "TornTail",
    "VerifyReport",
    "WalkState",
    "apply_event",
    "arm",
    "atomic_replace",
    "decode_event",
    "encode_event",
    "fsync_dir",
    "is_temp_file",
    "line_hash",
    "point",
    "points_hit",
    "remove_file",
    "replay",
    "utc_timestamp",
    "write_new_file",
]
