// node_metrics: what makes one node's /metrics distinguishable in a cluster. Every sample of the
// engine's Prometheus text gets a node="<name>" label, and the cluster layer adds its own counters
// (pp_cluster_*: partitions by outcome, duplicate results, reclaimed leases, database time).
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

#include "cluster/db_session.hpp"

namespace pp::cluster {

struct cluster_counters {
  std::atomic<uint64_t> proved{0};      // results this node wrote
  std::atomic<uint64_t> duplicates{0};  // results already written by another node (no-op)
  std::atomic<uint64_t> failed{0};      // partitions that failed here
  std::atomic<uint64_t> released{0};    // claims given back unfinished (stop, cancel, lost lease)
  std::atomic<uint64_t> assembled{0};   // jobs this node completed (last partition)
  std::atomic<uint64_t> reclaimed{0};   // expired leases of other nodes put back in the queue
  std::atomic<uint64_t> active{0};      // partitions held now
  // Database time spent on the partitions this node proved (claim, lease renewals, result and
  // assembly), for the per-partition cost in docs/perf.
  std::atomic<uint64_t> partition_db_nanos{0};
};

// Adds node="<node>" as the first label of every sample line; comments pass through.
[[nodiscard]] std::string label_with_node(std::string_view prometheus_text, std::string_view node);
// The pp_cluster_* metrics in Prometheus text format 0.0.4, labelled with the node.
[[nodiscard]] std::string cluster_metrics_text(const cluster_counters& c, const db_meter& db, std::string_view node);

}  // namespace pp::cluster
