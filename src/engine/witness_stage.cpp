#include "engine/witness_stage.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

#include "core/status_macros.hpp"
#include "core/trace_span.hpp"
#include "engine/curves.hpp"
#include "engine/contain_exceptions.hpp"
#include "engine/key_catalog.hpp"
#include "engine/partition_work.hpp"
#include "engine/witness_file.hpp"
#include "ff/bn254_fr.hpp"
#include "ff/fr.hpp"
#include "r1cs/witness.hpp"

namespace pp::engine {

witness_stage::witness_stage(partition_router& router, job_tracker<partition_result>& tracker, key_store& keys,
                             key_records& records, memory_budget& partitions, trace_recorder& trace,
                             engine_metrics& metrics, fail_fn fail)
    : router_(router),
      tracker_(tracker),
      keys_(keys),
      records_(records),
      partitions_(partitions),
      trace_(trace),
      metrics_(metrics),
      fail_(std::move(fail)) {}

void witness_stage::loop(const std::string& track) {
  run_until_closed(router_.intake(), [&](partition_task t) { run(std::move(t), track); });
}

void witness_stage::run(partition_task task, const std::string& track) {
  const status s = contain_exceptions("witness stage", [&] {
    run_uncontained(task, track);
    return ok_status();
  });
  // The task may have been moved on by then; its job and partition numbers are still there.
  if (!s.ok()) fail_(task, s);
}

void witness_stage::run_uncontained(partition_task& t, const std::string& track) {
  using std::chrono::steady_clock;
  auto w = router_.claim(t);
  if (!w || t.cancel.cancelled() || !tracker_.begin_partition(t.job)) return;
  const std::chrono::nanoseconds queued = steady_clock::now() - w->enqueued;
  const auto t0 = steady_clock::now();
  trace_span span(trace_, "witness", track);
  span.arg("job", static_cast<double>(t.job)).arg("partition", t.partition);

  auto lease = lease_key(t.key_id, t.cancel);
  if (!lease.ok()) {
    if (!t.cancel.cancelled()) fail_(t, lease.error());
    return;
  }
  w->lease = std::move(lease).value();
  w->key = static_cast<const loaded_key*>(w->lease.handle().get());
  const uint64_t bytes = records_.note(t.key_id, *w->key).partition_bytes;
  // A witness path is opened (never waiting) and checked before memory is reserved, so a path
  // swapped for a FIFO or a huge file fails at once instead of holding this thread.
  const uint64_t num_variables = w->key->num_variables();
  std::optional<witness_file> file;
  if (const auto* path = std::get_if<std::filesystem::path>(&w->source.value)) {
    auto f = witness_file::open(*path, max_wtns_file_bytes(num_variables));
    if (!f.ok()) {
      // The daemon checked the path at submit: a file missing now was moved or deleted since.
      const status& e = f.error();
      return fail_(t, e.code() == status_code::not_found ? not_found(e.message() + " (it was there at submit)") : e);
    }
    file.emplace(std::move(f).value());
  }
  // While a file is read and parsed, its bytes and the parsed witness are live and nothing else of
  // the partition is yet: hold whichever is larger, then shrink to the partition (below). A budget
  // of exactly one partition thus still runs a by-path witness whose partition estimate covers it.
  static_assert(sizeof(ff::fr) == sizeof(ff::bn254::fr));
  const uint64_t parsed = num_variables * sizeof(ff::fr);
  const uint64_t with_file = file ? std::max(bytes, file->size() + parsed) : bytes;
  auto mem = reserve(with_file, t.cancel);
  if (!mem.ok()) {
    if (!t.cancel.cancelled()) fail_(t, mem.error().with_context("reserving " + std::to_string(with_file) + " bytes"));
    return;
  }
  w->memory = std::move(mem).value();

  // The witness over the key's curve, checked against its circuit.
  const status checked = ec::visit_curve(w->key->curve(), [&]<class Family>() -> status {
    using fr = typename Family::fr;
    if (file) {
      auto v = file->read<fr>([&] { return t.cancel.cancelled() || stopping_.load(); });
      if (!v.ok()) return v.error();
      w->witness = std::make_shared<const std::vector<fr>>(std::move(v).value());
      file.reset();
      PP_RETURN_IF_ERROR(w->memory.shrink_to(bytes));
    } else if (const auto* m = std::get_if<witness_ptr<Family>>(&w->source.value)) {
      w->witness = *m;
    } else {
      const ec::curve_id other = ec::curve_id_of<Family> == ec::curve_id::bn254 ? ec::curve_id::bls12_381 : ec::curve_id::bn254;
      return invalid_argument("witness for key '" + t.key_id + "': its values are " + ec::curve_text(other) +
                              " scalars, the key is for " + ec::curve_text(ec::curve_id_of<Family>));
    }
    const auto& key = *w->key->as<Family>();
    return r1cs::check_witness(*key.cs, *std::get<witness_ptr<Family>>(w->witness))
        .with_context("witness for key '" + t.key_id + "'");
  });
  if (!checked.ok()) {
    if (!t.cancel.cancelled()) fail_(t, checked);
    return;
  }
  span.end();
  const std::chrono::nanoseconds ran = steady_clock::now() - t0;
  metrics_.observe_stage("witness", std::chrono::duration<double>(ran).count());
  w->stages.push_back({"witness", queued, ran});
  // While the ready queue is full this thread serves CRITICAL tasks waiting in the intake.
  const partition_router::serve_fn serve = [&](partition_task c) { run(std::move(c), track); };
  router_.forward(router_.ready(), std::move(t), std::move(w), &serve);
}

result<key_lease> witness_stage::lease_key(const std::string& id, const cancel_token& cancel) {
  while (true) {
    auto l = keys_.acquire(id, deadline_in(stage_poll_interval));
    if (l.ok() || l.error().code() != status_code::deadline_exceeded) return l;
    if (cancel.cancelled() || stopping_) return pp::cancelled("cancelled while waiting for key '" + id + "'");
  }
}

result<memory_reservation> witness_stage::reserve(uint64_t bytes, const cancel_token& cancel) {
  while (true) {
    auto r = partitions_.reserve(bytes, deadline_in(stage_poll_interval));
    if (r.ok() || r.error().code() != status_code::deadline_exceeded) return r;
    if (cancel.cancelled() || stopping_) return pp::cancelled("cancelled while waiting for host memory");
  }
}

}  // namespace pp::engine
