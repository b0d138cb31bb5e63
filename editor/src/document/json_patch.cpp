#include "document/json_patch.h"

#include <cmath>

namespace floptle::editor {
namespace {

using Pointer = Json::json_pointer;

// The parent container of `pointer` and the last reference token.
std::pair<Json*, std::string> parentOf(Json& document, const std::string& pointer) {
  Pointer p(pointer);
  std::string last = p.back();
  Pointer parent = p.parent_pointer();
  return {&document.at(parent), last};
}

}  // namespace

std::string escapePointerToken(const std::string& token) {
  std::string out;
  for (char c : token) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

void writeAt(Json& document, const std::string& pointer, const std::optional<Json>& value,
             bool insert) {
  if (pointer.empty()) {  // the whole document
    document = value.value_or(Json());
    return;
  }
  auto [container, key] = parentOf(document, pointer);
  if (container->is_array()) {
    const std::size_t index = key == "-" ? container->size() : std::stoul(key);
    if (!value) {
      container->erase(container->begin() + static_cast<std::ptrdiff_t>(index));
    } else if (insert) {
      container->insert(container->begin() + static_cast<std::ptrdiff_t>(index), *value);
    } else {
      (*container)[index] = *value;
    }
    return;
  }
  if (!value) {
    container->erase(key);
  } else {
    (*container)[key] = *value;
  }
}

void JsonPatch::applyForward(Json& document) const {
  for (const JsonPatchOp& op : ops) writeAt(document, op.pointer, op.after, !op.before.has_value());
}

void JsonPatch::applyBackward(Json& document) const {
  for (auto it = ops.rbegin(); it != ops.rend(); ++it)
    writeAt(document, it->pointer, it->before, !it->after.has_value());
}

bool JsonPatch::parameterOnly() const {
  for (const JsonPatchOp& op : ops) {
    if (!op.before || !op.after || !sameStructure(*op.before, *op.after)) return false;
  }
  return true;
}

bool sameStructure(const Json& a, const Json& b) {
  if (a.is_number() && b.is_number()) return true;
  if (a.type() != b.type()) return false;
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!sameStructure(a[i], b[i])) return false;
    return true;
  }
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    auto ia = a.begin();
    auto ib = b.begin();
    for (; ia != a.end(); ++ia, ++ib)
      if (ia.key() != ib.key() || !sameStructure(ia.value(), ib.value())) return false;
    return true;
  }
  return a == b;
}

std::optional<std::string> findNonFinite(const Json& value, const std::string& where) {
  if (value.is_number_float()) {
    if (!std::isfinite(value.get<double>())) return where;
    return std::nullopt;
  }
  if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i)
      if (auto bad = findNonFinite(value[i], where + "/" + std::to_string(i))) return bad;
  } else if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it)
      if (auto bad = findNonFinite(it.value(), where + "/" + escapePointerToken(it.key())))
        return bad;
  }
  return std::nullopt;
}

}  // namespace floptle::editor
