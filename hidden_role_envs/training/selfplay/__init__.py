"""Self-play PPO on the batched engine, compiled whole with JAX (`hidden-roles train GAME`, the default backend)."""
