"""Mascarade: rules engine, actions, per-seat knowledge, observation and scripted players."""
