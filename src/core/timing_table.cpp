// timing_table rendering: column widths come from the widest cell so the table stays aligned.
#include "core/timing_table.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace pp {

void timing_table::scope::stop() {
  if (table_ == nullptr) return;
  table_->add(std::move(step_), std::chrono::duration_cast<duration>(std::chrono::steady_clock::now() - start_));
  table_ = nullptr;
}

timing_table::duration timing_table::total() const {
  duration sum{};
  for (const auto& r : rows_) sum += r.elapsed;
  return sum;
}

std::string timing_table::format_duration(duration d) {
  const auto ns = d.count();
  const auto abs_ns = ns < 0 ? -ns : ns;
  if (abs_ns >= 1'000'000'000) return fmt::format("{:.3f} s", static_cast<double>(ns) / 1e9);
  if (abs_ns >= 1'000'000) return fmt::format("{:.3f} ms", static_cast<double>(ns) / 1e6);
  return fmt::format("{} us", ns / 1000);
}

std::string timing_table::render() const {
  struct cells {
    std::string step, time, share;
  };
  const duration sum = total();
  auto share_of = [&](duration d) {
    if (sum.count() <= 0) return std::string("-");
    return fmt::format("{:.1f}%", 100.0 * static_cast<double>(d.count()) / static_cast<double>(sum.count()));
  };

  std::vector<cells> lines;
  lines.reserve(rows_.size() + 2);
  lines.push_back({"step", "time", "share"});
  for (const auto& r : rows_) lines.push_back({r.step, format_duration(r.elapsed), share_of(r.elapsed)});
  lines.push_back({"total", format_duration(sum), share_of(sum)});

  std::size_t w_step = 0, w_time = 0, w_share = 0;
  for (const auto& c : lines) {
    w_step = std::max(w_step, c.step.size());
    w_time = std::max(w_time, c.time.size());
    w_share = std::max(w_share, c.share.size());
  }

  std::string out;
  const std::string rule(w_step + 2 + w_time + 2 + w_share, '-');
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i + 1 == lines.size()) out += rule + "\n";
    const auto& c = lines[i];
    out += fmt::format("{:<{}}  {:>{}}  {:>{}}\n", c.step, w_step, c.time, w_time, c.share, w_share);
    if (i == 0) out += rule + "\n";
  }
  return out;
}

}  // namespace pp
