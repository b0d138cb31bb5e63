// View > Run Time: field time advances the viewport's time while it runs and holds when stopped.
#include "gui_fixture.h"

namespace floptle::editor::test {
namespace {

TEST_F(WindowTest, RunTimeAdvancesTheViewportTimeAndStopHoldsIt) {
  QAction* runTime = window().action("actionRunTime");
  ASSERT_NE(runTime, nullptr);
  EXPECT_FALSE(window().timeRunning());
  EXPECT_EQ(window().viewport()->time(), 0.0);

  runTime->trigger();
  EXPECT_TRUE(window().timeRunning());
  EXPECT_TRUE(runTime->isChecked());
  ASSERT_TRUE(waitFor([&] { return window().viewport()->time() > 0.1; }, 5000));
  EXPECT_EQ(window().viewport()->time(), window().fieldTime());

  runTime->trigger();
  EXPECT_FALSE(window().timeRunning());
  const double held = window().viewport()->time();
  QTest::qWait(150);
  EXPECT_EQ(window().viewport()->time(), held);
}

}  // namespace
}  // namespace floptle::editor::test
