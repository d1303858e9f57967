#!/usr/bin/env bash
# The review UI in a real terminal: run `memory-review demo` under tmux, drive it with
# send-keys, read the screen with capture-pane, and check the event log on disk.
#
#   scripts/tmux_demo_check.sh            # uses .venv/bin/python if present, else python3
#   MEMORY_REVIEW_PYTHON=/path/python scripts/tmux_demo_check.sh
#
# Steps: the queue appears -> `a` applies the first candidate (confirming if it is flagged)
# -> the log gains a candidate.applied by the actor -> `3` shows it in the history
# -> `u` undoes it (a recorded memory.reverted) -> `q` quits with status 0 -> verify passes.
# Exit 0 when every check holds; 1 (with the last screen) when one fails; 2 when tmux is missing.
# It uses its own tmux server (-L), so it never touches your tmux sessions.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY="${MEMORY_REVIEW_PYTHON:-}"
if [[ -z "$PY" ]]; then
    if [[ -x "$ROOT/.venv/bin/python" ]]; then PY="$ROOT/.venv/bin/python"; else PY="python3"; fi
fi
command -v tmux >/dev/null 2>&1 || { echo "tmux_demo_check: tmux is not installed" >&2; exit 2; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/memory-review-tmux-XXXXXX")"
SERVER="memory-review-check-$$"
ACTOR="tmux-check"
DEMO="$WORK/demo"
PROJECT_LOG="$DEMO/project/.memory-review/events.jsonl"
USER_LOG="$DEMO/user-home/events.jsonl"

cleanup() {
    tmux -L "$SERVER" kill-server >/dev/null 2>&1 || true
    rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SERVER"  # kill-server leaves its socket file behind
    rm -rf "$WORK"
}
trap cleanup EXIT

screen() { tmux -L "$SERVER" capture-pane -p -t check; }

fail() {
    echo "tmux_demo_check: FAILED: $*" >&2
    echo "--- last screen ---" >&2
    screen >&2 || true
    exit 1
}

# wait_for TEXT [SECONDS]: until the screen shows TEXT.
wait_for() {
    local text="$1" limit="${2:-30}" i
    for ((i = 0; i < limit * 10; i++)); do
        if screen | grep -qF -- "$text"; then return 0; fi
        sleep 0.1
    done
    fail "the screen never showed '$text'"
}

log_lines() { cat "$PROJECT_LOG" "$USER_LOG" 2>/dev/null | wc -l; }

# logged TYPE: whether either log holds an event of TYPE by this script's actor.
logged() {
    cat "$PROJECT_LOG" "$USER_LOG" 2>/dev/null | grep -F "\"type\":\"$1\"" | grep -qF "\"actor\":\"$ACTOR\""
}

# wait_for_log TYPE [SECONDS]: until an event of TYPE by this script's actor is in either log.
wait_for_log() {
    local type="$1" limit="${2:-15}" i
    for ((i = 0; i < limit * 10; i++)); do
        if logged "$type"; then return 0; fi
        sleep 0.1
    done
    fail "no $type event by $ACTOR reached the log"
}

# The UI runs in a shell that reports its exit status, then waits so the screen can be read.
tmux -L "$SERVER" new-session -d -s check -x 100 -y 30 \
    "cd '$ROOT' && PYTHONPATH='$ROOT' MEMORY_REVIEW_ACTOR='$ACTOR' '$PY' -m memory_review.cli demo --dir '$DEMO'; echo \"UI-EXITED:\$?\"; sleep 60"

wait_for "pending" 60
wait_for "Apply"
before="$(log_lines)"
pending_before="$(screen | grep -oE '[0-9]+ pending' | head -1 | cut -d' ' -f1)"
[[ -n "$pending_before" && "$pending_before" -gt 0 ]] || fail "the queue shows no pending candidate"

tmux -L "$SERVER" send-keys -t check a
# Either the apply lands, or the first candidate is flagged and the UI asks: then confirm on purpose.
for ((i = 0; i < 150; i++)); do
    if screen | grep -qF "Apply anyway"; then
        tmux -L "$SERVER" send-keys -t check Enter
        break
    fi
    if logged candidate.applied; then break; fi
    sleep 0.1
done
wait_for_log candidate.applied
wait_for "$((pending_before - 1)) pending"

tmux -L "$SERVER" send-keys -t check 3
wait_for "History"
wait_for "candidate.applied"
screen | grep "candidate.applied" | grep -qF "$ACTOR" || fail "the history does not show the apply by $ACTOR"

wait_for "undo apply of 1"  # the key bar names what u undoes
tmux -L "$SERVER" send-keys -t check u
wait_for_log memory.reverted
wait_for_log candidate.restored  # the same candidate is pending again (ADR 0032)
wait_for "memory.reverted"
after="$(log_lines)"
[[ "$after" -ge $((before + 3)) ]] || fail "expected at least 3 new events, the logs went from $before to $after lines"

tmux -L "$SERVER" send-keys -t check q
wait_for "UI-EXITED:0" 15
wait_for "reopen it: MEMORY_REVIEW_HOME=" 5  # the demo says where it is and how to open it again

MEMORY_REVIEW_HOME="$DEMO/user-home" PYTHONPATH="$ROOT" "$PY" -m memory_review.cli \
    --project "$DEMO/project" verify >/dev/null || fail "memory-review verify found a problem after the session"

echo "tmux_demo_check: ok ($pending_before pending at start; apply, history, undo and quit checked; logs $before -> $after lines)"
