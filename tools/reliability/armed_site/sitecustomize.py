"""Test-only start-up hook: arms the fault plan in ``MEMORY_REVIEW_FAULT`` (see ``tools/reliability/arming.py``).

Only a process whose ``PYTHONPATH`` starts with this folder runs it; the shipped
packages never read the variable. A malformed plan ends the process with status 2:
a test that thinks it armed a fault must not pass unarmed (``site`` would only warn).
"""

from __future__ import annotations

import os
import sys

_raw = os.environ.get("MEMORY_REVIEW_FAULT")
if _raw:
    try:
        from memory_review.events.faults import FaultPlan, arm

        arm(FaultPlan.model_validate_json(_raw))
    except Exception as exc:  # noqa: BLE001 - any failure to arm must stop the test child
        sys.stderr.write(f"sitecustomize: cannot arm MEMORY_REVIEW_FAULT: {exc}\n")
        os._exit(2)
