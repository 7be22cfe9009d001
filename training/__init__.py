"""Scripts around the environments: evaluation of policies, and later training and plots."""
