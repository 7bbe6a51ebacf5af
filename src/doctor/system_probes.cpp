// system_probes: the real host (system_probes.hpp).
#include "doctor/system_probes.hpp"

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace pp::doctor {
namespace {

std::string errno_text(int e) { return std::strerror(e); }

}  // namespace

result<std::vector<devices::gpu_facts>> system_probes::gpus() { return devices::query_gpus(); }

result<uint64_t> system_probes::memlock_limit() {
  rlimit rl{};
  if (::getrlimit(RLIMIT_MEMLOCK, &rl) != 0) return internal_error("getrlimit(RLIMIT_MEMLOCK): " + errno_text(errno));
  return rl.rlim_cur == RLIM_INFINITY ? unlimited_memlock : static_cast<uint64_t>(rl.rlim_cur);
}

status system_probes::trial_pin(uint64_t bytes) {
  if (bytes == 0) return ok_status();
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return resource_exhausted("mmap of " + std::to_string(bytes) + " bytes: " + errno_text(errno));
  status s;
  if (::mlock(p, bytes) != 0) {
    const int e = errno;
    s = e == EPERM || e == ENOMEM ? permission_denied("mlock: " + errno_text(e) + " (RLIMIT_MEMLOCK, or no memory)")
                                  : internal_error("mlock: " + errno_text(e));
  } else {
    ::munlock(p, bytes);
  }
  ::munmap(p, bytes);
  return s;
}

result<engine::host_memory_limit> system_probes::host_memory() {
  return engine::read_host_memory_limit(sources_.memory, 0);
}

result<std::string> system_probes::transparent_hugepages() {
  std::ifstream in(sources_.transparent_hugepage);
  if (!in) return not_found(sources_.transparent_hugepage + ": cannot read (a kernel without transparent huge pages)");
  std::ostringstream text;
  text << in.rdbuf();
  // "always [madvise] never": the active mode is the bracketed one.
  const std::string t = text.str();
  const size_t open = t.find('['), close = t.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) {
    return data_loss(sources_.transparent_hugepage + ": expected the active mode in brackets, got \"" + t + "\"");
  }
  return t.substr(open + 1, close - open - 1);
}

result<path_facts> system_probes::inspect(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int e = errno;
    if (e == ENOENT || e == ENOTDIR) return not_found("does not exist");
    if (e == EACCES) return permission_denied("this user may not look up the path (" + errno_text(e) + ")");
    return internal_error("stat: " + errno_text(e));
  }
  path_facts f;
  f.type = S_ISREG(st.st_mode) ? path_facts::kind::regular
           : S_ISDIR(st.st_mode) ? path_facts::kind::directory
                                 : path_facts::kind::other;
  f.mode = st.st_mode & 07777;
  f.size = static_cast<uint64_t>(st.st_size);
  f.readable = ::access(path.c_str(), R_OK) == 0;
  f.writable = ::access(path.c_str(), f.type == path_facts::kind::directory ? W_OK | X_OK : W_OK) == 0;
  return f;
}

}  // namespace pp::doctor
