"""The prepared store every trial starts from, and the operations the trials break.

A *template* is built once per run: a project store with applied memories
(``alpha`` updated once, ``beta``), an event to revert, and pending candidates
for every operation to act on. Each trial copies it (:func:`copy_trial`), so
every trial starts from the same bytes and the same fault points are hit in the
same order, in a child process as in the parent.

The operations are the six of RELIABILITY.md plus a batch apply, a user-store apply, a session
write and an apply whose commit compacts the checkpoint. Each is one library call, the same call
the CLI makes.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memory_review.models import Strict
from memory_review.proposal import DeleteProposal, Evidence, ProposedMemory, Proposer, UpsertProposal
from memory_review.workspace import Workspace

ACTOR = "reliability-tester"
"""The person who applies in every trial (never an ``agent``)."""


class Context(Strict):
    """The ids a template holds, so a child process can name what to act on."""

    new: str
    """Pending create of ``gamma``."""
    upd: str
    """Pending update of ``alpha``."""
    b1: str
    b2: str
    """Pending creates of ``delta`` and ``epsilon`` (the batch)."""
    disc: str
    """Pending create of ``zeta`` (to be discarded)."""
    user: str
    """Pending create of ``omega`` in the user store (whose apply also records the user store's git history)."""
    revert_seq: int
    """The event that updated ``alpha`` (to be reverted)."""


@dataclass(frozen=True)
class Trial:
    """One throwaway copy of a store: ``root/project`` (its ``.memory-review``) and ``root/home``."""

    root: Path

    @property
    def project(self) -> Path:
        return self.root / "project"

    @property
    def home(self) -> Path:
        return self.root / "home"

    def workspace(self, *, lock_timeout: float = 10.0) -> Workspace:
        """The workspace of this trial (stores located explicitly, never from the environment)."""
        return Workspace(self.project, self.home, lock_timeout=lock_timeout)


def upsert(
    memory_id: str,
    body: str,
    *,
    scope: str = "project",
    rationale: str = "the user said so",
    description: str | None = None,
) -> UpsertProposal:
    """A create-or-update proposal, as an agent would send it."""
    return UpsertProposal(
        op="create",
        scope=scope,
        rationale=rationale,
        memory=ProposedMemory(
            id=memory_id, type="convention", description=description or f"About {memory_id}", body=body
        ),
        evidence=(Evidence(quote=f"remember: {body[:80]}", session_id="sess-rel", turn_id="t1"),),
        proposer=Proposer(kind="agent", name="reliability"),
    )


def delete_proposal(memory_id: str) -> DeleteProposal:
    """A proposal to delete an approved memory."""
    return DeleteProposal(op="delete", scope="project", memory_id=memory_id, rationale="no longer true")


def _propose_one(ws: Workspace, memory_id: str, body: str, scope: str = "project") -> str:
    [state] = ws.propose([upsert(memory_id, body, scope=scope)])
    return state.candidate.id


def _apply_new(ws: Workspace, memory_id: str, body: str) -> int:
    [event] = ws.apply([_propose_one(ws, memory_id, body)], actor=ACTOR)
    return event.seq


def build_template(root: Path, *, git: bool = False) -> Context:
    """Create the template store under ``root`` (``project/`` and ``home/``) and say what it holds.

    With ``git`` the project is a git repository, so every change also records the project
    store's git history (``refs/memory-review/project``) — more of the commit path to crash in.
    """
    trial = Trial(root)
    trial.project.mkdir(parents=True)
    if git:
        subprocess.run(["git", "init", "-q", str(trial.project)], check=True, capture_output=True)
    ws = trial.workspace()
    ws.init()
    _apply_new(ws, "alpha", "Use 4 spaces for indentation.")
    revert_seq = _apply_new(ws, "alpha", "Use 2 spaces for indentation.")
    _apply_new(ws, "beta", "Tests run against the real Postgres container.")
    context = Context(
        new=_propose_one(ws, "gamma", "Run ruff before committing."),
        upd=_propose_one(ws, "alpha", "Use tabs, exceptionally, in Makefiles only."),
        b1=_propose_one(ws, "delta", "Prefer pathlib over os.path."),
        b2=_propose_one(ws, "epsilon", "Commit messages say why, not what."),
        disc=_propose_one(ws, "zeta", "The build server is called hal."),
        user=_propose_one(ws, "omega", "Answer in English, even to French prompts.", scope="user"),
        revert_seq=revert_seq,
    )
    ws.project.compact(), ws.user.compact()  # at rest: the manifests at the log heads (docs/adr/0029)
    return context


def copy_trial(template: Path, dest: Path) -> Trial:
    """A fresh copy of the template at ``dest`` (symlinks copied as links), trusted as the template was."""
    shutil.copytree(template, dest, symlinks=True)
    trial = Trial(dest)
    ws = trial.workspace()
    for store, old in ((ws.project, Trial(template).project / ".memory-review"), (ws.user, Trial(template).home)):
        ws.trust_records.carry(old, store)  # the ledger is keyed by path (docs/adr/0021)
    return trial


# --- the operations under test ---------------------------------------------------------------


def op_create(ws: Workspace, ctx: Context) -> object:
    """Propose a new memory (an agent's act: a candidate, no memory change)."""
    return ws.propose([upsert("eta", "Never commit generated files.")])


def op_apply(ws: Workspace, ctx: Context) -> object:
    """Apply the pending update of ``alpha``."""
    return ws.apply([ctx.upd], actor=ACTOR)


def op_edit(ws: Workspace, ctx: Context) -> object:
    """Edit the pending create of ``gamma``."""
    edited = ProposedMemory(
        id="gamma", type="convention", description="Lint first", body="Run ruff and mypy before committing."
    )
    return ws.edit(ctx.new, edited, actor=ACTOR)


def op_discard(ws: Workspace, ctx: Context) -> object:
    """Discard the pending create of ``zeta``."""
    return ws.discard([ctx.disc], actor=ACTOR, reason="a one-off")


def op_revert(ws: Workspace, ctx: Context) -> object:
    """Revert the update of ``alpha`` (back to 4 spaces)."""
    return ws.revert(ctx.revert_seq, actor=ACTOR)


def op_delete(ws: Workspace, ctx: Context) -> object:
    """Delete the approved memory ``beta``."""
    return ws.delete("beta", actor=ACTOR, reason="obsolete")


def op_apply_user(ws: Workspace, ctx: Context) -> object:
    """Apply the pending user-store candidate (the user store keeps its own git history)."""
    return ws.apply([ctx.user], actor=ACTOR)


def op_session_write(ws: Workspace, ctx: Context) -> object:
    """An agent writes its own session memory (no review; a ``session.written`` event)."""
    memory = ProposedMemory(id="scratch", type="fact", description="Working on auth", body="Auth refactor.")
    return ws.write_session_memory("sess-rel", memory)


def op_batch_apply(ws: Workspace, ctx: Context) -> object:
    """Apply three candidates in one batch (one lock, one log fsync)."""
    return ws.apply([ctx.new, ctx.b1, ctx.b2], actor=ACTOR)


def op_apply_compacting(ws: Workspace, ctx: Context) -> object:
    """Apply the pending update of ``alpha`` in a commit that crosses the compaction bound.

    The template's tail is empty, so the bound is set to this commit's weight: the commit then takes
    the path the 64th event past a manifest takes (``tail_weight >= compact_after``, docs/adr/0029) —
    the whole manifest written from the fold, ``MEMORY.md``, one directory fsync, then the superseded
    version of ``alpha`` collected — and every fault point of that compaction is crashed at.
    """
    ws.project.compact_after = 1
    return ws.apply([ctx.upd], actor=ACTOR)


def op_move(ws: Workspace, ctx: Context) -> object:
    """Move the pending user-store create of ``omega`` to the project store (two stores, two commits:
    the new candidate there, then the discard here; a crash between them leaves both pending)."""
    return ws.move(ctx.user, "project", actor=ACTOR)


def op_next(ws: Workspace, ctx: Context | None = None) -> object:
    """Propose, to both stores, a memory no trial touches: valid whatever state a trial ended in."""
    return ws.propose([upsert("theta", "Keep functions small."), upsert("theta", "Be brief.", scope="user")])


Operation = Callable[[Workspace, Context], object]

OPERATIONS: dict[str, Operation] = {
    "create": op_create,
    "apply": op_apply,
    "edit": op_edit,
    "discard": op_discard,
    "revert": op_revert,
    "delete": op_delete,
    "batch-apply": op_batch_apply,
    "apply-user": op_apply_user,
    "session-write": op_session_write,
    "apply-compacting": op_apply_compacting,
    "move": op_move,
}
"""The operations of the crash and I/O matrices, by name."""

NEXT_OPERATION: Operation = op_next
"""The "next operation" a trial runs after recovery: it must succeed and collect leftovers."""
