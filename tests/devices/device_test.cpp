// device (src/devices/device.hpp): the CPU device is the CPU backends of both curves under its name,
// and reports that backend's host memory per partition, checked against the sizes written out by
// hand.
#include "devices/device.hpp"

#include <gtest/gtest.h>

namespace pp::devices {
namespace {

TEST(CpuDevice, IsTheCpuBackendUnderItsName) {
  const device_ptr d = make_cpu_device("cpu3");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->name(), "cpu3");
  EXPECT_EQ(d->kind(), "cpu");
  EXPECT_EQ(d->backend().name(), "cpu");
  EXPECT_FALSE(d->measures().has_value()) << "the engine measures a CPU device itself";
}

TEST(CpuDevice, ProvesBothCurves) {
  const device_ptr d = make_cpu_device("cpu0");
  ASSERT_NE(d->bn254_backend(), nullptr);
  EXPECT_EQ(d->bn254_backend()->name(), "cpu");
  EXPECT_TRUE(proves(*d, ec::curve_id::bls12_381));
  EXPECT_TRUE(proves(*d, ec::curve_id::bn254));
  EXPECT_EQ(backend_for<ec::bls12_381::family>(*d), &d->backend());
  EXPECT_EQ(backend_for<ec::bn254::family>(*d), d->bn254_backend());
  // BN254's own figure: per variable its G2 point (128 B) and scalar (32 B), plus the GLV halves (32 B)
  // and beta x (64 B) of its G2 split, against BLS12-381's 192 + 32 B; per row 8 x 32 B for both.
  EXPECT_EQ(d->bn254_backend()->host_bytes_per_partition(1000, 1024), 552960u);  // 550144 B in whole pages
  EXPECT_EQ(d->backend().host_bytes_per_partition(1000, 1024), 520192u);         // 518144 B in whole pages
  EXPECT_EQ(d->bn254_backend()->host_bytes_per_partition(0, 16), 4096u);
}

TEST(CpuDevice, BesideGpusItProvesBn254Only) {
  const device_ptr d = make_cpu_device("cpu0", cpu_curves::bn254_only);
  EXPECT_FALSE(proves(*d, ec::curve_id::bls12_381));
  EXPECT_TRUE(proves(*d, ec::curve_id::bn254));
  EXPECT_EQ(backend_for<ec::bls12_381::family>(*d), nullptr) << "no BLS12-381 partition, nor its host-memory figure";
  EXPECT_EQ(backend_for<ec::bn254::family>(*d), d->bn254_backend());
}

TEST(CpuDevice, HostBytesPerPartitionCountsWitnessEvaluationsAndMsmGather) {
  const device_ptr d = make_cpu_device("cpu0");
  // 1000 variables, domain 1024: 32 x (1000 + 8 x 1024) = 294144 (witness; a, b, c, cosets, H) plus
  // 1000 x (192 + 32) = 224000 (B_G2 gather) = 518144, rounded up to 4 KiB: 127 x 4096 = 520192.
  EXPECT_EQ(d->backend().host_bytes_per_partition(1000, 1024), 520192u);
  // Exactly a multiple of 4 KiB stays as it is: 0 variables, domain 16: 32 x 128 = 4096.
  EXPECT_EQ(d->backend().host_bytes_per_partition(0, 16), 4096u);
  // Grows with the variables and with the domain.
  EXPECT_LT(d->backend().host_bytes_per_partition(1000, 1024), d->backend().host_bytes_per_partition(2000, 1024));
  EXPECT_LT(d->backend().host_bytes_per_partition(1000, 1024), d->backend().host_bytes_per_partition(1000, 2048));
}

}  // namespace
}  // namespace pp::devices
