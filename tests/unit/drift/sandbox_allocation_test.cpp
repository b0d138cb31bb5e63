// A Drift tick allocates nothing (seed 003: "serial, allocation free loop"). This program's
// global operator new is replaced by a counting one; the test counts allocations across ticks
// with 16 live ripples, contacts, frames, snapshots, hashing, pause and retry.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <new>

#include "floptle/drift/sandbox.h"

namespace {

std::atomic<long> gAllocations{0};

void* countedAllocate(std::size_t size) noexcept {
  gAllocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}

}  // namespace

// Every unaligned form is replaced so that new and delete always pair malloc with free
// (also under AddressSanitizer, which would otherwise pair its own new with our delete).

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"  // free() of malloc'd memory, by design.
void* operator new(std::size_t size) {
  if (void* p = countedAllocate(size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  if (void* p = countedAllocate(size)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return countedAllocate(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return countedAllocate(size);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
#pragma GCC diagnostic pop

namespace floptle::drift {
namespace {

TEST(DriftSandboxAllocation, TicksFramesAndViewsAllocateNothing) {
  Tuning t;
  t.placementCooldown = 0.0;
  t.waterVelocity = {0.2, -0.1};
  auto s = std::make_unique<Sandbox>();
  ASSERT_TRUE(s->restart(t, {{0.0, 0.0}, {1.0, 0.0}}).ok());

  const long before = gAllocations.load();
  for (int i = 0; i < kMaxRipples; ++i) {
    const double angle = 0.39 * i;
    ASSERT_TRUE(
        s->queuePlacement({(1.0 + 0.2 * i) * std::cos(angle), (1.0 + 0.2 * i) * std::sin(angle)}));
  }
  std::uint64_t hash = 0;
  for (int i = 0; i < 120; ++i) {
    s->tick();
    hash ^= s->stateHash();
    const Snapshot view = s->snapshot();
    hash += static_cast<std::uint64_t>(view.rippleCount);
  }
  for (int i = 0; i < 60; ++i) s->advanceFrame(1.0 / 144.0);
  s->advanceFrame(0.5);
  s->setPaused(true);
  s->setPaused(false);
  s->retry();
  s->tick();
  const long after = gAllocations.load();

  EXPECT_GT(s->counters().contacts, 8u);  // The ticks above did real work.
  EXPECT_NE(hash, 0u);
  EXPECT_EQ(after - before, 0) << "allocations during ticks";

  // The counter works: a heap allocation is seen.
  auto probe = std::make_unique<int>(7);
  EXPECT_GT(gAllocations.load(), after);
}

}  // namespace
}  // namespace floptle::drift
