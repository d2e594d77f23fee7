"""Tests of the pure-Python rules engine (games.engine)."""
