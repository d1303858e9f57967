"""The resident server (docs/adr/0060): one long-lived interpreter per user store that has imported the
library, and forks a child per command, so a command skips the start-up that ADR 0052 measured as most of
its cost. Opt-in (``memory-review resident on``), Linux only.

- :mod:`~memory_review.resident.place` where the server's folder and socket are, and the checks before
  either is trusted (standard library only: the client reads it);
- :mod:`~memory_review.resident.client` what the console script does before anything else: hand the
  command to the server, or say why not and let it run in-process (standard library only);
- :mod:`~memory_review.resident.server` the server: accepts, forks, and reports each child's exit;
- :mod:`~memory_review.resident.child` what a forked child does with one request;
- :mod:`~memory_review.resident.control` ``memory-review resident on|off|status``.
"""
