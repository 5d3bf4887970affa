"""The tests' local Redis Cluster (3 primaries, 3 replicas on loopback ports 7100-7199): the
benchmark's, in referee/bench/cluster.py, so that `referee bench scale` starts the same one."""

from referee.bench.cluster import LocalCluster, _free_ports, wait_answering

__all__ = ["LocalCluster", "_free_ports", "wait_answering"]
