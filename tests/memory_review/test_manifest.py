"""manifest.json's encoding: the plain canonical JSON, decoded back to the same manifest."""

from __future__ import annotations

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory_review.manifest import (
    GENESIS,
    Manifest,
    ManifestEntry,
    decode_manifest,
    encode_manifest,
)

_CANONICAL = orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2
TS = "2026-05-18T10:30:00Z"
_SLUGS = st.from_regex(r"[a-z0-9][a-z0-9_-]{0,20}", fullmatch=True)
_DESCRIPTIONS = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), min_size=1, max_size=40
)


def _plain(manifest: Manifest) -> bytes:
    return orjson.dumps(manifest.model_dump(mode="json", exclude_none=True), option=_CANONICAL) + b"\n"


@st.composite
def _entries(draw: st.DrawFn) -> ManifestEntry:
    slug, digest = draw(_SLUGS), draw(st.from_regex(r"[0-9a-f]{64}", fullmatch=True))
    listed = draw(st.booleans())
    return ManifestEntry(
        file=f"memory/{slug}-{digest[:12]}.md", sha256=digest,
        type="fact" if listed else None, description=draw(_DESCRIPTIONS) if listed else None,
        updated_at=TS if listed else None,
    )  # fmt: skip


# Generation time is not what this checks; on a loaded 2-core machine it trips the health check.
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(_SLUGS, _entries(), max_size=6), st.integers(min_value=0, max_value=2**40))
def test_encoding_is_the_plain_canonical_json(memories: dict[str, ManifestEntry], seq: int) -> None:
    manifest = Manifest(
        origin="0123456789abcdef", log_seq=seq, log_head=GENESIS, memories=dict(sorted(memories.items()))
    )
    data = encode_manifest(manifest)
    assert data == _plain(manifest)
    assert decode_manifest(data, where="manifest.json") == manifest
