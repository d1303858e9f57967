"""Tests of the per-prompt path's standard-library modules (``memory_review/lean``)."""
