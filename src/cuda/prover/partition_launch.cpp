// partition_launch.hpp: the launch sequence of one partition and its timings.
#include "cuda/prover/partition_launch.hpp"

#include <algorithm>
#include <string>
#include <type_traits>
#include <variant>

#include "core/cuda_try.hpp"
#include "core/status_macros.hpp"
#include "cuda/msm/msm_device.hpp"
#include "cuda/prover/evaluation_staging.hpp"
#include "cuda/spmv/spmv_device.hpp"
#include "cuda/spmv/witness_upload.hpp"
#include "ec/bn254_curves.hpp"
#include "ec/jacobian.hpp"

namespace pp::cuda {
namespace {

using clock = std::chrono::steady_clock;
using ff::fr;

// The five MSM sums as the device returns them; lives in pinned staging so the copies stay async.
template <class Family>
struct device_sums {
  ec::xyzz<typename Family::g1_curve> h, l, a, b1;
  ec::xyzz<typename Family::g2_curve> b2;
};

constexpr const char* ev_names[ev_count] = {"",          "gpu witness upload", "",          "gpu spmv",
                                            "gpu ntt (h)", "gpu msm L",         "gpu msm H", "gpu msm A",
                                            "gpu msm B_G1", "gpu msm B_G2"};

std::chrono::nanoseconds from_ms(float ms) { return std::chrono::nanoseconds(int64_t(double(ms) * 1e6)); }

// The MSMs of one partition on one workspace: resident tables run in place, streamed ones through
// the workspace's slots. The first copy waits for `ready` (recorded once b and c are dead) when the
// slots overlay what the H step uses; when they lie clear of it (ready null) the copy stream's own
// order (behind the witness upload and any streamed matrix rows) suffices, so the first chunks
// arrive while H is computed.
struct msm_runner {
  const key_entry& k;
  const partition_workspace& pw;
  lane& ln;
  const cuda_event* ready;
  msm_point_stream ps;
  bool started = false;

  msm_runner(const key_entry& key, const partition_workspace& w, lane& l, const cuda_event* ready_event)
      : k(key), pw(w), ln(l), ready(ready_event) {
    ps.slots = k.plan.lane.slots;
    ps.slot_bytes = k.plan.slot_bytes;
    ps.copy = ln.copy;
    ps.pace = ln.pace;
    for (int i = 0; i < ps.slots; ++i) {
      ps.d_slot[i] = pw.d_slot[i];
      ps.loaded[i] = ln.slot_loaded[i].get();
      ps.freed[i] = ln.slot_freed[i].get();
    }
  }

  status begin_stream() {
    if (started) return ok_status();
    started = true;
    if (ready != nullptr) PP_RETURN_IF_ERROR(ready->wait_on(ln.copy));
    return ln.stream_begin.record(ln.copy);
  }

  template <class Curve>
  status run(int table, const typename Curve::scalar_field* d_scalars, bool split, ec::xyzz<Curve>* out) {
    const uint64_t n = k.shape.points[table];
    if (n == 0) {
      *out = ec::xyzz<Curve>::infinity();
      return ok_status();
    }
    msm_config cfg;
    cfg.max_chunk_points =
        std::is_same_v<Curve, typename Curve::family::g2_curve> ? k.plan.msm.g2_chunk : k.plan.msm.g1_chunk;
    if (table == table_h) cfg.precomputed = k.h_pre;  // the points and their copies: k.points[table_h]
    const auto* pts = static_cast<const ec::affine<Curve>*>(k.points[table]);
    void* ws = pw.d_msm_ws;
    const uint64_t wsb = k.plan.msm.workspace_bytes;
    const cudaStream_t s = ln.compute;
    if (k.resident(table)) {
      return split ? split_msm<Curve>(pts, d_scalars, n, ws, wsb, out, s, cfg)
                   : msm<Curve>(pts, d_scalars, n, ws, wsb, out, s, cfg);
    }
    PP_RETURN_IF_ERROR(begin_stream());
    return split ? split_msm_streamed<Curve>(pts, d_scalars, n, ws, wsb, out, s, ps, cfg)
                 : msm_streamed<Curve>(pts, d_scalars, n, ws, wsb, out, s, ps, cfg);
  }

  // Table `table` (streamed) for several partitions' packed witnesses at once: each chunk copied once
  // (msm_streamed_vectors), the vector states in d_state.
  template <class Curve>
  status run_vectors(int table, std::span<const packed_scalars> vectors, std::span<ec::xyzz<Curve>> out,
                     void* d_state, uint64_t state_bytes) {
    if (k.resident(table)) {
      return internal_error(std::string("partitions together: table ") + key_table_names[table] + " is resident");
    }
    msm_config cfg;
    cfg.max_chunk_points =
        std::is_same_v<Curve, typename Curve::family::g2_curve> ? k.plan.msm.g2_chunk : k.plan.msm.g1_chunk;
    PP_RETURN_IF_ERROR(begin_stream());
    msm_vectors<Curve> v;
    v.packed = vectors;
    v.h_results = out;
    v.d_state = d_state;
    v.state_bytes = state_bytes;
    return msm_streamed_vectors<Curve>(static_cast<const ec::affine<Curve>*>(k.points[table]), k.shape.points[table],
                                       true, v, pw.d_msm_ws, k.plan.msm.workspace_bytes, ln.compute, ps, cfg);
  }

  status end_stream() { return started ? ln.stream_end.record(ln.copy) : ok_status(); }
};

}  // namespace

uint64_t sums_staging_bytes() {
  return pad256(std::max(sizeof(device_sums<ec::bls12_381::family>), sizeof(device_sums<ec::bn254::family>)));
}

namespace {

template <class D>
clock::time_point host_at(const gpu_clock& gclock, D ms) {
  return gclock.host_origin +
         std::chrono::duration_cast<clock::duration>(std::chrono::duration<double, std::milli>(ms));
}

// The timings and spans of a partition's steps from its completed events, ev_start to `last` (the
// MSM steps after it are not timed here), and the key stream's when the lane streamed; returns the
// compute stream's interval (ms since the origin): its begin and `last`.
result<std::pair<float, float>> read_timings(lane& ln, const gpu_clock& gclock, groth16::prove_timings& t, int last,
                                             bool spmv, bool streamed) {
  auto& events = ln.events;
  std::array<float, ev_count> at{};  // ms since the origin event
  for (int e = 0; e <= last; ++e) {
    PP_ASSIGN_OR_RETURN(at[e], cuda_event::elapsed_ms(*gclock.origin, events[e]));
  }
  t.add(ev_names[ev_uploaded], from_ms(at[ev_uploaded] - at[ev_start]));
  t.spans.push_back({"upload", ln.copy_track, host_at(gclock, at[ev_start]), host_at(gclock, at[ev_uploaded])});
  for (int e = ev_spmv; e <= last; ++e) {
    if (e == ev_spmv && !spmv) continue;  // from evaluations: no SpMV
    const int prev = e == ev_spmv ? ev_compute_begin : e - 1;
    t.add(ev_names[e], from_ms(at[e] - at[prev]));
    t.spans.push_back({std::string(ev_names[e] + 4), ln.compute_track, host_at(gclock, at[prev]),
                       host_at(gclock, at[e])});
  }
  if (streamed) {
    PP_RETURN_IF_ERROR(ln.stream_end.synchronize());  // its copies are done; the record itself may trail
    PP_ASSIGN_OR_RETURN(const float b, cuda_event::elapsed_ms(*gclock.origin, ln.stream_begin));
    PP_ASSIGN_OR_RETURN(const float e, cuda_event::elapsed_ms(*gclock.origin, ln.stream_end));
    t.add("key stream h2d (copy stream, overlaps the MSMs)", from_ms(e - b));
    t.spans.push_back({"key stream h2d", ln.copy_track, host_at(gclock, b), host_at(gclock, e)});
  }
  return std::pair{at[ev_compute_begin], at[last]};
}

// The MSM phase of a partition whose h is in pw.d_scalars once the compute stream reaches its
// current end (ev_h is recorded here), and the partition's timings from its events. The witness is in
// pw.d_w (first_aux: where its aux values start); h2d: bytes the front copied.
template <class Family>
result<basic_partition_result<Family>> msm_phase(const key_entry& k, const partition_workspace& pw, lane& ln,
                                                 uint64_t first_aux, uint64_t h2d, bool spmv, compute_turn& turn,
                                                 const gpu_clock& gclock, groth16::prove_timings& t) {
  using Fr = typename Family::fr;
  using g1 = typename Family::g1_curve;
  using g2 = typename Family::g2_curve;
  const key_shape& s = k.shape;
  auto& events = ln.events;
  const cudaStream_t compute = ln.compute;
  auto* sums = reinterpret_cast<device_sums<Family>*>(ln.staging.data() + ln.staging.size() - sums_staging_bytes());
  Fr* const w = static_cast<Fr*>(pw.d_w);
  Fr* const scalars = static_cast<Fr*>(pw.d_scalars);
  PP_RETURN_IF_ERROR(events[ev_h].record(compute));
  // From here b and c are dead: the MSM workspace (and the streaming slots, unless they lie clear
  // of the H step) overlay them. The scalars buffer holds h for the H MSM, then the gathered A
  // scalars, then the gathered B scalars. L (its scalars are the witness's) runs first: streamed,
  // it is bound by its copies, and the chunks copied while the SpMV and NTTs run (slots clear of
  // the H step) are then L's; H, bound by its kernels, hides its own copies and the next MSM's first.
  msm_runner r(k, pw, ln, k.plan.lane.slots_clear_of_h ? nullptr : &events[ev_h]);
  PP_RETURN_IF_ERROR(r.run<g1>(table_l, w + first_aux, true, &sums->l));
  PP_RETURN_IF_ERROR(events[ev_msm_l].record(compute));
  PP_RETURN_IF_ERROR(r.run<g1>(table_h, scalars, false, &sums->h));
  PP_RETURN_IF_ERROR(events[ev_msm_h].record(compute));
  const Fr* a_scalars = w;
  if (k.d_a_idx != nullptr) {
    PP_RETURN_IF_ERROR(gather_scalars(scalars, w, k.d_a_idx, s.points[table_a], compute));
    a_scalars = scalars;
  }
  PP_RETURN_IF_ERROR(r.run<g1>(table_a, a_scalars, true, &sums->a));
  PP_RETURN_IF_ERROR(events[ev_msm_a].record(compute));
  const Fr* b_scalars = w;
  if (k.d_b_idx != nullptr) {
    PP_RETURN_IF_ERROR(gather_scalars(scalars, w, k.d_b_idx, s.points[table_b_g1], compute));
    b_scalars = scalars;
  }
  PP_RETURN_IF_ERROR(r.run<g1>(table_b_g1, b_scalars, true, &sums->b1));
  PP_RETURN_IF_ERROR(events[ev_msm_b1].record(compute));
  PP_RETURN_IF_ERROR(r.run<g2>(table_b_g2, b_scalars, true, &sums->b2));
  PP_RETURN_IF_ERROR(r.end_stream());
  PP_RETURN_IF_ERROR(events[ev_msm_b2].record(compute));
  PP_RETURN_IF_ERROR(turn.end());  // the next partition's kernels queue behind this one's
  // Per-event wait (not the device): the sums are in pinned memory once the last event completes,
  // and the lane (its staging, slots and workspace) is free again. The copy stream's last streamed
  // chunk precedes the kernels that read it, so it is done too.
  PP_RETURN_IF_ERROR(events[ev_msm_b2].synchronize());

  basic_partition_result<Family> out;
  out.sums.h = ec::to_jacobian(sums->h);
  out.sums.l = ec::to_jacobian(sums->l);
  out.sums.a = ec::to_jacobian(sums->a);
  out.sums.b1 = ec::to_jacobian(sums->b1);
  out.sums.b2 = ec::to_jacobian(sums->b2);
  out.h2d_bytes = h2d + r.ps.h2d_bytes;
  PP_ASSIGN_OR_RETURN(const auto span, read_timings(ln, gclock, t, ev_msm_b2, spmv, r.started));
  out.compute_begin_ms = span.first;
  out.compute_end_ms = span.second;
  return out;
}

}  // namespace

template <class Fr>
result<compact_witness_layout> pack_partition(std::span<const Fr> values, lane& ln, groth16::prove_timings& t) {
  const auto t0 = clock::now();
  auto layout = pack_witness(values, ln.staging.first(ln.staging.size() - sums_staging_bytes()));
  t.add("pack witness (host)", clock::now() - t0);
  return layout;
}

namespace {

// The front of a circuit's partition: its witness, packed at h_packed (pinned), uploaded and expanded
// into pw.d_w (copy stream), then, behind the upload, the SpMV and the H steps (compute stream; the
// kernels' turn taken first when take_turn), h left in pw.d_scalars. Returns the bytes copied (the
// packed witness, streamed matrix rows).
template <class Family>
result<uint64_t> compute_h(const key_entry& k, const partition_workspace& pw, lane& ln,
                           const r1cs::basic_constraint_system<typename Family::fr>& cs,
                           const compact_witness_layout& layout, const std::byte* h_packed, compute_turn& turn,
                           bool take_turn) {
  using Fr = typename Family::fr;
  const auto* qap = std::get_if<basic_device_qap<Fr>>(&k.qap);
  if (qap == nullptr) return internal_error("run_partition: the placed key's QAP tables are the other curve's");
  Fr* const w = static_cast<Fr*>(pw.d_w);
  Fr* const b = static_cast<Fr*>(pw.d_b);
  Fr* const c = static_cast<Fr*>(pw.d_c);
  const key_shape& s = k.shape;
  auto& events = ln.events;
  const cudaStream_t copy = ln.copy, compute = ln.compute;
  // Copy stream: witness upload (under the kernels of the partition before, if any); the compute
  // stream takes its turn, then waits for the upload through an event.
  PP_RETURN_IF_ERROR(events[ev_start].record(copy));
  PP_RETURN_IF_ERROR(link_pace_begin(ln.pace, layout.bytes, copy));
  PP_RETURN_IF_ERROR(upload_witness(layout, h_packed, pw.d_witness_ws, w, copy));
  PP_RETURN_IF_ERROR(link_pace_end(ln.pace, copy));
  PP_RETURN_IF_ERROR(events[ev_uploaded].record(copy));
  if (take_turn) PP_RETURN_IF_ERROR(turn.begin());
  PP_RETURN_IF_ERROR(events[ev_uploaded].wait_on(compute));
  PP_RETURN_IF_ERROR(events[ev_compute_begin].record(compute));

  Fr* const a = static_cast<Fr*>(pw.d_scalars);
  const uint64_t m = cs.num_constraints(), inputs = cs.num_public() + 1;
  // Streamed matrices: row chunks through the workspace's matrix slots, copied on the copy stream
  // behind the witness upload (which is what orders them after the packed witness they may overlay).
  // The slot events are the MSM stream's too: that one starts after H, when these are all recorded.
  spmv_row_stream rows;
  rows.h_image = k.matrix_image.get();
  rows.chunking = &k.matrix_chunks;
  rows.d_slot[0] = pw.d_mslot[0];
  rows.d_slot[1] = pw.d_mslot[1];
  rows.copy = copy;
  rows.pace = ln.pace;
  for (int i = 0; i < 2; ++i) {
    rows.loaded[i] = ln.slot_loaded[i].get();
    rows.freed[i] = ln.slot_freed[i].get();
  }
  const auto spmv = [&](int which, Fr* out) {
    return k.plan.matrices_resident ? spmv_one(k.matrices, which, w, out, s.n, compute)
                                    : spmv_one_streamed(k.matrices, which, w, out, s.n, compute, rows);
  };
  if (!k.plan.h_in_turns) {
    if (k.plan.matrices_resident) {
      PP_RETURN_IF_ERROR(spmv_abc(k.matrices, w, a, b, c, s.n, compute));
    } else {
      PP_RETURN_IF_ERROR(spmv(0, a));
      PP_RETURN_IF_ERROR(spmv(1, b));
      PP_RETURN_IF_ERROR(spmv(2, c));
    }
    PP_RETURN_IF_ERROR(set_input_rows(a, w, m, inputs, compute));
    PP_RETURN_IF_ERROR(events[ev_spmv].record(compute));
    PP_RETURN_IF_ERROR(compute_h_device(*qap, a, b, c, compute));
  } else {
    // b, then c, in the one buffer d_b: a to the coset, then b, a = a∘b, then c and h. a's
    // transforms run before B's SpMV so that streamed B rows are copied under them (C's under b's);
    // the SpMV step is A's SpMV, B's and C's count in the H step.
    PP_RETURN_IF_ERROR(spmv(0, a));
    PP_RETURN_IF_ERROR(set_input_rows(a, w, m, inputs, compute));
    PP_RETURN_IF_ERROR(events[ev_spmv].record(compute));
    PP_RETURN_IF_ERROR(h_to_coset(*qap, a, compute));
    PP_RETURN_IF_ERROR(spmv(1, b));
    PP_RETURN_IF_ERROR(h_to_coset(*qap, b, compute));
    PP_RETURN_IF_ERROR(h_multiply(*qap, a, b, compute));
    PP_RETURN_IF_ERROR(spmv(2, b));
    PP_RETURN_IF_ERROR(h_finish(*qap, a, b, compute));
  }
  return layout.bytes + rows.h2d_bytes;
}

}  // namespace

template <class Family>
result<basic_partition_result<Family>> run_partition(const key_entry& k, const partition_workspace& pw, lane& ln,
                                                     const r1cs::basic_constraint_system<typename Family::fr>& cs,
                                                     const compact_witness_layout& layout, compute_turn& turn,
                                                     const gpu_clock& gclock, groth16::prove_timings& t) {
  PP_ASSIGN_OR_RETURN(const uint64_t h2d, compute_h<Family>(k, pw, ln, cs, layout, ln.staging.data(), turn, true));
  return msm_phase<Family>(k, pw, ln, cs.num_public() + 1, h2d, /*spmv=*/true, turn, gclock, t);
}

namespace {

// The MSM sums of partitions taken together, in pinned staging (the copies stay asynchronous) at
// its tail: together_plan.hpp sizes that tail.
template <class Family>
struct together_sums {
  ec::xyzz<typename Family::g1_curve> h[max_partitions_together], l[max_partitions_together],
      a[max_partitions_together], b1[max_partitions_together];
  ec::xyzz<typename Family::g2_curve> b2[max_partitions_together];
};
static_assert(sizeof(together_sums<ec::bls12_381::family>) <= together_sums_bytes &&
              sizeof(together_sums<ec::bn254::family>) <= together_sums_bytes);

}  // namespace

status check_shared_tables_streamed(const key_entry& k) {
  if (const int table = resident_shared_table(k.plan); table >= 0) {
    return failed_precondition(std::string("partitions together share the streamed copies of L, A, B_G1 and "
                                           "B_G2; this plan keeps ") +
                               key_table_names[table] + " resident");
  }
  return ok_status();
}

namespace {

// Each partition's MSM vector state when `count` packed witnesses of `packed_bytes` share the lane's
// witness and scalar buffers with their states; resource_exhausted (fewer may fit) when those buffers
// do not hold the witnesses and the least vector states.
result<uint64_t> together_state_fit(const key_entry& k, uint64_t packed_bytes, size_t count) {
  PP_ASSIGN_OR_RETURN(const uint64_t least_state, least_vector_state(k.shape, k.plan));
  const uint64_t state_bytes = together_state_bytes(k.plan, packed_bytes, count);
  if (state_bytes < least_state) {
    return resource_exhausted("partitions together: " + std::to_string(count) + " packed witnesses (" +
                              std::to_string(packed_bytes) + " bytes) and their MSM states (" +
                              std::to_string(least_state) + " bytes each at least) do not fit the lane's " +
                              std::to_string(k.plan.lane.phase - k.plan.lane.w) + " bytes of witness and scalars");
  }
  return state_bytes;
}

}  // namespace

template <class Fr>
together_packing<Fr>::together_packing(std::span<const std::span<const Fr>> values, lane& ln,
                                       std::span<groth16::prove_timings* const> t)
    : values_(values), ln_(&ln), t_(t) {
  packed_.reserve(values.size());
}

template <class Fr>
result<together_packing<Fr>> together_packing<Fr>::create(std::span<const std::span<const Fr>> values, lane& ln,
                                                           std::span<groth16::prove_timings* const> t) {
  if (values.empty() || values.size() > max_partitions_together || t.size() != values.size()) {
    return invalid_argument("partitions together: " + std::to_string(values.size()) + " partitions (1 to " +
                            std::to_string(max_partitions_together) + "), " + std::to_string(t.size()) +
                            " timings");
  }
  if (ln.staging.size() < together_sums_bytes) {
    return resource_exhausted("partitions together: the lane's staging of " + std::to_string(ln.staging.size()) +
                              " bytes does not hold their sums (" + std::to_string(together_sums_bytes) +
                              " bytes)");
  }
  return together_packing(values, ln, t);
}

template <class Fr>
status together_packing<Fr>::pack_next() {
  const size_t i = packed_.size();
  if (i == values_.size()) return invalid_argument("partitions together: every witness is packed already");
  const std::span<std::byte> staging = ln_->staging;
  const uint64_t end = staging.size() - together_sums_bytes;
  const auto t0 = clock::now();
  auto layout = pack_witness(values_[i], staging.subspan(at_, end > at_ ? end - at_ : 0));
  if (!layout.ok()) {
    return resource_exhausted("partitions together: the lane's staging of " + std::to_string(staging.size()) +
                              " bytes holds the packed witnesses of " + std::to_string(i) + " of " +
                              std::to_string(values_.size()) + " partitions (" + layout.error().message() + ")");
  }
  t_[i]->add("pack witness (host)", clock::now() - t0);
  packed_.push_back({*layout, at_});
  at_ += pad256(layout->bytes);
  return ok_status();
}

template <class Family>
result<std::vector<basic_partition_result<Family>>> run_partitions_together(
    const key_entry& k, const partition_workspace& pw, lane& ln,
    const r1cs::basic_constraint_system<typename Family::fr>& cs, together_packing<typename Family::fr>& packing,
    compute_turn& turn, const gpu_clock& gclock) {
  using Fr = typename Family::fr;
  using g1 = typename Family::g1_curve;
  using g2 = typename Family::g2_curve;
  const size_t count = packing.count();
  const std::span<groth16::prove_timings* const> t = packing.timings();
  if (packing.packed().empty()) PP_RETURN_IF_ERROR(packing.pack_next());
  // The shared MSMs' memory: the witness and scalar buffers (dead once every H is done) hold the packed
  // witnesses, then one vector state a partition (state_bytes each, known once the last is packed).
  auto* area = static_cast<std::byte*>(pw.d_w);
  uint64_t states_at = 0, state_bytes = 0;
  auto& events = ln.events;
  const cudaStream_t copy = ln.copy, compute = ln.compute;
  auto* sums = reinterpret_cast<together_sums<Family>*>(ln.staging.data() + ln.staging.size() - together_sums_bytes);
  const uint64_t inputs = cs.num_public() + 1;
  std::vector<basic_partition_result<Family>> out(count);

  // The packed witnesses again, into the area, on the copy stream once nothing reads what they
  // overwrite: the witness (read up to each H step) or, where they reach past it, h (H's MSM too).
  const auto upload_again = [&]() -> status {
    const bool again_under_h = states_at <= k.plan.lane.scalars - k.plan.lane.w;
    PP_RETURN_IF_ERROR(events[again_under_h ? ev_h : ev_msm_h].wait_on(copy));
    PP_RETURN_IF_ERROR(ln.again_begin.record(copy));
    for (size_t i = 0; i < count; ++i) {
      const packed_partition& p = packing.packed()[i];  // at the same offset in the area as in the staging
      const uint64_t bytes = p.layout.bytes;
      PP_RETURN_IF_ERROR(link_pace_begin(ln.pace, bytes, copy));
      PP_CUDA_TRY(cudaMemcpyAsync(area + p.offset, ln.staging.data() + p.offset, bytes, cudaMemcpyHostToDevice, copy));
      PP_RETURN_IF_ERROR(link_pace_end(ln.pace, copy));
      out[i].h2d_bytes += bytes;
    }
    return ln.again_end.record(copy);
  };

  // Each partition's front and H's MSM (its own copy of a streamed H), as run_partition's; the host
  // packs the next witness while the GPU runs them, then waits for them (the next reuses their
  // events). Behind the last H's copies the witnesses' second upload, which the link carries while
  // the last chunks' kernels run.
  for (size_t i = 0; i < count; ++i) {
    if (i + 1 == count) {  // every witness packed: the area's split is known
      states_at = packing.packed_bytes();
      PP_ASSIGN_OR_RETURN(state_bytes, together_state_fit(k, states_at, count));
    }
    const packed_partition p = packing.packed()[i];
    PP_ASSIGN_OR_RETURN(const uint64_t front,
                        compute_h<Family>(k, pw, ln, cs, p.layout, ln.staging.data() + p.offset, turn, i == 0));
    PP_RETURN_IF_ERROR(events[ev_h].record(compute));
    msm_runner r(k, pw, ln, k.plan.lane.slots_clear_of_h ? nullptr : &events[ev_h]);
    PP_RETURN_IF_ERROR(r.run<g1>(table_h, static_cast<const Fr*>(pw.d_scalars), false, &sums->h[i]));
    PP_RETURN_IF_ERROR(r.end_stream());
    PP_RETURN_IF_ERROR(events[ev_msm_h].record(compute));
    PP_RETURN_IF_ERROR(i + 1 == count ? upload_again() : packing.pack_next());
    PP_RETURN_IF_ERROR(events[ev_msm_h].synchronize());
    PP_ASSIGN_OR_RETURN(const auto span, read_timings(ln, gclock, *t[i], ev_h, /*spmv=*/true, r.started));
    PP_ASSIGN_OR_RETURN(const float h_end, cuda_event::elapsed_ms(*gclock.origin, events[ev_msm_h]));
    t[i]->add(ev_names[ev_msm_h], from_ms(h_end - span.second));
    t[i]->spans.push_back({"msm H", ln.compute_track, host_at(gclock, span.second), host_at(gclock, h_end)});
    out[i].h2d_bytes += front + r.ps.h2d_bytes;
    out[i].compute_begin_ms = span.first;
  }

  // L, A, B_G1 and B_G2 once for all, behind the second upload: each chunk copied once.
  PP_RETURN_IF_ERROR(ln.again_end.wait_on(compute));
  PP_RETURN_IF_ERROR(events[ev_compute_begin].record(compute));
  // L reads the aux values; A and B the witness through their gather lists (none: the witness itself).
  std::vector<packed_scalars> own(count), gathered_a(count), gathered_b(count);
  for (size_t i = 0; i < count; ++i) {
    const packed_partition& p = packing.packed()[i];
    own[i] = {area + p.offset, p.layout, nullptr, inputs};
    gathered_a[i] = {area + p.offset, p.layout, k.d_a_idx, 0};
    gathered_b[i] = {area + p.offset, p.layout, k.d_b_idx, 0};
  }
  void* const states = area + states_at;
  msm_runner r(k, pw, ln, nullptr);
  PP_RETURN_IF_ERROR(r.run_vectors<g1>(table_l, own, std::span(sums->l, count), states, state_bytes));
  PP_RETURN_IF_ERROR(events[ev_msm_l].record(compute));
  PP_RETURN_IF_ERROR(r.run_vectors<g1>(table_a, gathered_a, std::span(sums->a, count), states, state_bytes));
  PP_RETURN_IF_ERROR(events[ev_msm_a].record(compute));
  PP_RETURN_IF_ERROR(r.run_vectors<g1>(table_b_g1, gathered_b, std::span(sums->b1, count), states, state_bytes));
  PP_RETURN_IF_ERROR(events[ev_msm_b1].record(compute));
  PP_RETURN_IF_ERROR(r.run_vectors<g2>(table_b_g2, gathered_b, std::span(sums->b2, count), states, state_bytes));
  PP_RETURN_IF_ERROR(r.end_stream());
  PP_RETURN_IF_ERROR(events[ev_msm_b2].record(compute));
  PP_RETURN_IF_ERROR(turn.end());
  PP_RETURN_IF_ERROR(events[ev_msm_b2].synchronize());
  PP_RETURN_IF_ERROR(ln.stream_end.synchronize());

  // Each partition's share of the shared steps: the time and copies of the four MSMs over count.
  std::array<float, ev_count> at{};
  for (const int e : {ev_compute_begin, ev_msm_l, ev_msm_a, ev_msm_b1, ev_msm_b2}) {
    PP_ASSIGN_OR_RETURN(at[e], cuda_event::elapsed_ms(*gclock.origin, events[e]));
  }
  PP_ASSIGN_OR_RETURN(const float again_ms, cuda_event::elapsed_ms(ln.again_begin, ln.again_end));
  const std::pair<int, int> steps[] = {{ev_compute_begin, ev_msm_l}, {ev_msm_l, ev_msm_a}, {ev_msm_a, ev_msm_b1},
                                       {ev_msm_b1, ev_msm_b2}};
  const std::string shared = " (" + std::to_string(count) + " partitions together, a share)";
  for (size_t i = 0; i < count; ++i) {
    t[i]->add("gpu witness upload again (packed, for the shared MSMs; copy stream, under the last H MSM)",
              from_ms(again_ms));
    const int names[] = {ev_msm_l, ev_msm_a, ev_msm_b1, ev_msm_b2};
    for (int s = 0; s < 4; ++s) {
      t[i]->add(ev_names[names[s]] + shared, from_ms((at[steps[s].second] - at[steps[s].first]) / float(count)));
    }
    t[i]->spans.push_back({"msm L, A, B together", ln.compute_track, host_at(gclock, at[ev_compute_begin]),
                           host_at(gclock, at[ev_msm_b2])});
    out[i].h2d_bytes += r.ps.h2d_bytes / count;
    out[i].compute_end_ms = at[ev_msm_b2];
    out[i].sums.h = ec::to_jacobian(sums->h[i]);
    out[i].sums.l = ec::to_jacobian(sums->l[i]);
    out[i].sums.a = ec::to_jacobian(sums->a[i]);
    out[i].sums.b1 = ec::to_jacobian(sums->b1[i]);
    out[i].sums.b2 = ec::to_jacobian(sums->b2[i]);
  }
  return out;
}

result<partition_result> run_evaluation_partition(const key_entry& k, const partition_workspace& pw, lane& ln,
                                                  const groth16::evaluation_request& req,
                                                  const compact_witness_layout& layout, compute_turn& turn,
                                                  const gpu_clock& gclock, groth16::prove_timings& t) {
  const key_shape& s = k.shape;
  auto& events = ln.events;
  const cudaStream_t copy = ln.copy, compute = ln.compute;
  const uint64_t inputs = req.inputs.size(), rows = req.a.size();
  const auto* qap = std::get_if<device_qap>(&k.qap);
  if (qap == nullptr) return internal_error("run_evaluation_partition: the placed key is not BLS12-381's");
  fr* const w = static_cast<fr*>(pw.d_w);
  fr* const b = static_cast<fr*>(pw.d_b);
  fr* const c = static_cast<fr*>(pw.d_c);
  if (s.nv != inputs + req.aux.size() || rows > s.n) {
    return invalid_argument("run_evaluation_partition: the request does not match the placed key");
  }
  const std::span<std::byte> staging = ln.staging;

  // Copy stream, in order: the witness (packed aux expanded behind the inputs), a, b, c, each
  // zero-padded to the domain. The packed witness's workspace overlays b and c, which the stream
  // order protects. a, b, c go through the rest of the lane's pinned staging in chunks, each value
  // checked to be reduced as it is staged (evaluation_staging.hpp), while the compute stream
  // transforms what arrived before (h_to_coset of a under b's copy, ...).
  const uint64_t staging_end = staging.size() - sums_staging_bytes();
  const uint64_t witness_end = std::min(pad256(layout.bytes), staging_end);
  PP_ASSIGN_OR_RETURN(staged_copier copier,
                      staged_copier::create(staging.subspan(witness_end, staging_end - witness_end)));
  const auto upload = [&](fr* d, std::span<const fr> h, const char* name) {
    return copier.copy(d, h, s.n, copy, name);
  };
  PP_RETURN_IF_ERROR(events[ev_start].record(copy));
  PP_RETURN_IF_ERROR(upload_witness(layout, staging.data(), pw.d_witness_ws, w + inputs, copy));
  PP_CUDA_TRY(cudaMemcpyAsync(w, req.inputs.data(), req.inputs.size_bytes(), cudaMemcpyHostToDevice, copy));
  fr* const a = static_cast<fr*>(pw.d_scalars);
  PP_RETURN_IF_ERROR(upload(a, req.a, "a"));
  // The slot events order the compute stream after each copy here; the MSM phase's streaming
  // records them afresh later (a wait takes the event's state when it is enqueued).
  PP_RETURN_IF_ERROR(ln.slot_loaded[0].record(copy));
  PP_RETURN_IF_ERROR(turn.begin());
  PP_RETURN_IF_ERROR(ln.slot_loaded[0].wait_on(compute));
  PP_RETURN_IF_ERROR(events[ev_compute_begin].record(compute));
  PP_RETURN_IF_ERROR(events[ev_spmv].record(compute));
  PP_RETURN_IF_ERROR(h_to_coset(*qap, a, compute));
  PP_RETURN_IF_ERROR(upload(b, req.b, "b"));
  PP_RETURN_IF_ERROR(ln.slot_loaded[1].record(copy));
  PP_RETURN_IF_ERROR(ln.slot_loaded[1].wait_on(compute));
  PP_RETURN_IF_ERROR(h_to_coset(*qap, b, compute));
  PP_RETURN_IF_ERROR(h_multiply(*qap, a, b, compute));
  if (k.plan.h_in_turns) {
    // c goes where b was: its copy waits for a∘b.
    PP_RETURN_IF_ERROR(ln.slot_freed[0].record(compute));
    PP_RETURN_IF_ERROR(ln.slot_freed[0].wait_on(copy));
  }
  PP_RETURN_IF_ERROR(upload(c, req.c, "c"));
  PP_RETURN_IF_ERROR(events[ev_uploaded].record(copy));
  PP_RETURN_IF_ERROR(events[ev_uploaded].wait_on(compute));
  PP_RETURN_IF_ERROR(h_finish(*qap, a, c, compute));
  const uint64_t copied = layout.bytes + req.inputs.size_bytes() + 3 * s.n * sizeof(fr);
  return msm_phase<ec::bls12_381::family>(k, pw, ln, inputs, copied, /*spmv=*/false, turn, gclock, t);
}

#define PP_PARTITION_INSTANTIATE(Family)                                                                               \
  template result<compact_witness_layout> pack_partition(std::span<const Family::fr>, lane&, groth16::prove_timings&); \
  template result<basic_partition_result<Family>> run_partition(                                                       \
      const key_entry&, const partition_workspace&, lane&, const r1cs::basic_constraint_system<Family::fr>&,           \
      const compact_witness_layout&, compute_turn&, const gpu_clock&, groth16::prove_timings&);
#define PP_TOGETHER_INSTANTIATE(Family)                                                                     \
  template class together_packing<Family::fr>;                                                               \
  template result<std::vector<basic_partition_result<Family>>> run_partitions_together(                      \
      const key_entry&, const partition_workspace&, lane&, const r1cs::basic_constraint_system<Family::fr>&, \
      together_packing<Family::fr>&, compute_turn&, const gpu_clock&);
PP_TOGETHER_INSTANTIATE(ec::bls12_381::family)
PP_TOGETHER_INSTANTIATE(ec::bn254::family)
#undef PP_TOGETHER_INSTANTIATE
PP_PARTITION_INSTANTIATE(ec::bls12_381::family)
PP_PARTITION_INSTANTIATE(ec::bn254::family)
#undef PP_PARTITION_INSTANTIATE

}  // namespace pp::cuda
