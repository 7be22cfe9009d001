"""Spyfall: locations, rules engine, actions, observation and scripted players."""
