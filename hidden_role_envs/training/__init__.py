"""Training, evaluation and play around the environments: the `hidden-roles` command."""
