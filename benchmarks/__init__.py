"""Throughput measurements of the environments."""
