// The run seed (PP_TEST_SEED or std::random_device) and seeds derived from it by key (seed.hpp).
#include "support/seed.hpp"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>

#include "core/mutex.hpp"

namespace pp::test {
namespace {

// splitmix64's finaliser: consecutive inputs give unrelated outputs.
uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// FNV-1a over the key's bytes.
uint64_t hash(std::string_view key) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const char c : key) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return h;
}

uint64_t read_or_draw_seed() {
  if (const char* s = std::getenv("PP_TEST_SEED")) {
    char* end = nullptr;
    const uint64_t v = std::strtoull(s, &end, 0);
    if (*s == '\0' || *end != '\0') {
      std::fprintf(stderr, "PP_TEST_SEED=%s is not a number (expected decimal or 0x-hex)\n", s);
      std::exit(2);
    }
    return v;
  }
  std::random_device rd;
  return (uint64_t{rd()} << 32) ^ rd();
}

// How many seeds each key has drawn.
class draw_counts {
 public:
  uint64_t next_index(std::string_view key) {
    mutex_lock lock(mu_);
    auto it = drawn_.find(key);
    if (it == drawn_.end()) it = drawn_.emplace(std::string(key), 0).first;
    return it->second++;
  }

 private:
  mutex mu_;
  std::map<std::string, uint64_t, std::less<>> drawn_ PP_GUARDED_BY(mu_);
};

}  // namespace

uint64_t run_seed() {
  static const uint64_t seed = [] {
    const uint64_t s = read_or_draw_seed();
    std::printf("[seed] PP_TEST_SEED=0x%016llx replays this run\n", static_cast<unsigned long long>(s));
    std::fflush(stdout);
    return s;
  }();
  return seed;
}

uint64_t mix_seed(uint64_t run, std::string_view key, uint64_t index) { return mix(run ^ mix(hash(key) + index)); }

uint64_t derived_seed(std::string_view key) {
  static draw_counts counts;  // one per process, like the run seed
  return mix_seed(run_seed(), key, counts.next_index(key));
}

std::string replay_hint() {
  char buf[40];
  std::snprintf(buf, sizeof buf, "PP_TEST_SEED=0x%016llx", static_cast<unsigned long long>(run_seed()));
  return buf;
}

}  // namespace pp::test
