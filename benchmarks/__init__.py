"""The benchmark suite: throughput and memory of the games against PettingZoo's classic games (`python -m benchmarks`)."""
