"""Plugging memory-review into real agents (issue #8, ADR 0011).

Every module here is a thin client of :class:`~memory_review.workspace.Workspace`;
none of them can apply, discard, edit or revert — agents only ever *propose*::

    claude_hooks   ``memory-review hook claude-code``: context on SessionStart/UserPromptSubmit,
                   incremental extraction on Stop/SubagentStop/PreCompact; never blocks the agent
    hook_state     derived state of the hooks under ``<project store>/hooks/``: per-session
                   transcript offsets and the error log ``memory-review hook errors`` shows
    install        ``memory-review install|uninstall claude-code``: the settings file to edit
                   (symlink target, guarded), its backup in the user store, the round trip
    claude_settings  what install puts in a settings object and takes out: hooks,
                   ``autoMemoryEnabled: false``, ``permissions.deny`` rules (ADR 0022)
    mcp_server     ``memory-review mcp``: a stdio MCP server (optional ``mcp`` extra) with
                   propose/context/list/search/status tools and nothing that decides; the
                   project from ``--project``, MCP roots or ``$CLAUDE_PROJECT_DIR``
    export         ``memory-review export``: approved memories into a marked, regenerated
                   section of AGENTS.md, CLAUDE.md or a Cursor rule file
"""

from __future__ import annotations
