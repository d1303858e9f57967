"""``verify`` both ways (docs/adr/0056): every test of a suite that uses this plugin runs twice.

- ``full``: as written. No verify ran before the test's own, so each one walks the whole log.
- ``incremental``: after every transaction of this process that moved a store's log (a commit, a
  recorded context), a clean verify of that workspace runs and records what it proved, as a person
  who verifies often would have. The test's own damage then comes after a record, and its own
  ``verify`` resumes from it whenever the log still begins with the recorded bytes.

A test must find exactly the same things both ways. Use it with ``pytestmark =
pytest.mark.usefixtures("verify_way")`` in a module, or ``pytest_plugins`` and an autouse fixture
in a suite's conftest.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from memory_review.events import faults
from memory_review.store import Store
from memory_review.workspace import Workspace

_state = threading.local()


def _busy() -> bool:
    return getattr(_state, "busy", False)


@contextmanager
def _quiet() -> Iterator[None]:
    _state.busy = True
    try:
        yield
    finally:
        _state.busy = False


def _log_size(store: Store) -> int:
    try:
        return store.log_path.stat().st_size
    except OSError:
        return -1


@pytest.fixture(params=["full", "incremental"])
def verify_way(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """``full`` or ``incremental``; in the latter, a clean verify follows every transaction that wrote."""
    if request.param == "full":
        return "full"
    workspaces: dict[Path, tuple[Path, Path]] = {}  # store root -> (project root, user store)
    original_init, original_transact = Workspace.__init__, Store.transact

    def init(self: Workspace, root: Path, user_dir: Path, *args, **kwargs) -> None:
        original_init(self, root, user_dir, *args, **kwargs)
        for store in (self.project, self.user):
            workspaces[store.root] = (self.root, self.user.root)

    @contextmanager
    def transact(self: Store, *args, **kwargs):
        before = _log_size(self)
        with original_transact(self, *args, **kwargs) as tx:
            yield tx
        where = workspaces.get(self.root)
        if _busy() or where is None or _log_size(self) == before or faults._armed is not None:
            return  # a fault plan counts its points: a verify of ours would move them
        if os.path.lexists(self.unfinished_path):
            return  # a writer left its derived files unfinished: a verify's recovery would finish them
        with _quiet():
            Workspace(*where).verify()  # records what it proved when it finds nothing wrong

    monkeypatch.setattr(Workspace, "__init__", init)
    monkeypatch.setattr(Store, "transact", transact)
    return "incremental"
