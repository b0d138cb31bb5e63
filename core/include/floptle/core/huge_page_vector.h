#pragma once
// HugePageVector: a std::vector whose large buffers sit on 2 MiB-aligned memory marked for
// transparent huge pages (Linux madvise). The mesh BVH walks and the brickmap ray walks touch
// a few cache lines at random places of several MiB of nodes, triangles or brick samples; with
// 4 KiB pages nearly every one of those loads also misses the TLB (perf showed the node and
// leaf loads, and even the prefetches, stalled on page walks). One 2 MiB page covers 512 times
// more.
// Only where memory lives changes: contents, traversal order and results are the same bits.
// Small buffers (below kHugeThreshold) use the ordinary aligned allocation.
#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace floptle {

/// Buffers at least this large (bytes) are put on huge pages.
inline constexpr std::size_t kHugeThreshold = std::size_t(1) << 20;
inline constexpr std::size_t kHugePage = std::size_t(2) << 20;

template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugeThreshold)
      return static_cast<T*>(
          ::operator new(bytes, std::align_val_t(alignof(T) < 64 ? 64 : alignof(T))));
    const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* p = std::aligned_alloc(kHugePage, rounded);
    if (!p) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    madvise(p, rounded, MADV_HUGEPAGE);  // a hint: refused (no THP) leaves 4 KiB pages
#endif
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < kHugeThreshold)
      ::operator delete(p, std::align_val_t(alignof(T) < 64 ? 64 : alignof(T)));
    else
      std::free(p);
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

template <class T>
using HugePageVector = std::vector<T, HugePageAllocator<T>>;

/// Copies `v` into a buffer of exactly its size (one allocation, so a large array lands on
/// huge pages whole rather than on whatever capacity growth left).
template <class T, class A>
HugePageVector<T> toHugePages(const std::vector<T, A>& v) {
  return HugePageVector<T>(v.begin(), v.end());
}

}  // namespace floptle
