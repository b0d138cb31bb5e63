#pragma once
// Compiled programs shared between equal field graphs: a level's thousands of copies of one
// prop compile once and hold one program between them. A FieldProgram's evaluation is const
// and thread-safe (field_program.h), so every holder may evaluate the shared one at once.
#include <cstddef>
#include <memory>
#include <unordered_map>

#include "floptle/core/expected.h"
#include "floptle/core/field/field_node.h"
#include "floptle/core/field/field_program.h"

namespace floptle::field {

/// A hash consistent with FieldNode's operator== (a zero of either sign hashes alike).
struct FieldNodeHash {
  std::size_t operator()(const FieldNode& node) const;
};

class ProgramCache {
 public:
  /// The program of `root`: compiled on the first request for a graph equal to it, shared
  /// after. A graph that does not compile gets its error on every request (nothing cached).
  Expected<std::shared_ptr<const FieldProgram>> compile(const FieldNode& root);
  /// Distinct programs compiled so far.
  std::size_t size() const { return programs_.size(); }

 private:
  std::unordered_map<FieldNode, std::shared_ptr<const FieldProgram>, FieldNodeHash> programs_;
};

}  // namespace floptle::field
