// node_registry: plain upserts; nothing here takes a lock another node waits on.
#include "cluster/node_registry.hpp"

#include "cluster/db_session.hpp"

namespace pp::cluster {

void register_node(pqxx::connection& c, const std::string& node, std::chrono::seconds lease,
                   const std::vector<std::string>& keys) {
  pqxx::work w(c);
  w.exec_params("INSERT INTO pp_nodes (name, lease_s, keys) VALUES ($1, $2, $3::text[]) "
                "ON CONFLICT (name) DO UPDATE SET started_at = now(), heartbeat_at = now(), lease_s = $2, "
                "draining = false, devices = '[]', keys = $3::text[]",
                node, static_cast<int>(lease.count()), text_array(keys));
  w.commit();
}

void heartbeat(pqxx::connection& c, const std::string& node, bool draining, const std::string& devices_json,
               const std::vector<std::string>& keys) {
  pqxx::work w(c);
  w.exec_params("UPDATE pp_nodes SET heartbeat_at = now(), draining = $2, devices = $3::jsonb, keys = $4::text[] "
                "WHERE name = $1",
                node, draining, devices_json, text_array(keys));
  w.commit();
}

}  // namespace pp::cluster
