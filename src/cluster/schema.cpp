// schema: migration 1 is the whole first schema. Partition rows carry their job's priority and key
// so that the claim query reads one table through one partial index (pp_partitions_ready).
#include "cluster/schema.hpp"

#include <array>
#include <string>

namespace pp::cluster {
namespace {

constexpr std::string_view v1 = R"sql(
CREATE TABLE pp_jobs (
  id              bigserial PRIMARY KEY,
  key_id          text NOT NULL,
  priority        smallint NOT NULL CHECK (priority BETWEEN 0 AND 3),
  num_partitions  integer NOT NULL CHECK (num_partitions > 0),
  idempotency_key text UNIQUE,
  state           text NOT NULL DEFAULT 'running'
                  CHECK (state IN ('running', 'succeeded', 'failed', 'cancelled')),
  error_code      integer NOT NULL DEFAULT 0,
  error           text NOT NULL DEFAULT '',
  proof           bytea,
  submitted_by    text NOT NULL,
  assembled_by    text,
  submitted_at    timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz
);
CREATE TABLE pp_partitions (
  job_id         bigint NOT NULL REFERENCES pp_jobs (id) ON DELETE CASCADE,
  part           integer NOT NULL,
  priority       smallint NOT NULL,
  key_id         text NOT NULL,
  state          text NOT NULL DEFAULT 'queued'
                 CHECK (state IN ('queued', 'claimed', 'done', 'failed', 'cancelled')),
  node           text,
  lease_until    timestamptz,
  claims         integer NOT NULL DEFAULT 0,
  witness_inline bytea,
  witness_path   text,
  witness_sha256 bytea,
  witness_bytes  bigint NOT NULL,
  PRIMARY KEY (job_id, part),
  CHECK ((witness_inline IS NULL) <> (witness_path IS NULL))
);
CREATE INDEX pp_partitions_ready ON pp_partitions (priority DESC, job_id, part) WHERE state = 'queued';
CREATE INDEX pp_partitions_claimed ON pp_partitions (node, lease_until) WHERE state = 'claimed';
CREATE TABLE pp_results (
  job_id      bigint NOT NULL,
  part        integer NOT NULL,
  proof       bytea NOT NULL,
  public_json text NOT NULL,
  node        text NOT NULL,
  device      text NOT NULL,
  written_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, part),
  FOREIGN KEY (job_id, part) REFERENCES pp_partitions (job_id, part) ON DELETE CASCADE
);
CREATE TABLE pp_failures (
  job_id bigint NOT NULL,
  part   integer NOT NULL,
  node   text NOT NULL,
  error  text NOT NULL,
  at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, part, node),
  FOREIGN KEY (job_id, part) REFERENCES pp_partitions (job_id, part) ON DELETE CASCADE
);
CREATE TABLE pp_nodes (
  name         text PRIMARY KEY,
  started_at   timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  lease_s      integer NOT NULL,
  draining     boolean NOT NULL DEFAULT false,
  devices      jsonb NOT NULL DEFAULT '[]',
  keys         text[] NOT NULL DEFAULT '{}'
);
)sql";

// Job ids are drawn by the nodes (53 random bits, engine/job_ids.hpp), not from a sequence: a
// sequence is guessable and starts over on a restored or recreated database. A node publishes the
// largest witness each of its keys allows, and when it last took work (serving_at), so that a job
// whose key no live node serves can be failed (docs/operations.md, "Cluster").
constexpr std::string_view v2 = R"sql(
ALTER TABLE pp_jobs ALTER COLUMN id DROP DEFAULT;
DROP SEQUENCE IF EXISTS pp_jobs_id_seq;
ALTER TABLE pp_nodes ADD COLUMN witness_bytes jsonb NOT NULL DEFAULT '{}';
ALTER TABLE pp_nodes ADD COLUMN serving_at timestamptz NOT NULL DEFAULT now();
)sql";

// BN254 keys beside BLS12-381 ones: jobs and results name their curve (stored_proof.hpp), and nodes
// publish each key's curve so that a node without the key refuses a witness of the other curve at
// submission. Rows written before are BLS12-381's, the only curve cluster mode stored until then:
// the default names them.
constexpr std::string_view v3 = R"sql(
ALTER TABLE pp_jobs ADD COLUMN curve text NOT NULL DEFAULT 'bls12381' CHECK (curve IN ('bls12381', 'bn128'));
ALTER TABLE pp_results ADD COLUMN curve text NOT NULL DEFAULT 'bls12381' CHECK (curve IN ('bls12381', 'bn128'));
ALTER TABLE pp_nodes ADD COLUMN key_curves jsonb NOT NULL DEFAULT '{}';
)sql";

constexpr std::array<migration, 3> all = {{
    {1, "jobs, partitions, results, failures, nodes", v1},
    {2, "random job ids; each node's witness bounds and last serving time", v2},
    {3, "the curve of jobs, results and each node's keys", v3},
}};

// Any fixed number shared by every node: the advisory lock that serialises migrations.
constexpr int64_t migration_lock = 0x70726f6f66706970;  // "proofpip"

}  // namespace

std::span<const migration> migrations() { return all; }

int apply_migrations(pqxx::connection& c) {
  pqxx::work w(c);
  w.exec_params("SELECT pg_advisory_xact_lock($1)", migration_lock);
  w.exec("CREATE TABLE IF NOT EXISTS pp_schema_migrations (version integer PRIMARY KEY, "
         "description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
  int at = w.exec1("SELECT coalesce(max(version), 0) FROM pp_schema_migrations")[0].as<int>();
  for (const migration& m : all) {
    if (m.version <= at) continue;
    w.exec(std::string(m.sql));
    w.exec_params("INSERT INTO pp_schema_migrations (version, description) VALUES ($1, $2)", m.version,
                  std::string(m.description));
    at = m.version;
  }
  w.commit();
  return at;
}

}  // namespace pp::cluster
