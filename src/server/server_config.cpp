// server_config: TOML -> typed tree. The knob table (visit_server ... visit_cluster) lists every key
// once: its name, the field it sets, its unit and range. Reading walks it with a table_reader, which
// takes each key once, checks its type and range, and finally names any key it did not take (a typo
// is an error, not a silent default); to_toml and knob_names walk the same table.
#include "server/server_config.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <sstream>

#include <sys/un.h>
#include <unistd.h>

#include <toml++/toml.h>

namespace pp::server {
namespace {

class table_reader {
 public:
  table_reader(const toml::table& t, std::string prefix) : table_(t), prefix_(std::move(prefix)) {}

  std::string name(std::string_view key) const { return prefix_.empty() ? std::string(key) : prefix_ + "." + std::string(key); }

  status read_string(std::string_view key, std::string& out) {
    const toml::node* n = take(key);
    if (!n) return ok_status();
    if (!n->is_string()) return wrong_type(key, "a string", *n);
    out = n->as_string()->get();
    return ok_status();
  }

  status read_one_of(std::string_view key, std::string& out, std::initializer_list<std::string_view> allowed) {
    std::string v = out;
    if (status s = read_string(key, v); !s.ok()) return s;
    for (std::string_view a : allowed) {
      if (v == a) {
        out = v;
        return ok_status();
      }
    }
    std::string list;
    for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string("\"") + std::string(a) + "\"";
    return invalid_argument(name(key) + ": expected one of " + list + ", got \"" + v + "\"");
  }

  status read_bool(std::string_view key, bool& out) {
    const toml::node* n = take(key);
    if (!n) return ok_status();
    if (!n->is_boolean()) return wrong_type(key, "a boolean (true or false)", *n);
    out = n->as_boolean()->get();
    return ok_status();
  }

  template <class Int>
  status read_int(std::string_view key, Int& out, int64_t lo, int64_t hi) {
    const toml::node* n = take(key);
    if (!n) return ok_status();
    if (!n->is_integer()) return wrong_type(key, "an integer", *n);
    const int64_t v = n->as_integer()->get();
    if (v < lo || v > hi) {
      return invalid_argument(name(key) + ": expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                              "], got " + std::to_string(v));
    }
    out = static_cast<Int>(v);
    return ok_status();
  }

  // An array of integers, each in [lo, hi], no repeats.
  status read_int_list(std::string_view key, std::vector<int>& out, int64_t lo, int64_t hi) {
    const toml::node* n = take(key);
    if (!n) return ok_status();
    if (!n->is_array()) return wrong_type(key, "an array of integers such as [0, 1]", *n);
    std::vector<int> v;
    for (const toml::node& e : *n->as_array()) {
      if (!e.is_integer()) return wrong_type(key, "an array of integers such as [0, 1]", e);
      const int64_t x = e.as_integer()->get();
      if (x < lo || x > hi) {
        return invalid_argument(name(key) + ": expected integers in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                "], got " + std::to_string(x));
      }
      if (std::find(v.begin(), v.end(), int(x)) != v.end()) {
        return invalid_argument(name(key) + ": " + std::to_string(x) + " is listed twice");
      }
      v.push_back(int(x));
    }
    out = std::move(v);
    return ok_status();
  }

  // A number in the open interval (0, 1); an integer is a type error (0 and 1 are out of range anyway).
  status read_fraction(std::string_view key, double& out) {
    const toml::node* n = take(key);
    if (!n) return ok_status();
    if (!n->is_floating_point()) return wrong_type(key, "a number such as 0.5", *n);
    const double v = n->as_floating_point()->get();
    if (!(v > 0.0 && v < 1.0)) {
      return invalid_argument(name(key) + ": expected a fraction in (0, 1) exclusive, got " + std::to_string(v));
    }
    out = v;
    return ok_status();
  }

  // A file mode written as an octal string ("0660") so that TOML's decimal integers cannot mislead.
  status read_mode(std::string_view key, uint32_t& out) {
    std::string text;
    const toml::node* n = table_.get(key);
    if (!n) return ok_status();
    if (!n->is_string()) {
      take(key);
      return wrong_type(key, "an octal string such as \"0660\"", *n);
    }
    if (status s = read_string(key, text); !s.ok()) return s;
    if (text.empty() || text.size() > 4 || text.find_first_not_of("01234567") != std::string::npos) {
      return invalid_argument(name(key) + ": expected an octal file mode such as \"0660\", got \"" + text + "\"");
    }
    const uint32_t mode = static_cast<uint32_t>(std::stoul(text, nullptr, 8));
    if (mode > 0777) return invalid_argument(name(key) + ": expected permission bits (at most \"0777\"), got \"" + text + "\"");
    if ((mode & 0600) != 0600) {
      return invalid_argument(name(key) + ": the daemon's own user needs read and write (0600 bits), got \"" + text + "\"");
    }
    out = mode;
    return ok_status();
  }

  const toml::node* take(std::string_view key) {
    taken_.insert(std::string(key));
    return table_.get(key);
  }

  // invalid_argument naming the first key that no read took.
  status finish() const {
    for (const auto& [k, v] : table_) {
      if (!taken_.contains(std::string(k.str()))) {
        return invalid_argument(name(k.str()) + ": unknown key" +
                                (prefix_.empty() ? std::string(" (sections: server, log, engine, cluster, keys)")
                                                 : std::string(" in [" + prefix_ + "]")));
      }
    }
    return ok_status();
  }

 private:
  status wrong_type(std::string_view key, std::string_view expected, const toml::node& n) const {
    std::string_view got = "something else";
    switch (n.type()) {
      case toml::node_type::string: got = "a string"; break;
      case toml::node_type::integer: got = "an integer"; break;
      case toml::node_type::floating_point: got = "a float"; break;
      case toml::node_type::boolean: got = "a boolean"; break;
      case toml::node_type::table: got = "a table"; break;
      case toml::node_type::array: got = "an array"; break;
      default: got = "a date or time"; break;
    }
    return invalid_argument(name(key) + ": expected " + std::string(expected) + ", got " + std::string(got));
  }

  const toml::table& table_;
  std::string prefix_;
  std::set<std::string> taken_;
};

#define PP_CFG_TRY(expr)                 \
  do {                                   \
    if (status s_ = (expr); !s_.ok()) return s_; \
  } while (0)

// A sub-table, or nullptr when absent; invalid_argument when the key holds something else.
result<const toml::table*> sub_table(table_reader& root, std::string_view key) {
  const toml::node* n = root.take(key);
  if (!n) return static_cast<const toml::table*>(nullptr);
  if (!n->is_table()) return invalid_argument(std::string(key) + ": expected a table ([" + std::string(key) + "])");
  return n->as_table();
}


// The knob table. Each visit_* names every key of one section with the field it sets; a visitor
// (knob_reader, knob_writer, knob_lister) does the rest. Units: *_mb keys hold MiB of a byte field,
// *_ms and *_s keys a duration. C is the section, const or not.
constexpr int64_t big = int64_t{1} << 40;

template <class C, class V>
void visit_server(C& c, V& v) {
  v.text("socket", c.socket);
  v.mode("socket_mode", c.socket_mode);
  v.text("listen", c.listen);
  v.text("token_file", c.token_file);
  v.text("http", c.http);
  v.integer("max_receive_message_mb", c.max_receive_message_mb, 1, 2047);
  v.integer("max_send_message_mb", c.max_send_message_mb, 1, 2047);
  v.integer("max_concurrent_calls", c.max_concurrent_calls, 1, 65536);
  v.integer("max_tcp_connections", c.max_tcp_connections, 1, 65536);
  v.integer("max_http_connections", c.max_http_connections, 1, 65536);
  v.integer("drain_timeout_s", c.drain_timeout_s, 0, 86400);
  v.integer("max_await_s", c.max_await_s, 1, 86400);
}

template <class C, class V>
void visit_log(C& c, V& v) {
  v.one_of("level", c.level, {"trace", "debug", "info", "warn", "error", "off"});
  v.one_of("format", c.format, {"text", "json"});
  v.text("file", c.file);
}

template <class C, class V>
void visit_engine(C& c, V& v) {
  auto& e = c.config;
  v.one_of("backend", c.backend, {"auto", "cpu", "cuda"});
  v.integer("cpu_devices", e.cpu_devices, 1, 1024);
  v.flag("bn254_cpu_device", e.bn254_cpu_device);
  v.int_list("gpus", c.gpu.ordinals, 0, 1023);
  v.fraction("gpu_vram_share", c.gpu.vram_share);
  v.mebibytes("gpu_vram_max_mb", c.gpu.max_vram_bytes, 0, big);
  v.mebibytes("gpu_staging_mb", c.gpu.staging_bytes, 1, 1 << 20);
  v.integer("gpu_h_copies", c.gpu.h_copies, 1, 24);
  v.integer("workers_per_device", c.workers_per_device, 0, 64);
  v.integer("partitions_together", e.partitions_together, 1, 64);
  v.duration("together_wait_ms", e.together_wait, 0, 60000);
  v.integer("witness_threads", e.witness_threads, 1, 1024);
  v.integer("finish_threads", e.finish_threads, 1, 1024);
  v.integer("intake_capacity", e.intake_capacity, 1, 1 << 24);
  v.integer("ready_capacity", e.ready_capacity, 1, 1 << 20);
  v.integer("device_queue_depth", e.device_queue_depth, 1, 1 << 20);
  v.integer("finish_capacity", e.finish_capacity, 1, 1 << 20);
  v.duration("submit_wait_ms", e.submit_wait, 0, 3600 * 1000);
  v.mebibytes("host_memory_mb", e.host_memory_bytes, 0, big);
  v.mebibytes("host_memory_margin_mb", e.host_memory_margin, 0, big);
  v.fraction("key_memory_fraction", e.key_memory_fraction);
  v.mebibytes("partition_mb", e.partition_bytes, 0, big);
  v.flag("self_verify", e.self_verify);
  v.integer("max_attempts", e.max_attempts, 1, 100);
  v.integer("max_retained_jobs", e.max_retained_jobs, 1, int64_t{1} << 32);
  v.integer("trace_capacity", e.trace_capacity, 1, int64_t{1} << 32);
  v.text("trace_file", c.trace_file);
}

template <class C, class V>
void visit_cluster(C& c, V& v) {
  auto& k = c.config;
  v.text("database", k.database);
  v.text("node", k.node);
  v.duration("lease_s", k.lease, 3, 86400);
  v.text("shared_dir", k.shared_dir);
  v.integer("inline_witness_bytes", k.inline_witness_bytes, 0, int64_t{1} << 30);
  v.integer("claims", k.claims, 0, 1024);
  v.duration("poll_ms", k.poll, 1, 60000);
  v.duration("unserved_job_s", k.unserved_job, 1, 86400);
}

// The sections in file order, each with its table.
template <class Config, class F>
void for_each_section(Config& c, F&& f) {
  f("server", [&](auto& v) { visit_server(c.server, v); });
  f("log", [&](auto& v) { visit_log(c.log, v); });
  f("engine", [&](auto& v) { visit_engine(c.engine, v); });
  f("cluster", [&](auto& v) { visit_cluster(c.cluster, v); });
}

// Reads one section's keys through a table_reader; keeps the first error and skips the rest.
class knob_reader {
 public:
  explicit knob_reader(table_reader& r) : r_(r) {}
  status take_status() { return std::move(status_); }

  void text(std::string_view key, std::string& out) { run([&] { return r_.read_string(key, out); }); }
  void one_of(std::string_view key, std::string& out, std::initializer_list<std::string_view> allowed) {
    run([&] { return r_.read_one_of(key, out, allowed); });
  }
  void mode(std::string_view key, uint32_t& out) { run([&] { return r_.read_mode(key, out); }); }
  void flag(std::string_view key, bool& out) { run([&] { return r_.read_bool(key, out); }); }
  void fraction(std::string_view key, double& out) { run([&] { return r_.read_fraction(key, out); }); }
  template <class Int>
  void integer(std::string_view key, Int& out, int64_t lo, int64_t hi) {
    run([&] { return r_.read_int(key, out, lo, hi); });
  }
  void int_list(std::string_view key, std::vector<int>& out, int64_t lo, int64_t hi) {
    run([&] { return r_.read_int_list(key, out, lo, hi); });
  }
  // The file says MiB; the field holds bytes.
  void mebibytes(std::string_view key, uint64_t& bytes, int64_t lo, int64_t hi) {
    uint64_t mib = bytes >> 20;
    run([&] { return r_.read_int(key, mib, lo, hi); });
    bytes = mib << 20;
  }
  // The file says the duration's own unit (ms for milliseconds, s for seconds).
  template <class Rep, class Period>
  void duration(std::string_view key, std::chrono::duration<Rep, Period>& out, int64_t lo, int64_t hi) {
    Rep count = out.count();
    run([&] { return r_.read_int(key, count, lo, hi); });
    out = std::chrono::duration<Rep, Period>(count);
  }

 private:
  template <class F>
  void run(F&& read) {
    if (status_.ok()) status_ = read();
  }
  table_reader& r_;
  status status_;
};

// Writes one section's keys into a TOML table, in the file's units.
class knob_writer {
 public:
  explicit knob_writer(toml::table& t) : t_(t) {}
  void text(std::string_view key, const std::string& v) { t_.insert_or_assign(key, v); }
  void one_of(std::string_view key, const std::string& v, std::initializer_list<std::string_view>) { text(key, v); }
  void mode(std::string_view key, uint32_t v) {
    char octal[8];
    std::snprintf(octal, sizeof octal, "%04o", v);
    t_.insert_or_assign(key, std::string(octal));
  }
  void flag(std::string_view key, bool v) { t_.insert_or_assign(key, v); }
  void fraction(std::string_view key, double v) { t_.insert_or_assign(key, v); }
  template <class Int>
  void integer(std::string_view key, Int v, int64_t, int64_t) {
    t_.insert_or_assign(key, static_cast<int64_t>(v));
  }
  void int_list(std::string_view key, const std::vector<int>& v, int64_t, int64_t) {
    toml::array a;
    for (int x : v) a.push_back(int64_t{x});
    t_.insert_or_assign(key, std::move(a));
  }
  void mebibytes(std::string_view key, uint64_t bytes, int64_t, int64_t) {
    t_.insert_or_assign(key, static_cast<int64_t>(bytes >> 20));
  }
  template <class Rep, class Period>
  void duration(std::string_view key, std::chrono::duration<Rep, Period> v, int64_t, int64_t) {
    t_.insert_or_assign(key, static_cast<int64_t>(v.count()));
  }

 private:
  toml::table& t_;
};

// Collects "section.key" for every key.
struct knob_lister {
  std::string section;
  std::vector<std::string>& names;
  void add(std::string_view key) { names.push_back(section + "." + std::string(key)); }
  template <class T>
  void text(std::string_view key, const T&) { add(key); }
  template <class T>
  void one_of(std::string_view key, const T&, std::initializer_list<std::string_view>) { add(key); }
  template <class T>
  void mode(std::string_view key, const T&) { add(key); }
  template <class T>
  void flag(std::string_view key, const T&) { add(key); }
  template <class T>
  void fraction(std::string_view key, const T&) { add(key); }
  template <class T>
  void integer(std::string_view key, const T&, int64_t, int64_t) { add(key); }
  template <class T>
  void int_list(std::string_view key, const T&, int64_t, int64_t) { add(key); }
  template <class T>
  void mebibytes(std::string_view key, const T&, int64_t, int64_t) { add(key); }
  template <class T>
  void duration(std::string_view key, const T&, int64_t, int64_t) { add(key); }
};

// Finds the range of one key ("engine.cpu_devices"); found stays empty for text, flags and modes.
struct knob_range_finder {
  std::string section;
  std::string_view want;
  std::optional<knob_range>& found;
  bool is(std::string_view key) const { return want == section + "." + std::string(key); }
  void bounds(std::string_view key, int64_t lo, int64_t hi) {
    if (is(key)) found = knob_range{double(lo), double(hi), false};
  }
  template <class T>
  void text(std::string_view, const T&) {}
  template <class T>
  void one_of(std::string_view, const T&, std::initializer_list<std::string_view>) {}
  template <class T>
  void mode(std::string_view, const T&) {}
  template <class T>
  void flag(std::string_view, const T&) {}
  template <class T>
  void fraction(std::string_view key, const T&) {
    if (is(key)) found = knob_range{0.0, 1.0, true};
  }
  template <class T>
  void integer(std::string_view key, const T&, int64_t lo, int64_t hi) { bounds(key, lo, hi); }
  template <class T>
  void int_list(std::string_view key, const T&, int64_t lo, int64_t hi) { bounds(key, lo, hi); }
  template <class T>
  void mebibytes(std::string_view key, const T&, int64_t lo, int64_t hi) { bounds(key, lo, hi); }
  template <class T>
  void duration(std::string_view key, const T&, int64_t lo, int64_t hi) { bounds(key, lo, hi); }
};

// Reads the keys of [name] from t into c.
template <class Visit>
status read_section(const toml::table& t, std::string_view name, Visit&& visit) {
  table_reader r(t, std::string(name));
  knob_reader k(r);
  visit(k);
  PP_CFG_TRY(k.take_status());
  return r.finish();
}

// [cluster]'s own rules, after its keys are read.
status check_cluster(cluster_section& c) {
  cluster::cluster_config& k = c.config;
  if (k.database.empty()) {
    return invalid_argument("cluster.database: required (a libpq connection string or URI, e.g. "
                            "\"postgresql:///proofpipe?host=/run/postgresql\")");
  }
  if (!k.shared_dir.empty() && !std::filesystem::path(k.shared_dir).is_absolute()) {
    return invalid_argument("cluster.shared_dir: \"" + k.shared_dir + "\" must be absolute");
  }
  if (k.node.empty()) {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0 || host[0] == 0) {
      return invalid_argument("cluster.node: not set and the host name is unknown");
    }
    k.node = host;
  }
  return ok_status();
}

status read_keys(const toml::node& n, std::vector<key_entry>& keys) {
  if (!n.is_array_of_tables()) return invalid_argument("keys: expected an array of tables ([[keys]])");
  const toml::array& arr = *n.as_array();
  for (size_t i = 0; i < arr.size(); ++i) {
    table_reader r(*arr[i].as_table(), "keys[" + std::to_string(i) + "]");
    key_entry k;
    PP_CFG_TRY(r.read_string("id", k.id));
    PP_CFG_TRY(r.read_string("zkey", k.zkey));
    PP_CFG_TRY(r.read_string("params", k.params));
    PP_CFG_TRY(r.read_string("r1cs", k.r1cs));
    PP_CFG_TRY(r.read_bool("preload", k.preload));
    PP_CFG_TRY(r.finish());
    if (k.id.empty()) return invalid_argument(r.name("id") + ": required (the name jobs use for this key)");
    if (k.zkey.empty() && k.params.empty()) {
      return invalid_argument(r.name("zkey") + ": required (the path of a snarkjs .zkey), or params and r1cs (a "
                              "bellperson parameters file and the circom .r1cs it was made for)");
    }
    if (!k.zkey.empty() && !k.params.empty()) {
      return invalid_argument(r.name("params") + ": set with zkey; a key is read from one file (zkey, or params with r1cs)");
    }
    if (!k.params.empty() && k.r1cs.empty()) {
      return invalid_argument(r.name("r1cs") + ": required with params (bellperson parameters do not carry the circuit)");
    }
    if (k.params.empty() && !k.r1cs.empty()) {
      return invalid_argument(r.name("r1cs") + ": only with params (a .zkey carries its circuit)");
    }
    for (const key_entry& other : keys) {
      if (other.id == k.id) return invalid_argument(r.name("id") + ": \"" + k.id + "\" is registered twice");
    }
    keys.push_back(std::move(k));
  }
  return ok_status();
}

// A unix socket path's room, its terminating NUL included (108 bytes on Linux).
constexpr size_t socket_path_capacity = sizeof(sockaddr_un::sun_path);

// "HOST:PORT" with a port in [0, 65535] (0: any free port) and a non-empty host.
status check_host_port(std::string_view key, const std::string& v) {
  const size_t colon = v.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == v.size() ||
      v.find_first_not_of("0123456789", colon + 1) != std::string::npos || v.size() - colon - 1 > 5 ||
      std::stoul(v.substr(colon + 1)) > 65535) {
    return invalid_argument(std::string(key) + ": expected \"HOST:PORT\" (e.g. \"127.0.0.1:9090\"), got \"" + v + "\"");
  }
  return ok_status();
}

}  // namespace

status validate(const server_config& c) {
  if (c.server.socket.empty() && c.server.listen.empty()) {
    return invalid_argument("server.socket: empty and server.listen is empty too: the daemon would have no gRPC listener");
  }
  if (c.server.socket.size() >= socket_path_capacity) {
    return invalid_argument("server.socket: a unix socket path must be shorter than " +
                            std::to_string(socket_path_capacity) + " bytes, got " +
                            std::to_string(c.server.socket.size()));
  }
  if (!c.server.listen.empty()) {
    PP_CFG_TRY(check_host_port("server.listen", c.server.listen));
    if (c.server.token_file.empty()) {
      return invalid_argument("server.token_file: required when server.listen is set (TCP clients must send a bearer token)");
    }
  }
  if (!c.server.http.empty()) PP_CFG_TRY(check_host_port("server.http", c.server.http));
  return ok_status();
}

result<server_config> parse_server_config(std::string_view text, std::string_view origin) {
  toml::table root;
  try {
    root = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    std::ostringstream os;
    os << origin << ":" << e.source().begin.line << ":" << e.source().begin.column << ": " << e.description();
    return invalid_argument(os.str());
  }
  server_config c;
  table_reader r(root, "");
  auto with_origin = [&](status s) { return s.with_context(origin); };
  status section_status;
  for_each_section(c, [&](std::string_view name, auto&& visit) {
    if (!section_status.ok()) return;
    auto t = sub_table(r, name);
    if (!t.ok()) {
      section_status = t.error();
      return;
    }
    if (!*t) return;
    section_status = read_section(**t, name, visit);
    if (section_status.ok() && name == "cluster") {
      c.cluster.enabled = true;
      section_status = check_cluster(c.cluster);
    }
  });
  if (!section_status.ok()) return with_origin(std::move(section_status));
  if (const toml::node* k = r.take("keys")) {
    if (status s = read_keys(*k, c.keys); !s.ok()) return with_origin(std::move(s));
  }
  if (status s = r.finish(); !s.ok()) return with_origin(std::move(s));
  if (status s = validate(c); !s.ok()) return with_origin(std::move(s));
  return c;
}

std::string to_toml(const server_config& config) {
  toml::table root;
  for_each_section(config, [&](std::string_view name, auto&& visit) {
    if (name == "cluster" && !config.cluster.enabled) return;
    toml::table t;
    knob_writer w(t);
    visit(w);
    root.insert_or_assign(name, std::move(t));
  });
  if (!config.keys.empty()) {
    toml::array keys;
    for (const key_entry& k : config.keys) {
      toml::table t{{"id", k.id}};
      if (!k.zkey.empty()) t.insert("zkey", k.zkey);
      if (!k.params.empty()) t.insert("params", k.params);
      if (!k.r1cs.empty()) t.insert("r1cs", k.r1cs);
      t.insert("preload", k.preload);
      keys.push_back(std::move(t));
    }
    root.insert_or_assign("keys", std::move(keys));
  }
  std::ostringstream os;
  os << root << "\n";
  return os.str();
}

std::vector<std::string> knob_names() {
  std::vector<std::string> names;
  const server_config c;
  for_each_section(c, [&](std::string_view name, auto&& visit) {
    knob_lister l{std::string(name), names};
    visit(l);
  });
  return names;
}

result<knob_range> knob_range_of(std::string_view name) {
  std::optional<knob_range> found;
  const server_config c;
  for_each_section(c, [&](std::string_view section, auto&& visit) {
    knob_range_finder f{std::string(section), name, found};
    visit(f);
  });
  if (!found) return not_found("knob table: no numeric key \"" + std::string(name) + "\"");
  return *found;
}

result<server_config> load_server_config(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return not_found("config file " + path.string() + ": cannot open");
  std::ostringstream os;
  os << in.rdbuf();
  return parse_server_config(os.str(), path.string());
}

}  // namespace pp::server
