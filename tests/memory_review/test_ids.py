"""Ids and store paths: every id/path attack of RELIABILITY.md, new ids, and symlinks planted in a store."""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path

import pytest

from memory_review.errors import UnsafePathError, ValidationError
from memory_review.ids import (
    CANDIDATE_ID_RE,
    candidate_id_ms,
    check_candidate_id,
    check_session_id,
    check_slug,
    is_windows_device_name,
    new_candidate_id,
    new_origin_id,
    safe_child,
)

# Attacks every id check must refuse as an unsafe path, with the words the message must hold.
PATH_ATTACKS: list[tuple[str, str]] = [
    ("../etc", "path separator"),
    ("..", "'..'"),
    ("a..b", "'..'"),
    ("%2e%2e%2f", "'%'"),
    ("%2e%2e", "'%'"),
    ("a\x00b", "NUL"),
    ("a\\b", "path separator"),
    ("..\\..\\windows", "path separator"),
    ("/etc/passwd", "path separator"),
    ("C:\\x", "path separator"),
    ("\uff0e\uff0e\uff0f", "NFKC"),  # fullwidth ．．／
    ("\uff43\uff4f\uff4e", "NFKC"),  # fullwidth ｃｏｎ
    ("ﬁle", "NFKC"),  # the fi ligature folds to "fi"
    ("con", "device name"),
    ("nul", "device name"),
    ("aux", "device name"),
    ("prn", "device name"),
    ("com1", "device name"),
    ("lpt9", "device name"),
    ("a" * 200, "characters long"),
    ("a\u202eb", "U+202E"),  # right-to-left override
    ("a\u2066b", "U+2066"),  # left-to-right isolate
    ("a\u200bb", "U+200B"),  # zero-width space
    ("a\ufeffb", "U+FEFF"),
    ("a\U000e0041b", "U+E0041"),  # tag character
    ("a\nb", "control"),
    ("a\tb", "control"),
    ("a\x1bb", "control"),
]


@pytest.mark.parametrize(("value", "words"), PATH_ATTACKS)
def test_slug_refuses_path_attacks(value: str, words: str) -> None:
    with pytest.raises(UnsafePathError, match=re.escape(words)) as caught:
        check_slug(value)
    assert caught.value.field == "id"


@pytest.mark.parametrize(("value", "words"), PATH_ATTACKS)
def test_session_id_refuses_path_attacks(value: str, words: str) -> None:
    with pytest.raises(UnsafePathError, match=re.escape(words)):
        check_session_id(value)


@pytest.mark.parametrize(("value", "words"), PATH_ATTACKS)
def test_candidate_id_refuses_path_attacks(value: str, words: str) -> None:
    if words == "characters long":
        value = "cand_" + "0" * 27
    with pytest.raises(UnsafePathError):
        check_candidate_id(value)


@pytest.mark.parametrize("value", ["a", "pref-indent-4-spaces", "x_y", "0", "a" * 64, "con-fig", "com10", "nul_ptr"])
def test_valid_slugs(value: str) -> None:
    assert check_slug(value) == value


@pytest.mark.parametrize("value", ["", "Upper", "-lead", "_lead", "has space", "café", "a.b", "a" * 63 + "B"])
def test_invalid_slugs_are_validation_errors_not_unsafe(value: str) -> None:
    with pytest.raises(ValidationError) as caught:
        check_slug(value, field="memory", path="cand.json")
    assert not isinstance(caught.value, UnsafePathError)
    assert caught.value.field == "memory" and caught.value.path == "cand.json"


def test_slug_length_limit_is_64() -> None:
    with pytest.raises(UnsafePathError, match="65 characters long; at most 64"):
        check_slug("a" * 65)


@pytest.mark.parametrize("value", [None, 5, b"abc"])
def test_ids_must_be_strings(value: object) -> None:
    for check in (check_slug, check_session_id, check_candidate_id):
        with pytest.raises(ValidationError, match="must be a string"):
            check(value)  # type: ignore[arg-type]


def test_error_messages_show_hidden_characters_escaped() -> None:
    with pytest.raises(UnsafePathError) as caught:
        check_slug("evil\u202etxt.md")
    assert "\\u202e" in str(caught.value) and "\u202e" not in str(caught.value)


@pytest.mark.parametrize(
    "value",
    [
        "sess_x",
        "3f2b8c1e-9d4a-4f6b-8e2a-1c5d7e9f0a1b",
        "a.b-c_D",
        "A" * 128,
        "sess.2026-05-18",
        "Console",
    ],
)
def test_valid_session_ids(value: str) -> None:
    assert check_session_id(value) == value


@pytest.mark.parametrize("value", ["CON.json", "nul.txt", "Aux", "con.", "COM1.tar.gz", "LPT1"])
def test_session_ids_refuse_device_names_in_any_case_and_with_extensions(value: str) -> None:
    with pytest.raises(UnsafePathError, match="device name"):
        check_session_id(value)


@pytest.mark.parametrize("value", ["", ".hidden", "-x", "a b", "a:b", "a*b"])
def test_invalid_session_ids(value: str) -> None:
    with pytest.raises(ValidationError):
        check_session_id(value)


def test_session_id_length_limit_is_128() -> None:
    with pytest.raises(UnsafePathError, match="129 characters long"):
        check_session_id("a" * 129)


def test_device_name_detection() -> None:
    assert all(is_windows_device_name(n) for n in ["con", "CON", "con.md", "com0", "conin$", "aux .txt"])
    assert not any(is_windows_device_name(n) for n in ["cons", "com10", "console.md", "x.con"])


# --------------------------------------------------------------------------- candidate and origin ids


@pytest.mark.parametrize(
    "value",
    ["cand_" + "0" * 25, "cand_" + "0" * 25 + "O", "cand_" + "a" * 26, "cand_" + "I" * 26, "cand_" + "U" * 26,
     "CAND_" + "0" * 26, "cand-" + "0" * 26, "0" * 26],
)  # fmt: skip
def test_invalid_candidate_ids(value: str) -> None:
    with pytest.raises(ValidationError, match="Crockford"):
        check_candidate_id(value)


def test_new_candidate_id_shape_and_time() -> None:
    value = new_candidate_id(now=1_700_000_000.123)
    assert CANDIDATE_ID_RE.fullmatch(value) and check_candidate_id(value) == value
    assert candidate_id_ms(value) == 1_700_000_000_123


def test_candidate_ids_sort_by_time() -> None:
    times = [0.0, 1.0, 1.001, 86_400.0, 1_700_000_000.0, 4_000_000_000.5]
    ids = [new_candidate_id(now=t) for t in times]
    assert sorted(ids) == ids
    assert [candidate_id_ms(i) for i in ids] == [int(t * 1000) for t in times]


def test_candidate_ids_in_one_millisecond_keep_creation_order() -> None:
    ids = [new_candidate_id(now=1_800_000_000.0) for _ in range(2000)]
    assert sorted(ids) == ids and len(set(ids)) == len(ids)


def test_candidate_ids_are_unique_across_threads() -> None:
    out: list[str] = []

    def make() -> None:
        out.extend(new_candidate_id() for _ in range(500))

    threads = [threading.Thread(target=make) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(out)) == 2000


@pytest.mark.parametrize("now", [-1.0, 2.0**48 / 1000])
def test_candidate_id_time_out_of_range(now: float) -> None:
    with pytest.raises(ValidationError, match="48-bit"):
        new_candidate_id(now=now)


def test_origin_ids() -> None:
    ids = {new_origin_id() for _ in range(100)}
    assert len(ids) == 100 and all(re.fullmatch(r"[0-9a-f]{16}", i) for i in ids)


# --------------------------------------------------------------------------- safe_child


@pytest.fixture
def store(tmp_path: Path) -> Path:
    root = tmp_path / "store"
    (root / "memory").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_text("do not read")
    return root


def test_safe_child_inside(store: Path) -> None:
    assert safe_child(store, "memory", "a-0123456789ab.md") == store.resolve() / "memory" / "a-0123456789ab.md"
    assert safe_child(store, "memory/a.md") == store.resolve() / "memory" / "a.md"
    assert safe_child(store, "not-yet-created/x.json").parent.name == "not-yet-created"


@pytest.mark.parametrize(
    "parts",
    [("../outside",), ("memory", "..", "..", "outside"), ("memory/../../outside",), ("/etc/passwd",),
     ("memory", "/etc/passwd"), ("C:\\x",), ("C:x",), ("memory\\..\\..\\x",), ("a\x00b",), ("",), (".",),
     ("memory/..",), ("//server/share",)],
)  # fmt: skip
def test_safe_child_refuses_escapes(store: Path, parts: tuple[str, ...]) -> None:
    with pytest.raises(UnsafePathError) as caught:
        safe_child(store, *parts)
    assert caught.value.path == str(store)


@pytest.mark.parametrize("name", ["%2e%2e%2f", "\uff0e\uff0e\uff0f"])
def test_safe_child_takes_encoded_and_fullwidth_names_literally(store: Path, name: str) -> None:
    # Not decoded, not folded: the OS sees one odd file name inside the store.
    # (The id checks refuse such names long before they get here.)
    assert safe_child(store, "memory", name).parent == store.resolve() / "memory"


def test_symlink_planted_in_store_pointing_outside_is_refused(store: Path) -> None:
    outside = store.parent / "outside"
    (store / "memory" / "evil").symlink_to(outside, target_is_directory=True)
    (store / "memory" / "evil.md").symlink_to(outside / "secret.txt")
    (store / "candidates").symlink_to(outside, target_is_directory=True)
    for parts in [
        ("memory", "evil"),
        ("memory", "evil", "secret.txt"),
        ("memory/evil.md",),
        ("candidates", "x.json"),
    ]:
        with pytest.raises(UnsafePathError, match="outside the store"):
            safe_child(store, *parts)


def test_dangling_symlink_pointing_outside_is_refused(store: Path) -> None:
    # Writing through it would create a file outside the store.
    (store / "memory" / "new.md").symlink_to(store.parent / "outside" / "created-by-attacker.md")
    with pytest.raises(UnsafePathError, match="outside the store"):
        safe_child(store, "memory", "new.md")


def test_symlink_loop_is_refused(store: Path) -> None:
    (store / "memory" / "a").symlink_to(store / "memory" / "b")
    (store / "memory" / "b").symlink_to(store / "memory" / "a")
    with pytest.raises(UnsafePathError):
        safe_child(store, "memory", "a", "x.md")


def test_symlink_inside_the_store_is_allowed(store: Path) -> None:
    (store / "memory" / "alias").symlink_to(store / "memory", target_is_directory=True)
    assert safe_child(store, "memory", "alias", "x.md") == store.resolve() / "memory" / "x.md"


def test_store_root_reached_through_a_symlink(store: Path, tmp_path: Path) -> None:
    link = tmp_path / "link-to-store"
    link.symlink_to(store, target_is_directory=True)
    assert safe_child(link, "memory", "x.md") == store.resolve() / "memory" / "x.md"


@pytest.mark.skipif(os.name == "nt", reason="POSIX permissions")
def test_safe_child_does_not_touch_the_disk(store: Path) -> None:
    before = sorted(p.name for p in store.rglob("*"))
    safe_child(store, "memory", "deep", "new", "file.md")
    assert sorted(p.name for p in store.rglob("*")) == before
