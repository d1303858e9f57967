"""What confines the caller, checked against the server before its command runs here (ADR 0060, 0171).

A fork of the server runs with the server's namespaces, security settings and resource limits, not the caller's.
An agent in a sandbox (``bwrap``, ``firejail``, ``unshare``, a seccomp filter) whose command the server ran would
reach what its sandbox hides. So the child looks at the process at the other end of the socket, as the kernel
reports it (SO_PEERCRED, not what the request says), and:

* refuses (quietly: the client runs the command itself) a caller in other namespaces, under another seccomp mode,
  with ``no_new_privs`` set where the server has not, or under another LSM label (AppArmor, SELinux);
* takes on the caller's resource limits where they are lower (``prlimit`` of the caller): ``ulimit -f`` or a
  CPU limit a sandbox sets holds for the command as it would in-process.

What is not compared: the cgroup (each terminal tab can have its own scope, and the server would never serve a
second one). A caller whose ``/proc`` entries cannot be read is refused.
"""

from __future__ import annotations

import os
import resource

from memory_review.errors import ResidentUnavailable

NAMESPACES = ("mnt", "net", "pid", "ipc", "uts", "user", "cgroup")
STATUS_FIELDS = ("Seccomp:", "NoNewPrivs:", "CapBnd:")
LIMITS = tuple(
    getattr(resource, name)
    for name in (
        "RLIMIT_AS",
        "RLIMIT_CORE",
        "RLIMIT_CPU",
        "RLIMIT_DATA",
        "RLIMIT_FSIZE",
        "RLIMIT_LOCKS",
        "RLIMIT_MEMLOCK",
        "RLIMIT_MSGQUEUE",
        "RLIMIT_NICE",
        "RLIMIT_NOFILE",
        "RLIMIT_NPROC",
        "RLIMIT_RSS",
        "RLIMIT_RTPRIO",
        "RLIMIT_SIGPENDING",
        "RLIMIT_STACK",
    )
    if hasattr(resource, name)
)


def check_caller(pid: int) -> None:
    """Refuse a caller confined otherwise than this process (ResidentUnavailable, quiet)."""
    ours, theirs = _confinement("self"), _confinement(str(pid))
    if ours is None or theirs is None:
        raise ResidentUnavailable("cannot see how the caller is confined", quiet=True)
    for (what, mine), (_what, its) in zip(ours, theirs, strict=True):
        if mine != its:
            raise ResidentUnavailable(f"the caller runs confined otherwise ({what})", quiet=True)


def take_limits(pid: int) -> None:
    """Lower this process's resource limits to the caller's, where the caller's are lower."""
    for limit in LIMITS:
        try:
            soft, hard = resource.prlimit(pid, limit)
        except OSError as exc:
            raise ResidentUnavailable(f"cannot read the caller's limits ({exc.strerror})", quiet=True) from exc
        own_soft, own_hard = resource.getrlimit(limit)
        hard = _lower(own_hard, hard)
        soft = _lower(_lower(own_soft, soft), hard)
        if (soft, hard) != (own_soft, own_hard):
            resource.setrlimit(limit, (soft, hard))


def _lower(a: int, b: int) -> int:
    if a == resource.RLIM_INFINITY:
        return b
    if b == resource.RLIM_INFINITY:
        return a
    return min(a, b)


def _confinement(who: str) -> list[tuple[str, str]] | None:
    """The namespaces, status fields and LSM label of ``/proc/<who>``, in a fixed order; None if unreadable."""
    found: list[tuple[str, str]] = []
    try:
        found += [(name, os.readlink(f"/proc/{who}/ns/{name}")) for name in NAMESPACES]
        with open(f"/proc/{who}/status", encoding="ascii", errors="replace") as status:
            lines = status.read().splitlines()
    except OSError:
        return None
    found += [(field, next((line for line in lines if line.startswith(field)), "")) for field in STATUS_FIELDS]
    found.append(("LSM label", _label(who)))
    return found


def _label(who: str) -> str:
    try:
        with open(f"/proc/{who}/attr/current", "rb") as current:
            return current.read(4096).decode("utf-8", "replace")
    except OSError:
        return ""  # no LSM, or none that says: the same for both, as it is for the whole machine
