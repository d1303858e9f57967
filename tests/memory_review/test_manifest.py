"""manifest.json's encoding and MEMORY.md's items: kept between checkpoints, equal to computing them afresh."""

from __future__ import annotations

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory_review.manifest import (
    GENESIS,
    Manifest,
    ManifestEntry,
    ManifestLines,
    SortedIndexItems,
    decode_manifest,
    encode_manifest,
    entry_line,
    render_index_lines,
)

_CANONICAL = orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2
TS = "2026-05-18T10:30:00Z"
_SLUGS = st.from_regex(r"[a-z0-9][a-z0-9_-]{0,20}", fullmatch=True)
_DESCRIPTIONS = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"),
                        min_size=1, max_size=40)


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
    manifest = Manifest(origin="0123456789abcdef", log_seq=seq, log_head=GENESIS,
                        memories=dict(sorted(memories.items())))
    data = encode_manifest(manifest)
    assert data == _plain(manifest)
    assert decode_manifest(data, where="manifest.json") == manifest


_KINDS = st.sampled_from(["fact", "preference", "convention", "forbidden"])


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from("abcdefgh"), st.one_of(st.none(), st.tuples(_KINDS, _DESCRIPTIONS))),
                min_size=1, max_size=30))
def test_lines_and_index_items_kept_between_checkpoints_match_a_fresh_encoding(steps: list) -> None:
    kept_items, kept_lines = SortedIndexItems(), ManifestLines()
    manifest = Manifest(origin="0123456789abcdef")
    kept_items.items(manifest, None, ())
    assert kept_lines.lines(manifest, None, ()) is None  # not its own checkpoint: encoded in bulk
    for seq, (memory_id, change) in enumerate(steps, 1):
        memories = dict(manifest.memories)  # a new id goes last, as in a checkpoint: order is encode's job
        if change is None:
            memories.pop(memory_id, None)
        else:
            kind, description = change
            memories[memory_id] = ManifestEntry(file=f"memory/{memory_id}-{'0' * 12}.md", sha256="0" * 64,
                                                type=kind, description=description, updated_at=TS)
        updated = Manifest(origin=manifest.origin, log_seq=2 * seq, memories=memories)
        items = kept_items.items(updated, manifest, [memory_id])
        assert items == SortedIndexItems().items(updated, None, ())
        assert render_index_lines(items, presorted=True) == render_index_lines(
            [(e.type, k, e.description) for k, e in updated.memories.items()])
        assert encode_manifest(updated, kept_lines.lines(updated, manifest, [memory_id])) == _plain(updated)
        # Then a commit that changes no memory (a proposal): both follow it without a rebuild.
        manifest = Manifest(origin=manifest.origin, log_seq=2 * seq + 1, memories=memories)
        kept_items.carry(manifest, updated)
        assert encode_manifest(manifest, kept_lines.lines(manifest, updated, ())) == _plain(manifest)


@given(st.dictionaries(_SLUGS, _entries(), max_size=6))
def test_lines_cut_from_one_bulk_encoding_equal_each_entry_encoded_alone(memories: dict[str, ManifestEntry]) -> None:
    manifest = Manifest(origin="0123456789abcdef", memories=memories)
    keys = sorted(memories)
    kept, empty = ManifestLines(), Manifest(origin="0123456789abcdef")
    kept.lines(manifest, None, ())
    again = Manifest(origin=manifest.origin, log_seq=1, memories=memories)
    assert kept.lines(again, manifest, ()) == [entry_line(k, memories[k]) for k in keys]
    assert encode_manifest(empty, kept.lines(empty, again, keys)) == _plain(empty)
