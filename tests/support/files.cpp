// Test trees from the environment ctest sets, and whole-file reads (files.hpp).
#include "support/files.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>

#include "core/mutex.hpp"

namespace pp::test {
namespace {

std::filesystem::path env_dir(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : ".";
}

// The directories binary_temp_dir made; removed when the process exits (static destruction).
class temp_dirs {
 public:
  ~temp_dirs() {
    mutex_lock lock(mu_);
    for (const auto& [name, dir] : dirs_) {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  }
  std::filesystem::path get(const std::string& name) {
    mutex_lock lock(mu_);
    auto it = dirs_.find(name);
    if (it != dirs_.end()) return it->second;
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("pp_" + name + "_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    dirs_.emplace(name, dir);
    return dir;
  }

 private:
  mutex mu_;
  std::map<std::string, std::filesystem::path> dirs_ PP_GUARDED_BY(mu_);
};

}  // namespace

std::filesystem::path binary_temp_dir(const std::string& name) {
  static temp_dirs dirs;
  return dirs.get(name);
}

std::filesystem::path source_dir() { return env_dir("PP_SOURCE_DIR"); }
std::filesystem::path binary_dir() { return env_dir("PP_BINARY_DIR"); }

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

}  // namespace pp::test
