// The exit codes of `proofpipe`, one definition for every subcommand (README "Exit codes").
// CLI11 uses its own codes (100 and up) for a command line it cannot parse.
#pragma once

namespace pp::cli {

inline constexpr int exit_ok = 0;
// The command failed and said why on stderr; for `verify`: the proof is not valid.
inline constexpr int exit_failure = 1;
// `verify` only: it could not judge the proof (an input is missing, unreadable or malformed key or
// public inputs), as distinct from a proof it judged invalid.
inline constexpr int exit_cannot_verify = 2;
// A bug or an exhausted machine: an exception reached main (sysexits.h EX_SOFTWARE).
inline constexpr int exit_internal_error = 70;

}  // namespace pp::cli
