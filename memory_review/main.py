"""The console script: ``memory-review hook claude-code`` starts without the CLI (issue #16).

Claude Code runs that command line as a fresh process before every prompt; it goes to the per-prompt
path (``memory_review.lean.hook``), which imports the standard library and orjson. A ``context``
command line goes to the same path (``memory_review.lean.command``) when it can answer it. Every other
command line goes to :mod:`memory_review.cli`.
"""

from __future__ import annotations

import os
import sys

HOOK_ARGV = ["hook", "claude-code"]


def main() -> int:
    if sys.argv[1:] == HOOK_ARGV:
        from memory_review.lean.hook import run_hook

        return run_hook(sys.stdin.buffer, sys.stdout)
    if "context" in sys.argv[1:]:
        from memory_review.lean.command import run

        answered = run(sys.argv[1:])
        if answered is not None:
            return answered
    # Pydantic looks for plugins (observability hooks) in every installed package's entry points when it
    # builds its first model: a scan of site-packages per command. This program loads none; a person who
    # wants one sets the variable themselves (docs/adr/0037).
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    from memory_review.cli import main as cli_main

    return cli_main()


if __name__ == "__main__":
    sys.exit(main())
