// partition_claimer: every statement names the claiming node, so a node whose lease ran out (and
// whose partition someone else now holds) changes nothing by renewing or releasing it.
#include "cluster/partition_claimer.hpp"

#include <algorithm>

#include "cluster/cluster_config.hpp"
#include "cluster/stored_proof.hpp"

namespace pp::cluster {
namespace {

std::vector<uint8_t> bytes_of(const pqxx::field& f) {
  const pqxx::binarystring b(f);
  return {b.data(), b.data() + b.size()};
}

}  // namespace

std::optional<claim> claim_next(pqxx::connection& c, const std::string& node, const std::string& keys,
                                std::chrono::seconds lease) {
  pqxx::work w(c);
  const pqxx::result r = w.exec_params(
      "UPDATE pp_partitions p SET state = 'claimed', node = $1, claims = p.claims + 1, "
      "  lease_until = now() + make_interval(secs => $3) "
      "FROM (SELECT job_id, part FROM pp_partitions q "
      "      WHERE q.state = 'queued' AND q.key_id = ANY($2::text[]) "
      "        AND NOT EXISTS (SELECT 1 FROM pp_failures f WHERE f.job_id = q.job_id AND f.part = q.part AND f.node = $1) "
      "      ORDER BY q.priority DESC, q.job_id, q.part LIMIT 1 FOR UPDATE SKIP LOCKED) next "
      "WHERE p.job_id = next.job_id AND p.part = next.part "
      "RETURNING p.job_id, p.part, p.priority, p.key_id, p.claims, p.witness_inline IS NOT NULL, p.witness_inline, "
      "  p.witness_path, p.witness_sha256, p.witness_bytes, "
      "  (SELECT num_partitions FROM pp_jobs j WHERE j.id = p.job_id)",
      node, keys, static_cast<double>(lease.count()));
  w.commit();
  if (r.empty()) return std::nullopt;
  const pqxx::row& row = r[0];
  claim cl;
  cl.job = row[0].as<uint64_t>();
  cl.part = row[1].as<uint32_t>();
  cl.priority = row[2].as<int>();
  cl.key_id = row[3].as<std::string>();
  cl.claims = row[4].as<uint32_t>();
  cl.witness.is_inline = row[5].as<bool>();
  if (cl.witness.is_inline) {
    cl.witness.inline_bytes = bytes_of(row[6]);
  } else {
    cl.witness.path = row[7].as<std::string>();
  }
  const std::vector<uint8_t> digest = bytes_of(row[8]);
  std::copy_n(digest.begin(), std::min(digest.size(), cl.witness.digest.size()), cl.witness.digest.begin());
  cl.witness.size = row[9].as<uint64_t>();
  cl.num_partitions = row[10].as<uint32_t>();
  return cl;
}

lease_state renew_lease(pqxx::connection& c, const std::string& node, uint64_t job, uint32_t part,
                        std::chrono::seconds lease) {
  pqxx::work w(c);
  const pqxx::result r = w.exec_params(
      "UPDATE pp_partitions SET lease_until = now() + make_interval(secs => $4) "
      "WHERE job_id = $1 AND part = $2 AND node = $3 AND state = 'claimed' RETURNING 1",
      job, part, node, static_cast<double>(lease.count()));
  const std::string job_state = w.exec_params1("SELECT state FROM pp_jobs WHERE id = $1", job)[0].as<std::string>();
  w.commit();
  if (job_state != "running") return lease_state::job_ended;
  return r.empty() ? lease_state::lost : lease_state::held;
}

void release_claim(pqxx::connection& c, const std::string& node, uint64_t job, uint32_t part) {
  pqxx::work w(c);
  w.exec_params("UPDATE pp_partitions SET state = 'queued', node = NULL, lease_until = NULL "
                "WHERE job_id = $1 AND part = $2 AND node = $3 AND state = 'claimed'",
                job, part, node);
  w.commit();
}

int release_node_claims(pqxx::connection& c, const std::string& node) {
  pqxx::work w(c);
  const pqxx::result r = w.exec_params(
      "UPDATE pp_partitions SET state = 'queued', node = NULL, lease_until = NULL "
      "WHERE node = $1 AND state = 'claimed' RETURNING 1", node);
  w.commit();
  return static_cast<int>(r.size());
}

std::vector<std::string> reclaim_expired(pqxx::connection& c) {
  pqxx::work w(c);
  std::vector<std::string> out;
  for (const pqxx::row& r : w.exec(
           "UPDATE pp_partitions p SET state = 'queued', node = NULL, lease_until = NULL "
           "FROM (SELECT job_id, part, node FROM pp_partitions WHERE state = 'claimed' AND lease_until < now() "
           "      FOR UPDATE SKIP LOCKED) old "
           "WHERE p.job_id = old.job_id AND p.part = old.part RETURNING old.job_id, old.part, old.node")) {
    out.push_back(r[0].as<std::string>() + "/" + r[1].as<std::string>() + " on " + r[2].as<std::string>());
  }
  w.commit();
  return out;
}

std::vector<uint64_t> fail_unserved_jobs(pqxx::connection& c, std::chrono::seconds after) {
  pqxx::work w(c);
  std::vector<uint64_t> out;
  for (const pqxx::row& r : w.exec_params(
           "UPDATE pp_jobs j SET state = 'failed', error_code = $2, finished_at = now(), "
           "  error = 'key \"' || j.key_id || $3 "
           "FROM (SELECT id FROM pp_jobs q WHERE q.state = 'running' "
           "        AND q.submitted_at < now() - make_interval(secs => $1) "
           "        AND EXISTS (SELECT 1 FROM pp_partitions p WHERE p.job_id = q.id AND p.state = 'queued') "
           "        AND NOT EXISTS (SELECT 1 FROM pp_nodes n WHERE q.key_id = ANY(n.keys) "
           "                          AND n.serving_at > now() - make_interval(secs => $1)) "
           "      FOR UPDATE SKIP LOCKED) unserved "
           "WHERE j.id = unserved.id RETURNING j.id",
           static_cast<double>(after.count()), static_cast<int>(status_code::failed_precondition),
           "\" is held by no node that has been taking work in the last " + std::to_string(after.count()) +
               " s (cluster.unserved_job_s): register it on a node that is up, or start one that has it")) {
    out.push_back(r[0].as<uint64_t>());
  }
  for (const uint64_t id : out) {
    w.exec_params("UPDATE pp_partitions SET state = 'cancelled', node = NULL, lease_until = NULL "
                  "WHERE job_id = $1 AND state IN ('queued', 'claimed')", id);
  }
  w.commit();
  return out;
}

completion complete_partition(pqxx::connection& c, const std::string& node, const claim& cl, const partition_output& out,
                              const std::function<status(const std::vector<result_row>&)>& verify_all) {
  pqxx::work w(c);
  completion done;
  // The job row's lock orders every completion of this job: whoever holds it sees all results
  // committed before it, so the one that counts num_partitions is the last, and only one does.
  done.job_state = w.exec_params1("SELECT state FROM pp_jobs WHERE id = $1 FOR UPDATE", cl.job)[0].as<std::string>();
  const pqxx::result ins = w.exec_params(
      "INSERT INTO pp_results (job_id, part, proof, public_json, node, device, curve) VALUES ($1, $2, $3, $4, $5, $6, $7) "
      "ON CONFLICT (job_id, part) DO NOTHING RETURNING 1",
      cl.job, cl.part, pqxx::binarystring(out.proof.data(), out.proof.size()), out.public_json, node, out.device,
      out.curve);
  done.written = !ins.empty();
  w.exec_params("UPDATE pp_partitions SET state = 'done', node = $3, lease_until = NULL WHERE job_id = $1 AND part = $2",
                cl.job, cl.part, node);
  if (done.written && done.job_state == "running") {
    const auto count = w.exec_params1("SELECT count(*) FROM pp_results WHERE job_id = $1", cl.job)[0].as<uint32_t>();
    if (count == cl.num_partitions) {
      std::vector<result_row> rows;
      for (const pqxx::row& r : w.exec_params(
               "SELECT part, proof, public_json, node, device, curve FROM pp_results WHERE job_id = $1 ORDER BY part",
               cl.job)) {
        rows.push_back({r[0].as<uint32_t>(), bytes_of(r[1]), r[2].as<std::string>(), r[3].as<std::string>(),
                        r[4].as<std::string>(), r[5].as<std::string>()});
      }
      const status verified = verify_all(rows);
      if (verified.ok()) {
        const std::vector<uint8_t> proof = assemble_job_proof(rows);
        w.exec_params("UPDATE pp_jobs SET state = 'succeeded', proof = $2, assembled_by = $3, finished_at = now() WHERE id = $1",
                      cl.job, pqxx::binarystring(proof.data(), proof.size()), node);
        done.job_state = "succeeded";
      } else {
        w.exec_params("UPDATE pp_jobs SET state = 'failed', error_code = $2, error = $3, assembled_by = $4, finished_at = now() "
                      "WHERE id = $1",
                      cl.job, static_cast<int>(verified.code()), verified.to_string(), node);
        done.job_state = "failed";
      }
      done.assembled = true;
    }
  }
  w.commit();
  return done;
}

failure_outcome fail_partition(pqxx::connection& c, const std::string& node, const claim& cl, const status& error) {
  pqxx::work w(c);
  failure_outcome out;
  const std::string job_state =
      w.exec_params1("SELECT state FROM pp_jobs WHERE id = $1 FOR UPDATE", cl.job)[0].as<std::string>();
  w.exec_params("INSERT INTO pp_failures (job_id, part, node, error) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT (job_id, part, node) DO UPDATE SET error = EXCLUDED.error, at = now()",
                cl.job, cl.part, node, error.to_string());
  out.failures = w.exec_params1("SELECT count(*) FROM pp_failures WHERE job_id = $1 AND part = $2", cl.job, cl.part)[0]
                     .as<uint32_t>();
  const auto live = w.exec("SELECT count(*) FROM pp_nodes WHERE NOT draining AND "
                           "heartbeat_at > now() - make_interval(secs => lease_s)")[0][0].as<uint32_t>();
  const uint32_t needed = std::max<uint32_t>(1, std::min(max_node_failures, live));
  if (job_state == "running" && out.failures >= needed) {
    std::string message = "partition " + std::to_string(cl.part) + " failed on " + std::to_string(out.failures) + " nodes:";
    for (const pqxx::row& r : w.exec_params(
             "SELECT node, error FROM pp_failures WHERE job_id = $1 AND part = $2 ORDER BY at", cl.job, cl.part)) {
      message += " [" + r[0].as<std::string>() + ": " + r[1].as<std::string>() + "]";
    }
    w.exec_params("UPDATE pp_jobs SET state = 'failed', error_code = $2, error = $3, finished_at = now() WHERE id = $1",
                  cl.job, static_cast<int>(error.code()), message);
    w.exec_params("UPDATE pp_partitions SET state = CASE WHEN job_id = $1 AND part = $2 THEN 'failed' ELSE 'cancelled' END, "
                  "node = NULL, lease_until = NULL WHERE job_id = $1 AND state IN ('queued', 'claimed')",
                  cl.job, cl.part);
    out.job_failed = true;
  } else {
    w.exec_params("UPDATE pp_partitions SET state = 'queued', node = NULL, lease_until = NULL "
                  "WHERE job_id = $1 AND part = $2 AND node = $3 AND state = 'claimed'",
                  cl.job, cl.part, node);
  }
  w.commit();
  return out;
}

}  // namespace pp::cluster
