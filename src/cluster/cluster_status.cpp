// cluster_status: one read-only transaction, so the numbers are from one snapshot.
#include "cluster/cluster_status.hpp"

#include <nlohmann/json.hpp>

namespace pp::cluster {

std::string cluster_status_json(pqxx::connection& c) {
  pqxx::read_transaction t(c);
  nlohmann::json j;
  j["schema_version"] = t.exec("SELECT coalesce(max(version), 0) FROM pp_schema_migrations")[0][0].as<int>();
  j["nodes"] = nlohmann::json::array();
  for (const pqxx::row& r : t.exec(
           "SELECT n.name, n.heartbeat_at > now() - make_interval(secs => n.lease_s), n.draining, "
           "  extract(epoch FROM now() - n.heartbeat_at)::float8, n.devices::text, array_to_json(n.keys)::text, "
           "  (SELECT count(*) FROM pp_partitions p WHERE p.state = 'claimed' AND p.node = n.name), "
           "  (SELECT count(*) FROM pp_results r WHERE r.node = n.name), n.key_curves::text "
           "FROM pp_nodes n ORDER BY n.name")) {
    j["nodes"].push_back({{"name", r[0].as<std::string>()},
                          {"live", r[1].as<bool>()},
                          {"draining", r[2].as<bool>()},
                          {"heartbeat_age_s", r[3].as<double>()},
                          {"devices", nlohmann::json::parse(r[4].as<std::string>())},
                          {"keys", nlohmann::json::parse(r[5].as<std::string>())},
                          {"key_curves", nlohmann::json::parse(r[8].as<std::string>())},
                          {"claims", r[6].as<uint64_t>()},
                          {"partitions_proved", r[7].as<uint64_t>()}});
  }
  static constexpr const char* names[] = {"low", "normal", "high", "critical"};
  nlohmann::json queue = {{"critical", 0}, {"high", 0}, {"normal", 0}, {"low", 0}};
  for (const pqxx::row& r : t.exec("SELECT priority, count(*) FROM pp_partitions WHERE state = 'queued' GROUP BY priority")) {
    const int p = r[0].as<int>();
    if (p >= 0 && p < 4) queue[names[p]] = r[1].as<uint64_t>();
  }
  j["queued_partitions"] = queue;
  nlohmann::json jobs = {{"running", 0}, {"succeeded", 0}, {"failed", 0}, {"cancelled", 0}};
  for (const pqxx::row& r : t.exec("SELECT state, count(*) FROM pp_jobs GROUP BY state")) {
    jobs[r[0].as<std::string>()] = r[1].as<uint64_t>();
  }
  j["jobs"] = jobs;
  return j.dump();
}

}  // namespace pp::cluster
