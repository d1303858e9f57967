"""Store paths are opened in one place: ``events/safe_fs.py`` (and the durable primitives beside it).

Like tests/test_layering.py, this reads the source with ``ast``: any call that opens, reads,
writes, renames or removes a file by name (``open``, ``os.open``, ``Path.read_bytes`` ...) outside
the allowed modules fails, unless the allowlist below names it with the reason it is not a store
path. A new call on a store path must go through ``events.safe_fs`` (ADR 0020), which never
follows a link, never blocks on a FIFO and refuses a hard-linked file it writes.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

ALLOWED_MODULES = {
    "events/safe_fs.py": "the one safe way to open a store path",
    "events/durable.py": "creates with O_EXCL|O_NOFOLLOW, renames and unlinks inside folders safe_fs checked",
    "memory_review/lean/files.py": "safe_fs's open for the per-prompt path (O_NOFOLLOW|O_NONBLOCK, then fstat: "
    "a regular file with one name), without importing events (ADR 0030)",
}
# The crash and corruption harness (tools/reliability/) damages trial stores on purpose; it is not shipped
# and not scanned (ADR 0025). No shipped folder is exempt.
ALLOWED_FOLDERS: dict[str, str] = {}

# (file, call) -> (how many, why it is not a store path)
ALLOWLIST: dict[tuple[str, str], tuple[int, str]] = {
    ("events/rewrite.py", "os.open"): (1, "replace_log's temp beside the log: O_EXCL|O_NOFOLLOW, like durable.py"),
    ("events/rewrite.py", "os.replace"): (1, "replace_log renames its temp over the log's name (never follows a link)"),
    ("events/rewrite.py", "os.unlink"): (1, "replace_log removes its own O_EXCL temp after a failed write"),
    ("events/faults.py", "os.open"): (1, "the fault plan's trace file (test machinery, a path the test names)"),
    ("memory_review/cli_command.py", "read_bytes"): (1, "a file the person names (--file, --from-file)"),
    ("memory_review/cli_review.py", "read_bytes"): (1, "the editor's temp file, made by tempfile"),
    ("memory_review/verified.py", "read_bytes"): (
        1,
        "the source of our own modules (checks_digest), never a store's file",
    ),
    ("memory_review/cli_review.py", "write_bytes"): (1, "the editor's temp file, made by tempfile"),
    ("memory_review/cli.py", "os.open"): (1, "/dev/null, for a reader that went away or a full disk"),
    ("memory_review/extract/sources.py", "os.open"): (1, "a transcript the agent's payload names (read-only)"),
    ("memory_review/lean/command.py", "os.open"): (1, "/dev/null, as cli.py's"),
    ("memory_review/lean/watchdog.py", "os.open"): (
        1,
        "/proc/self/fd/N: the hook's own stdout, as a non-blocking description of its own",
    ),
    ("memory_review/lean/hook.py", "open"): (2, "/dev/null for a stdin or stdout the agent closed (session 37)"),
    ("memory_review/lean/logtail.py", "os.open"): (
        1,
        "the store's .lock: O_NOFOLLOW|O_NONBLOCK, then fstat (one name)",
    ),
    ("memory_review/gitrepo.py", "read_text"): (1, "git's own commondir file in the git dir, naming where refs live"),
    ("memory_review/gitrepo.py", "unlink"): (1, "a stale ref lock git left in the repository's .git"),
    ("memory_review/forget.py", "rmdir"): (2, "the emptied folders of a repair backup that held the text"),
    ("memory_review/gitrepo.py", "write_bytes"): (1, "blobs to store, in a temporary folder of our own inside .git"),
    ("memory_review/importers/files.py", "os.open"): (1, "a file the person imports (CLAUDE.md, rules ...)"),
    # The resident server's folder (ADR 0060) is the user's own 0700 folder, never a store's; each name in it
    # is opened relative to a descriptor on the folder, which was opened O_NOFOLLOW and checked (owner, mode).
    ("memory_review/resident/place.py", "os.open"): (
        1,
        "the resident folder itself: O_DIRECTORY|O_NOFOLLOW, then fstat",
    ),
    ("memory_review/resident/client.py", "os.open"): (1, "the current folder, as a descriptor passed to the server"),
    ("memory_review/resident/confinement.py", "open"): (2, "/proc's status and LSM label of the server and its caller"),
    ("memory_review/resident/child.py", "io.open"): (
        1,
        "the standard streams' descriptors the client passed (0, 1, 2)",
    ),
    ("memory_review/resident/server.py", "os.open"): (
        1,
        "the server's lock file, dir_fd on the checked folder, O_NOFOLLOW",
    ),
    ("memory_review/resident/server.py", "os.unlink"): (2, "the server's own socket, dir_fd on the checked folder"),
    ("memory_review/resident/control.py", "os.unlink"): (
        1,
        "resident off: the server's four names, dir_fd on the checked folder",
    ),
    ("memory_review/resident/control.py", "os.rmdir"): (1, "resident off: the emptied resident folder"),
    ("memory_review/integrations/export.py", "read_bytes"): (1, "the export target (AGENTS.md ...), not a store"),
}

_PATH_METHODS = {
    "read_bytes",
    "read_text",
    "write_bytes",
    "write_text",
    "unlink",
    "rename",
    "replace",
    "open",
    "touch",
    "rmdir",
    "symlink_to",
    "hardlink_to",
}
_MODULE_CALLS = {
    "os": {"open", "replace", "rename", "unlink", "remove", "rmdir", "link", "symlink", "mkfifo", "truncate"},
    "io": {"open"},
    "shutil": {"copy", "copy2", "copyfile", "copytree", "move", "rmtree"},
}
# `.open(`/`.read_text(` on these are not file access (a class method, a URL opener, our transcript reader).
_NOT_FILES = {"Workspace", "GitRepo", "cls", "_OPENER", "webbrowser", "formats"}


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return "open" if func.id == "open" else None
    if not isinstance(func, ast.Attribute):
        return None
    owner = func.value
    if isinstance(owner, ast.Name) and owner.id in _MODULE_CALLS:
        return f"{owner.id}.{func.attr}" if func.attr in _MODULE_CALLS[owner.id] else None
    if func.attr not in _PATH_METHODS:
        return None
    owner_name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else None
    if owner_name in _NOT_FILES:  # `Workspace.open(...)`, also as `module.Workspace.open(...)`
        return None
    if func.attr == "replace" and _looks_like_str_replace(node):
        return None
    return func.attr


def _looks_like_str_replace(node: ast.Call) -> bool:
    # str.replace(old, new) takes two arguments, datetime.replace(tzinfo=...) keywords; Path.replace one.
    return len(node.args) != 1 or bool(node.keywords)


def _calls(path: Path) -> Counter[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return Counter(name for node in ast.walk(tree) if isinstance(node, ast.Call) for name in [_call_name(node)] if name)


def _source_files() -> list[Path]:
    return sorted(p for package in ("events", "memory_review", "tui") for p in (ROOT / package).rglob("*.py"))


def _findings() -> dict[tuple[str, str], int]:
    found: dict[tuple[str, str], int] = {}
    for path in _source_files():
        relative = path.relative_to(ROOT).as_posix()
        if relative in ALLOWED_MODULES or any(relative.startswith(f) for f in ALLOWED_FOLDERS):
            continue
        for name, count in _calls(path).items():
            found[(relative, name)] = count
    return found


def test_no_module_opens_a_file_by_name_outside_safe_fs_unless_allowlisted() -> None:
    unexplained = {
        key: count for key, count in _findings().items() if key not in ALLOWLIST or count > ALLOWLIST[key][0]
    }
    assert unexplained == {}, (
        "open store paths through events.safe_fs (ADR 0020); a call on a path that is not a store's "
        f"goes in ALLOWLIST with its reason: {unexplained}"
    )


def test_the_allowlist_has_no_stale_entries() -> None:
    found = _findings()
    stale = {key for key in ALLOWLIST if key not in found}
    assert stale == set(), f"these allowlisted calls are gone; drop them from ALLOWLIST: {stale}"


def test_the_scan_sees_each_kind_of_call(tmp_path: Path) -> None:
    # The scanner itself must catch what it is there to catch, or the test above proves nothing.
    source = tmp_path / "sample.py"
    source.write_text(
        "import os\nfrom pathlib import Path\n"
        "open('x')\nos.open('x', 0)\nPath('x').read_bytes()\nPath('x').write_text('y')\n"
        "os.replace('a', 'b')\nPath('a').unlink()\nos.unlink('a')\n'abc'.replace('a', 'b')\n"
        "Workspace.open(None)\nimport shutil\nshutil.rmtree('d')\n"
        "shutil.which('git')\nnow.replace(tzinfo=None)\n"
    )
    assert _calls(source) == Counter(
        {
            "open": 1,
            "os.open": 1,
            "read_bytes": 1,
            "write_text": 1,
            "os.replace": 1,
            "unlink": 1,
            "os.unlink": 1,
            "shutil.rmtree": 1,
        }
    )
