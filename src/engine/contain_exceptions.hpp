// contain_exceptions: the engine's worker threads call code that reports errors as statuses but can
// still throw (std::bad_alloc past the memory estimates, a library's exception, a bug). Such an
// exception becomes a status of the call here, so it fails one partition instead of reaching the
// thread's end and std::terminate.
#pragma once
#include <exception>
#include <new>
#include <string>
#include <string_view>

#include "core/status.hpp"

namespace pp::engine {

// f() returns status or result<T>; the same type comes back, holding resource_exhausted for
// std::bad_alloc and internal for any other exception, each naming `what`.
template <class F>
auto contain_exceptions(std::string_view what, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return resource_exhausted(std::string(what) + ": out of host memory (std::bad_alloc)");
  } catch (const std::exception& e) {
    return internal_error(std::string(what) + ": uncaught exception: " + e.what());
  } catch (...) {
    return internal_error(std::string(what) + ": uncaught exception of unknown type");
  }
}

}  // namespace pp::engine
