"""One sub-package per game: rules, actions, observation and scripted players."""
