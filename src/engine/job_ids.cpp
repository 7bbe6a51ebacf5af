// job_ids: getrandom(2), masked to 53 bits; 0 is drawn again.
#include "engine/job_ids.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace pp::engine {

result<job_id> random_job_id() {
  for (int attempt = 0; attempt < 8; ++attempt) {
    job_id v = 0;
    const ssize_t n = ::getrandom(&v, sizeof v, 0);
    if (n == static_cast<ssize_t>(sizeof v)) {
      v &= max_job_id;
      if (v != 0) return v;
      continue;
    }
    if (n < 0 && errno != EINTR) return unavailable(std::string("job id: getrandom: ") + std::strerror(errno));
  }
  return unavailable("job id: getrandom gave no usable value in 8 tries");
}

}  // namespace pp::engine
