// cluster_status: the whole cluster as JSON for `proofpipe status --cluster` (GetStatus's
// engine_json "cluster" member and HTTP GET /status): every node with its liveness, devices, keys
// and claims, the ready partitions by priority, and job counts by state.
#pragma once
#include <string>

#include <pqxx/pqxx>

namespace pp::cluster {

// Throws libpqxx exceptions (callers run it inside db_session::run).
[[nodiscard]] std::string cluster_status_json(pqxx::connection& c);

}  // namespace pp::cluster
