// node_registry: pp_nodes, one row per node name: when it started, its last heartbeat, whether it
// is draining, its devices (JSON from the engine's status), the keys it can prove with the largest
// witness file each allows and each one's curve, and when it last took work (serving_at: its last heartbeat while not
// draining). A node is live while its heartbeat is younger than its lease; the heartbeat runs every
// lease/3 and writes the whole row, so a row lost with the database (a restore from a backup)
// comes back with the next one.
#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <pqxx/pqxx>

namespace pp::cluster {

// What a node publishes about itself.
struct node_report {
  bool draining = false;
  std::string devices_json = "[]";
  std::map<std::string, uint64_t> keys;  // key id -> the largest .wtns file its circuit allows
  std::map<std::string, std::string> key_curves;  // key id -> its curve ("bls12381" or "bn128")
};

// Inserts the node or, for a name seen before (a restart), resets its row.
void register_node(pqxx::connection& c, const std::string& node, std::chrono::seconds lease, const node_report& report);
// Refreshes the node's row (inserting it again when it is gone).
void heartbeat(pqxx::connection& c, const std::string& node, std::chrono::seconds lease, const node_report& report);

// The largest witness file any live node that is not draining allows for `key`; nullopt when no
// such node holds the key.
[[nodiscard]] std::optional<uint64_t> live_witness_bound(pqxx::connection& c, const std::string& key);
// The curves ("bls12381", "bn128") live nodes that are not draining publish for `key`, sorted; empty
// when none does.
[[nodiscard]] std::vector<std::string> live_key_curves(pqxx::connection& c, const std::string& key);

}  // namespace pp::cluster
