"""Extraction: from transcripts to reviewable findings and proposals (never to memory directly)."""
