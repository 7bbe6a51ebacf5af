// finding: what `proofpipe doctor` says of one item of the host (ok, warning or problem, what it
// found and the fix), and the report of every item: the host can serve when no item is a problem.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pp::doctor {

enum class verdict { ok, warning, problem };
std::string_view verdict_name(verdict v);  // "ok", "warning", "problem"

struct finding {
  std::string item;    // "GPU 0 architecture", "memlock", "token file"
  verdict level = verdict::ok;
  std::string detail;  // what was found
  std::string fix;     // what to do about it; empty when ok
};

struct report {
  std::vector<finding> findings;

  void add(std::string item, verdict level, std::string detail, std::string fix = {}) {
    findings.push_back({std::move(item), level, std::move(detail), std::move(fix)});
  }
  [[nodiscard]] int count(verdict v) const;
  // No problem: the daemon can serve this configuration here (warnings cost speed or safety margin).
  [[nodiscard]] bool can_serve() const { return count(verdict::problem) == 0; }
};

// One line per finding ("ok       GPUs: ..."), its fix indented below, then the conclusion.
std::string render(const report& r);

// "454 KiB", "512 MiB", "44.1 GiB": sizes in the findings' text.
std::string bytes_text(uint64_t bytes);

}  // namespace pp::doctor
