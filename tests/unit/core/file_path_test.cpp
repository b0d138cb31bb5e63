// absoluteNormal: two spellings of one file compare equal.
#include <gtest/gtest.h>

#include "floptle/core/file_path.h"

namespace floptle {
namespace {

TEST(FilePath, AbsoluteNormalResolvesAgainstTheCurrentFolderAndDropsDotDot) {
  const std::filesystem::path here = std::filesystem::current_path();
  EXPECT_EQ(absoluteNormal("models/../rock.glb"), (here / "rock.glb").lexically_normal());
  EXPECT_EQ(absoluteNormal("./rock.glb"), absoluteNormal("rock.glb"));
  EXPECT_EQ(absoluteNormal("/scenes/./a/../b.json"), std::filesystem::path("/scenes/b.json"));
  EXPECT_TRUE(absoluteNormal("x").is_absolute());
}

}  // namespace
}  // namespace floptle
