// Entity ids (generations, stale ids) and deterministic component iteration.
#include "floptle/core/entity.h"

#include <gtest/gtest.h>

#include <vector>

namespace floptle {
namespace {

TEST(EntityRegistry, StaleIdsAreCaughtAfterTheSlotIsReused) {
  EntityRegistry reg;
  EntityId a = reg.create();
  EntityId b = reg.create();
  EXPECT_FALSE(a.isNull());
  EXPECT_TRUE(reg.destroy(a));
  EXPECT_FALSE(reg.alive(a));
  EXPECT_FALSE(reg.destroy(a));  // twice: refused
  EntityId c = reg.create();     // reuses a's slot with a new generation
  EXPECT_EQ(c.index, a.index);
  EXPECT_NE(c.generation, a.generation);
  EXPECT_FALSE(reg.alive(a));
  EXPECT_TRUE(reg.alive(b));
  EXPECT_TRUE(reg.alive(c));
  EXPECT_FALSE(reg.alive(EntityId{}));
  EXPECT_EQ(reg.aliveCount(), 2u);
}

TEST(EntityRegistry, IdOfSlotNamesTheLiveIdOrNull) {
  EntityRegistry reg;
  const EntityId a = reg.create(), b = reg.create();
  EXPECT_EQ(reg.slotCount(), 2u);
  EXPECT_EQ(reg.idOfSlot(a.index - 1), a);
  EXPECT_EQ(reg.idOfSlot(b.index - 1), b);
  EXPECT_TRUE(reg.destroy(a));
  EXPECT_TRUE(reg.idOfSlot(a.index - 1).isNull());
  EXPECT_TRUE(reg.idOfSlot(7).isNull());  // never handed out
  const EntityId c = reg.create();
  EXPECT_EQ(reg.idOfSlot(c.index - 1), c);
  EXPECT_EQ(reg.slotCount(), 2u);
}

TEST(ComponentStore, IteratesInIdOrderWhateverTheInsertionOrder) {
  EntityRegistry reg;
  std::vector<EntityId> ids;
  for (int i = 0; i < 8; ++i) ids.push_back(reg.create());
  ComponentStore<int> store;
  for (int i : {5, 1, 7, 0, 3, 6, 2, 4}) store.set(ids[i], i * 10);
  int expected = 0;
  for (const auto& [id, value] : store) {
    EXPECT_EQ(id, ids[expected]);
    EXPECT_EQ(value, expected * 10);
    ++expected;
  }
  EXPECT_EQ(expected, 8);
  EXPECT_TRUE(store.erase(ids[3]));
  EXPECT_EQ(store.get(ids[3]), nullptr);
  EXPECT_EQ(*store.get(ids[4]), 40);
  EXPECT_EQ(store.size(), 7u);
}

}  // namespace
}  // namespace floptle
