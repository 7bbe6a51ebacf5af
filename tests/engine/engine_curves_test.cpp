// The engine over keys of both curves (docs/design.md, "Curve families"): random BN254 and
// BLS12-381 circuits proved in one engine, each proof checked with its curve's verifier; a zkey's
// curve known from registration on; a witness of the other curve refused naming both; a BN254 job
// refused at submit when no device proves BN254, and run only on the devices that do.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "fake_device.hpp"
#include "formats/circom_wtns.hpp"
#include "formats/key_circuit.hpp"
#include "formats/snarkjs_zkey.hpp"
#include "groth16/setup_insecure.hpp"
#include "groth16/test_circuits.hpp"
#include "support/files.hpp"
#include "support/status_matchers.hpp"
#include "tiny_circuit.hpp"

namespace pp::engine {
namespace {

namespace fs = std::filesystem;
using bls = ec::bls12_381::family;
using bn = ec::bn254::family;
using std::chrono::seconds;

bool mentions(const status& s, const std::string& what) { return s.message().find(what) != std::string::npos; }

fs::path scratch() { return pp::test::binary_temp_dir("engine_curves"); }

// A random satisfied circuit of Family (fresh each run: the test's seed), its insecure key and witness.
template <class Family>
struct random_key {
  std::shared_ptr<const groth16::basic_proving_key<Family>> pk;
  std::shared_ptr<const r1cs::basic_constraint_system<typename Family::fr>> cs;
  std::vector<typename Family::fr> witness;

  [[nodiscard]] basic_memory_key_source<Family> source() const { return {pk, cs}; }
  // The key as a snarkjs .zkey at dir/name.
  [[nodiscard]] fs::path zkey(const std::string& name) const {
    formats::basic_snarkjs_zkey<Family> z;
    z.pk = *pk;
    z.coefficients = formats::zkey_coefficients(*cs);
    const fs::path path = scratch() / name;
    EXPECT_THAT(formats::write_snarkjs_zkey_file(z, path), IsOk());
    return path;
  }
  [[nodiscard]] fs::path wtns(const std::string& name) const {
    const fs::path path = scratch() / name;
    EXPECT_THAT(formats::write_circom_wtns_file(std::span<const typename Family::fr>(witness), path), IsOk());
    return path;
  }
};

template <class Family>
random_key<Family> make_key(uint64_t salt) {
  using fr = typename Family::fr;
  uint64_t state = pp::test::test_seed() ^ salt;
  auto tc = groth16::testing::random_circuit<fr>(state, 24, 3);
  auto pk = groth16::setup_insecure<Family>(tc.cs, groth16::h_basis::odd_coset_lagrange,
                                            groth16::toxic_waste_from_seed_insecure<fr>(state));
  EXPECT_THAT(pk, IsOk());
  return {std::make_shared<const groth16::basic_proving_key<Family>>(std::move(pk).value()),
          std::make_shared<const r1cs::basic_constraint_system<fr>>(std::move(tc.cs)), std::move(tc.w)};
}

engine_config cpu_config(uint32_t cpus = 2) {
  engine_config c;
  c.cpu_devices = cpus;
  c.host_memory_bytes = uint64_t{256} << 20;
  return c;
}

std::unique_ptr<engine> make_engine(engine_config c) {
  auto e = engine::create(std::move(c));
  EXPECT_THAT(e, IsOk());
  return e.ok() ? std::move(e).value() : nullptr;
}

template <class Family>
submit_request job(const std::string& key, const random_key<Family>& k, uint32_t partitions) {
  submit_request r;
  r.key_id = key;
  for (uint32_t i = 0; i < partitions; ++i) r.witnesses.push_back(witness_source::memory(k.witness));
  return r;
}

// Awaits the job; every partition is Family's and verifies with Family's verifier against vk.
template <class Family>
void expect_verifies(engine& e, job_id id, const groth16::basic_verifying_key<Family>& vk, size_t partitions) {
  auto r = e.await(id, deadline_in(seconds(120)));
  ASSERT_THAT(r, IsOk());
  ASSERT_EQ(r->state, job_state::succeeded) << r->error.to_string();
  ASSERT_EQ(r->partitions.size(), partitions);
  for (const partition_result& p : r->partitions) {
    EXPECT_EQ(p.curve(), ec::curve_id_of<Family>);
    EXPECT_THAT(testing::verify_result(vk, p), IsOk());
  }
}

std::optional<key_status> key_of(const engine& e, const std::string& id) {
  for (const key_status& k : e.status().keys) {
    if (k.id == id) return k;
  }
  return std::nullopt;
}

TEST(EngineCurves, Bn254AndBls12381KeysProveInOneEngine) {
  const auto b = make_key<bls>(1);
  const auto n = make_key<bn>(2);
  auto e = make_engine(cpu_config());
  ASSERT_NE(e, nullptr);
  ASSERT_THAT(e->register_key("bls", b.source()), IsOk());
  ASSERT_THAT(e->register_key("bn", n.source()), IsOk());
  EXPECT_EQ(key_of(*e, "bls")->curve, ec::curve_id::bls12_381);
  EXPECT_EQ(key_of(*e, "bn")->curve, ec::curve_id::bn254);
  auto bn_id = e->submit(job("bn", n, 3));
  auto bls_id = e->submit(job("bls", b, 2));
  ASSERT_THAT(bn_id, IsOk());
  ASSERT_THAT(bls_id, IsOk());
  expect_verifies<bn>(*e, *bn_id, n.pk->vk, 3);
  expect_verifies<bls>(*e, *bls_id, b.pk->vk, 2);

  // A BN254 result is not a BLS12-381 proof: the other verifier is never handed it.
  auto again = e->await(*bn_id, immediate());
  ASSERT_THAT(again, IsOk());
  EXPECT_EQ(again->partitions[0].as<bls>(), nullptr);
  EXPECT_THAT(testing::verify_result(b.pk->vk, again->partitions[0]), StatusIs(status_code::failed_precondition));
}

TEST(EngineCurves, AZkeysCurveIsKnownFromRegistrationAndItsWtnsFileProves) {
  const auto n = make_key<bn>(3);
  auto e = make_engine(cpu_config(1));
  ASSERT_NE(e, nullptr);
  ASSERT_THAT(e->register_key("bn", zkey_file_source{n.zkey("bn.zkey")}), IsOk());
  const auto k = key_of(*e, "bn");
  ASSERT_TRUE(k.has_value());
  EXPECT_FALSE(k->resident) << "only the header was read";
  EXPECT_EQ(k->curve, ec::curve_id::bn254);
  submit_request r;
  r.key_id = "bn";
  r.witnesses.push_back(witness_source::file(n.wtns("bn.wtns")));
  r.witnesses.push_back(witness_source::memory(n.witness));
  auto id = e->submit(std::move(r));
  ASSERT_THAT(id, IsOk());
  expect_verifies<bn>(*e, *id, n.pk->vk, 2);
}

TEST(EngineCurves, AWitnessOfTheOtherCurveIsRefusedNamingBoth) {
  const auto b = make_key<bls>(4);
  const auto n = make_key<bn>(5);
  auto e = make_engine(cpu_config(1));
  ASSERT_NE(e, nullptr);
  ASSERT_THAT(e->register_key("bn", n.source()), IsOk());
  ASSERT_THAT(e->register_key("bls", b.source()), IsOk());

  // In memory: at submit.
  auto wrong = e->submit(job("bn", b, 1));
  ASSERT_THAT(wrong, StatusIs(status_code::invalid_argument));
  EXPECT_TRUE(mentions(wrong.error(), "BN254")) << wrong.error().message();
  EXPECT_TRUE(mentions(wrong.error(), "BLS12-381")) << wrong.error().message();

  // A .wtns file: its prime is read with it, and the job fails.
  for (const auto& [key, path] : {std::pair{std::string("bn"), b.wtns("bls.wtns")},
                                  std::pair{std::string("bls"), n.wtns("bn.wtns")}}) {
    submit_request r;
    r.key_id = key;
    r.witnesses.push_back(witness_source::file(path));
    auto id = e->submit(std::move(r));
    ASSERT_THAT(id, IsOk());
    auto out = e->await(*id, deadline_in(seconds(60)));
    ASSERT_THAT(out, IsOk());
    ASSERT_EQ(out->state, job_state::failed) << key;
    EXPECT_EQ(out->error.code(), status_code::invalid_argument) << out->error.to_string();
    EXPECT_TRUE(mentions(out->error, "BN254 (bn128)")) << out->error.message();
    EXPECT_TRUE(mentions(out->error, "BLS12-381 (bls12381)")) << out->error.message();
  }
}

// Two fake devices that prove BLS12-381 only (as GPUs do), and CPU devices when `cpus` > 0.
engine_config fakes_config(std::vector<testing::fake_backend*>* backends, uint32_t cpus,
                           devices::cpu_curves curves = devices::cpu_curves::both) {
  engine_config c = cpu_config();
  c.make_devices = [backends, cpus, curves]() -> result<std::vector<device_ptr>> {
    std::vector<device_ptr> v;
    for (const char* name : {"gpu0", "gpu1"}) {
      auto d = std::make_unique<testing::fake_device>(name);
      backends->push_back(&d->impl());
      v.push_back(std::move(d));
    }
    for (uint32_t i = 0; i < cpus; ++i) v.push_back(devices::make_cpu_device("cpu" + std::to_string(i), curves));
    return v;
  };
  return c;
}

TEST(EngineCurves, ABn254JobIsRefusedAtSubmitWhenNoDeviceProvesBn254) {
  const auto n = make_key<bn>(6);
  std::vector<testing::fake_backend*> fakes;
  auto e = make_engine(fakes_config(&fakes, 0));
  ASSERT_NE(e, nullptr);
  ASSERT_THAT(e->register_key("bn", n.source()), IsOk());
  auto id = e->submit(job("bn", n, 2));
  ASSERT_THAT(id, StatusIs(status_code::failed_precondition));
  EXPECT_TRUE(mentions(id.error(), "BN254 (bn128)")) << id.error().message();
  EXPECT_TRUE(mentions(id.error(), "gpu0 proves BLS12-381")) << id.error().message();
  EXPECT_TRUE(mentions(id.error(), "gpu1")) << id.error().message();
  const engine_status st = e->status();
  EXPECT_EQ(st.jobs_in_flight, 0u) << "nothing was queued";
  ASSERT_EQ(st.devices.size(), 2u);
  EXPECT_EQ(st.devices[0].curves, std::vector<ec::curve_id>{ec::curve_id::bls12_381});
  for (const auto* f : fakes) EXPECT_EQ(f->starts.load(), 0);
}

TEST(EngineCurves, Bn254PartitionsRunOnlyOnDevicesThatProveBn254) {
  const auto n = make_key<bn>(7);
  std::vector<testing::fake_backend*> fakes;
  auto e = make_engine(fakes_config(&fakes, 1));
  ASSERT_NE(e, nullptr);
  ASSERT_THAT(e->register_key("bn", n.source()), IsOk());
  auto id = e->submit(job("bn", n, 4));
  ASSERT_THAT(id, IsOk());
  auto r = e->await(*id, deadline_in(seconds(120)));
  ASSERT_THAT(r, IsOk());
  ASSERT_EQ(r->state, job_state::succeeded) << r->error.to_string();
  for (const partition_result& p : r->partitions) {
    EXPECT_EQ(p.device, "cpu0");
    EXPECT_THAT(testing::verify_result(n.pk->vk, p), IsOk());
  }
  for (const auto* f : fakes) EXPECT_EQ(f->starts.load(), 0) << "a BLS12-381-only device was given a BN254 partition";
}

// What choose_devices makes on a GPU host (engine.bn254_cpu_device): the CPU device beside the GPUs
// proves the BN254 jobs, and the BLS12-381 jobs stay on the GPUs, whose host-memory figure alone sizes
// their partitions.
TEST(EngineCurves, ACpuDeviceBesideGpusTakesBn254AndLeavesBls12381ToThem) {
  const auto b = make_key<bls>(8);
  const auto n = make_key<bn>(9);
  std::vector<testing::fake_backend*> fakes;
  auto e = make_engine(fakes_config(&fakes, 1, devices::cpu_curves::bn254_only));
  ASSERT_NE(e, nullptr);
  ASSERT_THAT(e->register_key("bls", b.source()), IsOk());
  ASSERT_THAT(e->register_key("bn", n.source()), IsOk());
  const engine_status st = e->status();
  ASSERT_EQ(st.devices.size(), 3u);
  EXPECT_EQ(st.devices[2].curves, std::vector<ec::curve_id>{ec::curve_id::bn254});
  auto bn_id = e->submit(job("bn", n, 3));
  auto bls_id = e->submit(job("bls", b, 4));
  ASSERT_THAT(bn_id, IsOk());
  ASSERT_THAT(bls_id, IsOk());
  auto bn_out = e->await(*bn_id, deadline_in(seconds(120)));
  ASSERT_THAT(bn_out, IsOk());
  ASSERT_EQ(bn_out->state, job_state::succeeded) << bn_out->error.to_string();
  for (const partition_result& p : bn_out->partitions) {
    EXPECT_EQ(p.device, "cpu0");
    EXPECT_THAT(testing::verify_result(n.pk->vk, p), IsOk());
  }
  auto bls_out = e->await(*bls_id, deadline_in(seconds(120)));
  ASSERT_THAT(bls_out, IsOk());
  ASSERT_EQ(bls_out->state, job_state::succeeded) << bls_out->error.to_string();
  for (const partition_result& p : bls_out->partitions) {
    EXPECT_NE(p.device, "cpu0") << "a BLS12-381 partition on the CPU";
  }
  EXPECT_EQ(fakes[0]->starts.load() + fakes[1]->starts.load(), 4);
}

}  // namespace
}  // namespace pp::engine
