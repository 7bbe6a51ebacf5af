// partition_work: one partition's state between the engine's stages: what the witness stage gathered
// (key lease, memory reservation, witness), what the device stage made (the pending proof, where it
// ran, how often it was tried) and the timings so far. Parked in the partition_router while its
// task is queued; a stage owns it between claim() and forward().
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/device_slot.hpp"
#include "engine/engine_types.hpp"
#include "engine/key_catalog.hpp"
#include "engine/key_store.hpp"
#include "engine/memory_budget.hpp"
#include "ff/fr.hpp"
#include "groth16/backend.hpp"

namespace pp::engine {

struct partition_work {
  std::string key_id;
  witness_source source;
  std::chrono::steady_clock::time_point enqueued = std::chrono::steady_clock::now();  // entered its current queue
  // witness stage
  key_lease lease;
  const loaded_key* key = nullptr;
  memory_reservation memory;
  std::shared_ptr<const std::vector<ff::fr>> witness;
  // device stage
  device_slot* device = nullptr;
  groth16::pending_ptr pending;
  uint32_t attempts = 0;
  std::vector<stage_timing> stages;
};

}  // namespace pp::engine
