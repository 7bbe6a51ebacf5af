// witness_file against what a client can leave at a witness path: a regular .wtns (read back
// value for value), and a FIFO, a directory, a symlink to a FIFO, a missing file, an oversized
// file, a file that shrinks mid-read; none may block, each is named in its error.
#include "engine/witness_file.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "formats/circom_wtns.hpp"
#include "support/status_matchers.hpp"
#include "support/test_seed.hpp"

namespace pp::engine {
namespace {

using ::testing::Not;
namespace fs = std::filesystem;

class WitnessFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("pp_witness_file_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    std::mt19937_64 rng = pp::test::seeded_rng();
    values_.resize(1 + rng() % 50);
    values_[0] = ff::fr::one();
    for (size_t i = 1; i < values_.size(); ++i) values_[i] = ff::fr::from_uint(rng());
    auto bytes = formats::write_circom_wtns(values_);
    ASSERT_THAT(bytes, IsOk());
    bytes_ = *bytes;
    good_ = dir_ / "good.wtns";
    std::ofstream(good_, std::ios::binary).write(reinterpret_cast<const char*>(bytes_.data()),
                                                 static_cast<std::streamsize>(bytes_.size()));
  }
  void TearDown() override { fs::remove_all(dir_); }

  uint64_t limit() const { return max_wtns_file_bytes(values_.size()); }

  fs::path dir_, good_;
  std::vector<ff::fr> values_;
  std::vector<uint8_t> bytes_;
};

TEST_F(WitnessFile, ReadsARegularFileValueForValue) {
  EXPECT_EQ(bytes_.size() + (64u << 10), limit()) << "the limit is the file snarkjs writes plus 64 KiB";
  auto f = witness_file::open(good_, limit());
  ASSERT_THAT(f, IsOk());
  EXPECT_EQ(f->size(), bytes_.size());
  auto w = f->read({});
  ASSERT_THAT(w, IsOk());
  EXPECT_EQ(*w, values_);
}

TEST_F(WitnessFile, RefusesAFifoWithoutWaitingForAWriter) {
  const fs::path fifo = dir_ / "fifo.wtns";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto f = witness_file::open(fifo, limit());  // would block forever in a blocking open()
  ASSERT_THAT(f, StatusIs(status_code::invalid_argument));
  EXPECT_EQ(f.error().message(), "witness file " + fifo.string() + " is a FIFO, not a regular file");
  const fs::path link = dir_ / "link.wtns";
  fs::create_symlink(fifo, link);
  auto l = witness_file::open(link, limit());
  ASSERT_THAT(l, Not(IsOk()));
  EXPECT_NE(l.error().message().find("is a FIFO"), std::string::npos) << l.error().message();
}

TEST_F(WitnessFile, NamesDirectoriesMissingAndOversizedFiles) {
  auto d = witness_file::open(dir_, limit());
  ASSERT_THAT(d, StatusIs(status_code::invalid_argument));
  EXPECT_NE(d.error().message().find("is a directory, not a regular file"), std::string::npos) << d.error().message();
  auto m = witness_file::open(dir_ / "absent.wtns", limit());
  ASSERT_THAT(m, StatusIs(status_code::not_found));
  // The file layer does not know when the path was checked before (a cluster node reads it at submit).
  EXPECT_EQ(m.error().message().find("at submit"), std::string::npos) << m.error().message();
  // One byte over the limit is refused before anything is read (a sparse file: no disk used).
  const fs::path big = dir_ / "big.wtns";
  fs::copy_file(good_, big);
  fs::resize_file(big, limit() + 1);
  auto b = witness_file::open(big, limit());
  ASSERT_THAT(b, StatusIs(status_code::invalid_argument));
  EXPECT_NE(b.error().message().find("larger than a .wtns for this key can be"), std::string::npos) << b.error().message();
  // The path may name any file the daemon can read: its size is not told.
  EXPECT_EQ(b.error().message().find(std::to_string(limit() + 1)), std::string::npos) << b.error().message();
  fs::resize_file(big, limit());  // at the limit it opens (and the parser has its say on the bytes)
  EXPECT_THAT(witness_file::open(big, limit()), IsOk());
}

TEST_F(WitnessFile, StopsWhenAskedAndReportsAFileThatShrank) {
  auto f = witness_file::open(good_, limit());
  ASSERT_THAT(f, IsOk());
  auto c = f->read([] { return true; });
  ASSERT_THAT(c, StatusIs(status_code::cancelled));
  fs::resize_file(good_, bytes_.size() / 2);  // after open(): the size seen there is no longer there
  auto s = f->read({});
  ASSERT_THAT(s, StatusIs(status_code::data_loss));
  EXPECT_NE(s.error().message().find("shrank while being read"), std::string::npos) << s.error().message();
}

}  // namespace
}  // namespace pp::engine
