// key_records: what the engine knows of each registered key besides what the key_store holds: its
// curve (from registration on), its circuit's variable count (to check a submitted witness's size before anything is queued; 0 until
// the circuit has been seen) and the host bytes one of its partitions holds, which sizes the
// partition's memory reservation: engine_config's partition_bytes when set, else the largest figure
// any device's backend for the key's curve reports (groth16::backend::host_bytes_per_partition: a CPU partition holds
// its MSM scratch on the host, a GPU partition little more than its witness). Thread-safe.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/mutex.hpp"
#include "core/thread_annotations.hpp"
#include "ec/curve_id.hpp"
#include "engine/key_catalog.hpp"
#include "groth16/backend.hpp"
#include "groth16/keys.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::engine {

class key_records {
 public:
  struct record {
    uint64_t num_variables = 0;  // 0 until the circuit has been seen
    uint64_t partition_bytes = 0;
    ec::curve_id curve = ec::curve_id::bls12_381;
  };

  // `configured_partition_bytes`: engine_config::partition_bytes (0 = ask the backends); the
  // devices' backends per curve (BN254's only on devices that prove it). They outlive the records.
  key_records(uint64_t configured_partition_bytes, std::vector<const groth16::backend*> backends,
              std::vector<const groth16::bn254::backend*> bn254_backends = {});
  key_records(const key_records&) = delete;
  key_records& operator=(const key_records&) = delete;

  // The record of a key whose proving key and circuit are at hand.
  template <class Family>
  [[nodiscard]] record measure(const groth16::basic_proving_key<Family>& pk,
                               const r1cs::basic_constraint_system<typename Family::fr>& cs) const;

  // Records the key (replacing what was known of it).
  void set(const std::string& id, record r) PP_EXCLUDES(mu_);
  // Measures a loaded key, records it and returns the record.
  record note(const std::string& id, const loaded_key& k) PP_EXCLUDES(mu_);
  // nullopt for a key never recorded (not registered).
  [[nodiscard]] std::optional<record> find(const std::string& id) const PP_EXCLUDES(mu_);

  // The recorded ids, in order, and the largest partition figure among them (0 for none).
  [[nodiscard]] std::vector<std::string> ids() const PP_EXCLUDES(mu_);
  [[nodiscard]] uint64_t largest_partition_bytes() const PP_EXCLUDES(mu_);

 private:
  const uint64_t configured_;
  const std::vector<const groth16::backend*> backends_;
  const std::vector<const groth16::bn254::backend*> bn254_backends_;
  mutable mutex mu_;
  std::map<std::string, record> records_ PP_GUARDED_BY(mu_);
};

}  // namespace pp::engine
