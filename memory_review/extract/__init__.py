"""Extraction: from transcripts to reviewable findings and proposals — never to memory directly.

Pipeline (all pure except reading the file and the optional model call)::

    read_transcript(path) -> Transcript            readers: claude-code, claude-history, codex, gemini, jsonl,
                                                   aider, text
    extract(transcript)   -> list[Finding]         the deterministic, offline heuristic
    extract_with_model(transcript) -> ModelExtraction   optional; failures returned, never raised
    plan(findings, approved=..., pending=..., discarded=...) -> ExtractionPlan
                                                   dedup: skip, update or create; flags

The store integration turns each ``PlannedProposal`` into a candidate (with its flags).
"""

from __future__ import annotations

from memory_review.extract.finding import FLAG_UNTRUSTED, Finding
from memory_review.extract.heuristic import PROPOSER, extract
from memory_review.extract.model_client import ModelConfig, ModelFailure, config_from_env
from memory_review.extract.model_extractor import ModelExtraction, extract_with_model
from memory_review.extract.plan import (
    FLAG_PREVIOUSLY_DISCARDED,
    ExtractionPlan,
    PlannedProposal,
    SkippedFinding,
    plan,
)
from memory_review.extract.readers import detect_format, read_transcript
from memory_review.extract.transcript import FORMATS, SkippedRecord, Transcript, Turn

__all__ = [
    "FLAG_PREVIOUSLY_DISCARDED",
    "FLAG_UNTRUSTED",
    "FORMATS",
    "PROPOSER",
    "ExtractionPlan",
    "Finding",
    "ModelConfig",
    "ModelExtraction",
    "ModelFailure",
    "PlannedProposal",
    "SkippedFinding",
    "SkippedRecord",
    "Transcript",
    "Turn",
    "config_from_env",
    "detect_format",
    "extract",
    "extract_with_model",
    "plan",
    "read_transcript",
]
