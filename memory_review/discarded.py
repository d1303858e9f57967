"""Discarded candidates of a store, from its log: what flags an identical later proposal."""

from __future__ import annotations

import mmap
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import orjson

from memory_review.candidate import Candidate, candidate_from_json, moved_to
from memory_review.events import RESTORED
from memory_review.events.safe_fs import open_file
from memory_review.store import Store, log_errors


class DiscardedFingerprints:
    """The fingerprints of a store's discarded candidates, decoded only when a proposal could match one.

    Gathering them decodes every candidate event of the log. But a discarded candidate's record is
    in the log, and equal fingerprints mean equal bodies: if the log's bytes hold no ``"body":`` with
    the JSON of one of the proposal's bodies (written by the same canonical encoder), it cannot match.
    The log's chain is checked either way (each line hashed), so a damaged log still refuses a
    proposal, naming the line.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._all: frozenset[str] | None = None
        self._chain_checked = False

    def __contains__(self, fingerprint: object) -> bool:
        if self._all is None:
            if isinstance(fingerprint, str) and not self._may_be_logged(fingerprint):
                self._check_chain()
                return False
            self._all = frozenset(candidate.fingerprint() for candidate in discarded_candidates(self.store))
        return fingerprint in self._all

    def _check_chain(self) -> None:
        if not self._chain_checked:
            with log_errors(self.store.log_path):
                self.store.log().check_chain()
            self._chain_checked = True

    def _may_be_logged(self, fingerprint: str) -> bool:
        _op, _scope, results = orjson.loads(fingerprint)
        needles = [b'"body":' + orjson.dumps(result[3]) for result in results if result is not None]
        if not needles:
            return True  # a deletion: nothing distinctive to look for
        with log_errors(self.store.log_path), _mapped(self.store.log_path) as log:
            return all(log.find(needle) >= 0 for needle in needles)


@contextmanager
def _mapped(path: Path) -> Iterator[bytes | mmap.mmap]:
    """The file's bytes without reading them into memory (an empty or missing file: b"").

    Opened like every read of the log (events.safe_fs: no link, no FIFO, one name).
    """
    try:
        stream = os.fdopen(open_file(path, single_link=True), "rb")
    except FileNotFoundError:
        yield b""
        return
    with stream:
        if os.fstat(stream.fileno()).st_size == 0:
            yield b""
            return
        with mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
            yield mapped


def discarded_candidates(store: Store) -> list[Candidate]:
    """Every candidate of a store that stands discarded, as last proposed or edited, from its log.

    A discard a person undid (``candidate.restored``, docs/adr/0032) no longer counts, nor one that moved
    the candidate to the other store (ADR 0154): nobody rejected what it proposes.
    """
    records: dict[str, dict] = {}
    discarded: dict[str, Candidate] = {}
    kinds = ("candidate.created", "candidate.edited", "candidate.discarded", RESTORED)
    with log_errors(store.log_path):
        for event in store.log().read(type=kinds):
            if event.type == RESTORED:
                discarded.pop(event.candidate or "", None)
            if event.record is not None and event.candidate:
                records[event.candidate] = event.record
            elif event.type == "candidate.discarded" and event.candidate in records and not moved_to(event.reason):
                where = f"{store.log_path} ({event.candidate})"
                discarded[event.candidate] = candidate_from_json(records[event.candidate], where=where)
    return list(discarded.values())
