"""``python -m benchmarks``: run the suite."""

from __future__ import annotations

import sys

from benchmarks.run import main

sys.exit(main())
