"""Hoax: character sheet, rules engine, actions, observation and scripted players."""
