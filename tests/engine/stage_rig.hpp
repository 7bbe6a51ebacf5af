// What the tests of the engine's stages (witness_stage, device_worker, finish_stage) share: one
// device (a fake_device unless the test brings its own) in its slot, a partition_router over it, a
// trace, metrics, and the failures the stage under test reported through its fail hook.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/trace_recorder.hpp"
#include "engine/device_slot.hpp"
#include "engine/engine_metrics.hpp"
#include "engine/job.hpp"
#include "engine/partition_router.hpp"
#include "fake_device.hpp"

namespace pp::engine::testing {

struct stage_rig {
  // partitions_together: what the slot is asked for (the device's backend caps it).
  explicit stage_rig(std::unique_ptr<devices::device> dev = std::make_unique<fake_device>("fake0"),
                     uint32_t inbox_depth = 1, uint32_t partitions_together = 1) {
    if (auto* f = dynamic_cast<fake_device*>(dev.get())) backend = &f->impl();
    slot = std::make_unique<device_slot>(std::move(dev), 1, inbox_depth, zero_clock, partitions_together);
    router = std::make_unique<partition_router>(partition_router::capacities{8, 8, 8}, std::vector{slot.get()},
                                                partition_router::hooks{.fail = {}, .cancel_job = {}});
    auto m = engine_metrics::create();
    EXPECT_TRUE(m.ok());
    metrics = std::move(m).value();
  }

  // The stage's fail hook: records into `failed`.
  std::function<void(const partition_task&, status)> record_failures() {
    return [this](const partition_task& t, status e) { failed.push_back({t.job, t.partition, std::move(e)}); };
  }

  [[nodiscard]] std::string metrics_text() const { return metrics->render(engine_status{}); }

  fake_backend* backend = nullptr;  // the fake device's; null for a device the test brought
  std::unique_ptr<device_slot> slot;
  std::unique_ptr<partition_router> router;
  trace_recorder trace;
  std::unique_ptr<engine_metrics> metrics;
  std::vector<failure> failed;  // written by the stage, read after it ran on the test's thread
};

}  // namespace pp::engine::testing
