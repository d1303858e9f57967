"""The one door to git (gitpython). Everything git-related goes through here.

Only plumbing is used to write: ``hash-object``, ``mktree``, ``commit-tree`` and
``update-ref`` on refs under ``refs/memory-review/``, so the user's HEAD, index,
branches and working tree are never touched. Every call runs with ``GIT_DIR``
pinned to the repository (a hook's ``GIT_DIR`` cannot redirect it), no terminal
prompts, no hooks and no automatic gc. Every git failure leaves this module as a
:mod:`memory_review.errors` error, translated in :func:`_git_errors` alone.

gitpython is imported only where a look at the files cannot decide (docs/adr/0013, 0037):
``toplevel`` and :meth:`GitRepo.open` answer the common case — a plain ``.git`` folder, or a
bare repository — from the files, the way git itself does; every git process is started here
with :mod:`subprocess` (gitpython and the modules it loads cost an ``apply`` about a third of
its start-up).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, NamedTuple

from memory_review.errors import ConflictError, MemoryReviewError, NotFoundError, StorageError
from memory_review.events import faults
from memory_review.lean.gitwalk import _GIT_ENV, _walk_up, check_repository

ZERO = "0" * 40
STALE_LOCK_SECONDS = 60.0
"""A lock on one of our refs older than this belongs to a dead git process."""
NETWORK_TIMEOUT = 120.0
"""Seconds a fetch or push may take before it is killed (a hung remote must not hang us)."""

_OPTIONS = (
    *("-c", "gc.auto=0", "-c", "maintenance.auto=false", "-c", f"core.hooksPath={os.devnull}"),
    # Programs a copied repository's config names, which fetch would start: the file-system monitor, and the
    # command listing an alternate's refs (``true`` lists none: alternates' tips are only a shortcut).
    *("-c", "core.fsmonitor=false", "-c", "core.alternateRefsCommand=true"),
)
_MESSAGES_IN_ENGLISH = {"LANGUAGE": "C", "LC_ALL": "C"}
"""What gitpython set for each git process: errors are recognised by their text ("cannot lock ref")."""
_FALLBACK_NAME = "memory-review"
_FALLBACK_EMAIL = "memory-review@localhost"


def _git():  # noqa: ANN202 - the gitpython module
    """gitpython, imported on first use."""
    import git

    return git


def toplevel(path: Path) -> Path | None:
    """The work tree root of the git repository containing ``path``, or None outside any repository."""
    found = _walk_up(path)
    return found.root if found is not None else _toplevel_by_gitpython(path)


def _toplevel_by_gitpython(path: Path) -> Path | None:
    git = _git()
    try:
        repo = git.Repo(path, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return None
    try:
        root = repo.working_tree_dir
    finally:
        repo.close()
    return Path(root) if root else None


class Identity(NamedTuple):
    """A git author or committer."""

    name: str
    email: str


class TreeEntry(NamedTuple):
    """One line of ``mktree`` input: a blob (``100644``) or a subtree (``040000``)."""

    mode: str
    kind: str
    sha: str
    name: str


class ListedEntry(NamedTuple):
    """One entry of ``ls-tree -l``: its full path in the commit's tree, and its size (0 for a tree)."""

    path: str
    mode: str
    kind: str
    sha: str
    size: int

    @property
    def name(self) -> str:
        return self.path.rpartition("/")[2]

    def entry(self) -> TreeEntry:
        """The entry as ``mktree`` takes it (by its name in its folder)."""
        return TreeEntry(self.mode, self.kind, self.sha, self.name)


class RefTip(NamedTuple):
    """The commit a ref points at, with its full message."""

    commit: str
    message: str


@dataclass(frozen=True)
class LogEntry:
    """One commit of a ref's history, as ``log --git`` shows it."""

    commit: str
    parents: tuple[str, ...]
    author: str
    email: str
    date: str
    message: str

    @property
    def subject(self) -> str:
        return self.message.split("\n", 1)[0]


class GitRepo:
    """A repository memory-review records history in and syncs through."""

    def __init__(self, git_dir: Path, work_tree: Path | None = None) -> None:
        self.git_dir = git_dir
        self.work_tree = work_tree
        """The work tree it was opened at (None: bare): where git starts a remote's relative URL from."""
        self._identity: dict[str, Identity] = {}
        self._user: dict[str, str] | None = None

    @classmethod
    def open(cls, path: Path) -> GitRepo:
        """The repository at ``path`` exactly (a work tree root or a bare repository)."""
        check_repository(path)  # a FIFO where git opens a file would hang every git process (session 39, F3)
        found = _git_dir_at(path)
        if found is not None:
            if not _common_dir_holds(found):  # a .git folder whose refs live in another repository
                raise _not_its_own(path, found)
            return cls(found, found.parent if found.name == ".git" else None)
        git = _git()  # a gitfile (worktree, submodule), git's environment variables: gitpython decides
        try:
            repo = git.Repo(path)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError) as exc:
            raise NotFoundError("git repository", str(path)) from exc
        try:
            git_dir, work_tree = Path(repo.git_dir), repo.working_tree_dir
        finally:
            repo.close()
        dotgit = path / ".git"
        if (dotgit.is_symlink() or dotgit.is_file()) and not _names_work_tree(git_dir, path):
            raise _not_its_own(path, git_dir)
        return cls(git_dir, Path(work_tree) if work_tree else None)

    @classmethod
    def init_bare(cls, path: Path) -> GitRepo:
        """Open the bare repository at ``path``, creating it first if missing."""
        if (path / "HEAD").exists():
            return cls.open(path)
        with _git_errors("init", path):
            _git().Repo.init(path, mkdir=True, bare=True).close()
        return cls.open(path)

    def close(self) -> None:
        """Nothing stays open between git processes (kept for callers that close what they opened)."""

    # --- writing objects and refs (plumbing only) ----------------------------------------

    def hash_files(self, paths: Sequence[Path]) -> list[str]:
        """Store each file as a blob, byte for byte (no filters); their ids in order."""
        if not paths:
            return []
        data = "".join(f"{p}\n" for p in paths).encode()
        out = self._run("hash-object", "-w", "--no-filters", "--stdin-paths", stdin=data)
        ids = out.decode().split()
        if len(ids) != len(paths):
            raise StorageError(f"git hash-object returned {len(ids)} ids for {len(paths)} files", path=self.git_dir)
        return ids

    def hash_bytes(self, data: bytes) -> str:
        """Store ``data`` as a blob; its id."""
        return self._run("hash-object", "-w", "--no-filters", "--stdin", stdin=data).decode().strip()

    def hash_many(self, blobs: Sequence[bytes]) -> list[str]:
        """Store each of ``blobs``; their ids in order, in one git process however many there are."""
        if len(blobs) <= 1:
            return [self.hash_bytes(data) for data in blobs]
        import tempfile  # noqa: PLC0415 - only a history (re)built whole stores several blobs at once

        # hash-object takes one blob on stdin, or many as paths: they are written where only git looks.
        with (
            _git_errors("hash-object", self.git_dir),
            tempfile.TemporaryDirectory(prefix="memory-review-", dir=self.git_dir) as folder,
        ):
            paths = [Path(folder) / str(number) for number in range(len(blobs))]
            for path, data in zip(paths, blobs, strict=True):
                path.write_bytes(data)
            return self.hash_files(paths)

    def make_trees(self, trees: Sequence[Sequence[TreeEntry]]) -> list[str]:
        """Write several tree objects in one ``mktree --batch``; their ids in order."""
        if not trees:
            return []
        data = "\n".join(
            "".join(f"{e.mode} {e.kind} {e.sha}\t{e.name}\n" for e in entries) for entries in trees
        ).encode()
        ids = self._run("mktree", "--batch", stdin=data).decode().split()
        if len(ids) != len(trees):
            raise StorageError(f"git mktree returned {len(ids)} trees for {len(trees)}", path=self.git_dir)
        return ids

    @contextmanager
    def tree_writer(self) -> Iterator[Callable[[Sequence[TreeEntry]], str]]:
        """Trees written one after another by one ``mktree --batch`` process, each id read back as it is
        written (git flushes each one), for trees that hold the ones before: a history commit's shards and
        log, then ``memory/``, then its top level, in one git process instead of three (docs/adr/0048)."""
        import subprocess  # noqa: PLC0415 - see _run

        command = ["git", *_OPTIONS, "mktree", "--batch"]
        with _git_errors("mktree", self.git_dir):
            proc = subprocess.Popen(
                command,
                env=self._env(_MESSAGES_IN_ENGLISH),
                cwd=self.git_dir,
                stdin=subprocess.PIPE,  # noqa: S603
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        stdin, stdout = proc.stdin, proc.stdout
        assert stdin is not None and stdout is not None

        def write(entries: Sequence[TreeEntry]) -> str:
            data = "".join(f"{e.mode} {e.kind} {e.sha}\t{e.name}\n" for e in entries) + "\n"
            with _git_errors("mktree", self.git_dir):
                try:
                    stdin.write(data.encode())
                    stdin.flush()
                except BrokenPipeError:
                    pass  # git stopped: its error is read below
                line = stdout.readline()
                if not line.strip():  # git stopped (bad input, a full disk): its stderr says why
                    _out, err = proc.communicate()
                    raise GitFailed(command, proc.returncode or 1, err)
            return line.decode().strip()

        try:
            yield write
        except BaseException:
            if proc.returncode is None:  # still running: the trees it wrote are unreferenced objects
                proc.kill()
                proc.communicate()
            raise
        with _git_errors("mktree", self.git_dir):
            _out, err = proc.communicate()  # closes its input: git exits
        if proc.returncode:
            raise StorageError(f"git mktree failed: {_stderr(err, proc.returncode)}", path=self.git_dir)

    def make_tree(self, entries: Sequence[TreeEntry]) -> str:
        """Write a tree object from ``entries`` (mktree sorts them); its id."""
        data = "".join(f"{e.mode} {e.kind} {e.sha}\t{e.name}\n" for e in entries).encode()
        return self._run("mktree", stdin=data).decode().strip()

    def commit_tree(self, tree: str, parents: Sequence[str], message: str, *, when: str) -> str:
        """Write a commit object (moving no branch); ``when`` is a git date like ``@1700000000 +0000``."""
        author, committer = self.identity("AUTHOR"), self.identity("COMMITTER")
        env = {
            "GIT_AUTHOR_NAME": author.name,
            "GIT_AUTHOR_EMAIL": author.email,
            "GIT_AUTHOR_DATE": when,
            "GIT_COMMITTER_NAME": committer.name,
            "GIT_COMMITTER_EMAIL": committer.email,
            "GIT_COMMITTER_DATE": when,
        }
        args = ["commit-tree", tree]
        for parent in dict.fromkeys(parents):
            args += ["-p", parent]
        return self._run(*args, stdin=message.encode("utf-8"), env=env).decode().strip()

    def update_ref(self, ref: str, new: str, old: str | None) -> None:
        """Move ``ref`` to ``new`` only if it is still at ``old`` (None: must not exist yet).

        Our refs are written only under the store lock, so a ``<ref>.lock`` older than
        ``STALE_LOCK_SECONDS`` was left by a git process that died: it is removed and the update retried once.
        """
        try:
            self._run("update-ref", "-m", "memory-review", ref, new, old or ZERO)
        except StorageError as exc:
            if "cannot lock ref" in str(exc) and self._clear_stale_lock(ref):
                return self.update_ref(ref, new, old)
            if "cannot lock ref" in str(exc) or "but expected" in str(exc):
                raise ConflictError(f"{ref} moved while memory-review was writing it: {exc}") from exc
            raise

    def _clear_stale_lock(self, ref: str) -> bool:
        if not ref.startswith("refs/memory-review/"):
            return False  # never another tool's lock
        lock = self._common_dir() / f"{ref}.lock"
        try:
            if time.time() - lock.stat().st_mtime < STALE_LOCK_SECONDS:
                return False
            lock.unlink()
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise StorageError(f"{lock}: {exc.strerror or exc}", path=lock, errno=exc.errno) from exc
        return True

    # --- reading -------------------------------------------------------------------------

    def ref_tip(self, ref: str) -> RefTip | None:
        """The commit ``ref`` points at and its message, or None if the ref does not exist."""
        out = self._run("for-each-ref", "--format=%(refname)%00%(objectname)%00%(contents)%00%00", ref)
        for record in out.decode("utf-8", "replace").split("\0\0"):
            parts = record.lstrip("\n").split("\0", 2)
            if len(parts) == 3 and parts[0] == ref:
                return RefTip(commit=parts[1], message=parts[2])
        return None

    def refs_under(self, prefix: str) -> dict[str, str]:
        """Every ref below ``prefix`` (ending in ``/``) -> its commit id."""
        out = self._run("for-each-ref", "--format=%(refname) %(objectname)", prefix)
        refs = (line.split(" ", 1) for line in out.decode().splitlines() if line)
        return {name: sha for name, sha in refs if name.startswith(prefix)}

    def read_blob(self, commit: str, path: str) -> bytes | None:
        """The bytes of ``path`` in ``commit``'s tree, or None if the tree has no such file."""
        try:
            return self._run("cat-file", "blob", f"{commit}:{path}")
        except StorageError as exc:
            if "does not exist" in str(exc) or "nvalid object name" in str(exc):
                return None
            raise

    def list_tree(self, commit: str, *folders: str) -> list[ListedEntry]:
        """The entries directly in each of ``folders`` of ``commit``'s tree (none: its top level), sized.

        A folder the tree lacks lists nothing. Never give a folder and one inside it together:
        git then lists the inner one's contents in place of its entry.
        """
        paths = [f"{folder.rstrip('/')}/" for folder in folders]
        out = self._run("ls-tree", "-l", "-z", commit, "--", *paths)
        entries = []
        for record in out.decode("utf-8", "surrogateescape").split("\0"):
            meta, _, path = record.partition("\t")
            parts = meta.split()
            if len(parts) == 4:
                size = int(parts[3]) if parts[3].isdigit() else 0
                entries.append(ListedEntry(path, parts[0], parts[1], parts[2], size))
        return entries

    def commit_message(self, commit: str) -> str:
        """The message of ``commit`` (its trailers included)."""
        raw = self._run("cat-file", "commit", commit)
        return raw.partition(b"\n\n")[2].decode("utf-8", "replace")

    def tree_of(self, commit: str) -> str:
        """The id of ``commit``'s tree."""
        return self._run("rev-parse", f"{commit}^{{tree}}").decode().strip()

    def blob_size(self, commit: str, path: str) -> int | None:
        """The size in bytes of ``path`` in ``commit``'s tree, from the object header (nothing is read)."""
        try:
            return int(self._run("cat-file", "-s", f"{commit}:{path}"))
        except StorageError as exc:
            if "does not exist" in str(exc) or "nvalid object name" in str(exc) or "ot a valid" in str(exc):
                return None
            raise

    @contextmanager
    def stream_blob(self, commit: str, path: str) -> Iterator[IO[bytes]]:
        """The bytes of ``path`` in ``commit``'s tree as a stream, read from git as they are consumed.

        Ask :meth:`blob_size` first: a stream is never read whole here, but its reader may be.
        """
        import subprocess  # noqa: PLC0415 - see _run

        command = ["git", *_OPTIONS, "cat-file", "blob", f"{commit}:{path}"]
        with _git_errors("cat-file", self.git_dir):
            proc = subprocess.Popen(
                command,
                env=self._env(None),
                stdin=subprocess.DEVNULL,  # noqa: S603
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        try:
            assert proc.stdout is not None
            yield proc.stdout
        finally:
            proc.kill()  # a reader that stopped early must not leave git writing into a full pipe
            _out, err = proc.communicate()
        if proc.returncode not in (0, -9) and proc.returncode is not None:
            raise StorageError(
                f"git cat-file failed: {' '.join(err.decode('utf-8', 'replace').split())}", path=self.git_dir
            )

    def blobs_under(self, commit: str, folder: str) -> dict[str, str]:
        """File name -> blob id of the files directly in ``folder`` of ``commit``'s tree."""
        out = self._run("ls-tree", "-z", commit, "--", f"{folder}/")
        blobs = {}
        for record in out.decode("utf-8", "replace").split("\0"):
            meta, _, path = record.partition("\t")
            parts = meta.split()
            if len(parts) == 3 and parts[1] == "blob":
                blobs[path.removeprefix(f"{folder}/")] = parts[2]
        return blobs

    def object_types(self, shas: Sequence[str]) -> dict[str, str]:
        """Each of ``shas`` this repository holds -> its type (``commit``, ``tag``, ``tree``, ``blob``).

        Nothing is peeled: a ref that names a tag or a tree says so here, in one git process.
        """
        if not shas:
            return {}
        out = self._run("cat-file", "--batch-check", stdin="".join(f"{s}\n" for s in shas).encode())
        found = (line.split() for line in out.decode().splitlines())
        return {parts[0]: parts[1] for parts in found if len(parts) == 3}

    def log(self, ref: str, limit: int) -> list[LogEntry]:
        """The newest ``limit`` commits reachable from ``ref`` (none if it does not exist)."""
        if self.ref_tip(ref) is None:
            return []
        fmt = "--format=%H%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%B%x1e"
        out = self._run("log", fmt, f"--max-count={limit}", ref, "--")
        return [_log_entry(chunk) for chunk in out.decode("utf-8", "replace").split("\x1e") if chunk.strip()]

    def remote_names(self) -> list[str]:
        """The remotes configured in this repository."""
        return sorted(self._run("remote").decode("utf-8", "replace").split())

    def _common_dir(self) -> Path:
        """Where refs live: the git dir, or the main repository's for a linked worktree (``commondir``)."""
        try:
            shared = (self.git_dir / "commondir").read_text().strip()
        except FileNotFoundError:
            return self.git_dir
        except OSError as exc:
            raise StorageError(f"cannot read {self.git_dir / 'commondir'}: {exc}", path=self.git_dir) from exc
        return (self.git_dir / shared).resolve()

    def identity(self, role: str) -> Identity:
        """``AUTHOR`` or ``COMMITTER``: from ``GIT_<role>_NAME/EMAIL``, else user.name/email, else a fallback.

        A machine without a git identity still gets history: memory-review never fails for want of one.
        """
        if role not in self._identity:
            name = os.environ.get(f"GIT_{role}_NAME") or self._user_config().get("name") or _FALLBACK_NAME
            email = os.environ.get(f"GIT_{role}_EMAIL") or self._user_config().get("email") or _FALLBACK_EMAIL
            self._identity[role] = Identity(name, email)
        return self._identity[role]

    def _user_config(self) -> dict[str, str]:
        """``user.name`` and ``user.email`` as git resolves them (system, global, repository; includes),
        in one git process; a key that is not set is absent."""
        if self._user is None:
            try:
                out = self._run("config", "--null", "--get-regexp", r"^user\.(name|email)$")
            except StorageError as exc:
                if not (isinstance(exc.__cause__, GitFailed) and exc.__cause__.status == 1):
                    raise
                out = b""  # git config's answer when neither is set
            self._user = {}
            for record in out.decode("utf-8", "replace").split("\0"):
                key, _, value = record.partition("\n")
                if key:
                    self._user[key.removeprefix("user.")] = value  # the last one wins, as in git
        return self._user

    # --- the network ---------------------------------------------------------------------

    def fetch(self, remote: str, refspec: str) -> None:
        """Fetch exactly ``refspec`` from ``remote`` (no tags, no FETCH_HEAD, pruning what vanished)."""
        self._run(
            "fetch",
            "--quiet",
            "--no-tags",
            "--no-write-fetch-head",
            "--no-recurse-submodules",  # a forged replica's gitlink must not reach the project's submodules
            "--prune",
            remote,
            refspec,
            timeout=NETWORK_TIMEOUT,
            cwd=self._remote_base(),
        )

    def push(self, remote: str, src: str, dst: str, *, expect: str | None) -> None:
        """Push ``src`` to ``dst`` only if the remote's ``dst`` is still ``expect`` (None: absent)."""
        lease = f"--force-with-lease={dst}:{expect or ''}"
        try:
            self._run(
                *("push", "--quiet", "--no-verify", "--no-recurse-submodules", "--porcelain", lease),
                *(remote, f"{src}:{dst}"),
                timeout=NETWORK_TIMEOUT,
                cwd=self._remote_base(),
            )
        except StorageError as exc:
            if "stale info" in str(exc) or "rejected" in str(exc):
                raise ConflictError(
                    f"the remote's {dst} changed during sync: {exc}", hint="run `memory-review sync` again"
                ) from exc
            raise

    def _remote_base(self) -> Path:
        """Where git resolves a remote's relative URL (``../team.git``) from, as plain ``git fetch`` does: the
        work tree's top (a bare repository: itself). From ``.git`` it would name a folder *inside* the
        clone, which a repository can commit, bare repository and hooks included."""
        return self.work_tree or self.git_dir

    # --- rewriting our own refs (``memory-review forget``, docs/adr/0019) -----------------

    def commits_of(self, ref: str) -> list[tuple[str, tuple[str, ...]]]:
        """Every commit reachable from ``ref``, parents before children: (id, parent ids)."""
        out = self._run("rev-list", "--topo-order", "--reverse", "--parents", ref, "--")
        return [(parts[0], tuple(parts[1:])) for parts in (line.split() for line in out.decode().splitlines())]

    def objects_of(self, ref: str) -> list[str]:
        """Every object (commit, tree, blob) reachable from ``ref``."""
        out = self._run("rev-list", "--objects", "--no-object-names", ref, "--")
        return out.decode().split()

    def read_objects(self, shas: Sequence[str]) -> dict[str, tuple[str, bytes]]:
        """id -> (type, content) of each object, in one ``cat-file --batch``."""
        if not shas:
            return {}
        return dict(_batch(self._run("cat-file", "--batch", stdin="".join(f"{s}\n" for s in shas).encode())))

    def all_objects(self) -> Iterator[tuple[str, tuple[str, bytes]]]:
        """Every object the repository stores, reachable or not, loose or packed."""
        return _batch(self._run("cat-file", "--batch-all-objects", "--batch"))

    def write_object(self, kind: str, data: bytes) -> str:
        """Store ``data`` as an object of ``kind`` (``blob``, ``commit``) exactly as given; its id."""
        return self._run("hash-object", "-t", kind, "-w", "--stdin", stdin=data).decode().strip()

    def tree_entries(self, tree: str) -> list[TreeEntry]:
        """The entries directly in ``tree`` (a tree id, or a commit: its top level)."""
        entries = []
        for record in self._run("ls-tree", "-z", tree).decode("utf-8", "surrogateescape").split("\0"):
            meta, _, name = record.partition("\t")
            if meta:
                mode, kind, sha = meta.split()
                entries.append(TreeEntry(mode, kind, sha, name))
        return entries

    def delete_ref(self, ref: str, old: str) -> None:
        """Delete one of our refs if it still points at ``old``."""
        if not ref.startswith("refs/memory-review/"):
            raise StorageError(f"refusing to delete {ref}: not a memory-review ref", path=self.git_dir)
        self._run("update-ref", "-d", ref, old)

    def _has_reflog(self, ref: str) -> bool:
        try:
            self._run("reflog", "exists", ref)
        except StorageError:
            return False
        return True

    def drop_unreachable(self, refs: Sequence[str]) -> None:
        """Expire the reflogs of ``refs`` (ours), then remove every unreachable object, packed or loose."""
        logged = [ref for ref in refs if self._has_reflog(ref)]  # git keeps none for refs/memory-review/ by default
        if logged:
            self._run("reflog", "expire", "--expire=now", "--expire-unreachable=now", *logged)
        self._run("repack", "-a", "-d", "-q")
        self._run("prune", "--expire=now")

    # --- the one place a git process starts ----------------------------------------------

    def _env(self, env: dict[str, str] | None) -> dict[str, str]:
        """The environment of a process started without gitpython: ours, pinned like ``_run``'s."""
        return {**os.environ, "GIT_DIR": str(self.git_dir), "GIT_TERMINAL_PROMPT": "0", **(env or {})}

    def _run(
        self,
        *args: str,
        stdin: bytes | None = None,
        env: dict[str, str] | None = None,
        timeout: float | None = None,
        cwd: Path | None = None,
    ) -> bytes:
        import subprocess  # noqa: PLC0415 - not in every command's start-up

        command = ["git", *_OPTIONS, *args]
        with _git_errors(args[0], self.git_dir):
            # Pinned to the repository: an inherited GIT_DIR (inside a hook) must not redirect our writes.
            done = subprocess.run(
                command,
                input=stdin,
                stdin=None if stdin is not None else subprocess.DEVNULL,
                capture_output=True,
                env=self._env({**_MESSAGES_IN_ENGLISH, **(env or {})}),
                cwd=cwd or self.git_dir,
                timeout=timeout,
                check=False,
            )
            if done.returncode:
                raise GitFailed(command, done.returncode, done.stderr)
            return done.stdout


class GitFailed(Exception):
    """A git process that exited non-zero (translated to StorageError by :func:`_git_errors`)."""

    def __init__(self, command: Sequence[str], status: int, stderr: bytes) -> None:
        super().__init__(f"{' '.join(command)}: exit status {status}")
        self.status = status
        self.stderr = stderr


def _git_dir_at(path: Path) -> Path | None:
    """The git dir of the repository at ``path`` from its files, as gitpython's own check finds it
    (HEAD, objects/ and refs/); None where gitpython must decide (a gitfile, git's environment)."""
    if any(name in os.environ for name in _GIT_ENV):
        return None
    for candidate in (path / ".git", path):
        if candidate.is_symlink() or not candidate.is_dir():
            continue
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir() and (candidate / "refs").is_dir():
            return Path(os.path.abspath(candidate))
    return None


def _not_its_own(path: Path, git_dir: Path) -> NotFoundError:
    return NotFoundError(
        "git repository",
        str(path),
        hint=f"its .git leads to {git_dir}, which does not name this folder as its work tree "
        "(not a linked worktree or a submodule of it): another repository's refs are not this folder's",
    )


def _names_work_tree(git_dir: Path, work_tree: Path) -> bool:
    """Whether ``git_dir``, reached through ``work_tree``'s ``.git`` file (or link), records ``work_tree`` as
    its own work tree the way git does (docs/adr/0013):

    - a linked worktree's admin folder names it back (``gitdir``, written by ``git worktree add``);
    - a submodule's git dir under ``.git/modules/`` (or one moved by ``absorbgitdirs``) names it in
      ``core.worktree``.

    Another repository's own ``.git`` records neither: a ``.git`` file an archive or a clone brought
    (``gitdir: ../work/.git``) would otherwise have history written on that repository's refs, and sync
    go through its remotes. A ``--separate-git-dir`` repository records neither either; setting its
    ``core.worktree`` gives it history again.
    """
    if not _common_dir_holds(git_dir):
        return False
    here = work_tree.resolve()
    back = _small_text(git_dir / "gitdir")
    if back:
        named = git_dir / back
        if named.name == ".git" and named.parent.resolve() == here:
            return True
    worktree = _core_worktree(git_dir)
    return worktree is not None and (git_dir / worktree).resolve() == here


def _common_dir_holds(git_dir: Path) -> bool:
    """Whether a git dir that shares another's refs (``commondir``: a linked worktree's admin folder) lies in
    that repository's ``worktrees/``, where ``git worktree add`` makes it. One anywhere else (an archive can
    carry one, back-link and all) would have our refs written in the repository it names."""
    if not os.path.lexists(git_dir / "commondir"):
        return True  # refs live in the git dir itself
    shared = _small_text(git_dir / "commondir")
    if not shared or git_dir.parent.name != "worktrees":
        return False
    return (git_dir / shared).resolve() == git_dir.parent.parent.resolve()


def _small_text(path: Path) -> str | None:
    """A one-line file git keeps in a git dir, read without following a link or blocking (None: unreadable)."""
    from memory_review.events.safe_fs import read_file_or  # noqa: PLC0415 - only a .git file needs it

    try:
        data = read_file_or(path, 4096)
    except OSError:
        return None
    return data.decode("utf-8", "surrogateescape").strip() if data else None


def _core_worktree(git_dir: Path) -> str | None:
    """``core.worktree`` of the config in ``git_dir``, parsed by git from bytes read here (nothing is followed:
    not a link, not a FIFO, not an include)."""
    from memory_review.events.safe_fs import read_file_or  # noqa: PLC0415 - see _small_text

    try:
        config = read_file_or(git_dir / "config", 1 << 20)
    except OSError:
        return None
    if not config:
        return None
    try:
        out = GitRepo(git_dir)._run("config", "--file", "-", "--get", "core.worktree", stdin=config)
    except StorageError:
        return None  # not set (git config's exit status 1), or not a config git can read
    return out.decode("utf-8", "surrogateescape").strip() or None


def _batch(out: bytes) -> Iterator[tuple[str, tuple[str, bytes]]]:
    """The objects of ``cat-file --batch`` output: a ``<id> <type> <size>`` line, the bytes, a newline."""
    offset = 0
    while offset < len(out):
        end = out.index(b"\n", offset)
        sha, kind, *size = out[offset:end].decode().split()
        if kind == "missing" or not size:
            offset = end + 1
            continue
        start = end + 1
        offset = start + int(size[0]) + 1
        yield sha, (kind, out[start : offset - 1])


def step(name: str) -> None:
    """A named fault point of a git step (tests crash or fail there); an injected OSError is ours."""
    try:
        faults.point(name)
    except OSError as exc:
        raise StorageError(f"{name}: {exc.strerror or exc}", errno=exc.errno) from exc


def _log_entry(chunk: str) -> LogEntry:
    commit, parents, author, email, date, message = chunk.lstrip("\n").split("\x1f", 5)
    return LogEntry(
        commit=commit,
        parents=tuple(parents.split()),
        author=author,
        email=email,
        date=date,
        message=message.strip("\n"),
    )


@contextmanager
def _git_errors(what: str, where: Path) -> Iterator[None]:
    """Translate git's, gitpython's and the OS's errors into ours: the one place that does."""
    import subprocess  # noqa: PLC0415 - see GitRepo._run

    try:
        yield
    except MemoryReviewError:
        raise
    except GitFailed as exc:
        raise StorageError(f"git {what} failed: {_stderr(exc.stderr, exc.status)}", path=where) from exc
    except subprocess.TimeoutExpired as exc:
        raise StorageError(f"git {what} failed: no answer in {exc.timeout:.0f} s (killed)", path=where) from exc
    except _other_errors() as exc:
        raise StorageError(f"git {what} failed: {exc}", path=where) from exc


def _other_errors() -> tuple[type[Exception], ...]:
    """The OS's, and gitpython's error base if this process loaded gitpython (nothing to catch otherwise)."""
    loaded: tuple[type[Exception], ...] = (sys.modules["git"].GitError,) if "git" in sys.modules else ()
    return (*loaded, OSError, ValueError)


def _stderr(stderr: bytes | str | None, status: int) -> str:
    raw = stderr if isinstance(stderr, str) else (stderr or b"").decode("utf-8", "replace")
    text = " ".join(raw.replace("stderr:", " ").split()).strip("' ")
    return text or f"exit status {status}"
