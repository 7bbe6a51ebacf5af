// metrics: validation and rendering. Rendering copies each series' value under its family's lock and
// writes lines in a fixed order, so the output is deterministic for tests and diffs.
#include "engine/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "core/status_macros.hpp"

namespace pp::engine {
namespace {

bool valid_metric_name(const std::string& n) {
  if (n.empty()) return false;
  for (size_t i = 0; i < n.size(); ++i) {
    const char c = n[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
    if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

bool valid_label_name(const std::string& n) {
  if (n.empty() || n.starts_with("__")) return false;
  for (size_t i = 0; i < n.size(); ++i) {
    const char c = n[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

// {a="x",b="y"} or "" when there are no labels; `extra` is appended last (a histogram's le).
std::string label_block(const std::vector<std::string>& names, const std::vector<std::string>& values,
                        const std::string& extra = {}) {
  if (names.empty() && extra.empty()) return {};
  std::string out = "{";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ',';
    out += names[i] + "=\"" + escape_label_value(values[i]) + "\"";
  }
  if (!extra.empty()) {
    if (!names.empty()) out += ',';
    out += extra;
  }
  out += '}';
  return out;
}

std::string_view type_name(metric_type t) {
  switch (t) {
    case metric_type::counter: return "counter";
    case metric_type::gauge: return "gauge";
    case metric_type::histogram: return "histogram";
  }
  return "untyped";
}

}  // namespace

void histogram::observe(double v) {
  // Buckets are upper-inclusive (le): v lands in the first bound >= v.
  const size_t i = static_cast<size_t>(std::lower_bound(bounds_.begin(), bounds_.end(), v) - bounds_.begin());
  mutex_lock lock(mu_);
  ++counts_[i];
  sum_ += v;
}

histogram::snapshot histogram::read() const {
  snapshot s;
  s.bounds = bounds_;
  mutex_lock lock(mu_);
  uint64_t running = 0;
  for (const uint64_t c : counts_) {
    running += c;
    s.cumulative.push_back(running);
  }
  s.count = running;
  s.sum = sum_;
  return s;
}

std::string format_metric_value(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", v);
}

std::string escape_label_value(const std::string& v) {
  std::string out;
  out.reserve(v.size());
  for (const char c : v) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string escape_help(const std::string& v) {
  std::string out;
  out.reserve(v.size());
  for (const char c : v) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

result<metrics_registry::family_slot*> metrics_registry::add(const std::string& name, metric_type type,
                                                             const std::string& help,
                                                             std::vector<std::string> label_names,
                                                             std::vector<double> buckets) {
  if (!valid_metric_name(name)) {
    return invalid_argument("metrics: expected a name matching [a-zA-Z_:][a-zA-Z0-9_:]*, got '" + name + "'");
  }
  for (const std::string& l : label_names) {
    if (!valid_label_name(l) || (type == metric_type::histogram && l == "le")) {
      return invalid_argument("metrics: bad label name '" + l + "' for '" + name + "'");
    }
  }
  for (size_t i = 0; i < label_names.size(); ++i) {
    for (size_t j = i + 1; j < label_names.size(); ++j) {
      if (label_names[i] == label_names[j]) {
        return invalid_argument("metrics: label '" + label_names[i] + "' repeated for '" + name + "'");
      }
    }
  }
  for (size_t i = 0; i < buckets.size(); ++i) {
    if (!std::isfinite(buckets[i]) || (i > 0 && buckets[i] <= buckets[i - 1])) {
      return invalid_argument("metrics: buckets of '" + name + "' must be finite and strictly increasing");
    }
  }
  mutex_lock lock(mu_);
  if (auto it = families_.find(name); it != families_.end()) {
    family_slot& f = it->second;
    if (f.type != type || f.help != help || f.label_names != label_names || f.buckets != buckets) {
      return already_exists("metrics: '" + name + "' is registered with another type, help, labels or buckets");
    }
    return &f;
  }
  family_slot& f = families_[name];
  f.type = type;
  f.help = help;
  f.label_names = label_names;
  f.buckets = buckets;
  // Families carry their own copy of label names; a label-less family gets its one series now so it
  // renders a zero before the first update, as Prometheus clients do.
  switch (type) {
    case metric_type::counter:
      f.counters.reset(new metric_family<counter>(std::move(label_names), {}));
      if (f.label_names.empty()) f.counters->with();
      break;
    case metric_type::gauge:
      f.gauges.reset(new metric_family<gauge>(std::move(label_names), {}));
      if (f.label_names.empty()) f.gauges->with();
      break;
    case metric_type::histogram:
      f.histograms.reset(new metric_family<histogram>(std::move(label_names), std::move(buckets)));
      if (f.label_names.empty()) f.histograms->with();
      break;
  }
  return &f;
}

result<metric_family<counter>*> metrics_registry::counter_family(const std::string& name, const std::string& help,
                                                                 std::vector<std::string> label_names) {
  PP_ASSIGN_OR_RETURN(family_slot * f, add(name, metric_type::counter, help, std::move(label_names), {}));
  return f->counters.get();
}

result<metric_family<gauge>*> metrics_registry::gauge_family(const std::string& name, const std::string& help,
                                                             std::vector<std::string> label_names) {
  PP_ASSIGN_OR_RETURN(family_slot * f, add(name, metric_type::gauge, help, std::move(label_names), {}));
  return f->gauges.get();
}

result<metric_family<histogram>*> metrics_registry::histogram_family(const std::string& name,
                                                                     const std::string& help,
                                                                     std::vector<std::string> label_names,
                                                                     std::vector<double> buckets) {
  PP_ASSIGN_OR_RETURN(family_slot * f,
                      add(name, metric_type::histogram, help, std::move(label_names), std::move(buckets)));
  return f->histograms.get();
}

std::string metrics_registry::render() const {
  std::string out;
  mutex_lock lock(mu_);
  for (const auto& [name, f] : families_) {
    out += "# HELP " + name + " " + escape_help(f.help) + "\n";
    out += "# TYPE " + name + " " + std::string(type_name(f.type)) + "\n";
    switch (f.type) {
      case metric_type::counter: {
        mutex_lock fl(f.counters->mu_);
        for (const auto& [values, m] : f.counters->series_) {
          out += name + label_block(f.label_names, values) + " " + format_metric_value(m->value()) + "\n";
        }
        break;
      }
      case metric_type::gauge: {
        mutex_lock fl(f.gauges->mu_);
        for (const auto& [values, m] : f.gauges->series_) {
          out += name + label_block(f.label_names, values) + " " + format_metric_value(m->value()) + "\n";
        }
        break;
      }
      case metric_type::histogram: {
        mutex_lock fl(f.histograms->mu_);
        for (const auto& [values, m] : f.histograms->series_) {
          const histogram::snapshot s = m->read();
          for (size_t i = 0; i <= s.bounds.size(); ++i) {
            const std::string le = i < s.bounds.size() ? format_metric_value(s.bounds[i]) : "+Inf";
            out += name + "_bucket" + label_block(f.label_names, values, "le=\"" + le + "\"") + " " +
                   std::to_string(s.cumulative[i]) + "\n";
          }
          out += name + "_sum" + label_block(f.label_names, values) + " " + format_metric_value(s.sum) + "\n";
          out += name + "_count" + label_block(f.label_names, values) + " " + std::to_string(s.count) + "\n";
        }
        break;
      }
    }
  }
  return out;
}

}  // namespace pp::engine
