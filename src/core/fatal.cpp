// fatal: one unbuffered line on stderr, then abort (a core dump where the system keeps them).
#include "core/fatal.hpp"

#include <cstdio>
#include <cstdlib>

namespace pp {

void fatal(std::string_view message) {
  std::fprintf(stderr, "proofpipe: fatal: %.*s\n", static_cast<int>(message.size()), message.data());
  std::fflush(stderr);
  std::abort();
}

}  // namespace pp
