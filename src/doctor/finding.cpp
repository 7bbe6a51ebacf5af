// finding: the report's text.
#include "doctor/finding.hpp"

#include <algorithm>
#include <cstdio>

namespace pp::doctor {

std::string_view verdict_name(verdict v) {
  switch (v) {
    case verdict::ok: return "ok";
    case verdict::warning: return "warning";
    case verdict::problem: return "problem";
  }
  return "?";
}

int report::count(verdict v) const {
  return static_cast<int>(std::count_if(findings.begin(), findings.end(), [v](const finding& f) { return f.level == v; }));
}

std::string render(const report& r) {
  std::string out;
  for (const finding& f : r.findings) {
    std::string name(verdict_name(f.level));
    name.resize(9, ' ');
    out += name + f.item + ": " + f.detail + "\n";
    if (!f.fix.empty()) out += "         fix: " + f.fix + "\n";
  }
  const int problems = r.count(verdict::problem), warnings = r.count(verdict::warning);
  const auto plural = [](int n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
  if (problems > 0) {
    out += "this host cannot serve this configuration: " + plural(problems, "problem") + ", " +
           plural(warnings, "warning") + "\n";
  } else {
    out += "this host can serve this configuration (" + plural(warnings, "warning") + ")\n";
  }
  return out;
}

std::string bytes_text(uint64_t bytes) {
  char buf[32];
  if (bytes >= (uint64_t{1} << 30)) {
    std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / static_cast<double>(uint64_t{1} << 30));
  } else if (bytes >= (uint64_t{1} << 20)) {
    std::snprintf(buf, sizeof buf, "%.0f MiB", static_cast<double>(bytes) / static_cast<double>(uint64_t{1} << 20));
  } else if (bytes >= (uint64_t{1} << 10)) {
    std::snprintf(buf, sizeof buf, "%.0f KiB", static_cast<double>(bytes) / 1024.0);
  } else {
    std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(bytes));
  }
  return buf;
}

}  // namespace pp::doctor
