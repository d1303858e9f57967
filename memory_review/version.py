"""The installed version of memory-review, from the package metadata (docs/upgrading.md)."""

from __future__ import annotations

import functools

DISTRIBUTION = "memory-review"


@functools.cache
def tool_version() -> str:
    """The version pip installed (``0+unknown`` when running from a source tree nobody installed)."""
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415 - off the start-up path

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "0+unknown"
