// region_policy (src/cuda/key/region_policy.hpp) on the host with fake keys: the loaders place
// nothing on a device, the region is a byte count, so the policy's decisions are checked alone. A key
// is planned once and placed once; a second key goes beside the first when it fits; one that does
// not fits after a re-plan that keeps the most recently used keys (the least recent evicted); keys
// that fit together cost one re-plan however often they alternate; a key too large even alone is
// refused naming the least budget; a failed upload's CUDA error makes the device unhealthy; pinning
// and the host charge follow the settings; a caller's lane is handed back around a re-plan, also with
// two threads evicting each other's keys. Shapes: the PoRep shape scaled to 2^16.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "cuda/key/region_policy.hpp"
#include "support/status_matchers.hpp"

namespace pp::cuda::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The PoRep shape at a domain of 2^log_n: A on ~every variable, B on a quarter, matrices streamable.
key_shape porep_shape(int log_n, uint32_t h_copies_max = 1) {
  key_shape s;
  s.n = uint64_t{1} << log_n;
  s.nv = s.n - s.n / 32;
  s.points = {s.n - 1, s.nv - s.nv / 1000, s.nv - s.nv / 400, s.nv / 4, s.nv / 4};
  s.point_bytes = {96, 96, 96, 96, 192};
  s.matrices_bytes = 36 * s.n;
  s.matrix_tables_bytes = 4096;
  s.rows.slot_bytes = s.matrices_bytes / 8;
  s.rows.image_bytes = s.matrices_bytes - s.matrix_tables_bytes;
  s.qap_bytes = 2 * 32 * s.n;
  s.a_index_bytes = s.points[table_a] * 4;
  s.b_index_bytes = s.points[table_b_g1] * 4;
  s.witness_ws_bytes = s.nv / 4;
  s.h_in_turns = true;
  s.h_copies_max = h_copies_max;
  return s;
}

// Workspaces that scale with the chunk as the GPU MSM's do.
std::vector<msm_chunking> chunkings(const key_shape& s) {
  std::vector<msm_chunking> o;
  for (uint64_t c = std::max<uint64_t>(s.n, 1024); c >= 1024; c /= 2) o.push_back({c, c / 2, 80 * c + (uint64_t{1} << 20)});
  return o;
}

// A key that places nothing: its plan view is given, its upload counted (and made to fail on demand).
class fake_key final : public key_loader {
 public:
  fake_key(const groth16::proving_key* pk, uint64_t tag, key_shape shape) : shape_(shape) {
    id_.pk = pk;
    id_.n_vars = tag;
  }
  [[nodiscard]] const key_fingerprint& id() const override { return id_; }
  result<planned_key> plan() override {
    ++plans;
    return planned_key{id_, shape_, chunkings(shape_), 0};
  }
  status upload(key_entry& k, const workspace_span& ws, uint64_t budget, pinned_chunk_copier&) override {
    ++uploads;
    pin_budget = budget;
    if (!fail.ok()) return fail;
    k.pinned_bytes = std::min(pins, budget);
    k.ws.resize(ws.count);
    return ok_status();
  }

  int plans = 0, uploads = 0;
  uint64_t pin_budget = 0;  // the last upload's
  uint64_t pins = 0;        // bytes each upload pins (within its budget)
  status fail = ok_status();

 private:
  key_fingerprint id_;
  key_shape shape_;
};

constexpr uint64_t unlimited = uint64_t{1} << 50;

// The bytes a region of these shapes is planned in with room to spare, and exactly.
uint64_t region_bytes(const std::vector<key_shape>& shapes, uint32_t lanes) {
  std::vector<std::vector<msm_chunking>> options;
  for (const key_shape& s : shapes) options.push_back(chunkings(s));
  auto r = plan_region(shapes, options, unlimited, lanes);
  EXPECT_THAT(r, IsOk());
  return r.ok() ? r->bytes : 0;
}

// The least bytes these shapes have a region plan in, by bisection (region_bytes is enough).
uint64_t least_region_bytes(const std::vector<key_shape>& shapes, uint32_t lanes) {
  std::vector<std::vector<msm_chunking>> options;
  for (const key_shape& s : shapes) options.push_back(chunkings(s));
  uint64_t fails = 0, fits = region_bytes(shapes, lanes);
  while (fits - fails > 1) {
    const uint64_t mid = fails + (fits - fails) / 2;
    (plan_region(shapes, options, mid, lanes).ok() ? fits : fails) = mid;
  }
  return fits;
}

struct region {
  lane_pool lanes;
  device_health health;
  region_policy policy;
  region(uint64_t capacity, uint32_t lane_count, cuda_backend_config cfg = {})
      : lanes(lane_count), policy(config(capacity, lane_count, cfg), lanes, health, pinned_chunk_copier{}) {}
  static region_config config(uint64_t capacity, uint32_t lane_count, cuda_backend_config cfg) {
    cfg.lanes = lane_count;
    return region_config{cfg, capacity, 0};
  }
};

class RegionPolicy : public ::testing::Test {
 protected:
  std::array<groth16::proving_key, 4> pks;
  const groth16::proving_key* pk(int i) const { return &pks[size_t(i)]; }
};

TEST_F(RegionPolicy, AKeyIsPlannedAndPlacedOnce) {
  region r(unlimited, 2);
  fake_key a(pk(0), 1, porep_shape(16));
  EXPECT_THAT(r.policy.footprint(a.id()), StatusIs(status_code::not_found));
  groth16::prove_timings t;
  auto k1 = r.policy.key_for(a, nullptr, &t);
  ASSERT_THAT(k1, IsOk());
  EXPECT_TRUE((*k1)->id == a.id());
  EXPECT_EQ((*k1)->ws.size(), 2u);  // every table resident and a workspace per lane
  EXPECT_FALSE((*k1)->plan.streams());
  EXPECT_EQ(t.steps.size(), 1u);  // "key upload"
  auto k2 = r.policy.key_for(a, nullptr, nullptr);
  ASSERT_THAT(k2, IsOk());
  EXPECT_EQ(*k1, *k2);
  EXPECT_EQ(a.plans, 1);
  EXPECT_EQ(a.uploads, 1);
  EXPECT_EQ(r.policy.replans(), 0u);
  EXPECT_GT(r.policy.used_bytes(), 0u);
  auto f = r.policy.footprint(a.id());
  ASSERT_THAT(f, IsOk());
  EXPECT_GT(f->total_bytes(), 0u);
  EXPECT_TRUE(r.policy.placed_from(pk(0)));
  EXPECT_FALSE(r.policy.placed_from(pk(1)));
}

TEST_F(RegionPolicy, ASecondKeyGoesBesideTheFirstWhenItFits) {
  const key_shape s = porep_shape(16);
  region r(region_bytes({s, s}, 1), 1);
  fake_key a(pk(0), 1, s), b(pk(1), 2, s);
  auto ka = r.policy.key_for(a, nullptr, nullptr);
  ASSERT_THAT(ka, IsOk());
  auto kb = r.policy.key_for(b, nullptr, nullptr);
  ASSERT_THAT(kb, IsOk());
  EXPECT_TRUE((*kb)->plan.guest);
  EXPECT_EQ(r.policy.replans(), 0u);
  // a stays placed where it was.
  auto again = r.policy.key_for(a, nullptr, nullptr);
  ASSERT_THAT(again, IsOk());
  EXPECT_EQ(*again, *ka);
  EXPECT_EQ(a.uploads, 1);
}

TEST_F(RegionPolicy, AKeyThatDoesNotFitBesideEvictsTheLeastRecentlyUsed) {
  // Just too small for three keys even streamed, large enough for two.
  const key_shape s = porep_shape(16);
  const uint64_t capacity = least_region_bytes({s, s, s}, 1) - 1;
  ASSERT_GE(capacity, least_region_bytes({s, s}, 1));
  region r(capacity, 1);
  fake_key a(pk(0), 1, s), b(pk(1), 2, s), c(pk(2), 3, s);
  ASSERT_THAT(r.policy.key_for(a, nullptr, nullptr), IsOk());
  ASSERT_THAT(r.policy.key_for(b, nullptr, nullptr), IsOk());  // beside a, or with a planned again
  ASSERT_THAT(r.policy.key_for(a, nullptr, nullptr), IsOk());  // a used after b
  const uint64_t replans = r.policy.replans();
  groth16::prove_timings t;
  ASSERT_THAT(r.policy.key_for(c, nullptr, &t), IsOk());
  EXPECT_EQ(r.policy.replans(), replans + 1);
  EXPECT_EQ(t.steps.size(), 2u);  // the eviction, then c's upload
  EXPECT_FALSE(r.policy.placed_from(pk(0)));  // every placed key evicted ...
  EXPECT_FALSE(r.policy.placed_from(pk(1)));
  // ... a planned again beside c, so it is placed without planning it or the region again; b was
  // left out of the plan, so it is planned afresh.
  ASSERT_THAT(r.policy.key_for(a, nullptr, nullptr), IsOk());
  EXPECT_EQ(a.plans, 1);
  EXPECT_EQ(r.policy.replans(), replans + 1);
  const int b_uploads = b.uploads;
  ASSERT_THAT(r.policy.key_for(b, nullptr, nullptr), IsOk());
  EXPECT_EQ(b.plans, 2);
  EXPECT_EQ(b.uploads, b_uploads + 1);
}

TEST_F(RegionPolicy, KeysThatFitTogetherCostOneReplanHoweverTheyAlternate) {
  // a alone keeps copies of H's points in what its lanes leave, so b (whose matrices cannot stream)
  // does not fit beside it; planned together (no copies) they fit.
  const key_shape sa = porep_shape(16, 8);
  key_shape sb = porep_shape(15);
  sb.rows.slot_bytes = 0;
  sb.rows.image_bytes = 0;
  const uint64_t capacity = region_bytes({sa, sb}, 2);
  {
    const std::vector<msm_chunking> oa = chunkings(sa), ob = chunkings(sb);
    auto alone = plan_region(std::span<const key_shape>(&sa, 1), std::span(&oa, 1), capacity, 2);
    ASSERT_THAT(alone, IsOk());
    ASSERT_THAT(add_guest(*alone, sb, ob, capacity), Not(IsOk()));
  }
  region r(capacity, 2);
  fake_key a(pk(0), 1, sa), b(pk(1), 2, sb);
  auto ka = r.policy.key_for(a, nullptr, nullptr);
  ASSERT_THAT(ka, IsOk());
  ASSERT_GT((*ka)->plan.h_copies, 1u);
  for (int i = 0; i < 4; ++i) {
    ASSERT_THAT(r.policy.key_for(b, nullptr, nullptr), IsOk());
    ASSERT_THAT(r.policy.key_for(a, nullptr, nullptr), IsOk());
  }
  EXPECT_EQ(r.policy.replans(), 1u);
  EXPECT_EQ(a.uploads, 2);
  EXPECT_EQ(b.uploads, 1);
}

TEST_F(RegionPolicy, AKeyTooLargeEvenAloneIsRefusedNamingTheLeastBudget) {
  const key_shape small = porep_shape(14), large = porep_shape(18);
  region r(region_bytes({small}, 1), 1);
  fake_key l(pk(0), 1, large), s(pk(1), 2, small);
  EXPECT_THAT(r.policy.key_for(l, nullptr, nullptr),
              StatusIs(status_code::failed_precondition, HasSubstr("does not fit this GPU even alone")));
  EXPECT_THAT(r.policy.key_for(l, nullptr, nullptr),
              StatusIs(status_code::failed_precondition, HasSubstr("needs a VRAM budget of at least")));
  // Also beside a placed key, which stays placed.
  ASSERT_THAT(r.policy.key_for(s, nullptr, nullptr), IsOk());
  EXPECT_THAT(r.policy.key_for(l, nullptr, nullptr),
              StatusIs(status_code::failed_precondition, HasSubstr("does not fit this GPU even alone")));
  EXPECT_TRUE(r.policy.placed_from(pk(1)));
  EXPECT_EQ(l.uploads, 0);
  EXPECT_TRUE(r.health.healthy());
}

TEST_F(RegionPolicy, AFailedUploadsCudaErrorMakesTheDeviceUnhealthy) {
  region r(unlimited, 1);
  fake_key a(pk(0), 1, porep_shape(14)), b(pk(1), 2, porep_shape(14));
  a.fail = invalid_argument("a request's fault");
  EXPECT_THAT(r.policy.key_for(a, nullptr, nullptr), StatusIs(status_code::invalid_argument));
  EXPECT_TRUE(r.health.healthy());
  a.fail = internal_error("CUDA error cudaErrorIllegalAddress");
  EXPECT_THAT(r.policy.key_for(a, nullptr, nullptr), StatusIs(status_code::internal));
  EXPECT_FALSE(r.health.healthy());
  EXPECT_THAT(r.policy.key_for(b, nullptr, nullptr),
              StatusIs(status_code::unavailable, HasSubstr("cudaErrorIllegalAddress")));
  EXPECT_EQ(b.plans, 0);
}

TEST_F(RegionPolicy, PinningStaysInsideItsBudget) {
  cuda_backend_config cfg;
  cfg.max_pinned_bytes = 1000;
  region r(unlimited, 1, cfg);
  fake_key a(pk(0), 1, porep_shape(14)), b(pk(1), 2, porep_shape(14));
  a.pins = 600;
  b.pins = 600;
  ASSERT_THAT(r.policy.key_for(a, nullptr, nullptr), IsOk());
  EXPECT_EQ(a.pin_budget, 1000u);
  ASSERT_THAT(r.policy.key_for(b, nullptr, nullptr), IsOk());
  EXPECT_EQ(b.pin_budget, 400u);  // what a left
  EXPECT_EQ(r.policy.pinned_bytes(), 1000u);

  cfg.max_pinned_bytes = 0;  // no cap
  region unlimited_pins(unlimited, 1, cfg);
  fake_key c(pk(2), 3, porep_shape(14));
  ASSERT_THAT(unlimited_pins.policy.key_for(c, nullptr, nullptr), IsOk());
  EXPECT_EQ(c.pin_budget, ~uint64_t{0});

  cfg.pin_streamed = false;  // nothing pinned
  region pageable(unlimited, 1, cfg);
  fake_key d(pk(3), 4, porep_shape(14));
  ASSERT_THAT(pageable.policy.key_for(d, nullptr, nullptr), IsOk());
  EXPECT_EQ(d.pin_budget, 0u);
}

TEST_F(RegionPolicy, StreamedMatricesAreChargedToTheHostBudget) {
  const key_shape s = porep_shape(16);
  const std::vector<msm_chunking> o = chunkings(s);
  const uint64_t least = least_plan_bytes(s, o);
  auto streamed = plan_key(s, o, least, 1);
  ASSERT_THAT(streamed, IsOk());
  ASSERT_FALSE(streamed->matrices_resident);  // the least plan streams the matrices
  fake_key a(pk(0), 1, s), b(pk(1), 2, s);

  region refused(least, 1);
  refused.policy.set_host_charge([](uint64_t) -> result<std::shared_ptr<void>> {
    return resource_exhausted("the host budget is spent");
  });
  EXPECT_THAT(refused.policy.key_for(a, nullptr, nullptr),
              StatusIs(status_code::failed_precondition, HasSubstr("the host budget is spent")));
  EXPECT_EQ(a.uploads, 0);
  EXPECT_TRUE(refused.health.healthy());

  region charged(least, 1);
  uint64_t asked = 0;
  auto token = std::make_shared<int>(0);
  charged.policy.set_host_charge([&](uint64_t bytes) -> result<std::shared_ptr<void>> {
    asked = bytes;
    return std::shared_ptr<void>(token);
  });
  auto k = charged.policy.key_for(b, nullptr, nullptr);
  ASSERT_THAT(k, IsOk());
  EXPECT_EQ(asked, s.rows.image_bytes);
  EXPECT_EQ(token.use_count(), 2);  // held by the placed key ...
  charged.policy.clear();
  EXPECT_EQ(token.use_count(), 1);  // ... until it is evicted
}

TEST_F(RegionPolicy, ALaneIsHandedBackAroundAReplan) {
  const key_shape s = porep_shape(16);
  region r(region_bytes({s}, 1), 1);  // one lane, one key at a time
  fake_key a(pk(0), 1, s), b(pk(1), 2, s);
  {
    lane_hold held(r.lanes);
    ASSERT_THAT(r.policy.key_for(a, &held, nullptr), IsOk());
    ASSERT_THAT(r.policy.key_for(b, &held, nullptr), IsOk());  // waits for every lane: its own handed back
    EXPECT_EQ(held.id(), 0u);
    lane_hold ws(r.policy.workspaces());
  }
  EXPECT_EQ(r.policy.replans(), 1u);
  r.policy.evict_all();  // takes every lane: none was left held
  EXPECT_EQ(r.policy.used_bytes(), 0u);
  EXPECT_FALSE(r.policy.placed_from(pk(1)));
  ASSERT_THAT(r.policy.key_for(b, nullptr, nullptr), IsOk());
  EXPECT_EQ(b.uploads, 2);
}

TEST_F(RegionPolicy, TwoLanesEvictingEachOthersKeys) {
  // Each thread proves with its own key on its own lane; the keys do not fit together, so each use
  // may plan the region again and evict the other's. The entry a call returns stays placed while its
  // caller holds the lane; a call whose key keeps being evicted gives up, naming why.
  const key_shape s = porep_shape(16);
  region r(region_bytes({s}, 2), 2);
  std::atomic<int> placed{0}, gave_up{0};
  auto worker = [&](int i) {
    fake_key key(pk(i), uint64_t(i) + 1, s);
    for (int round = 0; round < 50; ++round) {
      lane_hold held(r.lanes);
      auto k = r.policy.key_for(key, &held, nullptr);
      if (!k.ok()) {
        EXPECT_THAT(k, StatusIs(status_code::failed_precondition, HasSubstr("planned again")));
        ++gave_up;
        continue;
      }
      lane_hold ws(r.policy.workspaces());
      EXPECT_TRUE((*k)->id == key.id());
      ++placed;
    }
  };
  std::thread t0(worker, 0), t1(worker, 1);
  t0.join();
  t1.join();
  EXPECT_EQ(placed + gave_up, 100);
  EXPECT_GT(placed, 0);
  EXPECT_GT(r.policy.replans(), 0u);
}

}  // namespace
}  // namespace pp::cuda::test
