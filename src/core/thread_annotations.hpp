// Clang thread-safety attributes (-Wthread-safety): which mutex guards which member, which
// functions need a lock held or must not hold it. Names follow abseil's thread_annotations.h with a
// PP_ prefix; under g++ (and nvcc's host pass) every macro is empty, so they cost nothing there.
// pp::mutex (core/mutex.hpp) is the capability they name: libstdc++'s std::mutex carries no
// attributes, so clang cannot check code that locks it directly.
#pragma once

#if defined(__clang__) && !defined(__CUDACC__)
#define PP_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define PP_THREAD_ANNOTATION(x)
#endif

// A type that is a lock ("mutex"), and an RAII type that holds one for its lifetime.
#define PP_CAPABILITY(name) PP_THREAD_ANNOTATION(capability(name))
#define PP_SCOPED_CAPABILITY PP_THREAD_ANNOTATION(scoped_lockable)

// Data members: read or written only with the mutex held (PT_: the pointee, not the pointer).
#define PP_GUARDED_BY(mu) PP_THREAD_ANNOTATION(guarded_by(mu))
#define PP_PT_GUARDED_BY(mu) PP_THREAD_ANNOTATION(pt_guarded_by(mu))

// Lock ordering between mutexes.
#define PP_ACQUIRED_BEFORE(...) PP_THREAD_ANNOTATION(acquired_before(__VA_ARGS__))
#define PP_ACQUIRED_AFTER(...) PP_THREAD_ANNOTATION(acquired_after(__VA_ARGS__))

// Functions: the caller must hold the mutex (exclusively / shared), or must not hold it.
#define PP_REQUIRES(...) PP_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define PP_REQUIRES_SHARED(...) PP_THREAD_ANNOTATION(requires_shared_capability(__VA_ARGS__))
#define PP_EXCLUDES(...) PP_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))

// Functions that take or drop a lock and keep that state after they return.
#define PP_ACQUIRE(...) PP_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define PP_ACQUIRE_SHARED(...) PP_THREAD_ANNOTATION(acquire_shared_capability(__VA_ARGS__))
#define PP_RELEASE(...) PP_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define PP_RELEASE_SHARED(...) PP_THREAD_ANNOTATION(release_shared_capability(__VA_ARGS__))
#define PP_RELEASE_GENERIC(...) PP_THREAD_ANNOTATION(release_generic_capability(__VA_ARGS__))
#define PP_TRY_ACQUIRE(...) PP_THREAD_ANNOTATION(try_acquire_capability(__VA_ARGS__))
#define PP_TRY_ACQUIRE_SHARED(...) PP_THREAD_ANNOTATION(try_acquire_shared_capability(__VA_ARGS__))

// A run-time check that the lock is held; the analysis trusts it from there on.
#define PP_ASSERT_CAPABILITY(x) PP_THREAD_ANNOTATION(assert_capability(x))
#define PP_ASSERT_SHARED_CAPABILITY(x) PP_THREAD_ANNOTATION(assert_shared_capability(x))

// A function returning a reference to the given mutex (lets callers name it in other attributes).
#define PP_RETURN_CAPABILITY(x) PP_THREAD_ANNOTATION(lock_returned(x))

// Turns the analysis off for one function; every use says in a comment why it is safe.
#define PP_NO_THREAD_SAFETY_ANALYSIS PP_THREAD_ANNOTATION(no_thread_safety_analysis)
