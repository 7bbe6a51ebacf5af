// node_registry: plain upserts; nothing here takes a lock another node waits on.
#include "cluster/node_registry.hpp"

#include <vector>

#include <nlohmann/json.hpp>

#include "cluster/db_session.hpp"

namespace pp::cluster {
namespace {

std::string key_ids(const node_report& r) {
  std::vector<std::string> ids;
  for (const auto& [id, bytes] : r.keys) ids.push_back(id);
  return text_array(ids);
}

std::string witness_bytes(const node_report& r) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [id, bytes] : r.keys) j[id] = bytes;
  return j.dump();
}

std::string key_curves(const node_report& r) { return nlohmann::json(r.key_curves).dump(); }

}  // namespace

void register_node(pqxx::connection& c, const std::string& node, std::chrono::seconds lease, const node_report& report) {
  pqxx::work w(c);
  w.exec_params("INSERT INTO pp_nodes (name, lease_s, draining, devices, keys, witness_bytes, key_curves) "
                "VALUES ($1, $2, $3, $4::jsonb, $5::text[], $6::jsonb, $7::jsonb) "
                "ON CONFLICT (name) DO UPDATE SET started_at = now(), heartbeat_at = now(), serving_at = now(), "
                "lease_s = $2, draining = $3, devices = $4::jsonb, keys = $5::text[], witness_bytes = $6::jsonb, "
                "key_curves = $7::jsonb",
                node, static_cast<int>(lease.count()), report.draining, report.devices_json, key_ids(report),
                witness_bytes(report), key_curves(report));
  w.commit();
}

void heartbeat(pqxx::connection& c, const std::string& node, std::chrono::seconds lease, const node_report& report) {
  pqxx::work w(c);
  w.exec_params("INSERT INTO pp_nodes (name, lease_s, draining, devices, keys, witness_bytes, key_curves) "
                "VALUES ($1, $2, $3, $4::jsonb, $5::text[], $6::jsonb, $7::jsonb) "
                "ON CONFLICT (name) DO UPDATE SET heartbeat_at = now(), "
                "serving_at = CASE WHEN $3 THEN pp_nodes.serving_at ELSE now() END, "
                "lease_s = $2, draining = $3, devices = $4::jsonb, keys = $5::text[], witness_bytes = $6::jsonb, "
                "key_curves = $7::jsonb",
                node, static_cast<int>(lease.count()), report.draining, report.devices_json, key_ids(report),
                witness_bytes(report), key_curves(report));
  w.commit();
}

std::optional<uint64_t> live_witness_bound(pqxx::connection& c, const std::string& key) {
  pqxx::read_transaction t(c);
  const pqxx::row r = t.exec_params1(
      "SELECT max((witness_bytes ->> $1)::bigint) FROM pp_nodes "
      "WHERE $1 = ANY(keys) AND NOT draining AND heartbeat_at > now() - make_interval(secs => lease_s)",
      key);
  t.commit();
  if (r[0].is_null()) return std::nullopt;
  return r[0].as<uint64_t>();
}

std::vector<std::string> live_key_curves(pqxx::connection& c, const std::string& key) {
  pqxx::read_transaction t(c);
  std::vector<std::string> out;
  for (const pqxx::row& r : t.exec_params(
           "SELECT DISTINCT key_curves ->> $1 FROM pp_nodes WHERE key_curves ? $1 AND $1 = ANY(keys) AND NOT draining "
           "AND heartbeat_at > now() - make_interval(secs => lease_s) ORDER BY 1",
           key)) {
    out.push_back(r[0].as<std::string>());
  }
  t.commit();
  return out;
}

}  // namespace pp::cluster
