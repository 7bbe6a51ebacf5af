// A benchmark argument that lists values, "V,V,...": each comma-separated field through `parse`
// (std::atoi, std::atof: an empty field reads as 0). Shared by cuda_msm_bench (c=) and
// cuda_prover_bench (--vram-budgets-gib).
#pragma once
#include <algorithm>
#include <string>
#include <vector>

template <class Parse>
auto comma_list(const std::string& list, Parse parse) {
  std::vector<decltype(parse(""))> out;
  for (size_t at = 0; at <= list.size();) {
    const size_t comma = std::min(list.find(',', at), list.size());
    out.push_back(parse(list.substr(at, comma - at).c_str()));
    at = comma + 1;
  }
  return out;
}
