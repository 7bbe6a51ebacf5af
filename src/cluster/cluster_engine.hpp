// cluster_engine: the engine interface (engine/engine.hpp) over PostgreSQL, so that the daemon's
// gRPC service works unchanged on a node of a cluster. Jobs live in the database: submit() stores
// them (witnesses inline or in the shared directory), await()/cancel() read and write their rows,
// so any node answers for any job. Claimer threads take ready partitions, prove each as a one-
// partition job on this node's own engine while renewing the lease, and write the result; the node
// writing a job's last result assembles and verifies it. A heartbeat thread keeps the node's row
// fresh, puts other nodes' expired leases back in the queue and deletes shared-directory witnesses
// of ended jobs that their remover left (killed in between). Keys, devices, traces stay local.
// Keys of either curve: a job's rows name its curve and proofs are stored in it (stored_proof.hpp).
#pragma once
#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "cluster/cluster_config.hpp"
#include "cluster/db_session.hpp"
#include "cluster/node_metrics.hpp"
#include "cluster/node_registry.hpp"
#include "cluster/partition_claimer.hpp"
#include "cluster/witness_store.hpp"
#include "core/mutex.hpp"
#include "ec/curve_id.hpp"
#include "engine/engine.hpp"
#include "groth16/keys.hpp"

namespace pp::cluster {

// invalid_argument naming the knob ("cluster.node: ...").
[[nodiscard]] status validate(const cluster_config& c);

class cluster_engine final : public pp::engine::engine {
 public:
  // Connects, applies the schema migrations, registers the node, puts back whatever this node's
  // name held before (a restart after a crash), and starts the claimers and the heartbeat.
  // unavailable when the database cannot be reached; failed_precondition when it has a newer schema.
  [[nodiscard]] static result<std::unique_ptr<cluster_engine>> create(std::unique_ptr<pp::engine::engine> local,
                                                                      cluster_config config);
  ~cluster_engine() override;

  pp::status register_key(const std::string& id, pp::engine::key_source source) override;
  pp::status preload_key(const std::string& id, pp::engine::deadline d) override { return local_->preload_key(id, d); }
  pp::status evict_key(const std::string& id) override { return local_->evict_key(id); }
  result<pp::engine::job_id> submit(pp::engine::submit_request request) override;
  result<pp::engine::job_result> await(pp::engine::job_id id, pp::engine::deadline d) override;
  pp::status cancel(pp::engine::job_id id) override;
  pp::status forget(pp::engine::job_id id) override;
  [[nodiscard]] pp::engine::engine_status status() const override { return local_->status(); }
  [[nodiscard]] std::string metrics_text() const override;
  [[nodiscard]] pp::status write_trace(const std::filesystem::path& path) const override { return local_->write_trace(path); }
  pp::status shutdown(pp::engine::shutdown_options options) override;
  pp::status inject_device_failure(const std::string& device, uint32_t count) override {
    return local_->inject_device_failure(device, count);
  }

  // The cluster as JSON (cluster_status.hpp); an {"error": ...} object when the database fails.
  [[nodiscard]] std::string cluster_status_json();
  [[nodiscard]] const cluster_config& config() const { return config_; }

 private:
  cluster_engine(std::unique_ptr<pp::engine::engine> local, cluster_config config);

  // A database session for an API call, returned to the pool when the lease ends.
  class pooled_session;
  pooled_session session();

  // A key's verifying key, of the key's curve.
  using any_verifying_key = std::variant<std::shared_ptr<const groth16::verifying_key>,
                                         std::shared_ptr<const groth16::bn254::verifying_key>>;

  void claimer_loop();
  void heartbeat_loop();
  // Proves one claimed partition to its end: written, failed, or released.
  void work(db_session& db, const claim& cl);
  pp::status verify_all(const std::string& key_id, const std::vector<result_row>& rows);
  // Removes an ended job's witness files (witness_store::remove_job) where its rows recorded them.
  void remove_witnesses(db_session& db, uint64_t job);
  result<any_verifying_key> verifying_key_for(const std::string& key_id);
  // What a submission for a key is checked against: this node's key, else what the live nodes holding
  // it publish. not_found when no live node holds it.
  struct key_limits {
    uint64_t witness_bytes = 0;         // the largest .wtns file allowed
    std::vector<ec::curve_id> curves;   // the key's curve (several: nodes disagree; none: unpublished)
  };
  result<key_limits> limits_for(const std::string& key_id);
  std::vector<std::string> key_ids() const;
  // What the heartbeat publishes (node_registry.hpp).
  node_report report() const;
  // Sleeps up to `d`, waking early when the node stops.
  void nap(std::chrono::milliseconds d);

  std::unique_ptr<pp::engine::engine> local_;
  const cluster_config config_;
  const witness_store witnesses_;
  db_meter meter_;
  cluster_counters counters_;

  // Held while a report is taken and written, so that a heartbeat's report from before a key's
  // registration never lands after the registration's own (the key would be unpublished for up to
  // a lease/3). Taken before keys_mu_ (report()).
  pp::mutex publish_mu_ PP_ACQUIRED_BEFORE(keys_mu_);
  mutable pp::mutex keys_mu_;
  std::map<std::string, std::string> key_paths_ PP_GUARDED_BY(keys_mu_);  // id -> zkey path ("" in memory)
  std::map<std::string, uint64_t> key_bounds_ PP_GUARDED_BY(keys_mu_);    // id -> largest .wtns its circuit allows
  std::map<std::string, ec::curve_id> key_curves_ PP_GUARDED_BY(keys_mu_);
  std::map<std::string, any_verifying_key> verifying_keys_ PP_GUARDED_BY(keys_mu_);

  // Database connections for API calls (submit, await, cancel, status): at most max_api_sessions,
  // so that many awaiting clients cannot exhaust the server's max_connections.
  static constexpr size_t max_api_sessions = 8;
  pp::mutex pool_mu_;
  std::condition_variable pool_cv_;  // a session came back
  std::vector<std::unique_ptr<db_session>> pool_ PP_GUARDED_BY(pool_mu_);  // idle sessions
  size_t pool_open_ PP_GUARDED_BY(pool_mu_) = 0;  // sessions created (idle or leased)

  pp::mutex stop_mu_;
  std::condition_variable stop_cv_;  // wakes naps, the heartbeat and the drain watchdog
  bool shutdown_started_ PP_GUARDED_BY(stop_mu_) = false;
  bool stopped_ PP_GUARDED_BY(stop_mu_) = false;  // every claimer has returned
  std::atomic<bool> claiming_{true};   // false: take no new partitions
  std::atomic<bool> abandon_{false};   // true: give up partitions in progress (stop without drain)
  std::atomic<bool> draining_{false};
  std::vector<std::thread> claimers_;
  std::thread heartbeat_;
};

}  // namespace pp::cluster
