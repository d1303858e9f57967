"""The per-prompt path: modules that import only the standard library and orjson (issue #16, ADR 0030).

The Claude Code prompt hook runs as a fresh process before every prompt, so what it imports is
what every prompt waits for. Nothing here imports pydantic, yaml, gitpython, filelock, textual,
the ``events`` package or any other module of ours outside ``memory_review.lean``;
``tests/memory_review/test_lean_path.py`` holds that, in a subprocess.
"""
