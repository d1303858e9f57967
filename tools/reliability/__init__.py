"""The reliability suite: trials that try to break the store's promises, shared by the tests and the figures.

``python -m tools.reliability [--full]`` runs every suite and writes
``docs/reliability.md``; ``tests/reliability/`` runs the same trial functions at
the quick scale. The bar is ``../shared/RELIABILITY.md``. Modules:

- ``scenario``     the template store every trial copies, and the operations under test
- ``invariants``   ``check_invariants(store_or_workspace)``: the six invariants, as a list of violations
- ``state``        what a store says (memories, pending, sessions) and byte-for-byte tree snapshots
- ``child``, ``driver``  real child processes (fresh interpreters, or forked by a zygote), armed to die
- ``crash``        the crash matrix: die at every fault point (and mid-write) of every operation
- ``sigkill``      SIGKILL a busy store at random moments
- ``iofaults``     the I/O error matrix: OSError at call N, once and from N on
- ``recovery``     recovery itself interrupted at each of its points, rerun until idempotent
- ``concurrency``, ``workload``, ``poller``  racing processes and threads, one winner, a dead lock holder
- ``corpus``, ``corpus_cases``  the bad-input corpus
- ``stateful``     the hypothesis state machine (needs the ``test`` extra)
- ``results``, ``runner``, ``figures``  counting, scales, and the document

This package is test tooling: nothing in the library imports it.
"""
