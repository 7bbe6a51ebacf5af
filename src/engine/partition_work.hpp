// partition_work: one partition's state between the engine's stages: what the witness stage gathered
// (key lease, memory reservation, witness of the key's curve), what the device stage made (the pending proof, where it
// ran, how often it was tried) and the timings so far. Parked in the partition_router while its
// task is queued; a stage owns it between claim() and forward().
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "engine/device_slot.hpp"
#include "engine/engine_types.hpp"
#include "engine/key_catalog.hpp"
#include "engine/key_store.hpp"
#include "engine/memory_budget.hpp"
#include "groth16/backend.hpp"

namespace pp::engine {

// A witness in memory of either curve.
using any_witness = std::variant<witness_ptr<ec::bls12_381::family>, witness_ptr<ec::bn254::family>>;

struct partition_work {
  std::string key_id;
  witness_source source;
  std::chrono::steady_clock::time_point enqueued = std::chrono::steady_clock::now();  // entered its current queue
  // witness stage
  key_lease lease;
  const loaded_key* key = nullptr;
  memory_reservation memory;
  any_witness witness;  // the key's curve's
  // device stage
  device_slot* device = nullptr;
  groth16::pending_ptr pending;
  uint32_t attempts = 0;
  std::vector<stage_timing> stages;
};

}  // namespace pp::engine
