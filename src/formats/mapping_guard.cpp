// mapping_guard: a fixed table of ranges read by the signal handler without locks (atomics only),
// and a handler that uses only async-signal-safe calls (mmap, sigaction).
#include "formats/mapping_guard.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

namespace pp::formats {
namespace {

struct slot {
  std::atomic<bool> used{false};
  std::atomic<std::uintptr_t> begin{0};
  std::atomic<std::uintptr_t> end{0};  // 0 while the slot is being filled or emptied
  std::atomic<bool> damaged{false};
};

std::array<slot, mapping_guard::max_guarded> g_slots;
std::uintptr_t g_page = 4096;       // set before the handler is installed
struct sigaction g_previous {};     // the handler this one replaced
std::once_flag g_installed;

static_assert(std::atomic<std::uintptr_t>::is_always_lock_free && std::atomic<bool>::is_always_lock_free,
              "the signal handler reads the table");

// Not ours: as if this handler were not installed.
void pass_on(int sig, siginfo_t* info, void* context) {
  if ((g_previous.sa_flags & SA_SIGINFO) != 0 && g_previous.sa_sigaction != nullptr) {
    g_previous.sa_sigaction(sig, info, context);
    return;
  }
  if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(sig);
    return;
  }
  // The default action: returning runs the faulting instruction again, which now ends the process
  // with SIGBUS (and its core dump) as it would have.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(SIGBUS, &dfl, nullptr);
  if (info->si_code <= 0) ::raise(SIGBUS);  // sent by kill(2), not a fault: nothing runs again
}

void on_sigbus(int sig, siginfo_t* info, void* context) {
  if (info->si_code > 0) {  // raised by the kernel for a memory access
    const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
    for (slot& s : g_slots) {
      if (!s.used.load(std::memory_order_acquire)) continue;
      const std::uintptr_t b = s.begin.load(std::memory_order_acquire);
      const std::uintptr_t e = s.end.load(std::memory_order_acquire);
      if (addr < b || addr >= e) continue;
      // Zeros from the faulting page to the end of the range at once: past a truncation every page
      // would fault, and one signal per 4 KiB page of a 45 GiB key would take minutes.
      const std::uintptr_t first = addr & ~(g_page - 1);
      const std::uintptr_t last = (e + g_page - 1) & ~(g_page - 1);
      if (::mmap(reinterpret_cast<void*>(first), last - first, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
                 0) != MAP_FAILED) {
        s.damaged.store(true, std::memory_order_release);
        return;
      }
    }
  }
  pass_on(sig, info, context);
}

void install() {
  g_page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  struct sigaction sa {};
  sa.sa_sigaction = on_sigbus;
  sigemptyset(&sa.sa_mask);
  // SA_ONSTACK: a host process's runtime (Go through cgo) may run threads on small stacks with an
  // alternate signal stack, and asks every handler for it.
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  ::sigaction(SIGBUS, &sa, &g_previous);
}

}  // namespace

result<mapping_guard> mapping_guard::guard(const void* begin, std::size_t size) {
  std::call_once(g_installed, install);
  for (int i = 0; i < max_guarded; ++i) {
    bool expected = false;
    if (!g_slots[i].used.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) continue;
    slot& s = g_slots[i];
    s.damaged.store(false, std::memory_order_relaxed);
    s.begin.store(reinterpret_cast<std::uintptr_t>(begin), std::memory_order_release);
    s.end.store(reinterpret_cast<std::uintptr_t>(begin) + size, std::memory_order_release);
    return mapping_guard(i);
  }
  return resource_exhausted("more than " + std::to_string(max_guarded) + " files are being read at once");
}

mapping_guard& mapping_guard::operator=(mapping_guard&& o) noexcept {
  if (this != &o) {
    this->~mapping_guard();
    slot_ = o.slot_;
    o.slot_ = -1;
  }
  return *this;
}

mapping_guard::~mapping_guard() {
  if (slot_ < 0) return;
  slot& s = g_slots[slot_];
  s.end.store(0, std::memory_order_release);
  s.begin.store(0, std::memory_order_release);
  s.used.store(false, std::memory_order_release);
  slot_ = -1;
}

bool mapping_guard::damaged() const { return slot_ >= 0 && g_slots[slot_].damaged.load(std::memory_order_acquire); }

}  // namespace pp::formats
