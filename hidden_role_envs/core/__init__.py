"""The pieces every game shares: the AEC adapter, observation blocks, beliefs, registry."""
