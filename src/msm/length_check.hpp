// The MSM entry points' one contract on their inputs: one scalar per point. Checked in every build
// (a mismatch is a caller's bug, and reading past the shorter span would give a wrong sum), at the
// cost of one comparison per MSM.
#pragma once
#include <cstddef>
#include <string>

#include "core/fatal.hpp"

namespace pp::msm::detail {

inline void check_lengths(const char* entry, std::size_t points, std::size_t scalars) {
  if (points != scalars) {
    fatal(std::string(entry) + ": " + std::to_string(points) + " points but " + std::to_string(scalars) + " scalars");
  }
}

}  // namespace pp::msm::detail
