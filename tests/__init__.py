"""The test suites; a package, so that its modules win over any other top-level `tests` installed."""
