"""memory-review's benchmark suite (issue #7): each operation against a floor measured in the same run.

Run it with ``python -m benchmarks`` (see ``benchmarks/run.py`` and the README's
"Benchmarks" section). It is not part of the default test run; one smoke test
(``tests/test_benchmarks_smoke.py``) runs it at the ``tiny`` scale so it cannot rot.
"""
