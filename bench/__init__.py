"""Scorekeeper's benchmark: ``python -m bench`` (or ``scripts/bench``) writes BENCHMARKS.md."""
