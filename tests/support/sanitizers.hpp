// Whether this binary was built with AddressSanitizer (the asan preset). Tests that measure the
// process's resident memory or cap its address space skip there: ASan's shadow memory and its
// quarantine of freed blocks are what they would measure.
#pragma once

namespace pp::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool built_with_asan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool built_with_asan = true;
#else
inline constexpr bool built_with_asan = false;
#endif
#else
inline constexpr bool built_with_asan = false;
#endif

}  // namespace pp::test
