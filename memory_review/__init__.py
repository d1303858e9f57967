"""memory-review: reviewed, revertible, hash-chained memory for LLM coding agents."""

__version__ = "0.1.0"
