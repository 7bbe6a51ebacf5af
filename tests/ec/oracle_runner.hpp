// Runs a node oracle of tools/oracle on a JSON request (written to a temporary file, the script's
// first argument) and parses its JSON answer; and hex helpers for the bytes the oracles exchange.
// Shared by the ec oracle tests; they skip when node or the oracle's node_modules are missing.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support/files.hpp"

namespace pp::ec::testing {

template <class Bytes>
std::string to_hex(const Bytes& b) {
  static constexpr char d[] = "0123456789abcdef";
  std::string s;
  for (uint8_t x : b) {
    s += d[x >> 4];
    s += d[x & 15];
  }
  return s;
}

inline std::vector<uint8_t> from_hex(const std::string& s) {
  std::vector<uint8_t> out(s.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(std::stoi(s.substr(2 * i, 2), nullptr, 16));
  return out;
}

// Runs tools/oracle/<script> on request; returns false (and sets why) when it cannot be run at all:
// no node, or no node_modules/<module> beside the script.
inline bool run_oracle(const std::string& script, const std::string& module, const nlohmann::json& request,
                       nlohmann::json& answer, std::string& why) {
  namespace fs = std::filesystem;
  const fs::path oracle_dir = pp::test::source_dir() / "tools" / "oracle";
  if (!fs::exists(oracle_dir / "node_modules" / module)) {
    why = "tools/oracle/node_modules/" + module + " is missing (run npm ci in tools/oracle)";
    return false;
  }
  if (std::system("node --version >/dev/null 2>&1") != 0) {
    why = "node is not on PATH";
    return false;
  }
  const fs::path dir = fs::temp_directory_path();
  const std::string stem = "pp_ec_oracle_" + std::to_string(::getpid()) + "_" +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name();
  const fs::path req = dir / (stem + ".req.json"), resp = dir / (stem + ".resp.json");
  std::ofstream(req) << request.dump();
  const std::string cmd = "node '" + (oracle_dir / script).string() + "' '" + req.string() + "' > '" +
                          resp.string() + "'";
  const int rc = std::system(cmd.c_str());
  std::stringstream ss;
  ss << std::ifstream(resp).rdbuf();
  fs::remove(req);
  fs::remove(resp);
  EXPECT_EQ(rc, 0) << cmd;
  answer = nlohmann::json::parse(ss.str(), nullptr, false);
  EXPECT_FALSE(answer.is_discarded()) << "oracle output is not JSON: " << ss.str();
  return true;
}

}  // namespace pp::ec::testing
