#pragma once
// The structure of an FBX file, checked before Assimp reads it.
//
// Assimp 5.2.5 (Debian 12's) reads FBX by recursion without a bound in three places: its
// binary tokenizer and its parser recurse once a level of nested records ({...} in text), and
// its converter recurses once a level of the Model hierarchy given by the file's "OO"
// connections. A file whose connections make a model its own ancestor, or whose records nest
// thousands deep, overflows the stack: a crash no exception can catch. A model with two
// parents is converted under each, so a chain of such models costs 2^depth. This check reads
// the file the way Assimp's tokenizers and parser do and refuses each such file with an error;
// what passes it cannot recurse deeper than the bounds below.
#include <cstddef>
#include <string_view>

#include "floptle/core/expected.h"

namespace floptle::asset::detail {

/// The deepest nesting of records (text: braces) accepted; Blender writes 5.
inline constexpr std::size_t kFbxMaxNesting = 64;
/// The deepest Model hierarchy accepted (the root's children are at depth 1).
inline constexpr std::size_t kFbxMaxModelDepth = 1024;

/// Checks the bytes of an FBX file (binary, "Kaydara FBX Binary" first, or text): records
/// nest at most kFbxMaxNesting deep, and the Models connected under the root form a tree
/// (each at most one parent, no cycle) at most kFbxMaxModelDepth deep. A file that Assimp's
/// tokenizer would refuse is refused here too, naming the byte offset (binary) or the line
/// (text). The error's `where` is empty: the caller names the file.
Expected<void> checkFbxStructure(std::string_view bytes);

}  // namespace floptle::asset::detail
