// output_file: what an output does to each kind of path. A new path or a regular file is replaced
// whole (its mode kept, no temporary left behind); a symlink is written through to its target and
// stays a link; a character device (a copy of /dev/null made with mknod) and a FIFO with a reader
// are written through and keep their type; a FIFO with no reader, a dangling link, a directory and a
// block device are refused without waiting; several outputs are all written or none.
#include "core/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <cstring>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "support/files.hpp"
#include "support/status_matchers.hpp"

namespace pp {
namespace {
namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::span<const uint8_t> as_bytes(const std::string& s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

class OutputFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("pp_output_file_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // Names in dir_ that look like a temporary file (".<name>.<hex>.tmp").
  std::vector<std::string> temporaries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) {
      const std::string n = e.path().filename().string();
      if (n.ends_with(".tmp")) out.push_back(n);
    }
    return out;
  }
  static mode_t type_of(const fs::path& p) {
    struct stat st {};
    EXPECT_EQ(::lstat(p.c_str(), &st), 0) << p;
    return st.st_mode & S_IFMT;
  }
  fs::path dir_;
};

TEST_F(OutputFile, ANewPathIsCreatedWithTheBytes) {
  ASSERT_THAT(write_output_file(dir_ / "proof.json", as_bytes("{}\n")), IsOk());
  EXPECT_EQ(test::read_file(dir_ / "proof.json"), "{}\n");
  EXPECT_TRUE(temporaries().empty());
}

TEST_F(OutputFile, ARegularFileIsReplacedWholeAndKeepsItsMode) {
  const fs::path p = dir_ / "proof.json";
  std::ofstream(p) << "an older and much longer proof that must not leave a tail behind";
  ASSERT_EQ(::chmod(p.c_str(), 0640), 0);
  struct stat before {};
  ASSERT_EQ(::stat(p.c_str(), &before), 0);
  ASSERT_THAT(write_output_file(p, as_bytes("new")), IsOk());
  EXPECT_EQ(test::read_file(p), "new");
  struct stat after {};
  ASSERT_EQ(::stat(p.c_str(), &after), 0);
  EXPECT_EQ(after.st_mode & 0777, 0640u);
  EXPECT_NE(after.st_ino, before.st_ino) << "replaced by a rename, so a reader sees the old or the new file whole";
  EXPECT_TRUE(temporaries().empty());
}

TEST_F(OutputFile, ASymlinkIsWrittenThroughToItsTargetAndStaysALink) {
  fs::create_directories(dir_ / "store");
  const fs::path target = dir_ / "store" / "proof.json";
  std::ofstream(target) << "old";
  fs::create_symlink(target, dir_ / "link.json");
  ASSERT_THAT(write_output_file(dir_ / "link.json", as_bytes("new")), IsOk());
  EXPECT_EQ(type_of(dir_ / "link.json"), static_cast<mode_t>(S_IFLNK));
  EXPECT_EQ(test::read_file(target), "new");
}

TEST_F(OutputFile, ADanglingSymlinkIsRefused) {
  fs::create_symlink(dir_ / "nowhere" / "x.json", dir_ / "link.json");
  EXPECT_THAT(write_output_file(dir_ / "link.json", as_bytes("new")),
              StatusIs(status_code::invalid_argument, HasSubstr("symbolic link to a missing file")));
  EXPECT_FALSE(fs::exists(dir_ / "nowhere"));
}

TEST_F(OutputFile, AGuessableTemporaryNameIsNotFollowed) {
  // An attacker's link at PATH.tmp, the name a fixed-suffix writer would open.
  const fs::path victim = dir_ / "victim";
  std::ofstream(victim) << "precious";
  fs::create_symlink(victim, dir_ / "proof.json.tmp");
  ASSERT_THAT(write_output_file(dir_ / "proof.json", as_bytes("new")), IsOk());
  EXPECT_EQ(test::read_file(victim), "precious");
  EXPECT_EQ(test::read_file(dir_ / "proof.json"), "new");
}

TEST_F(OutputFile, ACharacterDeviceIsWrittenThroughNotReplaced) {
  // As root (containers) a copy of /dev/null made here; otherwise /dev/null itself, which a
  // non-root writer could not replace anyway.
  fs::path dev = "/dev/null";
  if (::geteuid() == 0) {
    dev = dir_ / "null";
    ASSERT_EQ(::mknod(dev.c_str(), S_IFCHR | 0666, makedev(1, 3)), 0) << std::strerror(errno);
  }
  ASSERT_THAT(write_output_file(dev, as_bytes("discarded")), IsOk());
  EXPECT_EQ(type_of(dev), static_cast<mode_t>(S_IFCHR));
  EXPECT_TRUE(temporaries().empty());
}

TEST_F(OutputFile, ABlockDeviceAndADirectoryAreRefused) {
  fs::create_directories(dir_ / "sub");
  EXPECT_THAT(write_output_file(dir_ / "sub", as_bytes("x")), StatusIs(status_code::invalid_argument, HasSubstr("is a directory")));
  if (::geteuid() == 0) {
    const fs::path blk = dir_ / "disk";
    ASSERT_EQ(::mknod(blk.c_str(), S_IFBLK | 0600, makedev(7, 0)), 0) << std::strerror(errno);
    EXPECT_THAT(write_output_file(blk, as_bytes("x")), StatusIs(status_code::invalid_argument, HasSubstr("is a block device")));
    EXPECT_EQ(type_of(blk), static_cast<mode_t>(S_IFBLK));
  }
  EXPECT_TRUE(temporaries().empty());
}

TEST_F(OutputFile, AFifoWithAReaderGetsTheBytesAndStaysAFifo) {
  const fs::path fifo = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto reader = std::async(std::launch::async, [&] {
    std::ifstream in(fifo);  // blocks until the writer opens its end
    return std::string(std::istreambuf_iterator<char>(in), {});
  });
  // The reader must hold its end open first: poll until the write is accepted.
  status s = unavailable("not tried");
  for (int i = 0; i < 500; ++i) {
    s = write_output_file(fifo, as_bytes("through the pipe"));
    if (s.ok() || s.message().find("no reader") == std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_THAT(s, IsOk());
  ASSERT_EQ(reader.wait_for(std::chrono::seconds(30)), std::future_status::ready);
  EXPECT_EQ(reader.get(), "through the pipe");
  EXPECT_EQ(type_of(fifo), static_cast<mode_t>(S_IFIFO));
}

TEST_F(OutputFile, AFifoWithNoReaderIsRefusedAtOnce) {
  const fs::path fifo = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_THAT(write_output_file(fifo, as_bytes("x")), StatusIs(status_code::invalid_argument, HasSubstr("no reader")));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  EXPECT_EQ(type_of(fifo), static_cast<mode_t>(S_IFIFO));
}

TEST_F(OutputFile, WhenOneOutputIsRefusedNoneIsWritten) {
  fs::create_directories(dir_ / "sub");
  const std::string proof = "proof", pub = "public";
  const output_bytes outputs[] = {{dir_ / "proof.json", as_bytes(proof)}, {dir_ / "missing" / "public.json", as_bytes(pub)}};
  EXPECT_THAT(write_output_files(outputs), StatusIs(status_code::not_found, HasSubstr("public.json")));
  EXPECT_FALSE(fs::exists(dir_ / "proof.json"));
  EXPECT_TRUE(temporaries().empty());
}

TEST_F(OutputFile, APathHoldingANulIsRefused) {
  const std::string text = (dir_ / "proof.json").string() + std::string(1, '\0') + "junk";
  EXPECT_THAT(write_output_file(fs::path(text), as_bytes("x")), StatusIs(status_code::invalid_argument, HasSubstr("NUL")));
  EXPECT_FALSE(fs::exists(dir_ / "proof.json"));
}

TEST_F(OutputFile, APathSwappedForAFifoBeforeTheCommitIsNotReplaced) {
  const fs::path p = dir_ / "proof.json";
  std::ofstream(p) << "old";
  auto staged = staged_output::stage(p, as_bytes("new"));
  ASSERT_THAT(staged, IsOk());
  fs::remove(p);
  ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
  EXPECT_THAT(staged->commit(), StatusIs(status_code::invalid_argument, HasSubstr("is a FIFO")));
  EXPECT_EQ(type_of(p), static_cast<mode_t>(S_IFIFO));
  EXPECT_TRUE(temporaries().empty());
}

}  // namespace
}  // namespace pp
