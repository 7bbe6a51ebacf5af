// node_metrics: a line-by-line rewrite; label values are escaped as the exposition format says
// (backslash, double quote, newline).
#include "cluster/node_metrics.hpp"

#include <fmt/format.h>

namespace pp::cluster {
namespace {

std::string escape_label(std::string_view v) {
  std::string out;
  for (const char ch : v) {
    if (ch == '\\' || ch == '"') out += '\\';
    if (ch == '\n') {
      out += "\\n";
      continue;
    }
    out += ch;
  }
  return out;
}

}  // namespace

std::string label_with_node(std::string_view text, std::string_view node) {
  const std::string label = "node=\"" + escape_label(node) + "\"";
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    if (line.empty() || line.front() == '#') {
      out += line;
    } else {
      const size_t brace = line.find('{');
      const size_t space = line.find(' ');
      if (brace != std::string_view::npos && brace < space) {
        out += line.substr(0, brace + 1);
        out += label;
        if (line[brace + 1] != '}') out += ',';
        out += line.substr(brace + 1);
      } else {
        out += line.substr(0, space);
        out += "{" + label + "}";
        if (space != std::string_view::npos) out += line.substr(space);
      }
    }
    if (end < text.size()) out += '\n';
    pos = end + 1;
  }
  return out;
}

std::string cluster_metrics_text(const cluster_counters& c, const db_meter& db, std::string_view node) {
  const std::string n = "node=\"" + escape_label(node) + "\"";
  auto v = [](const std::atomic<uint64_t>& a) { return a.load(std::memory_order_relaxed); };
  std::string out;
  out += "# HELP pp_cluster_partitions_total Partitions this node finished, by outcome.\n";
  out += "# TYPE pp_cluster_partitions_total counter\n";
  out += fmt::format("pp_cluster_partitions_total{{{},result=\"proved\"}} {}\n", n, v(c.proved));
  out += fmt::format("pp_cluster_partitions_total{{{},result=\"duplicate\"}} {}\n", n, v(c.duplicates));
  out += fmt::format("pp_cluster_partitions_total{{{},result=\"failed\"}} {}\n", n, v(c.failed));
  out += fmt::format("pp_cluster_partitions_total{{{},result=\"released\"}} {}\n", n, v(c.released));
  out += "# HELP pp_cluster_jobs_assembled_total Jobs whose last partition this node completed.\n";
  out += "# TYPE pp_cluster_jobs_assembled_total counter\n";
  out += fmt::format("pp_cluster_jobs_assembled_total{{{}}} {}\n", n, v(c.assembled));
  out += "# HELP pp_cluster_leases_reclaimed_total Expired leases of other nodes this node put back in the queue.\n";
  out += "# TYPE pp_cluster_leases_reclaimed_total counter\n";
  out += fmt::format("pp_cluster_leases_reclaimed_total{{{}}} {}\n", n, v(c.reclaimed));
  out += "# HELP pp_cluster_claims Partitions this node holds now.\n";
  out += "# TYPE pp_cluster_claims gauge\n";
  out += fmt::format("pp_cluster_claims{{{}}} {}\n", n, v(c.active));
  out += "# HELP pp_cluster_db_calls_total Database transactions this node ran.\n";
  out += "# TYPE pp_cluster_db_calls_total counter\n";
  out += fmt::format("pp_cluster_db_calls_total{{{}}} {}\n", n, v(db.calls));
  out += "# TYPE pp_cluster_db_errors_total counter\n";
  out += fmt::format("pp_cluster_db_errors_total{{{}}} {}\n", n, v(db.errors));
  out += "# HELP pp_cluster_db_seconds_total Time spent in database transactions.\n";
  out += "# TYPE pp_cluster_db_seconds_total counter\n";
  out += fmt::format("pp_cluster_db_seconds_total{{{}}} {:.6f}\n", n, double(v(db.nanos)) * 1e-9);
  out += "# HELP pp_cluster_partition_db_seconds_total Database time of the partitions this node proved.\n";
  out += "# TYPE pp_cluster_partition_db_seconds_total counter\n";
  out += fmt::format("pp_cluster_partition_db_seconds_total{{{}}} {:.6f}\n", n, double(v(c.partition_db_nanos)) * 1e-9);
  return out;
}

}  // namespace pp::cluster
