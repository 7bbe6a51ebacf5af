// cuda_architectures: parsing the build's list and the compatibility rules of cuda_architectures.hpp.
#include "doctor/cuda_architectures.hpp"

#include <cctype>

namespace pp::doctor {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

result<cuda_arch> parse_one(std::string_view e) {
  cuda_arch a{0, true, true, false, std::string(e)};
  std::string_view rest = e;
  if (rest.ends_with("-real")) {
    a.ptx = false;
    rest.remove_suffix(5);
  } else if (rest.ends_with("-virtual")) {
    a.sass = false;
    rest.remove_suffix(8);
  }
  if (rest.ends_with("a")) {
    a.specific = true;
    rest.remove_suffix(1);
  }
  if (rest.size() < 2 || rest.size() > 3) {
    return invalid_argument("CUDA architecture \"" + std::string(e) + "\": expected a compute capability such as 90, "
                            "90a, 86-real or 90-virtual");
  }
  for (const char c : rest) {
    if (c < '0' || c > '9') {
      return invalid_argument("CUDA architecture \"" + std::string(e) + "\": expected a compute capability such as "
                              "90, 90a, 86-real or 90-virtual");
    }
    a.cc = a.cc * 10 + (c - '0');
  }
  return a;
}

}  // namespace

result<std::vector<cuda_arch>> parse_cuda_architectures(std::string_view list) {
  std::vector<cuda_arch> out;
  while (!list.empty()) {
    const size_t end = list.find_first_of(",;");
    const std::string_view e = trim(list.substr(0, end));
    list = end == std::string_view::npos ? std::string_view() : list.substr(end + 1);
    if (e.empty()) continue;
    auto a = parse_one(e);
    if (!a.ok()) return a.error();
    out.push_back(std::move(a).value());
  }
  return out;
}

arch_support support_for(std::span<const cuda_arch> built, int cc_major, int cc_minor) {
  const int cc = cc_major * 10 + cc_minor;
  bool jit = false;
  for (const cuda_arch& a : built) {
    const bool runs = a.specific ? a.cc == cc : a.cc / 10 == cc_major && a.cc % 10 <= cc_minor;
    if (a.sass && runs) return arch_support::native;
    if (a.ptx && (a.specific ? a.cc == cc : a.cc <= cc)) jit = true;
  }
  return jit ? arch_support::jit : arch_support::none;
}

}  // namespace pp::doctor
