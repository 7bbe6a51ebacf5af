// job_store: one transaction per call; the idempotency key is a UNIQUE column, so two nodes taking
// the same key at once end with one job (the loser's INSERT ... ON CONFLICT returns nothing). Ids
// are drawn as the engine draws its own (engine/job_ids.hpp): random, so not guessable, and an id
// from before a database was restored names no other job.
#include "cluster/job_store.hpp"

#include <limits>

#include "core/status_macros.hpp"
#include "engine/job_ids.hpp"

namespace pp::cluster {
namespace {

pqxx::binarystring bytes_param(const std::vector<uint8_t>& v) { return pqxx::binarystring(v.data(), v.size()); }
pqxx::binarystring bytes_param(const sha256_digest& d) { return pqxx::binarystring(d.data(), d.size()); }

}  // namespace

result<submitted_job> insert_job(pqxx::connection& c, const new_job& job,
                                 const std::function<result<std::vector<stored_witness>>(uint64_t)>& store_witnesses) {
  PP_ASSIGN_OR_RETURN(const uint64_t drawn, pp::engine::random_job_id());
  pqxx::work w(c);
  const pqxx::result ins = w.exec_params(
      "INSERT INTO pp_jobs (id, key_id, priority, num_partitions, idempotency_key, submitted_by, curve) "
      "VALUES ($6, $1, $2, $3, NULLIF($4, ''), $5, $7) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id",
      job.key_id, job.priority, job.num_partitions, job.idempotency_key, job.node, drawn, job.curve);
  if (ins.empty()) {
    const pqxx::row r = w.exec_params1("SELECT id, key_id, num_partitions FROM pp_jobs WHERE idempotency_key = $1",
                                       job.idempotency_key);
    if (r[1].as<std::string>() != job.key_id || r[2].as<uint32_t>() != job.num_partitions) {
      return already_exists("idempotency_key \"" + job.idempotency_key + "\" belongs to job " + r[0].as<std::string>() +
                            " with key \"" + r[1].as<std::string>() + "\" and " + r[2].as<std::string>() + " partitions");
    }
    return submitted_job{r[0].as<uint64_t>(), true};
  }
  const uint64_t id = ins[0][0].as<uint64_t>();
  auto stored = store_witnesses(id);
  if (!stored.ok()) return stored.error();
  for (uint32_t p = 0; p < stored->size(); ++p) {
    const stored_witness& s = (*stored)[p];
    if (s.is_inline) {
      w.exec_params("INSERT INTO pp_partitions (job_id, part, priority, key_id, witness_inline, witness_sha256, witness_bytes) "
                    "VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    id, p, job.priority, job.key_id, bytes_param(s.inline_bytes), bytes_param(s.digest), s.size);
    } else {
      w.exec_params("INSERT INTO pp_partitions (job_id, part, priority, key_id, witness_path, witness_sha256, witness_bytes) "
                    "VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    id, p, job.priority, job.key_id, s.path, bytes_param(s.digest), s.size);
    }
  }
  w.commit();
  return submitted_job{id, false};
}

std::optional<job_row> load_job(pqxx::connection& c, uint64_t id) {
  pqxx::read_transaction t(c);
  const pqxx::result r = t.exec_params(
      "SELECT id, key_id, priority, num_partitions, state, error_code, error FROM pp_jobs WHERE id = $1", id);
  if (r.empty()) return std::nullopt;
  job_row j;
  j.id = r[0][0].as<uint64_t>();
  j.key_id = r[0][1].as<std::string>();
  j.priority = r[0][2].as<int>();
  j.num_partitions = r[0][3].as<uint32_t>();
  j.state = r[0][4].as<std::string>();
  j.error_code = r[0][5].as<int>();
  j.error = r[0][6].as<std::string>();
  return j;
}

std::vector<result_row> load_results(pqxx::connection& c, uint64_t id) {
  pqxx::read_transaction t(c);
  std::vector<result_row> out;
  for (const pqxx::row& r : t.exec_params(
           "SELECT part, proof, public_json, node, device, curve FROM pp_results WHERE job_id = $1 ORDER BY part", id)) {
    result_row x;
    x.part = r[0].as<uint32_t>();
    const pqxx::binarystring b(r[1]);
    x.proof.assign(b.data(), b.data() + b.size());
    x.public_json = r[2].as<std::string>();
    x.node = r[3].as<std::string>();
    x.device = r[4].as<std::string>();
    x.curve = r[5].as<std::string>();
    out.push_back(std::move(x));
  }
  return out;
}

std::optional<std::string> cancel_job(pqxx::connection& c, uint64_t id, const std::string& why) {
  pqxx::work w(c);
  const pqxx::result r = w.exec_params("SELECT state FROM pp_jobs WHERE id = $1 FOR UPDATE", id);
  if (r.empty()) return std::nullopt;
  std::string state = r[0][0].as<std::string>();
  if (state == "running") {
    w.exec_params("UPDATE pp_jobs SET state = 'cancelled', error_code = $2, error = $3, finished_at = now() WHERE id = $1",
                  id, static_cast<int>(status_code::cancelled), why);
    w.exec_params("UPDATE pp_partitions SET state = 'cancelled', node = NULL, lease_until = NULL "
                  "WHERE job_id = $1 AND state IN ('queued', 'claimed')", id);
    state = "cancelled";
  }
  w.commit();
  return state;
}

std::vector<std::string> witness_paths(pqxx::connection& c, uint64_t id) {
  pqxx::read_transaction t(c);
  std::vector<std::string> out;
  for (const pqxx::row& r : t.exec_params(
           "SELECT witness_path FROM pp_partitions WHERE job_id = $1 AND witness_path IS NOT NULL ORDER BY part", id)) {
    out.push_back(r[0].as<std::string>());
  }
  return out;
}

std::vector<uint64_t> ended_jobs(pqxx::connection& c, const std::vector<uint64_t>& ids) {
  std::vector<uint64_t> out;
  if (ids.empty()) return out;
  std::string array = "{";
  for (const uint64_t id : ids) {
    if (id > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) continue;  // no bigint names it
    array += (array.size() > 1 ? "," : "") + std::to_string(id);
  }
  array += "}";
  pqxx::read_transaction t(c);
  for (const pqxx::row& r :
       t.exec_params("SELECT id FROM pp_jobs WHERE id = ANY($1::bigint[]) AND state <> 'running' ORDER BY id", array)) {
    out.push_back(r[0].as<uint64_t>());
  }
  return out;
}

bool delete_job(pqxx::connection& c, uint64_t id) {
  pqxx::work w(c);
  const pqxx::result r = w.exec_params("DELETE FROM pp_jobs WHERE id = $1 AND state <> 'running' RETURNING id", id);
  w.commit();
  return !r.empty();
}

}  // namespace pp::cluster
