"""Benchmarks (run each as a script) and the helpers they share with the tests."""
