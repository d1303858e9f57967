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


def store_format() -> int:
    """The store format this tool reads and writes (docs/upgrading.md), as its manifests record it."""
    from memory_review.manifest import MANIFEST_VERSION  # noqa: PLC0415 - pydantic models: off start-up

    return MANIFEST_VERSION
