// The `proofpipe` binary under hostile and faulty input, run as a child process as a user would run
// it: a header that claims 2^32 - 1 wires, an exception that reaches main, a key path that is not a
// key, a witness path that is a directory or a FIFO, outputs that are device nodes, links, FIFOs or
// in a missing directory, verify's exit codes, a readable token file.
// Every wait is bounded (cli/cli_process.hpp).
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/cli_process.hpp"
#include "formats/circom_r1cs.hpp"
#include "r1cs/constraint_system_builder.hpp"
#include "support/files.hpp"
#include "support/sanitizers.hpp"
#include "support/status_matchers.hpp"

namespace pp {
namespace {
namespace fs = std::filesystem;
using namespace std::chrono_literals;

using cli_test::describe;
using cli_test::outcome;
using cli_test::run;
using test::read_file;
using test::source_dir;

class CliFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("pp_cli_faults_" + std::to_string(::getpid()) + "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // circom's mul circuit with an insecure key and a proof of its witness, made by the binary itself.
  void make_mul_proof() {
    const fs::path r1cs = source_dir() / "tests/fixtures/circom/mul.r1cs";
    wtns_ = source_dir() / "tests/fixtures/circom/mul.wtns";
    zkey_ = dir_ / "mul.zkey";
    vk_ = dir_ / "vk.json";
    proof_ = dir_ / "proof.json";
    public_ = dir_ / "public.json";
    const outcome s = run({"setup", r1cs.string(), zkey_.string(), "--vk", vk_.string()});
    ASSERT_TRUE(s.exited && s.code == 0) << describe(s);
    const outcome p = run({"prove", zkey_.string(), wtns_.string(), proof_.string(), public_.string()});
    ASSERT_TRUE(p.exited && p.code == 0) << describe(p);
  }

  fs::path dir_, wtns_, zkey_, vk_, proof_, public_;
};

// A circuit whose header claims `wires` wires, no wire map (so nothing in the file backs the count)
// and one constraint on wire 1.
fs::path write_wide_r1cs(const fs::path& path, uint64_t wires) {
  r1cs::constraint_system_builder b(0, wires - 1);
  const r1cs::term t[] = {{b.aux_var(0), ff::fr::one()}};
  EXPECT_THAT(b.add_constraint(t, t, t), IsOk());
  auto cs = std::move(b).build();
  EXPECT_THAT(cs, IsOk());
  formats::circom_r1cs r;
  r.cs = std::move(cs).value();
  r.section_order = {2, 1};
  EXPECT_THAT(formats::write_circom_r1cs_file(r, path), IsOk());
  return path;
}

TEST_F(CliFaults, SetupOnAHeaderClaimingFourBillionWiresFailsCleanly) {
  const fs::path r1cs = write_wide_r1cs(dir_ / "wide.r1cs", (uint64_t{1} << 32) - 1);
  const outcome r = run({"setup", r1cs.string(), (dir_ / "wide.zkey").string()});
  ASSERT_TRUE(r.exited) << describe(r);
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_NE(r.err.find("4294967295 variables"), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("host memory"), std::string::npos) << describe(r);
  EXPECT_FALSE(fs::exists(dir_ / "wide.zkey"));
}

TEST_F(CliFaults, AnExceptionThatReachesMainIsNamedAndExitsNonZero) {
  if (test::built_with_asan) GTEST_SKIP() << "ASan cannot reserve its shadow memory in a 1 GiB address space";
  // 2^22 wires pass the memory estimate (about 2.5 GiB) but not a 1 GiB address space: an
  // allocation throws (std::bad_alloc, or a thread that cannot start), and main must catch it.
  const fs::path r1cs = write_wide_r1cs(dir_ / "wide.r1cs", uint64_t{1} << 22);
  const outcome r = run({"setup", r1cs.string(), (dir_ / "wide.zkey").string()}, 300s, rlim_t{1} << 30);
  ASSERT_TRUE(r.exited) << describe(r);
  EXPECT_EQ(r.code, 70) << describe(r);
  EXPECT_TRUE(r.err.find("proofpipe: out of memory (std::bad_alloc)") != std::string::npos ||
              r.err.find("proofpipe: internal error: uncaught exception") != std::string::npos)
      << describe(r);
}

TEST_F(CliFaults, AFileThatFailsToParseIsNeverEchoed) {
  const fs::path secret = dir_ / "shadow";
  std::ofstream(secret) << "root:$6$saltsalt$hashhashhash:19000:0:99999:7:::\n";
  make_mul_proof();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"prove", secret.string(), wtns_.string(), proof_.string(), public_.string()},
        std::vector<std::string>{"verify", secret.string(), public_.string(), proof_.string()},
        std::vector<std::string>{"verify", vk_.string(), secret.string(), proof_.string()},
        std::vector<std::string>{"verify", vk_.string(), public_.string(), secret.string()},
        std::vector<std::string>{"prove", zkey_.string(), secret.string(), proof_.string(), public_.string()}}) {
    const outcome r = run(args);
    ASSERT_TRUE(r.exited) << describe(r);
    EXPECT_NE(r.code, 0) << describe(r);
    EXPECT_EQ(r.err.find("root"), std::string::npos) << describe(r);
    EXPECT_EQ(r.out.find("root"), std::string::npos) << describe(r);
    EXPECT_EQ(r.err.find("salt"), std::string::npos) << describe(r);
    EXPECT_EQ(r.out.find("salt"), std::string::npos) << describe(r);
  }
}

TEST_F(CliFaults, AWitnessPathThatIsADirectoryOrAFifoSaysWhatItIs) {
  make_mul_proof();
  const fs::path fifo = dir_ / "witness.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const outcome d = run({"prove", zkey_.string(), dir_.string(), proof_.string(), public_.string()});
  ASSERT_TRUE(d.exited) << describe(d);
  EXPECT_EQ(d.code, 1);
  EXPECT_NE(d.err.find("is a directory"), std::string::npos) << describe(d);
  // Nobody writes to the FIFO: opening it must not wait for a writer.
  const outcome f = run({"prove", zkey_.string(), fifo.string(), proof_.string(), public_.string()}, 60s);
  ASSERT_TRUE(f.exited) << describe(f);
  EXPECT_EQ(f.code, 1);
  EXPECT_NE(f.err.find("is a FIFO"), std::string::npos) << describe(f);
}

// `prove`'s outputs look at what the path is (core/output_file.hpp): a device node (a copy of
// /dev/null, as root) and a FIFO keep their type, a symlink is written through to its target.
TEST_F(CliFaults, OutputsNeverReplaceADeviceNodeALinkOrAFifo) {
  make_mul_proof();
  auto type_of = [](const fs::path& p) {
    struct stat st {};
    EXPECT_EQ(::lstat(p.c_str(), &st), 0) << p;
    return st.st_mode & S_IFMT;
  };
  if (::geteuid() == 0) {
    const fs::path null = dir_ / "null";
    ASSERT_EQ(::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)), 0);
    const outcome r = run({"prove", zkey_.string(), wtns_.string(), null.string(), public_.string()});
    EXPECT_TRUE(r.exited && r.code == 0) << describe(r);
    EXPECT_EQ(type_of(null), static_cast<mode_t>(S_IFCHR)) << "the device node was replaced";
  }
  const fs::path target = dir_ / "target.json";
  std::ofstream(target) << "old";
  fs::create_symlink(target, dir_ / "link.json");
  const outcome l = run({"prove", zkey_.string(), wtns_.string(), (dir_ / "link.json").string(), public_.string()});
  EXPECT_TRUE(l.exited && l.code == 0) << describe(l);
  EXPECT_EQ(type_of(dir_ / "link.json"), static_cast<mode_t>(S_IFLNK)) << "the link was replaced";
  EXPECT_NE(read_file(target).find("pi_a"), std::string::npos) << "the link's target was not written";

  const fs::path fifo = dir_ / "proof.fifo";
  const fs::path fresh_public = dir_ / "fresh_public.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const outcome f = run({"prove", zkey_.string(), wtns_.string(), fifo.string(), fresh_public.string()}, 60s);
  ASSERT_TRUE(f.exited) << describe(f);
  EXPECT_EQ(f.code, 1) << describe(f);
  EXPECT_NE(f.err.find("no reader"), std::string::npos) << describe(f);
  EXPECT_EQ(type_of(fifo), static_cast<mode_t>(S_IFIFO)) << "the FIFO was replaced";
  EXPECT_FALSE(fs::exists(fresh_public)) << "public.json was written although the proof could not be";
}

TEST_F(CliFaults, AFailedPublicWriteLeavesNoProofBehind) {
  make_mul_proof();
  const fs::path proof = dir_ / "new_proof.json";
  const outcome r = run({"prove", zkey_.string(), wtns_.string(), proof.string(), (dir_ / "no_dir" / "public.json").string()});
  ASSERT_TRUE(r.exited) << describe(r);
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_NE(r.err.find("public.json"), std::string::npos) << describe(r);
  EXPECT_FALSE(fs::exists(proof)) << "proof.json was written without its public.json";
  const fs::path key = dir_ / "new.zkey";
  const outcome s = run({"setup", (source_dir() / "tests/fixtures/circom/mul.r1cs").string(), key.string(), "--vk",
                         (dir_ / "no_dir" / "vk.json").string()});
  ASSERT_TRUE(s.exited) << describe(s);
  EXPECT_EQ(s.code, 1) << describe(s);
  EXPECT_FALSE(fs::exists(key)) << "the key was written without its verifying key";
}

TEST_F(CliFaults, VerifyTellsAnInvalidProofFromAnUnreadableInput) {
  make_mul_proof();
  const outcome ok = run({"verify", vk_.string(), public_.string(), proof_.string()});
  EXPECT_TRUE(ok.exited && ok.code == 0) << describe(ok);
  // Another public value: a valid-looking input the proof does not match.
  std::string pub = read_file(public_);
  const size_t digit = pub.find_first_of("0123456789");
  ASSERT_NE(digit, std::string::npos);
  pub[digit] = pub[digit] == '9' ? '8' : static_cast<char>(pub[digit] + 1);
  const fs::path other_public = dir_ / "other_public.json";
  std::ofstream(other_public) << pub;
  const outcome bad = run({"verify", vk_.string(), other_public.string(), proof_.string()});
  EXPECT_TRUE(bad.exited && bad.code == 1) << describe(bad);
  EXPECT_NE(bad.out.find("INVALID"), std::string::npos) << describe(bad);
  // A proof that is not a proof is invalid too.
  const fs::path garbage = dir_ / "garbage.json";
  std::ofstream(garbage) << "{\"pi_a\": 1}";
  const outcome g = run({"verify", vk_.string(), public_.string(), garbage.string()});
  EXPECT_TRUE(g.exited && g.code == 1) << describe(g);
  // Inputs it cannot read: exit 2, whichever file it is.
  const std::string missing = (dir_ / "missing.json").string();
  for (const std::vector<std::string>& args : {std::vector<std::string>{"verify", missing, public_.string(), proof_.string()},
                                               std::vector<std::string>{"verify", vk_.string(), missing, proof_.string()},
                                               std::vector<std::string>{"verify", vk_.string(), public_.string(), missing},
                                               std::vector<std::string>{"verify", vk_.string(), public_.string(), dir_.string()}}) {
    const outcome r = run(args);
    EXPECT_TRUE(r.exited && r.code == 2) << describe(r);
    EXPECT_EQ(r.out.find("OK"), std::string::npos) << describe(r);
  }
}

TEST_F(CliFaults, AWorldReadableTokenFileIsAcceptedWithAWarning) {
  const fs::path token = dir_ / "token";
  std::ofstream(token) << "s3cret\n";
  ::chmod(token.c_str(), 0644);
  const fs::path socket = fs::path("/tmp") / ("pp_cli_tok_" + std::to_string(::getpid()) + ".sock");
  const fs::path err_path = dir_ / "serve.err";
  cli_test::background serve({"serve", "--socket", socket.string(), "--listen", "127.0.0.1:0", "--token-file",
                              token.string()},
                             err_path);
  // Wait for the "serving" line, then stop it.
  static_cast<void>(serve.wait_for_stderr("serving"));
  static_cast<void>(serve.stop());
  const std::string log = read_file(err_path);
  std::error_code ec;
  fs::remove(socket, ec);
  ASSERT_NE(log.find("serving"), std::string::npos) << log;
  EXPECT_NE(log.find("other users can read the bearer token"), std::string::npos) << log;
  EXPECT_NE(log.find("0644"), std::string::npos) << log;
}

}  // namespace
}  // namespace pp
