// server_config: TOML -> typed tree. A table_reader takes each known key once, checks its type
// and range, and finally names any key it did not take (a typo is an error, not a silent default).
#include "server/server_config.hpp"

#include <algorithm>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

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


status read_server(const toml::table& t, listen_config& c) {
  table_reader r(t, "server");
  PP_CFG_TRY(r.read_string("socket", c.socket));
  PP_CFG_TRY(r.read_mode("socket_mode", c.socket_mode));
  PP_CFG_TRY(r.read_string("listen", c.listen));
  PP_CFG_TRY(r.read_string("token_file", c.token_file));
  PP_CFG_TRY(r.read_string("http", c.http));
  PP_CFG_TRY(r.read_int("max_receive_message_mb", c.max_receive_message_mb, 1, 2047));
  PP_CFG_TRY(r.read_int("max_send_message_mb", c.max_send_message_mb, 1, 2047));
  PP_CFG_TRY(r.read_int("max_concurrent_calls", c.max_concurrent_calls, 1, 65536));
  PP_CFG_TRY(r.read_int("drain_timeout_s", c.drain_timeout_s, 0, 86400));
  PP_CFG_TRY(r.read_int("max_await_s", c.max_await_s, 1, 86400));
  return r.finish();
}

status read_log(const toml::table& t, log_config& c) {
  table_reader r(t, "log");
  PP_CFG_TRY(r.read_one_of("level", c.level, {"trace", "debug", "info", "warn", "error", "off"}));
  PP_CFG_TRY(r.read_one_of("format", c.format, {"text", "json"}));
  PP_CFG_TRY(r.read_string("file", c.file));
  return r.finish();
}

status read_engine(const toml::table& t, engine_section& c) {
  table_reader r(t, "engine");
  constexpr int64_t big = int64_t{1} << 40;
  PP_CFG_TRY(r.read_one_of("backend", c.backend, {"auto", "cpu", "cuda"}));
  PP_CFG_TRY(r.read_int("cpu_devices", c.cpu_devices, 1, 1024));
  PP_CFG_TRY(r.read_int_list("gpus", c.gpus, 0, 1023));
  PP_CFG_TRY(r.read_fraction("gpu_vram_share", c.gpu_vram_share));
  PP_CFG_TRY(r.read_int("gpu_vram_max_mb", c.gpu_vram_max_mb, 0, big));
  PP_CFG_TRY(r.read_int("gpu_staging_mb", c.gpu_staging_mb, 1, 1 << 20));
  PP_CFG_TRY(r.read_int("workers_per_device", c.workers_per_device, 0, 64));
  PP_CFG_TRY(r.read_int("witness_threads", c.witness_threads, 1, 1024));
  PP_CFG_TRY(r.read_int("finish_threads", c.finish_threads, 1, 1024));
  PP_CFG_TRY(r.read_int("intake_capacity", c.intake_capacity, 1, 1 << 24));
  PP_CFG_TRY(r.read_int("ready_capacity", c.ready_capacity, 1, 1 << 20));
  PP_CFG_TRY(r.read_int("device_queue_depth", c.device_queue_depth, 1, 1 << 20));
  PP_CFG_TRY(r.read_int("finish_capacity", c.finish_capacity, 1, 1 << 20));
  PP_CFG_TRY(r.read_int("submit_wait_ms", c.submit_wait_ms, 0, 3600 * 1000));
  PP_CFG_TRY(r.read_int("host_memory_mb", c.host_memory_mb, 0, big));
  PP_CFG_TRY(r.read_int("host_memory_margin_mb", c.host_memory_margin_mb, 0, big));
  PP_CFG_TRY(r.read_fraction("key_memory_fraction", c.key_memory_fraction));
  PP_CFG_TRY(r.read_int("partition_mb", c.partition_mb, 0, big));
  PP_CFG_TRY(r.read_bool("self_verify", c.self_verify));
  PP_CFG_TRY(r.read_int("max_attempts", c.max_attempts, 1, 100));
  PP_CFG_TRY(r.read_int("max_retained_jobs", c.max_retained_jobs, 1, int64_t{1} << 32));
  PP_CFG_TRY(r.read_int("trace_capacity", c.trace_capacity, 1, int64_t{1} << 32));
  PP_CFG_TRY(r.read_string("trace_file", c.trace_file));
  return r.finish();
}

status read_cluster(const toml::table& t, cluster_section& c) {
  table_reader r(t, "cluster");
  c.enabled = true;
  PP_CFG_TRY(r.read_string("database", c.database));
  PP_CFG_TRY(r.read_string("node", c.node));
  PP_CFG_TRY(r.read_int("lease_s", c.lease_s, 3, 86400));
  PP_CFG_TRY(r.read_string("shared_dir", c.shared_dir));
  PP_CFG_TRY(r.read_int("inline_witness_bytes", c.inline_witness_bytes, 0, int64_t{1} << 30));
  PP_CFG_TRY(r.read_int("claims", c.claims, 0, 1024));
  PP_CFG_TRY(r.read_int("poll_ms", c.poll_ms, 1, 60000));
  PP_CFG_TRY(r.finish());
  if (c.database.empty()) {
    return invalid_argument("cluster.database: required (a libpq connection string or URI, e.g. "
                            "\"postgresql:///proofpipe?host=/run/postgresql\")");
  }
  if (!c.shared_dir.empty() && !std::filesystem::path(c.shared_dir).is_absolute()) {
    return invalid_argument("cluster.shared_dir: \"" + c.shared_dir + "\" must be absolute");
  }
  if (c.node.empty()) {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0 || host[0] == 0) {
      return invalid_argument("cluster.node: not set and the host name is unknown");
    }
    c.node = host;
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
    PP_CFG_TRY(r.read_bool("preload", k.preload));
    PP_CFG_TRY(r.finish());
    if (k.id.empty()) return invalid_argument(r.name("id") + ": required (the name jobs use for this key)");
    if (k.zkey.empty()) return invalid_argument(r.name("zkey") + ": required (the path of a snarkjs .zkey)");
    for (const key_entry& other : keys) {
      if (other.id == k.id) return invalid_argument(r.name("id") + ": \"" + k.id + "\" is registered twice");
    }
    keys.push_back(std::move(k));
  }
  return ok_status();
}

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
  if (c.server.socket.size() >= 108) {
    return invalid_argument("server.socket: a unix socket path must be shorter than 108 bytes, got " +
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
  for (std::string_view section : {"server", "log", "engine", "cluster"}) {
    auto t = sub_table(r, section);
    if (!t.ok()) return with_origin(t.error());
    if (!*t) continue;
    status s = section == "server"   ? read_server(**t, c.server)
               : section == "log"    ? read_log(**t, c.log)
               : section == "engine" ? read_engine(**t, c.engine)
                                     : read_cluster(**t, c.cluster);
    if (!s.ok()) return with_origin(std::move(s));
  }
  if (const toml::node* k = r.take("keys")) {
    if (status s = read_keys(*k, c.keys); !s.ok()) return with_origin(std::move(s));
  }
  if (status s = r.finish(); !s.ok()) return with_origin(std::move(s));
  if (status s = validate(c); !s.ok()) return with_origin(std::move(s));
  return c;
}

result<server_config> load_server_config(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return not_found("config file " + path.string() + ": cannot open");
  std::ostringstream os;
  os << in.rdbuf();
  return parse_server_config(os.str(), path.string());
}

}  // namespace pp::server
