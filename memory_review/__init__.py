"""memory-review: reviewed, revertible, hash-chained memory for LLM coding agents."""

from __future__ import annotations


def __getattr__(name: str) -> str:
    # The version comes from the installed package's metadata, read only when asked (not at start-up).
    if name == "__version__":
        from memory_review.version import tool_version

        return tool_version()
    raise AttributeError(f"module 'memory_review' has no attribute {name!r}")
