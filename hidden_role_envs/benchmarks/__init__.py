"""The benchmark suite: throughput and memory of the games against PettingZoo's classic games.

`hidden-roles bench`, or `python -m hidden_role_envs.benchmarks`.
"""
