#pragma once
// Memory on a chosen NUMA socket (rte_zmalloc_socket), for what worker lcores touch:
// owning arrays of per-lcore state, cache-line aligned and constructed in place, and a
// memory resource for containers (the stream plans). Thread: mgmt.

#include <rte_common.h>
#include <rte_malloc.h>

#include <algorithm>
#include <cstddef>
#include <memory_resource>
#include <new>
#include <utility>

namespace lr::dp {

/// `n` T on one socket, owned: destroyed and freed with the array. Move-only.
template <class T>
class NumaArray {
 public:
  NumaArray() = default;
  /// `n` T constructed from `args` on `socket` (SOCKET_ID_ANY allowed). Empty (and
  /// `n != 0`) when out of memory: check ok().
  template <class... Args>
  static NumaArray make(size_t n, int socket, const Args&... args) {
    NumaArray a;
    if (n == 0) return a;
    const size_t align = std::max<size_t>(alignof(T), RTE_CACHE_LINE_SIZE);
    void* memory = rte_zmalloc_socket("linerate", sizeof(T) * n, static_cast<unsigned>(align), socket);
    a.wanted_ = n;
    if (memory == nullptr) return a;
    a.data_ = static_cast<T*>(memory);
    for (; a.size_ < n; ++a.size_) new (a.data_ + a.size_) T(args...);
    return a;
  }
  NumaArray(NumaArray&& other) noexcept { swap(other); }
  NumaArray& operator=(NumaArray&& other) noexcept {
    NumaArray(std::move(other)).swap(*this);
    return *this;
  }
  NumaArray(const NumaArray&) = delete;
  NumaArray& operator=(const NumaArray&) = delete;
  ~NumaArray() {
    for (size_t i = 0; i < size_; ++i) data_[i].~T();
    rte_free(data_);
  }

  /// False when make() could not allocate what it was asked for.
  bool ok() const noexcept { return size_ == wanted_; }
  T* data() const noexcept { return data_; }
  size_t size() const noexcept { return size_; }
  T& operator[](size_t i) const noexcept { return data_[i]; }

 private:
  void swap(NumaArray& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(wanted_, other.wanted_);
  }
  T* data_ = nullptr;
  size_t size_ = 0;
  size_t wanted_ = 0;
};

/// A memory resource on one socket, for containers the lcores read (rte_malloc_socket).
/// Throws std::bad_alloc when the socket has no memory left, as resources do.
class NumaMemory final : public std::pmr::memory_resource {
 public:
  explicit NumaMemory(int socket) : socket_(socket) {}

 private:
  void* do_allocate(size_t bytes, size_t alignment) override {
    void* p = rte_malloc_socket("linerate", bytes, static_cast<unsigned>(std::max<size_t>(alignment, 8)), socket_);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  void do_deallocate(void* p, size_t, size_t) override { rte_free(p); }
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }

  int socket_;
};

}  // namespace lr::dp
