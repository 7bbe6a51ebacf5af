// The trees a test runs in, whole-file reads and per-binary temporary directories, for tests that use
// fixtures or the built binaries.
#pragma once
#include <filesystem>
#include <string>

namespace pp::test {

// PP_SOURCE_DIR / PP_BINARY_DIR, which ctest sets for every test (cmake/pp_layer.cmake); "." when a
// binary runs by hand without them.
std::filesystem::path source_dir();
std::filesystem::path binary_dir();

// The whole file as bytes; empty when it cannot be read.
std::string read_file(const std::filesystem::path& path);

// <tmp>/pp_<name>_<pid>: a directory for one test binary's files (keys, tokens, witnesses), made at
// the first call and removed with everything in it when the process exits. Thread-safe.
std::filesystem::path binary_temp_dir(const std::string& name);

}  // namespace pp::test
