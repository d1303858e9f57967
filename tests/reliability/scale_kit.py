"""The reliability suite's scale: the heavy variants (thousands of trials) run only with ``MEMORY_REVIEW_FULL=1``.

Imported by name (``from scale_kit import ...``), never through ``conftest`` (every test folder has one).
"""

from __future__ import annotations

import os

FULL = os.environ.get("MEMORY_REVIEW_FULL") == "1"
JOBS = max(2, os.cpu_count() or 2)
