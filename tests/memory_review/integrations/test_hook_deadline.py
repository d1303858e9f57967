"""``$MEMORY_REVIEW_HOOK_DEADLINE`` is the person's own setting, and no value of it switches the deadline off."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_review.lean.watchdog import DEADLINE_ENV, MAX_DEADLINE, deadline_seconds


@pytest.mark.parametrize(
    ("setting", "seconds"),
    [
        (None, 5.0),
        ("", 5.0),
        ("0.3", 0.3),
        ("20", 20.0),
        (str(MAX_DEADLINE), MAX_DEADLINE),
        ("3600.5", 5.0),  # past an hour: no honest setting, and a timer near its limit
        ("inf", 5.0),  # a timer cannot hold it: its thread failed and nothing ended the hook
        ("1e308", 5.0),
        ("nan", 5.0),  # every comparison false: the hook ended before it began
        ("0", 5.0),
        ("-1", 5.0),
        ("five", 5.0),  # a typo
    ],
)
def test_only_a_sane_number_of_seconds_replaces_the_default(
    monkeypatch: pytest.MonkeyPatch, setting: str | None, seconds: float
) -> None:
    if setting is None:
        monkeypatch.delenv(DEADLINE_ENV, raising=False)
    else:
        monkeypatch.setenv(DEADLINE_ENV, setting)
    assert deadline_seconds(5.0) == seconds


def test_the_full_hook_waits_for_its_payload_with_the_context_deadline(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Session 38's review: Codex's and Gemini's hooks read stdin under the 20 s extraction deadline, past the 10 s
    install gives their context events; a writer that kept stdin open had the agent kill the hook, unrecorded."""
    import io

    from memory_review.integrations import claude_hooks
    from memory_review.lean.watchdog import Watchdog

    monkeypatch.delenv(DEADLINE_ENV, raising=False)
    monkeypatch.setenv("MEMORY_REVIEW_HOME", str(tmp_path / "home"))
    armed: list[float] = []

    class Recorded(Watchdog):
        def restart(self, seconds, *, on_expiry):
            armed.append(seconds)
            super().restart(seconds, on_expiry=on_expiry)

    monkeypatch.setattr(claude_hooks, "Watchdog", Recorded)
    stdout = io.StringIO()
    claude_hooks.run_hook(io.BytesIO(b'{"hook_event_name": "Stop", "session_id": "s1"}'), stdout, project=str(tmp_path))
    # Counted from when the hook began: a little of each is spent already.
    assert armed[:2] == [
        pytest.approx(claude_hooks.CONTEXT_DEADLINE, abs=1),
        pytest.approx(claude_hooks.EXTRACT_DEADLINE, abs=1),
    ]
