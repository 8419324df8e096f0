#pragma once
// Invariant checks (STYLE.md §E). LR_CHECK is always on and belongs on cold paths: it
// logs the failed condition and aborts. LR_DASSERT is for per-packet invariants and
// exists only in -Dfastpath_debug=true builds, like DPDK's RTE_ETHDEV_DEBUG_RX.

#include <cstdio>
#include <cstdlib>

#define LR_CHECK(cond)                                                                       \
  do {                                                                                       \
    if (!(cond)) [[unlikely]] {                                                              \
      std::fprintf(stderr, "linerate: check failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                          \
    }                                                                                        \
  } while (0)

#if defined(LR_FASTPATH_DEBUG)
#define LR_DASSERT(cond) LR_CHECK(cond)
#else
#define LR_DASSERT(cond) \
  do {                   \
  } while (0)
#endif
