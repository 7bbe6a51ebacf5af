// cluster_config: the knobs of one node of a proofpipe cluster (daemons sharing jobs through
// PostgreSQL), as one value. The daemon fills it from the [cluster] TOML section
// (server/server_config.hpp); docs/operations.md explains each.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

namespace pp::cluster {

struct cluster_config {
  std::string database;  // libpq connection string or URI
  std::string node;      // this node's name, unique in the cluster
  // A claimed partition is this node's until the lease runs out; it is renewed every lease/3 while
  // the partition proves. A node that dies loses its claims at most one lease later.
  std::chrono::seconds lease{30};
  // A directory every node reads and writes (NFS, CephFS, ...): witnesses larger than
  // inline_witness_bytes are stored there (the database holds the path and a SHA-256). Empty: such
  // witnesses are refused.
  std::string shared_dir;
  uint64_t inline_witness_bytes = 64 * 1024;
  // Partitions this node holds at once. 0: the engine's device workers plus one (one partition
  // loading its witness while the devices prove).
  uint32_t claims = 0;
  std::chrono::milliseconds poll{100};  // how often an idle claimer or an await looks again
  // A job with queued partitions whose key no node has served (listed while taking work) for this
  // long fails with FAILED_PRECONDITION rather than waiting for ever; long enough for a rolling
  // restart of the nodes that hold the key.
  std::chrono::seconds unserved_job{300};
};

// A partition whose proof fails on this many different nodes (or on every live node, when fewer are
// alive) fails its job with each node's error.
inline constexpr uint32_t max_node_failures = 3;

}  // namespace pp::cluster
