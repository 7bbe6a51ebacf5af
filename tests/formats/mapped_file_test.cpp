// mapped_file and read_mapped under a file that changes while it is read: truncated under the
// mapping (one thread and many), rewritten in place, and a zkey truncated at random moments while it
// loads. Each ends in data_loss (or, for a truncation before the open, the parser's data_loss) and
// the process lives; a SIGBUS outside a guarded mapping still ends the process as before.
#include "formats/mapped_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "formats/key_circuit.hpp"
#include "formats/snarkjs_zkey.hpp"
#include "groth16/setup_insecure.hpp"
#include "r1cs/synthetic.hpp"
#include "support/status_matchers.hpp"

namespace pp::formats {
namespace {
namespace fs = std::filesystem;
using ::testing::HasSubstr;

class MappedFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("pp_mapped_file_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path write(const std::string& name, size_t bytes) const {
    const fs::path p = dir_ / name;
    std::vector<char> data(bytes);
    std::mt19937 rng(7);
    for (char& c : data) c = static_cast<char>(rng() | 1);  // no zero byte: zeros read later mean a dropped page
    std::ofstream(p, std::ios::binary).write(data.data(), static_cast<std::streamsize>(data.size()));
    return p;
  }
  fs::path dir_;
};

uint64_t zero_bytes(std::span<const uint8_t> b) {
  return tbb::parallel_reduce(
      tbb::blocked_range<size_t>(0, b.size(), 1 << 16), uint64_t{0},
      [&](const tbb::blocked_range<size_t>& r, uint64_t n) {
        for (size_t i = r.begin(); i < r.end(); ++i) n += b[i] == 0;
        return n;
      },
      [](uint64_t a, uint64_t c) { return a + c; });
}

TEST_F(MappedFile, AnUnchangedFileReadsAsItIs) {
  const fs::path p = write("a.bin", 1 << 20);
  auto r = read_mapped(p, [](std::span<const uint8_t> b) -> result<uint64_t> { return zero_bytes(b); });
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(*r, 0u);
}

TEST_F(MappedFile, TruncatedWhileReadIsDataLossNotSigbus) {
  const fs::path p = write("a.bin", 8 << 20);
  uint64_t zeros = 0;
  auto r = read_mapped(p, [&](std::span<const uint8_t> b) -> result<uint64_t> {
    if (::truncate(p.c_str(), 4096) != 0) return internal_error("truncate failed");
    uint64_t n = 0;
    for (uint8_t x : b) n += x == 0;  // one thread walks past the new end
    zeros = n;
    return n;
  });
  EXPECT_THAT(r, StatusIs(status_code::data_loss, HasSubstr("changed while it was read")));
  EXPECT_EQ(zeros, (8u << 20) - 4096) << "the pages past the new end read as zeros";
}

TEST_F(MappedFile, TruncatedUnderManyReadingThreadsIsDataLoss) {
  const fs::path p = write("a.bin", 32 << 20);
  auto r = read_mapped(p, [&](std::span<const uint8_t> b) -> result<uint64_t> {
    if (::truncate(p.c_str(), 0) != 0) return internal_error("truncate failed");
    return zero_bytes(b);  // TBB threads fault at once, each in its own part
  });
  EXPECT_THAT(r, StatusIs(status_code::data_loss));
}

TEST_F(MappedFile, RewrittenInPlaceIsDataLoss) {
  const fs::path p = write("a.bin", 1 << 20);
  auto r = read_mapped(p, [&](std::span<const uint8_t> b) -> result<uint64_t> {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a later modification time
    std::ofstream(p, std::ios::binary | std::ios::in | std::ios::out).write("changed", 7);
    return zero_bytes(b);
  });
  EXPECT_THAT(r, StatusIs(status_code::data_loss));
}

TEST_F(MappedFile, ASigbusOutsideAGuardedMappingStillEndsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const fs::path guarded = write("guarded.bin", 1 << 16);
  const fs::path bare = write("bare.bin", 1 << 16);
  // The handler is installed by the first guarded mapping; this one stays open meanwhile.
  auto f = mapped_file::open(guarded);
  ASSERT_THAT(f, IsOk());
  EXPECT_EXIT(
      {
        const int fd = ::open(bare.c_str(), O_RDONLY);
        auto* p = static_cast<const volatile uint8_t*>(::mmap(nullptr, 1 << 16, PROT_READ, MAP_PRIVATE, fd, 0));
        if (::truncate(bare.c_str(), 0) != 0) std::_Exit(3);
        (void)p[1 << 15];
        std::_Exit(0);
      },
      ::testing::KilledBySignal(SIGBUS), "");
}

// A key replaced by `cp` while it loads: truncated at a random moment of the load. Whenever that
// happens, the load ends in a key (the truncation came after) or data_loss, never in a signal.
TEST_F(MappedFile, AZkeyTruncatedWhileItLoadsIsDataLoss) {
  r1cs::synthetic_params params;
  params.num_constraints = 1 << 13;
  params.num_aux = 1 << 13;
  const auto circuit = r1cs::make_synthetic(params);
  ASSERT_THAT(circuit, IsOk());
  snarkjs_zkey z;
  auto pk = groth16::setup_insecure(circuit->cs, groth16::h_basis::odd_coset_lagrange,
                                    groth16::toxic_waste_from_seed_insecure(5));
  ASSERT_THAT(pk, IsOk());
  z.pk = std::move(*pk);
  z.coefficients = zkey_coefficients(circuit->cs);
  const fs::path src = dir_ / "key.zkey";
  ASSERT_THAT(write_snarkjs_zkey_file(z, src), IsOk());

  const fs::path key = dir_ / "live.zkey";
  fs::copy_file(src, key);
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_THAT(read_snarkjs_zkey_file(key), IsOk());
  const auto load_us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count();
  std::mt19937 rng(3);
  int changed = 0;
  for (int round = 0; round < 40; ++round) {
    fs::copy_file(src, key, fs::copy_options::overwrite_existing);
    const auto delay = std::chrono::microseconds(rng() % (load_us + 1));
    std::thread cp([&] {
      std::this_thread::sleep_for(delay);
      EXPECT_EQ(::truncate(key.c_str(), 0), 0);
    });
    auto loaded = read_snarkjs_zkey_file(key);
    cp.join();
    if (loaded.ok()) continue;
    EXPECT_EQ(loaded.error().code(), status_code::data_loss) << loaded.error().to_string();
    changed += loaded.error().message().find("changed while it was read") != std::string::npos;
  }
  RecordProperty("changed_while_read", changed);
}

}  // namespace
}  // namespace pp::formats
