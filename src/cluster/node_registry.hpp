// node_registry: pp_nodes, one row per node name: when it started, its last heartbeat, whether it
// is draining, its devices (JSON from the engine's status) and the keys it can prove. A node is
// live while its heartbeat is younger than its lease; the heartbeat runs every lease/3.
#pragma once
#include <chrono>
#include <string>
#include <vector>

#include <pqxx/pqxx>

namespace pp::cluster {

// Inserts the node or, for a name seen before (a restart), resets its row.
void register_node(pqxx::connection& c, const std::string& node, std::chrono::seconds lease,
                   const std::vector<std::string>& keys);
void heartbeat(pqxx::connection& c, const std::string& node, bool draining, const std::string& devices_json,
               const std::vector<std::string>& keys);

}  // namespace pp::cluster
