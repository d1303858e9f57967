"""The Textual review UI; a client of memory_review's public API only."""
