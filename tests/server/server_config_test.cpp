// server_config: the checked-in example parses to exactly the defaults and shows every knob of the
// table; to_toml reads back; each bad input is refused with an error naming the key.
#include "server/server_config.hpp"
#include "support/files.hpp"
#include "support/status_matchers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>

namespace pp::server {
namespace {

std::filesystem::path example_path() { return test::source_dir() / "proofpipe.example.toml"; }

std::string read_example() { return test::read_file(example_path()); }

// The example with its commented-out [cluster] block switched on: each line from "# [cluster]" on
// loses its leading "# " (so "# # comment" stays a comment).
std::string example_with_cluster(const std::string& example) {
  const size_t at = example.find("\n# [cluster]\n");
  if (at == std::string::npos) return example;
  std::string out = example.substr(0, at + 1);
  std::istringstream rest(example.substr(at + 1));
  for (std::string line; std::getline(rest, line);) {
    out += (line.rfind("# ", 0) == 0 ? line.substr(2) : line) + "\n";
  }
  return out;
}

TEST(ServerConfig, ExampleFileParsesToExactlyTheDefaults) {
  auto c = load_server_config(example_path());
  ASSERT_THAT(c, IsOk());
  // to_toml writes every knob of the table: equal text is equal values, knob by knob.
  EXPECT_EQ(to_toml(*c), to_toml(server_config{}));
  EXPECT_TRUE(c->keys.empty());
  EXPECT_FALSE(c->cluster.enabled);

  // The [cluster] block the example shows commented out: defaults too, apart from the two keys a
  // cluster must name (the database, and this node, which defaults to the host name).
  auto k = parse_server_config(example_with_cluster(read_example()), "example with [cluster]");
  ASSERT_THAT(k, IsOk());
  ASSERT_TRUE(k->cluster.enabled);
  server_config d;
  d.cluster.enabled = true;
  d.cluster.config.database = k->cluster.config.database;
  d.cluster.config.node = k->cluster.config.node;
  EXPECT_EQ(to_toml(*k), to_toml(d));
}

TEST(ServerConfig, EveryKnobAppearsInTheExample) {
  // "section.key" for each line "key = ..." or "# key = ..." under "[section]" or "# [section]".
  std::set<std::string> shown;
  std::istringstream in(read_example());
  std::string section;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# ", 0) == 0) line = line.substr(2);
    if (line.size() > 2 && line.front() == '[' && line.back() == ']') {
      section = line.substr(1, line.size() - 2);
      continue;
    }
    const size_t eq = line.find(" = ");
    if (eq == std::string::npos || line.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != eq) continue;
    if (section != "[keys]") shown.insert(section + "." + line.substr(0, eq));
  }
  const std::vector<std::string> knobs = knob_names();
  EXPECT_GT(knobs.size(), 40u);
  for (const std::string& k : knobs) EXPECT_TRUE(shown.contains(k)) << k << " is missing from proofpipe.example.toml";
  // And the example documents no key the table lacks (the commented [cluster] block included).
  for (const std::string& k : shown) {
    EXPECT_NE(std::find(knobs.begin(), knobs.end(), k), knobs.end()) << k << " is not a knob";
  }
}

TEST(ServerConfig, ToTomlReadsBackTheSameConfig) {
  auto c = parse_server_config(R"(
[server]
socket_mode = "0600"
http = "127.0.0.1:9100"
[log]
format = "json"
[engine]
backend = "cpu"
gpus = [2, 0]
gpu_vram_share = 0.75
gpu_staging_mb = 64
workers_per_device = 3
intake_capacity = 17
submit_wait_ms = 250
partition_mb = 100
self_verify = false
trace_file = "/tmp/t.json"
[cluster]
database = "dbname=pp"
node = "n2"
lease_s = 12
poll_ms = 7
[[keys]]
id = "a"
zkey = "/k/a.zkey"
preload = true
[[keys]]
id = "porep"
params = "/k/porep.params"
r1cs = "/k/porep.r1cs"
)", "t");
  ASSERT_THAT(c, IsOk());
  ASSERT_EQ(c->keys.size(), 2u);
  EXPECT_EQ(c->keys[1].params, "/k/porep.params");
  EXPECT_EQ(c->keys[1].r1cs, "/k/porep.r1cs");
  EXPECT_TRUE(c->keys[1].zkey.empty());
  const std::string text = to_toml(*c);
  auto back = parse_server_config(text, "to_toml");
  ASSERT_THAT(back, IsOk()) << back.error().to_string() << "\n" << text;
  EXPECT_EQ(to_toml(*back), text);
  EXPECT_NE(text, to_toml(server_config{}));
}

TEST(ServerConfig, ClusterSection) {
  auto c = parse_server_config(
      "[cluster]\ndatabase = \"postgresql:///pp?host=/run/postgresql\"\nnode = \"n1\"\nlease_s = 10\n"
      "shared_dir = \"/mnt/shared\"\ninline_witness_bytes = 0\nclaims = 3\npoll_ms = 20\nunserved_job_s = 60\n",
      "t");
  ASSERT_THAT(c, IsOk());
  EXPECT_TRUE(c->cluster.enabled);
  const cluster::cluster_config& k = c->cluster.config;
  EXPECT_EQ(k.database, "postgresql:///pp?host=/run/postgresql");
  EXPECT_EQ(k.node, "n1");
  EXPECT_EQ(k.lease, std::chrono::seconds(10));
  EXPECT_EQ(k.shared_dir, "/mnt/shared");
  EXPECT_EQ(k.inline_witness_bytes, 0u);
  EXPECT_EQ(k.claims, 3u);
  EXPECT_EQ(k.poll, std::chrono::milliseconds(20));
  EXPECT_EQ(k.unserved_job, std::chrono::seconds(60));
  // The node name defaults to the host name.
  auto h = parse_server_config("[cluster]\ndatabase = \"dbname=pp\"\n", "t");
  ASSERT_THAT(h, IsOk());
  EXPECT_FALSE(h->cluster.config.node.empty());
  for (const auto& [text, key] : std::vector<std::pair<std::string, std::string>>{
           {"[cluster]\nnode = \"n\"\n", "cluster.database: required"},
           {"[cluster]\ndatabase = \"x\"\nlease_s = 1\n", "cluster.lease_s"},
           {"[cluster]\ndatabase = \"x\"\nshared_dir = \"rel\"\n", "cluster.shared_dir"},
           {"[cluster]\ndatabase = \"x\"\nleese_s = 5\n", "cluster.leese_s: unknown key"}}) {
    auto bad = parse_server_config(text, "t");
    ASSERT_THAT(bad, StatusIs(status_code::invalid_argument)) << text;
    EXPECT_NE(bad.error().message().find(key), std::string::npos) << bad.error().message();
  }
}

TEST(ServerConfig, EmptyTextGivesDefaults) {
  auto c = parse_server_config("", "empty");
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(c->server.socket, "/run/proofpipe/proofpipe.sock");
}

TEST(ServerConfig, ReadsEveryKindOfValue) {
  auto c = parse_server_config(R"(
[server]
socket = "/tmp/x.sock"
socket_mode = "0600"
listen = "127.0.0.1:0"
token_file = "/etc/t"
http = "127.0.0.1:9100"
[engine]
backend = "cpu"
gpus = [1, 0]
key_memory_fraction = 0.25
self_verify = false
host_memory_mb = 1024
gpu_vram_max_mb = 4096
submit_wait_ms = 250
intake_capacity = 17
[[keys]]
id = "a"
zkey = "/k/a.zkey"
preload = true
[[keys]]
id = "b"
zkey = "/k/b.zkey"
)", "t");
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(c->server.socket_mode, 0600u);
  EXPECT_EQ(c->server.listen, "127.0.0.1:0");
  // The [engine] keys land in the engine's own config, MiB as bytes and ms as a duration.
  const engine::engine_config& e = c->engine.config;
  EXPECT_DOUBLE_EQ(e.key_memory_fraction, 0.25);
  EXPECT_FALSE(e.self_verify);
  EXPECT_EQ(e.host_memory_bytes, uint64_t{1024} << 20);
  EXPECT_EQ(e.submit_wait, std::chrono::milliseconds(250));
  EXPECT_EQ(e.intake_capacity, 17u);
  EXPECT_EQ(c->engine.gpu.max_vram_bytes, uint64_t{4096} << 20);
  EXPECT_EQ(c->engine.gpu.ordinals, (std::vector<int>{1, 0}));
  ASSERT_EQ(c->keys.size(), 2u);
  EXPECT_TRUE(c->keys[0].preload);
  EXPECT_FALSE(c->keys[1].preload);
}

struct bad_case {
  const char* name;
  const char* toml;
  const char* expect;  // substring of the message (names the key)
};

class BadConfig : public ::testing::TestWithParam<bad_case> {};

TEST_P(BadConfig, IsRefusedNamingTheKey) {
  const bad_case& b = GetParam();
  auto c = parse_server_config(b.toml, "bad.toml");
  ASSERT_THAT(c, StatusIs(status_code::invalid_argument)) << b.name;
  EXPECT_NE(c.error().message().find(b.expect), std::string::npos) << c.error().message();
  EXPECT_NE(c.error().message().find("bad.toml"), std::string::npos) << c.error().message();
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BadConfig,
    ::testing::Values(
        bad_case{"syntax", "[server\n", "bad.toml:"},
        bad_case{"unknown_section", "[srever]\n", "srever: unknown key"},
        bad_case{"unknown_key", "[server]\nsockett = \"/x\"\n", "server.sockett: unknown key"},
        bad_case{"unknown_engine_key", "[engine]\nworkers = 2\n", "engine.workers: unknown key"},
        bad_case{"string_for_int", "[server]\nmax_receive_message_mb = \"64\"\n",
                 "server.max_receive_message_mb: expected an integer, got a string"},
        bad_case{"int_for_string", "[server]\nsocket = 5\n", "server.socket: expected a string, got an integer"},
        bad_case{"int_for_bool", "[engine]\nself_verify = 1\n", "engine.self_verify: expected a boolean"},
        bad_case{"zero_size", "[server]\nmax_receive_message_mb = 0\n", "server.max_receive_message_mb: expected an integer in [1, 2047], got 0"},
        bad_case{"negative", "[engine]\nwitness_threads = -1\n", "engine.witness_threads: expected an integer in [1, 1024]"},
        bad_case{"fraction_range", "[engine]\nkey_memory_fraction = 1.5\n", "engine.key_memory_fraction: expected a fraction in (0, 1)"},
        bad_case{"fraction_int", "[engine]\nkey_memory_fraction = 1\n", "engine.key_memory_fraction: expected a number"},
        bad_case{"backend", "[engine]\nbackend = \"opencl\"\n", "engine.backend: expected one of \"auto\", \"cpu\", \"cuda\""},
        bad_case{"log_level", "[log]\nlevel = \"loud\"\n", "log.level: expected one of"},
        bad_case{"mode_decimal", "[server]\nsocket_mode = 660\n", "server.socket_mode: expected an octal string"},
        bad_case{"mode_digits", "[server]\nsocket_mode = \"0680\"\n", "server.socket_mode: expected an octal file mode"},
        bad_case{"mode_owner", "[server]\nsocket_mode = \"0060\"\n", "server.socket_mode: the daemon's own user"},
        bad_case{"listen_no_token", "[server]\nlisten = \"127.0.0.1:7000\"\n", "server.token_file: required"},
        bad_case{"listen_format", "[server]\nlisten = \"localhost\"\ntoken_file = \"/t\"\n", "server.listen: expected \"HOST:PORT\""},
        bad_case{"http_port", "[server]\nhttp = \"127.0.0.1:99999\"\n", "server.http: expected \"HOST:PORT\""},
        bad_case{"no_listener", "[server]\nsocket = \"\"\n", "server.socket: empty"},
        // 108 bytes: one more than sockaddr_un's sun_path holds beside its NUL.
        bad_case{"socket_too_long", "[server]\nsocket = \"/run/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"\n",
                 "server.socket: a unix socket path must be shorter than 108 bytes, got 108"},
        bad_case{"server_not_table", "server = 3\n", "server: expected a table"},
        bad_case{"keys_not_array", "keys = \"a\"\n", "keys: expected an array of tables"},
        bad_case{"gpus_not_array", "[engine]\ngpus = 0\n", "engine.gpus: expected an array of integers"},
        bad_case{"gpus_repeat", "[engine]\ngpus = [0, 0]\n", "engine.gpus: 0 is listed twice"},
        bad_case{"gpus_negative", "[engine]\ngpus = [-1]\n", "engine.gpus: expected integers in [0, 1023]"},
        bad_case{"key_missing_id", "[[keys]]\nzkey = \"/a\"\n", "keys[0].id: required"},
        bad_case{"key_missing_zkey", "[[keys]]\nid = \"a\"\n", "keys[0].zkey: required"},
        bad_case{"key_params_without_r1cs", "[[keys]]\nid = \"a\"\nparams = \"/a\"\n", "keys[0].r1cs: required with params"},
        bad_case{"key_r1cs_without_params", "[[keys]]\nid = \"a\"\nzkey = \"/a\"\nr1cs = \"/b\"\n",
                 "keys[0].r1cs: only with params"},
        bad_case{"key_zkey_and_params", "[[keys]]\nid = \"a\"\nzkey = \"/a\"\nparams = \"/b\"\nr1cs = \"/c\"\n",
                 "keys[0].params: set with zkey"},
        bad_case{"key_unknown", "[[keys]]\nid = \"a\"\nzkey = \"/a\"\npath = \"/b\"\n", "keys[0].path: unknown key"},
        bad_case{"key_twice", "[[keys]]\nid = \"a\"\nzkey = \"/a\"\n[[keys]]\nid = \"a\"\nzkey = \"/b\"\n",
                 "keys[1].id: \"a\" is registered twice"}),
    [](const ::testing::TestParamInfo<bad_case>& i) { return std::string(i.param.name); });

TEST(ServerConfig, MissingFileIsNotFound) {
  auto c = load_server_config("/nonexistent/proofpipe.toml");
  ASSERT_THAT(c, StatusIs(status_code::not_found));
}

// knob_range_of gives the table's own range: the file refuses one past either end of it.
TEST(ServerConfig, KnobRangeIsTheTablesRange) {
  auto r = knob_range_of("engine.witness_threads");
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->lo, 1);
  EXPECT_EQ(r->hi, 1024);
  EXPECT_FALSE(r->open);
  EXPECT_TRUE(r->contains(1024));
  EXPECT_FALSE(r->contains(1025));
  EXPECT_THAT(parse_server_config("[engine]\nwitness_threads = 1024\n", "t"), IsOk());
  EXPECT_THAT(parse_server_config("[engine]\nwitness_threads = 1025\n", "t"), StatusIs(status_code::invalid_argument));

  auto f = knob_range_of("engine.gpu_vram_share");
  ASSERT_THAT(f, IsOk());
  EXPECT_TRUE(f->open);
  EXPECT_FALSE(f->contains(1.0));
  EXPECT_TRUE(f->contains(0.5));

  auto mb = knob_range_of("engine.host_memory_mb");  // in the file's unit, MiB
  ASSERT_THAT(mb, IsOk());
  EXPECT_EQ(mb->lo, 0);

  EXPECT_THAT(knob_range_of("engine.no_such_knob"), StatusIs(status_code::not_found));
  EXPECT_THAT(knob_range_of("server.socket"), StatusIs(status_code::not_found));  // text, not a number
  EXPECT_THAT(knob_range_of("witness_threads"), StatusIs(status_code::not_found));  // needs its section
}

}  // namespace
}  // namespace pp::server
