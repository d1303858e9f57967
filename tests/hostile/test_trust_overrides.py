"""Trusting a cloned store's memory that reuses the id of the person's own user memory takes that memory out of
every block (the merge by id): session 39's re-review found it flagged nothing, and ``trust --all`` took it (and
every other flagged one: an injection-flagged memory too)."""

from __future__ import annotations

import pytest
from trust_kit import MARK, Person, attacker_repo, victim_clone

FORBIDDEN = {"id": "deploy-key", "type": "forbidden", "description": "Never deploy with a shared key", "body": ""}


@pytest.fixture
def victim(tmp_path) -> Person:
    """A clone of a store that holds ``deploy-key``, whose person has a user rule under that id."""
    person = victim_clone(tmp_path, attacker_repo(tmp_path).root)
    person.approve(FORBIDDEN, scope="user")
    return person


def test_a_foreign_memory_that_would_hide_a_user_one_says_so(victim: Person) -> None:
    documents = {d["id"]: d for d in victim.json("trust", "list")}
    assert "overrides:deploy-key" in documents["deploy-key"]["flags"]
    assert not any(f.startswith("overrides:") for f in documents["never-review"]["flags"])
    assert "overrides:deploy-key" in victim.ok("trust", "list")


def test_trust_all_leaves_it_for_the_person_to_name(victim: Person) -> None:
    victim.ok("trust", "--all")
    block = victim.ok("context")
    assert "Never deploy with a shared key" in block and f"{MARK}1" not in block
    # both wait: this one hides a user memory, never-review is flagged for prompt injection
    assert [d["id"] for d in victim.json("trust", "list")] == ["deploy-key", "never-review"]
    named = victim.json("trust", "list")[0]["sha256"][:32]
    victim.ok("trust", "apply", f"deploy-key@{named}")  # named, it is the person's decision
    assert "Never deploy with a shared key" not in victim.ok("context")
