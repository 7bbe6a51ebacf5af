// `proofpipe plan` (src/cli/plan_command.cpp) against the planning library it prints
// (src/cuda/plan/budget_plan.hpp and together_plan.hpp, the CUDA backend's) for the same inputs: the
// PoRep-shaped 2^20 circuit unlimited, in a budget that streams part of it and at exactly its least
// (k for its own witness, at two staging sizes); a small zkey (k for the most a witness packs to, and
// for circom's mul.wtns) and bellperson parameters made by `proofpipe setup` from circom's mul
// circuit. Every number printed equals the library's; a budget one byte below the least is refused
// with exit 1, the least named on the last line of stderr. No GPU needed.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "cli/cli_process.hpp"
#include "core/host_memory.hpp"
#include "cuda/plan/budget_plan.hpp"
#include "cuda/plan/key_sizing.hpp"
#include "cuda/plan/spmv_matrix.hpp"
#include "cuda/plan/together_plan.hpp"
#include "cuda/plan/witness_layout.hpp"
#include "formats/circom_wtns.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/circom_r1cs.hpp"
#include "formats/key_circuit.hpp"
#include "formats/snarkjs_zkey.hpp"
#include "r1cs/synthetic.hpp"
#include "support/files.hpp"
#include "support/status_matchers.hpp"

namespace pp {
namespace {
namespace fs = std::filesystem;
using namespace std::chrono_literals;

using cli_test::describe;
using cli_test::last_line;
using cli_test::outcome;
using cli_test::run;
using cuda::key_table_count;
using cuda::key_table_names;

// The budget as --budget-gib takes it, exact: bytes / 2^30 in 17 significant digits.
std::string gib_arg(uint64_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", double(bytes) / double(uint64_t{1} << 30));
  return buf;
}

// "name: rest" lines of the command's stdout.
std::map<std::string, std::string> lines_of(const std::string& out) {
  std::map<std::string, std::string> m;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    const size_t colon = line.find(": ");
    if (colon != std::string::npos) m[line.substr(0, colon)] = line.substr(colon + 2);
  }
  return m;
}

// The first number of a line's value.
uint64_t number(const std::map<std::string, std::string>& m, const std::string& name) {
  const auto it = m.find(name);
  EXPECT_NE(it, m.end()) << "no line '" << name << "'";
  return it == m.end() ? ~uint64_t{0} : std::stoull(it->second);
}

bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// What the library plans for (key, cs) under a budget of `budget` bytes (0: none) with the command's
// defaults (but staging_mib), and the same printed by `proofpipe plan key_args --budget-gib ...`; k
// (and how many of them carry their buckets) for witnesses that pack as `packed`.
template <class Fr>
void expect_same_plan(const cuda::key_sizes& key, const r1cs::basic_constraint_system<Fr>& cs,
                      const std::vector<std::string>& key_args, uint64_t budget, const cuda::compact_witness_layout& packed,
                      uint64_t staging_mib = cuda::cuda_backend_config{}.staging_bytes >> 20) {
  SCOPED_TRACE("budget " + std::to_string(budget) + ", staging " + std::to_string(staging_mib) + " MiB");
  cuda::cuda_backend_config cfg;
  cfg.max_vram_bytes = budget;
  cfg.staging_bytes = staging_mib << 20;
  const auto compact = cuda::make_compact_r1cs(cs);
  ASSERT_THAT(compact, IsOk());
  const auto s = cuda::shape_key(key, cs, *compact, cfg.staging_bytes, cuda::matrix_rows_for(cfg), cfg.h_copies);
  ASSERT_THAT(s, IsOk());
  const auto b = cuda::plan_for_budget(*s, cfg, 0);
  ASSERT_THAT(b, IsOk());
  const cuda::key_plan& p = b->plan;

  std::vector<std::string> args = {"plan"};
  args.insert(args.end(), key_args.begin(), key_args.end());
  args.insert(args.end(),
              {"--budget-gib", gib_arg(budget), "--link-gib-s", "25", "--staging-mib", std::to_string(staging_mib)});
  const outcome r = run(args, 300s);
  ASSERT_TRUE(r.exited && r.code == 0) << describe(r);
  const auto m = lines_of(r.out);
  if (budget != 0) {
    EXPECT_EQ(number(m, "budget"), budget);
  }
  EXPECT_EQ(number(m, "least budget"), b->least_budget);
  for (int t = 0; t < key_table_count; ++t) {
    SCOPED_TRACE(key_table_names[t]);
    EXPECT_EQ(number(m, key_table_names[t]), s->table_bytes(t));
    EXPECT_TRUE(contains(m.at(key_table_names[t]), std::to_string(s->points[t]) + " points"));
    EXPECT_TRUE(contains(m.at(key_table_names[t]), p.resident[t] ? "resident" : "streamed"));
  }
  EXPECT_EQ(number(m, "matrices"), p.matrices_resident ? s->matrices_bytes : p.matrix_image_bytes(*s));
  EXPECT_EQ(number(m, "msm chunks"), p.msm.g1_chunk);
  EXPECT_TRUE(contains(m.at("msm chunks"), std::to_string(p.msm.g2_chunk) + " G2 points"));
  EXPECT_EQ(number(m, "msm workspace"), p.msm.workspace_bytes);
  EXPECT_EQ(number(m, "point slots"), p.slot_bytes);
  EXPECT_TRUE(contains(m.at("point slots"), std::to_string(p.slot_bytes != 0 ? p.lane.slots : 0) + " per lane"));
  EXPECT_EQ(number(m, "lanes"), p.lanes);
  EXPECT_TRUE(contains(m.at("lanes"), std::to_string(p.lane.bytes) + " bytes each"));
  const uint64_t packed_witness = packed.bytes;
  const auto together = cuda::partitions_together(*s, p, cfg.staging_bytes, packed_witness);
  ASSERT_THAT(together, IsOk());
  EXPECT_EQ(number(m, "partitions per streamed copy (k)"), together->partitions);
  EXPECT_TRUE(contains(m.at("partitions per streamed copy (k)"), "packed witnesses of " + std::to_string(packed_witness) +
                                                                   " bytes"));
  EXPECT_TRUE(contains(m.at("partitions per streamed copy (k)"), together->limit));
  const std::string carry = "partitions together whose MSM states carry every table's buckets across its chunks";
  if (together->partitions > 1 || together->staging_for_more != 0) {
    const auto carrying = cuda::carrying_partitions(*s, p, packed, cuda::max_partitions_together);
    ASSERT_THAT(carrying, IsOk());
    ASSERT_EQ(m.count(carry), 1u);
    EXPECT_TRUE(contains(m.at(carry), "at most " + std::to_string(*carrying) + " ")) << m.at(carry);
  } else {
    EXPECT_EQ(m.count(carry), 0u) << "nothing together to carry";
  }
  EXPECT_EQ(number(m, "resident"), p.resident_bytes);
  EXPECT_EQ(number(m, "device total"), p.total_bytes());
  EXPECT_EQ(number(m, "copied per partition"), p.streamed_bytes(*s));
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.3f s", double(p.streamed_bytes(*s)) / (25.0 * double(uint64_t{1} << 30)));
  EXPECT_TRUE(contains(m.at("copy time per partition"), secs)) << m.at("copy time per partition");
  // With k > 1 the shared tables' bytes over k, and their time with the witness's two uploads.
  if (together->partitions > 1) {
    const uint64_t shared = cuda::together_streamed_bytes(*s, p, together->partitions);
    EXPECT_EQ(number(m, "copied per partition, k together"), shared);
    std::snprintf(secs, sizeof secs, "%.3f s",
                  double(shared + 2 * packed_witness) / (25.0 * double(uint64_t{1} << 30)));
    EXPECT_TRUE(contains(m.at("copy time per partition, k together"), secs))
        << m.at("copy time per partition, k together");
  } else {
    EXPECT_EQ(m.count("copied per partition, k together"), 0u) << "k = 1 copies as above";
  }
  EXPECT_EQ(m.at("plan"), p.to_string(*s));
  const std::string curve = std::is_same_v<Fr, ff::bn254::fr> ? "BN254" : "BLS12-381";
  EXPECT_EQ(m.at("curve"), curve);
  if (budget != 0) {
    EXPECT_LE(p.total_bytes() + b->pin_reserve, budget);
  }

  // One byte below the least: refused, naming it.
  args = {"plan"};
  args.insert(args.end(), key_args.begin(), key_args.end());
  args.insert(args.end(), {"--budget-gib", gib_arg(b->least_budget - 1), "--staging-mib", std::to_string(staging_mib)});
  const outcome below = run(args, 300s);
  EXPECT_TRUE(below.exited && below.code == 1) << describe(below);
  EXPECT_TRUE(contains(last_line(below.err), "at least " + std::to_string(b->least_budget) + " bytes"))
      << describe(below);
}

TEST(PlanCommand, PorepShapedKeyUnlimitedStreamedAndAtItsLeast) {
  auto c = r1cs::make_synthetic(r1cs::synthetic_params::porep(r1cs::synthetic_params::porep_constraints(20), 42));
  ASSERT_THAT(c, IsOk());
  const auto key = cuda::key_sizes::of_setup(c->cs, groth16::h_basis::monomial);
  ASSERT_THAT(key, IsOk());
  const std::vector<std::string> args = {"--porep-log", "20"};
  const cuda::compact_witness_layout packed = cuda::packed_layout_of(std::span<const ff::fr>(c->w));
  expect_same_plan(*key, c->cs, args, 0, packed);
  // The least, and a budget between it and the unlimited plan: part of the key streamed.
  cuda::cuda_backend_config cfg;
  const auto compact = cuda::make_compact_r1cs(c->cs);
  ASSERT_THAT(compact, IsOk());
  const auto s = cuda::shape_key(*key, c->cs, *compact, cfg.staging_bytes, cuda::matrix_rows_for(cfg), 1);
  ASSERT_THAT(s, IsOk());
  const auto all = cuda::plan_for_budget(*s, cfg, 0);
  ASSERT_THAT(all, IsOk());
  expect_same_plan(*key, c->cs, args, all->least_budget, packed);
  const uint64_t mid = all->least_budget + all->plan.total_bytes() / 2;
  cfg.max_vram_bytes = mid;
  const auto streamed = cuda::plan_for_budget(*s, cfg, 0);
  ASSERT_THAT(streamed, IsOk());
  EXPECT_TRUE(streamed->plan.streams()) << "the middle budget should stream part of the key";
  expect_same_plan(*key, c->cs, args, mid, packed);
  // At the least every table streams: k is more than one in the default staging.
  cfg.max_vram_bytes = all->least_budget;
  const auto least = cuda::plan_for_budget(*s, cfg, 0);
  ASSERT_THAT(least, IsOk());
  const auto least_k = cuda::partitions_together(*s, least->plan, cfg.staging_bytes, packed.bytes);
  ASSERT_THAT(least_k, IsOk());
  EXPECT_GT(least_k->partitions, 1u) << least_k->limit;
  expect_same_plan(*key, c->cs, args, all->least_budget, packed, 2);
}

class PlanCommandFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("pp_plan_command_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path r1cs_ = test::source_dir() / "tests/fixtures/circom/mul.r1cs";
  fs::path dir_;
};

TEST_F(PlanCommandFiles, SmallZkey) {
  const fs::path zkey = dir_ / "mul.zkey";
  const outcome s = run({"setup", r1cs_.string(), zkey.string()});
  ASSERT_TRUE(s.exited && s.code == 0) << describe(s);
  const auto z = formats::read_snarkjs_zkey_file(zkey);
  ASSERT_THAT(z, IsOk());
  const auto cs = formats::circuit_from_zkey(*z);
  ASSERT_THAT(cs, IsOk());
  const cuda::key_sizes key = cuda::key_sizes::of(z->pk);
  const auto most = cuda::compact_witness_layout::make(cs->num_variables(), cs->num_variables());
  expect_same_plan(key, *cs, {zkey.string()}, 0, most);
  expect_same_plan(key, *cs, {zkey.string()}, uint64_t{1} << 30, most);
  // circom's own witness of the circuit.
  const fs::path wtns = test::source_dir() / "tests/fixtures/circom/mul.wtns";
  const auto w = formats::read_circom_wtns_file<ff::fr>(wtns);
  ASSERT_THAT(w, IsOk());
  expect_same_plan(key, *cs, {zkey.string(), "--wtns", wtns.string()}, uint64_t{1} << 30,
                   cuda::packed_layout_of(std::span<const ff::fr>(*w)));
}

// A BN254 (bn128) zkey: planned with BN254's point sizes (64 and 128 bytes), as the backend plans it.
TEST_F(PlanCommandFiles, Bn254Zkey) {
  const outcome d = run({"demo", "--curve", "bn254", "--constraints", "3000", "--out", dir_.string()});
  ASSERT_TRUE(d.exited && d.code == 0) << describe(d);
  const fs::path zkey = dir_ / "circuit.zkey";
  const auto z = formats::read_snarkjs_zkey_file<ec::bn254::family>(zkey);
  ASSERT_THAT(z, IsOk());
  const auto cs = formats::circuit_from_zkey(*z);
  ASSERT_THAT(cs, IsOk());
  const cuda::key_sizes key = cuda::key_sizes::of(z->pk);
  EXPECT_EQ(key.g1.point_bytes, 64u);
  EXPECT_EQ(key.g2.point_bytes, 128u);
  const auto most = cuda::compact_witness_layout::make(cs->num_variables(), cs->num_variables());
  expect_same_plan(key, *cs, {zkey.string()}, 0, most);
  expect_same_plan(key, *cs, {zkey.string()}, uint64_t{1} << 30, most);
}

TEST_F(PlanCommandFiles, BellpersonParametersWithTheirCircuit) {
  const fs::path params = dir_ / "mul.params";
  const outcome s = run({"setup", r1cs_.string(), params.string(), "--layout", "bellperson"});
  ASSERT_TRUE(s.exited && s.code == 0) << describe(s);
  auto pk = formats::read_bellperson_params_file(params);
  ASSERT_THAT(pk, IsOk());
  const auto r = formats::read_circom_r1cs_file(r1cs_);
  ASSERT_THAT(r, IsOk());
  ASSERT_THAT(formats::fill_bellperson_density(*pk, r->cs), IsOk());
  expect_same_plan(cuda::key_sizes::of(*pk), r->cs,
                   {params.string(), "--params-format", "bellperson", "--r1cs", r1cs_.string()}, 0,
                   cuda::compact_witness_layout::make(r->cs.num_variables(), r->cs.num_variables()));
}

// A --wtns of another curve or another circuit is refused naming the problem; the PoRep-shaped
// circuit brings its own witness.
TEST_F(PlanCommandFiles, AWitnessOfAnotherCurveOrCircuitIsRefused) {
  const fs::path mul_wtns = test::source_dir() / "tests/fixtures/circom/mul.wtns";  // BLS12-381, mul.r1cs's
  const outcome bn = run({"demo", "--curve", "bn254", "--constraints", "100", "--out", (dir_ / "bn").string()});
  ASSERT_TRUE(bn.exited && bn.code == 0) << describe(bn);
  const outcome wrong_curve =
      run({"plan", (dir_ / "bn" / "circuit.zkey").string(), "--wtns", mul_wtns.string(), "--budget-gib", "1"});
  EXPECT_TRUE(wrong_curve.exited && wrong_curve.code == 1) << describe(wrong_curve);
  EXPECT_TRUE(contains(last_line(wrong_curve.err), "BLS12-381")) << describe(wrong_curve);
  const outcome bls = run({"demo", "--constraints", "100", "--out", (dir_ / "bls").string()});
  ASSERT_TRUE(bls.exited && bls.code == 0) << describe(bls);
  const outcome wrong_circuit =
      run({"plan", (dir_ / "bls" / "circuit.zkey").string(), "--wtns", mul_wtns.string(), "--budget-gib", "1"});
  EXPECT_TRUE(wrong_circuit.exited && wrong_circuit.code == 1) << describe(wrong_circuit);
  EXPECT_TRUE(contains(last_line(wrong_circuit.err), "values, the circuit has")) << describe(wrong_circuit);
  const outcome porep = run({"plan", "--porep-log", "4", "--wtns", mul_wtns.string(), "--budget-gib", "1"});
  EXPECT_TRUE(porep.exited && porep.code == 1) << describe(porep);
  EXPECT_TRUE(contains(last_line(porep.err), "brings its own witness")) << describe(porep);
  const outcome missing = run({"plan", (dir_ / "bls" / "circuit.zkey").string(), "--wtns", (dir_ / "none.wtns").string(),
                               "--budget-gib", "1"});
  EXPECT_TRUE(missing.exited && missing.code == 1) << describe(missing);
  EXPECT_TRUE(contains(last_line(missing.err), "none.wtns")) << describe(missing);
}

TEST(PlanCommand, RefusesWhatItCannotPlan) {
  const outcome none = run({"plan", "--budget-gib", "16"});
  EXPECT_TRUE(none.exited && none.code == 1) << describe(none);
  EXPECT_TRUE(contains(last_line(none.err), "--porep-log")) << describe(none);
  const outcome big = run({"plan", "--porep-log", "40", "--budget-gib", "16"});
  EXPECT_TRUE(big.exited && big.code == 1) << describe(big);
  EXPECT_TRUE(contains(last_line(big.err), "--porep-log 40")) << describe(big);
  const outcome params = run({"plan", "x.params", "--params-format", "bellperson", "--budget-gib", "16"});
  EXPECT_TRUE(params.exited && params.code == 1) << describe(params);
  EXPECT_TRUE(contains(last_line(params.err), "--r1cs")) << describe(params);
}

// A PoRep-shaped circuit larger than the host's available memory is refused before it is made,
// naming both (a 2^27 plan takes ~34 GiB: refused on a host with less, made on one with more).
TEST(PlanCommand, RefusesACircuitTheHostCannotHold) {
  const auto available = available_host_memory_bytes();
  ASSERT_TRUE(available.ok()) << available.error().to_string();
  if (*available >= uint64_t{40} << 30) GTEST_SKIP() << "this host holds a 2^27 plan";
  const outcome r = run({"plan", "--porep-log", "27", "--budget-gib", "16"});
  EXPECT_TRUE(r.exited && r.code == 1) << describe(r);
  EXPECT_TRUE(contains(last_line(r.err), "--porep-log 27: the PoRep-shaped circuit of 130300000 constraints needs "
                                         "about")) << describe(r);
  EXPECT_TRUE(contains(last_line(r.err), "GiB is available")) << describe(r);
}

}  // namespace
}  // namespace pp
