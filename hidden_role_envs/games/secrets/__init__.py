"""Secrets: rules engine, actions, observation and scripted players."""
