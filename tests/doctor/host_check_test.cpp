// host_check (src/doctor/host_check.hpp): each verdict on a fake host (fake_host.hpp): what the item
// says, whether the host can serve, and the fix named. The GPU cases run as a CUDA build would.
#include "doctor/host_check.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "doctor/fake_host.hpp"

namespace pp::doctor {
namespace {

using ::testing::HasSubstr;
using test::fake_host;
using test::gib;
using test::gpu;

// The finding for `item`; fails the test when there is none or more than one.
const finding& only(const report& r, const std::string& item) {
  const finding* found = nullptr;
  int n = 0;
  for (const finding& f : r.findings) {
    if (f.item == item) {
      found = &f;
      ++n;
    }
  }
  if (n != 1) {
    ADD_FAILURE() << n << " findings for \"" << item << "\" in:\n" << render(r);
    static const finding none{};
    return none;
  }
  return *found;
}

// A CUDA build of the given architectures.
doctor_input cuda_build(const std::string& architectures = "90") {
  doctor_input in;
  in.gpu_support_built = true;
  in.cuda_architectures = architectures;
  return in;
}

// One bellperson key, params of `bytes` and a small r1cs.
void add_key(doctor_input& in, fake_host& host, const std::string& id, uint64_t bytes) {
  server::key_entry k;
  k.id = id;
  k.params = "/var/lib/proofpipe/keys/" + id + ".params";
  k.r1cs = "/var/lib/proofpipe/keys/" + id + ".r1cs";
  host.add_file(k.params, bytes);
  host.add_file(k.r1cs, 0);
  in.config.keys.push_back(k);
}

TEST(HostCheck, WithoutAGpuTheCpuBackendServesAndNothingIsPinned) {
  fake_host host;
  const report r = check_host(doctor_input{}, host);
  EXPECT_TRUE(r.can_serve()) << render(r);
  EXPECT_EQ(r.count(verdict::warning), 0) << render(r);
  EXPECT_THAT(only(r, "GPUs").detail, HasSubstr("CPU backend will serve"));
  EXPECT_THAT(only(r, "memlock").detail, HasSubstr("not needed"));
  EXPECT_TRUE(host.pinned.empty());
  EXPECT_THAT(render(r), HasSubstr("this host can serve this configuration (0 warnings)"));
}

TEST(HostCheck, ACudaBuildWithoutAGpuServesOnTheCpuUnlessCudaIsRequired) {
  fake_host host;
  doctor_input in = cuda_build();
  report r = check_host(in, host);
  EXPECT_TRUE(r.can_serve()) << render(r);
  EXPECT_THAT(only(r, "GPUs").detail, HasSubstr("CPU backend will serve"));
  in.config.engine.backend = "cuda";
  r = check_host(in, host);
  EXPECT_FALSE(r.can_serve());
  EXPECT_EQ(only(r, "GPUs").level, verdict::problem);
  EXPECT_THAT(only(r, "GPUs").fix, HasSubstr("nvidia-smi"));
}

TEST(HostCheck, BackendCudaInABuildWithoutCudaIsAProblem) {
  fake_host host;
  doctor_input in;
  in.config.engine.backend = "cuda";
  const report r = check_host(in, host);
  EXPECT_FALSE(r.can_serve());
  EXPECT_THAT(only(r, "GPUs").detail, HasSubstr("no CUDA backend"));
}

TEST(HostCheck, AGpuThatServesGetsItsDriverArchitectureAndVramChecked) {
  fake_host host;
  host.gpu_list = {gpu(0)};
  doctor_input in = cuda_build("80, 90");
  add_key(in, host, "porep", 40 * gib);
  const report r = check_host(in, host, [](const key_vram_query&) {
    return key_vram_plan{key_placement::resident, 30 * gib, "resident"};
  });
  EXPECT_TRUE(r.can_serve()) << render(r);
  EXPECT_THAT(only(r, "GPUs").detail, HasSubstr("1 will serve, 2 workers each"));
  EXPECT_EQ(only(r, "GPU 0 driver").level, verdict::ok);
  EXPECT_EQ(only(r, "GPU 0 architecture").level, verdict::ok);
  EXPECT_EQ(only(r, "GPU 0 VRAM").level, verdict::ok);
  EXPECT_THAT(only(r, "GPU 0 VRAM").detail, HasSubstr("key porep: resident"));
  EXPECT_EQ(only(r, "memlock").level, verdict::ok);
  EXPECT_EQ(only(r, "trial pin").level, verdict::ok);
  ASSERT_EQ(host.pinned.size(), 1u);
  EXPECT_EQ(host.pinned[0], trial_pin_cap);
}

TEST(HostCheck, AMemlockLimitBelowTheKeyIsAProblem) {
  fake_host host;
  host.gpu_list = {gpu(0)};
  host.memlock = 8 << 20;  // Debian's default for a login
  doctor_input in = cuda_build();
  add_key(in, host, "porep", 40 * gib);
  const report r = check_host(in, host);
  EXPECT_FALSE(r.can_serve());
  const finding& f = only(r, "memlock");
  EXPECT_EQ(f.level, verdict::problem);
  EXPECT_THAT(f.detail, HasSubstr("RLIMIT_MEMLOCK 8 MiB is below"));
  EXPECT_THAT(f.detail, HasSubstr("the keys' 40.0 GiB"));
  EXPECT_THAT(f.fix, HasSubstr("LimitMEMLOCK=infinity"));
}

TEST(HostCheck, AFailedTrialPinIsAProblem) {
  fake_host host;
  host.gpu_list = {gpu(0)};
  host.pin_status = permission_denied("mlock: Operation not permitted");
  doctor_input in = cuda_build();
  const report r = check_host(in, host);
  EXPECT_FALSE(r.can_serve());
  EXPECT_EQ(only(r, "memlock").level, verdict::ok);  // unlimited, yet the kernel refuses
  EXPECT_EQ(only(r, "trial pin").level, verdict::problem);
  EXPECT_THAT(only(r, "trial pin").detail, HasSubstr("Operation not permitted"));
  // Without keys the GPUs still pin each worker's staging, and there is no plan to report.
  EXPECT_THAT(only(r, "GPU 0 VRAM").detail, HasSubstr("no key to plan"));
  ASSERT_EQ(host.pinned.size(), 1u);
  EXPECT_EQ(host.pinned[0], std::min<uint64_t>(2 * in.config.engine.gpu.staging_bytes, trial_pin_cap));
}

TEST(HostCheck, AGpuWhoseArchitectureTheBinaryLacksIsAProblem) {
  fake_host host;
  host.gpu_list = {gpu(0, 20 * gib, 8, 0)};  // an A100, compute capability 8.0
  const report r = check_host(cuda_build("90"), host);
  EXPECT_FALSE(r.can_serve());
  const finding& f = only(r, "GPU 0 architecture");
  EXPECT_EQ(f.level, verdict::problem);
  EXPECT_THAT(f.detail, HasSubstr("compute capability 8.0"));
  EXPECT_THAT(f.detail, HasSubstr("built for 90"));
  EXPECT_THAT(f.fix, HasSubstr("-DCMAKE_CUDA_ARCHITECTURES=80"));
}

TEST(HostCheck, AGpuThatOnlyGetsPtxIsAWarning) {
  fake_host host;
  host.gpu_list = {gpu(0, 20 * gib, 12, 0)};
  const report r = check_host(cuda_build("90"), host);
  EXPECT_TRUE(r.can_serve()) << render(r);
  EXPECT_EQ(only(r, "GPU 0 architecture").level, verdict::warning);
  EXPECT_THAT(only(r, "GPU 0 architecture").detail, HasSubstr("compiles every kernel at first use"));
}

TEST(HostCheck, VramBelowTheLeastBudgetIsAProblem) {
  fake_host host;
  host.gpu_list = {gpu(0, 12 * gib)};
  doctor_input in = cuda_build();
  add_key(in, host, "porep", 40 * gib);
  // A planner whose key needs 16 GiB at the least.
  const auto planner = [](const key_vram_query& q) {
    return q.budget_bytes >= 16 * gib ? key_vram_plan{key_placement::streamed, 16 * gib, "streamed"}
                                      : key_vram_plan{key_placement::refused, 16 * gib, "refused"};
  };
  const report r = check_host(in, host, planner);
  EXPECT_FALSE(r.can_serve());
  const finding& f = only(r, "GPU 0 VRAM");
  EXPECT_EQ(f.level, verdict::problem);
  EXPECT_THAT(f.detail, HasSubstr("budget 10.8 GiB"));  // 12 GiB free x gpu_vram_share 0.9
  EXPECT_THAT(f.detail, HasSubstr("it needs at least 16.0 GiB"));
  EXPECT_THAT(f.fix, HasSubstr("at least 16.0 GiB"));

  host.gpu_list = {gpu(0, 20 * gib)};
  const report fits = check_host(in, host, planner);
  EXPECT_TRUE(fits.can_serve()) << render(fits);
  EXPECT_EQ(only(fits, "GPU 0 VRAM").level, verdict::ok);
}

TEST(HostCheck, AKeyThePlannerCannotReadIsAWarningWithTheBudget) {
  fake_host host;
  host.gpu_list = {gpu(0, 30 * gib)};
  doctor_input in = cuda_build();
  in.config.engine.gpu.max_vram_bytes = 24 * gib;
  add_key(in, host, "porep", 40 * gib);
  // The fake host's key files exist only in its probes: the real planner cannot read them.
  const report r = check_host(in, host);
  EXPECT_TRUE(r.can_serve()) << render(r);
  const finding& f = only(r, "GPU 0 VRAM");
  EXPECT_EQ(f.level, verdict::warning);
  EXPECT_THAT(f.detail, HasSubstr("budget 24.0 GiB (gpu_vram_share, gpu_vram_max_mb)"));
  EXPECT_THAT(f.detail, HasSubstr("key porep: not planned"));
}

TEST(HostCheck, OnlyTheListedGpusServeAndAnAbsentOneIsAProblem) {
  fake_host host;
  host.gpu_list = {gpu(0), gpu(1, 10 * gib, 8, 6)};
  doctor_input in = cuda_build("90");
  in.config.engine.gpu.ordinals = {0};
  report r = check_host(in, host);
  EXPECT_TRUE(r.can_serve()) << render(r);  // GPU 1's missing architecture does not matter
  for (const finding& f : r.findings) EXPECT_THAT(f.item, ::testing::Not(HasSubstr("GPU 1")));
  in.config.engine.gpu.ordinals = {0, 2};
  r = check_host(in, host);
  EXPECT_FALSE(r.can_serve());
  EXPECT_THAT(only(r, "GPUs").detail, HasSubstr("GPU 2, which is not present"));
}

TEST(HostCheck, ADriverOlderThanTheRuntimeIsAProblemAcrossMajorVersions) {
  fake_host host;
  host.gpu_list = {gpu(0)};
  host.gpu_list[0].driver_version = 11080;
  report r = check_host(cuda_build(), host);
  EXPECT_EQ(only(r, "GPU 0 driver").level, verdict::problem);
  EXPECT_THAT(only(r, "GPU 0 driver").detail, HasSubstr("driver supports CUDA 11.8, this binary's runtime is 12.8"));
  host.gpu_list[0].driver_version = 12020;
  r = check_host(cuda_build(), host);
  EXPECT_EQ(only(r, "GPU 0 driver").level, verdict::warning);
}

TEST(HostCheck, AWorldReadableTokenFileIsAProblem) {
  fake_host host;
  doctor_input in;
  in.config.server.listen = "127.0.0.1:9000";
  in.config.server.token_file = "/etc/proofpipe/token";
  host.add_file(in.config.server.token_file, 33, 0644);
  report r = check_host(in, host);
  EXPECT_FALSE(r.can_serve());
  EXPECT_EQ(only(r, "token file").level, verdict::problem);
  EXPECT_THAT(only(r, "token file").detail, HasSubstr("mode 0644"));
  EXPECT_EQ(only(r, "token file").fix, "chmod 600 /etc/proofpipe/token");

  host.add_file(in.config.server.token_file, 33, 0640);
  r = check_host(in, host);
  EXPECT_TRUE(r.can_serve()) << render(r);
  EXPECT_EQ(only(r, "token file").level, verdict::warning);

  host.add_file(in.config.server.token_file, 33, 0600);
  r = check_host(in, host);
  EXPECT_EQ(only(r, "token file").level, verdict::ok);

  host.files.erase(in.config.server.token_file);
  r = check_host(in, host);
  EXPECT_EQ(only(r, "token file").level, verdict::problem);
  EXPECT_THAT(only(r, "token file").detail, HasSubstr("does not exist"));
}

TEST(HostCheck, TheSocketDirectoryMustBeOursToWriteIn) {
  fake_host host;
  doctor_input in;
  report r = check_host(in, host);
  EXPECT_EQ(only(r, "socket directory").level, verdict::ok);

  host.files["/run/proofpipe"].writable = false;
  r = check_host(in, host);
  EXPECT_EQ(only(r, "socket directory").level, verdict::problem);

  in.config.server.socket = "/tmp/proofpipe.sock";
  host.files["/tmp"] = {path_facts::kind::directory, 0777, 4096, true, true};
  r = check_host(in, host);
  EXPECT_EQ(only(r, "socket directory").level, verdict::warning);
  host.files["/tmp"].mode = 01777;  // sticky: others cannot remove or rename our socket
  r = check_host(in, host);
  EXPECT_EQ(only(r, "socket directory").level, verdict::ok);

  in.config.server.socket = "/run/elsewhere/proofpipe.sock";
  r = check_host(in, host);
  EXPECT_EQ(only(r, "socket directory").level, verdict::warning);
  EXPECT_THAT(only(r, "socket directory").detail, HasSubstr("does not exist"));
}

TEST(HostCheck, AKeyLargerThanTheKeyShareIsAProblemAndKeysThatDoNotFitTogetherAWarning) {
  fake_host host;
  host.memory = {256 * gib, 64 * gib, 64 * gib};  // a cgroup limit below MemTotal
  doctor_input in;
  in.config.engine.config.host_memory_margin = 0;
  add_key(in, host, "big", 28 * gib);  // charged 35 GiB against a 32 GiB share
  report r = check_host(in, host);
  EXPECT_FALSE(r.can_serve());
  EXPECT_EQ(only(r, "host memory").level, verdict::problem);
  EXPECT_THAT(only(r, "host memory").detail, HasSubstr("cgroup limit 64.0 GiB"));
  EXPECT_THAT(only(r, "host memory").detail, HasSubstr("key big is charged 35.0 GiB"));

  in.config.keys.clear();
  add_key(in, host, "a", 16 * gib);
  add_key(in, host, "b", 16 * gib);
  r = check_host(in, host);
  EXPECT_TRUE(r.can_serve()) << render(r);
  EXPECT_EQ(only(r, "host memory").level, verdict::warning);
}

TEST(HostCheck, AHostMemoryBudgetAboveTheHostIsAProblem) {
  fake_host host;
  doctor_input in;
  in.config.engine.config.host_memory_bytes = 300 * gib;
  const report r = check_host(in, host);
  EXPECT_FALSE(r.can_serve());
  EXPECT_THAT(only(r, "host memory").detail, HasSubstr("OOM killer"));
}

TEST(HostCheck, AMissingKeyFileIsAProblem) {
  fake_host host;
  doctor_input in;
  add_key(in, host, "porep", gib);
  host.files.erase(in.config.keys[0].r1cs);
  const report r = check_host(in, host);
  EXPECT_FALSE(r.can_serve());
  EXPECT_EQ(only(r, "key porep").level, verdict::problem);
  EXPECT_THAT(only(r, "key porep").detail, HasSubstr("porep.r1cs: does not exist"));
}

TEST(HostCheck, TransparentHugePagesOffIsAWarning) {
  fake_host host;
  host.thp = std::string("never");
  const report r = check_host(doctor_input{}, host);
  EXPECT_TRUE(r.can_serve());
  EXPECT_EQ(only(r, "transparent huge pages").level, verdict::warning);
  EXPECT_THAT(only(r, "transparent huge pages").fix, HasSubstr("madvise"));
}

}  // namespace
}  // namespace pp::doctor
