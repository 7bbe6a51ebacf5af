// Same-run reference timings of sppark (docs/perf/msm-h200.md names the commit) on the device: its G1 and
// G2 Pippenger MSM (msm/pippenger.cuh) with points and scalars resident on the device and from host
// memory (its host entry, transfers included), and its NTT (ntt/ntt.cuh, NN forward, device buffer).
// Built outside proofpipe's tree; median of 5 after one warm-up, fresh random scalars before each run.
#include <cuda.h>
#include <ff/bls12-381-fp2.hpp>
#include <ec/jacobian_t.hpp>
#include <ec/xyzz_t.hpp>

typedef jacobian_t<fp_t> point_t;
typedef xyzz_t<fp_t> bucket_t;
typedef bucket_t::affine_t affine_t;
typedef jacobian_t<fp2_t> point2_t;
typedef xyzz_t<fp2_t> bucket2_t;
typedef bucket2_t::affine_t affine2_t;
typedef fr_t scalar_t;

#include <msm/pippenger.cuh>
#include <ntt/ntt.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); std::exit(1);} } while (0)

__device__ uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
// 254-bit values < r: valid Montgomery-form scalars, as proofpipe's cuda_msm_bench draws them.
__global__ void fill(uint64_t* a, uint64_t n, uint64_t seed) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    for (int k = 0; k < 4; ++k) a[4 * i + k] = mix(seed + (5 * i + k + 1) * 0x9e3779b97f4a7c15ull);
    a[4 * i + 3] >>= 2;
  }
}

// 2^16 distinct points: a walk k G + j S by blst, to affine in one batch, tiled to n on the device.
void make_points_g1(uint8_t* out, int m);  // points.cpp (blst)
void make_points_g2(uint8_t* out, int m);
template <int G>
void make_points(void* d, uint64_t n, size_t size) {
  const int m = 1 << 16;
  std::vector<uint8_t> host(size_t(m) * size);
  if (G == 1) make_points_g1(host.data(), m); else make_points_g2(host.data(), m);
  for (uint64_t at = 0; at < n; at += m) {
    const uint64_t len = std::min<uint64_t>(m, n - at);
    CK(cudaMemcpy(static_cast<char*>(d) + at * size, host.data(), len * size, cudaMemcpyHostToDevice));
  }
}

double median(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

template <class Bucket, class Point, class Affine, int G>
void msm_case(int log_n, bool host_entry) {
  const uint64_t n = uint64_t{1} << log_n;
  void* d_points; uint64_t* d_scalars;
  CK(cudaMalloc(&d_points, n * sizeof(Affine)));
  CK(cudaMalloc(&d_scalars, n * 32));
  make_points<G>(d_points, n, sizeof(Affine));
  std::vector<Affine> h_points;
  std::vector<scalar_t> h_scalars;
  if (host_entry) {
    h_points.resize(n); h_scalars.resize(n);
    CK(cudaMemcpy(h_points.data(), d_points, n * sizeof(Affine), cudaMemcpyDeviceToHost));
  }
  // Owners of the device buffers (sppark's gpu_ptr_t frees them when the last copy goes).
  gpu_ptr_t<Affine> gp(static_cast<Affine*>(d_points));
  gpu_ptr_t<scalar_t> gs(reinterpret_cast<scalar_t*>(d_scalars));
  std::vector<double> ms;
  for (int rep = 0; rep < 6; ++rep) {
    fill<<<1024, 256>>>(d_scalars, n, 0x5eed + 1000003ull * rep);
    CK(cudaDeviceSynchronize());
    if (host_entry) CK(cudaMemcpy(h_scalars.data(), d_scalars, n * 32, cudaMemcpyDeviceToHost));
    Point out;
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    CK(cudaEventRecord(a));
    RustError e{cudaSuccess};
    if (host_entry) {
      e = mult_pippenger<Bucket>(&out, h_points.data(), n, h_scalars.data(), true);
    } else {
      msm_t<Bucket, Point, Affine, scalar_t> msm{nullptr, n};
      e = msm.invoke(out, gp, n, gs, true);
    }
    CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
    float t = 0; CK(cudaEventElapsedTime(&t, a, b));
    if (e.code != cudaSuccess) { std::printf("sppark msm error %d\n", int(e.code)); std::exit(1); }
    if (rep > 0) ms.push_back(t);
  }
  std::printf("| sppark | G%d MSM | 2^%d | %s | %.3f | %.3f | %.3f |\n", G, log_n, host_entry ? "host entry" : "resident",
              median(ms), *std::min_element(ms.begin(), ms.end()), *std::max_element(ms.begin(), ms.end()));
  std::printf("result sppark_msm_g%d_2_%d_%s_ms %.3f\n", G, log_n, host_entry ? "host" : "resident", median(ms));
}

void ntt_case(int log_n) {
  const uint64_t n = uint64_t{1} << log_n;
  uint64_t* d; CK(cudaMalloc(&d, n * 32));
  const gpu_t& gpu = select_gpu();
  std::vector<double> ms;
  for (int rep = 0; rep < 6; ++rep) {
    fill<<<1024, 256>>>(d, n, 0xabc + rep);
    CK(cudaDeviceSynchronize());
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    stream_t& s = const_cast<stream_t&>(gpu[0]);
    CK(cudaEventRecord(a, s));
    NTT::Base_dev_ptr(s, reinterpret_cast<fr_t*>(d), log_n, NTT::InputOutputOrder::NN, NTT::Direction::forward,
                      NTT::Type::standard);
    CK(cudaEventRecord(b, s)); CK(cudaEventSynchronize(b));
    float t = 0; CK(cudaEventElapsedTime(&t, a, b));
    if (rep > 0) ms.push_back(t);
  }
  std::printf("| sppark | NTT NN fwd | 2^%d | resident | %.3f | %.3f | %.3f |\n", log_n, median(ms),
              *std::min_element(ms.begin(), ms.end()), *std::max_element(ms.begin(), ms.end()));
  std::printf("result sppark_ntt_2_%d_ms %.3f\n", log_n, median(ms));
  CK(cudaFree(d));
}

int main(int argc, char** argv) {
  std::printf("| lib | what | n | data | median ms | min ms | max ms |\n|---|---|---|---|---|---|---|\n");
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool host = a.find("host") != std::string::npos;
    const int log_n = std::atoi(a.c_str() + a.find(':') + 1);
    if (a.rfind("g1", 0) == 0) msm_case<bucket_t, point_t, affine_t, 1>(log_n, host);
    else if (a.rfind("g2", 0) == 0) msm_case<bucket2_t, point2_t, affine2_t, 2>(log_n, host);
    else if (a.rfind("ntt", 0) == 0) ntt_case(log_n);
  }
}
