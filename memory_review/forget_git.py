"""``forget`` in a store's git history: rewrite ``refs/memory-review/<scope>``, drop what still holds it.

Every commit reachable from the store's own history ref is written again, parents first,
with its tree redacted the way the store's files are: the log (``log/`` chunks, or one
``events.jsonl`` in older histories, docs/adr/0024) re-chained through
the same :class:`~memory_review.forget_text.LogRedactor` (so each commit's log is a prefix of
the rewritten log and the history still continues it), memory files parsed, redacted and
rendered under their new names, ``manifest.json`` pointing at them, every other file
redacted as text. A commit whose tree, parents and message do not change keeps its id.
Author, committer and dates are kept; a signature, which would no longer hold, is dropped.

Other refs under ``refs/memory-review/`` (teammates' histories fetched by ``sync``) are
deleted when anything they reach holds the text: they are copies of a remote, which a
later sync fetches again. Then the reflogs of our refs are expired and unreachable objects
are removed (``git repack -a -d``, ``git prune --expire=now``), so the old objects are gone
from this repository. What was pushed or fetched elsewhere is not (ADR 0019).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memory_review.errors import MemoryReviewError
from memory_review.events.rewrite import rechain
from memory_review.forget_text import JsonRedactor, LogRedactor, Needle
from memory_review.gitrepo import GitRepo, TreeEntry
from memory_review.history_log import LEGACY_LOG, LOG_DIR, chunk_lines, split_lines
from memory_review.manifest import Manifest, decode_manifest, encode_manifest
from memory_review.record_io import parse_memory, render_memory

OUR_REFS = "refs/memory-review/"
_SIGNATURES = (b"gpgsig ", b"gpgsig-sha256 ", b"mergetag ")


@dataclass
class GitForget:
    """What forget found and did in one repository."""

    repository: str
    found: int = 0
    """Matches in objects reachable from our refs, before."""
    commits: int = 0
    """Commits written again."""
    rewritten: dict[str, str] = field(default_factory=dict)
    """Our ref -> its new tip."""
    deleted: list[str] = field(default_factory=list)
    remaining: int = 0
    """Matches still in objects reachable from our refs, after (0 unless something went wrong)."""


def matches_in_refs(repo: GitRepo, needle: Needle) -> int:
    """How many matches the objects reachable from our refs hold."""
    shas = sorted({sha for ref in repo.refs_under(OUR_REFS) for sha in repo.objects_of(ref)})
    return sum(needle.count_bytes(data) for _kind, data in repo.read_objects(shas).values())


def forget_in_history(repo: GitRepo, own_ref: str, needle: Needle, *, forget_seq: int) -> GitForget:
    """Rewrite ``own_ref`` without the text, delete our other refs that reach it, drop the old objects."""
    outcome = GitForget(repository=str(repo.git_dir), found=matches_in_refs(repo, needle))
    if not outcome.found:
        return outcome
    tips = repo.refs_under(OUR_REFS)
    if own_ref in tips:
        writer = _Rewriter(repo, needle, forget_seq)
        new_tip = writer.commit_chain(own_ref)
        if new_tip != tips[own_ref]:
            repo.update_ref(own_ref, new_tip, tips[own_ref])
            outcome.rewritten[own_ref] = new_tip
        outcome.commits = writer.written
    for ref, tip in sorted(tips.items()):
        if ref != own_ref and _reaches(repo, ref, needle):
            repo.delete_ref(ref, tip)
            outcome.deleted.append(ref)
    repo.drop_unreachable(sorted(repo.refs_under(OUR_REFS)))
    outcome.remaining = matches_in_refs(repo, needle)
    return outcome


def _reaches(repo: GitRepo, ref: str, needle: Needle) -> bool:
    return any(needle.count_bytes(data) for _kind, data in repo.read_objects(repo.objects_of(ref)).values())


@dataclass(frozen=True)
class _NewTree:
    """A tree written again: its id, the renames of its log's lines, its memory files' new names."""

    sha: str
    renames: dict[str, str]
    files: dict[str, tuple[str, str]]


class _Rewriter:
    """Writes commits and trees again, each once (trees are shared between commits)."""

    def __init__(self, repo: GitRepo, needle: Needle, forget_seq: int) -> None:
        self.repo = repo
        self.needle = needle
        self.forget_seq = forget_seq
        self.commits: dict[str, str] = {}
        self.trees: dict[str, _NewTree] = {}
        self.written = 0

    def commit_chain(self, ref: str) -> str:
        """The new id of every commit reachable from ``ref``; the new tip."""
        order = self.repo.commits_of(ref)
        raws = self.repo.read_objects([sha for sha, _parents in order])
        for sha, _parents in order:
            self.commits[sha] = self._commit(raws[sha][1], sha)
        return self.commits[order[-1][0]]

    def _commit(self, raw: bytes, sha: str) -> str:
        headers, _, message = raw.partition(b"\n\n")
        lines, tree_renames = [], {}
        for line in _header_lines(headers):
            if line.startswith(b"tree "):
                tree = self._tree(line[5:].decode())
                line, tree_renames = b"tree " + tree.sha.encode(), tree.renames
            elif line.startswith(b"parent "):
                line = b"parent " + self.commits[line[7:].decode()].encode()
            elif line.startswith(_SIGNATURES):
                continue  # a signature over the old bytes would not hold for the new ones
            lines.append(self._text(line))
        new = b"\n".join(lines) + b"\n\n" + self._message(message, tree_renames)
        if new == raw:
            return sha
        self.written += 1
        return self.repo.write_object("commit", new)

    def _message(self, message: bytes, renames: dict[str, str]) -> bytes:
        text = self._text(message).decode("utf-8", "surrogateescape")
        for old, new in renames.items():  # the Log-Head trailer names a line of the rewritten log
            text = text.replace(old, new)
        return text.encode("utf-8", "surrogateescape")

    def _text(self, data: bytes) -> bytes:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return data  # not text: it cannot hold a text match (needle.count_bytes agrees)
        return self.needle.sub(text)[0].encode("utf-8")

    def _tree(self, tree: str, folder: str = "") -> _NewTree:
        """``tree`` written again (the store's top tree, or a folder under it)."""
        key = f"{folder}:{tree}"
        if key not in self.trees:
            self.trees[key] = self._write_tree(tree, folder)
        return self.trees[key]

    def _write_tree(self, tree: str, folder: str) -> _NewTree:
        entries = self.repo.tree_entries(tree)
        blobs = self.repo.read_objects([e.sha for e in entries if e.kind == "blob"])
        top = _StoreTree(self, folder == "")
        new = [top.entry(entry, blobs.get(entry.sha, ("", b""))[1], folder) for entry in entries]
        new = top.finish(new, blobs)
        sha = tree if new == entries else self.repo.make_tree(new)
        return _NewTree(sha, top.renames, top.files)


class _StoreTree:
    """The files of one tree as a store writes them: the log first, the manifest after the memory files."""

    def __init__(self, writer: _Rewriter, is_top: bool) -> None:
        self.writer = writer
        self.is_top = is_top
        self.renames: dict[str, str] = {}
        self.files: dict[str, tuple[str, str]] = {}  # old memory file name -> (new name, new sha256)

    def entry(self, entry: TreeEntry, data: bytes, folder: str) -> TreeEntry:
        if self.is_top and entry.name == LOG_DIR and entry.kind == "tree":
            return self._chunked_log(entry)
        if entry.kind == "tree":
            sub = self.writer._tree(entry.sha, f"{folder}{entry.name}/")
            self.files.update(sub.files)  # memory files renamed in memory/ or one of its shards
            return TreeEntry(entry.mode, entry.kind, sub.sha, entry.name)
        if self.is_top and entry.name == "manifest.json":
            return entry  # in finish(), once the memory files' new names are known
        new = self._blob(entry, data, folder)
        return (
            entry
            if new == data
            else TreeEntry(
                entry.mode, "blob", self.writer.repo.write_object("blob", new), self._name(entry, folder, new)
            )
        )

    def _blob(self, entry: TreeEntry, data: bytes, folder: str) -> bytes:
        if self.is_top and entry.name == LEGACY_LOG:
            return self._log(data)
        if folder.startswith("memory/") and entry.name.endswith(".md"):
            return self._memory_file(entry.name, data)
        return self.writer._text(data)

    def _chunked_log(self, entry: TreeEntry) -> TreeEntry:
        """``log/`` written again: its chunks joined, re-chained like one log, cut again the same way."""
        repo = self.writer.repo
        chunks = repo.tree_entries(entry.sha)
        blobs = repo.read_objects([chunk.sha for chunk in chunks])
        data = b"".join(blobs[chunk.sha][1] for chunk in sorted(chunks, key=lambda chunk: chunk.name))
        new = self._log(data)
        if new == data:
            return entry
        cut = chunk_lines(split_lines(new), 1)
        ids = repo.hash_many([chunk.data for chunk in cut])
        tree = repo.make_tree(
            [TreeEntry("100644", "blob", sha, chunk.name) for chunk, sha in zip(cut, ids, strict=True)]
        )
        return TreeEntry(entry.mode, "tree", tree, entry.name)

    def _log(self, data: bytes) -> bytes:
        redactor = LogRedactor(self.writer.needle, forget_seq=self.writer.forget_seq, where="history events.jsonl")
        try:
            result = rechain(data, redactor, where="history events.jsonl")
        except (MemoryReviewError, ValueError):
            return self.writer._text(data)  # a log we cannot re-chain (someone else's, damaged): as text
        self.renames = result.renamed
        return result.data

    def _memory_file(self, name: str, data: bytes) -> bytes:
        if not self.writer.needle.count_bytes(data):
            return data
        try:
            memory = JsonRedactor(self.writer.needle).memory(parse_memory(data, path=name), name)
        except MemoryReviewError:
            return self.writer._text(data)
        return render_memory(memory)

    def _name(self, entry: TreeEntry, folder: str, new: bytes) -> str:
        if not folder.startswith("memory/") or not entry.name.endswith(".md"):
            return entry.name
        import hashlib  # noqa: PLC0415 - only a rewritten memory file needs it

        sha = hashlib.sha256(new).hexdigest()
        name = f"{entry.name.rsplit('-', 1)[0]}-{sha[:12]}.md"  # a file is named by its content
        self.files[entry.name] = (name, sha)
        return name

    def finish(self, entries: list[TreeEntry], blobs: dict[str, tuple[str, bytes]]) -> list[TreeEntry]:
        if not self.is_top:
            return entries
        out = []
        for entry in entries:
            if entry.name == "manifest.json" and entry.kind == "blob":
                data = blobs.get(entry.sha, ("", b""))[1]
                new = self._manifest(data)
                if new != data:
                    entry = TreeEntry(entry.mode, "blob", self.writer.repo.write_object("blob", new), entry.name)
            out.append(entry)
        return out

    def _manifest(self, data: bytes) -> bytes:
        try:
            manifest = decode_manifest(data, where="history manifest.json")
        except MemoryReviewError:
            return self.writer._text(data)
        memories = {}
        for memory_id, entry in manifest.memories.items():
            moved = self.files.get(entry.file.rpartition("/")[2])
            if moved is not None:
                description = self.writer.needle.sub(entry.description)[0] if entry.description else None
                entry = entry.model_copy(
                    update={"file": f"memory/{moved[0]}", "sha256": moved[1], "description": description}
                )
            memories[memory_id] = entry
        head = self.renames.get(manifest.log_head, manifest.log_head)
        updated = Manifest(origin=manifest.origin, log_seq=manifest.log_seq, log_head=head, memories=memories)
        return data if updated == manifest else encode_manifest(updated)


def _header_lines(headers: bytes) -> list[bytes]:
    """A commit's header lines, each with its continuation lines (a signature spans several)."""
    lines: list[bytes] = []
    for line in headers.split(b"\n"):
        if line.startswith(b" ") and lines:
            lines[-1] += b"\n" + line
        else:
            lines.append(line)
    return lines
