#pragma once
// Arrays of per-lcore state on a chosen NUMA socket (rte_zmalloc_socket), cache-line
// aligned, constructed in place. Thread: mgmt.

#include <rte_common.h>
#include <rte_malloc.h>

#include <algorithm>
#include <cstddef>
#include <new>

namespace lr::dp {

/// `n` value-initialised T on `socket` (SOCKET_ID_ANY allowed); nullptr when out of memory.
template <class T>
T* numa_new_array(size_t n, int socket) {
  if (n == 0) return nullptr;
  const size_t align = std::max<size_t>(alignof(T), RTE_CACHE_LINE_SIZE);
  void* memory = rte_zmalloc_socket("linerate", sizeof(T) * n, static_cast<unsigned>(align), socket);
  if (memory == nullptr) return nullptr;
  T* array = static_cast<T*>(memory);
  for (size_t i = 0; i < n; ++i) new (array + i) T();
  return array;
}

template <class T>
void numa_delete_array(T* array, size_t n) {
  if (array == nullptr) return;
  for (size_t i = 0; i < n; ++i) array[i].~T();
  rte_free(array);
}

}  // namespace lr::dp
