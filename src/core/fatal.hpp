// fatal: stops the process when a programmer contract is broken (a result read without a value, an
// MSM given fewer scalars than points). Unlike assert it holds in every build type, and it prints
// why before aborting. Bad input never gets here: that is a status.
#pragma once
#include <string_view>

namespace pp {

// "proofpipe: fatal: <message>" on stderr, then std::abort().
[[noreturn]] void fatal(std::string_view message);

}  // namespace pp
