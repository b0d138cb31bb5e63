// Step 3 of loading: the JSON Schema (resources/scene.schema.json, embedded), checked by
// RapidJSON's schema validator. A text being loaded is checked whole as it is read (the
// validator takes the reader's events: scene_parsed.h); a document edited in memory is checked
// here the same way, its tree's events fed to the validator. A document the validator refuses
// is converted to RapidJSON values and walked for every problem.
//
// RapidJSON 1.1.0's validator stops at the first problem. To report every problem the
// document is first validated whole (the authority: a document it accepts is schema-valid);
// when that fails, the document is walked object by object: required and unknown keys are
// listed from the schema's own "required"/"properties", arrays are walked item by item, and
// every leaf member is validated against its own sub-schema (compiled once per schema pointer).
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <rapidjson/document.h>
#include <rapidjson/pointer.h>
#include <rapidjson/schema.h>
#include <rapidjson/stringbuffer.h>

#include "floptle/core/scene/scene_io.h"
#include "scene/scene_internal.h"
#include "scene/scene_parsed.h"

namespace floptle::scene {
namespace {

using RjDocument = rapidjson::Document;
using RjValue = rapidjson::Value;
using RjAllocator = RjDocument::AllocatorType;

/// ordered_json -> RapidJSON value. Depth is bounded by the caller (findTooDeep).
void toRapid(const nlohmann::ordered_json& in, RjValue& out, RjAllocator& allocator) {
  using Type = nlohmann::ordered_json::value_t;
  switch (in.type()) {
    case Type::null:
      out.SetNull();
      break;
    case Type::boolean:
      out.SetBool(in.get<bool>());
      break;
    case Type::number_integer:
      out.SetInt64(in.get<std::int64_t>());
      break;
    case Type::number_unsigned:
      out.SetUint64(in.get<std::uint64_t>());
      break;
    case Type::number_float:
      out.SetDouble(in.get<double>());
      break;
    case Type::string: {
      const auto& text = in.get_ref<const std::string&>();
      out.SetString(text.data(), static_cast<rapidjson::SizeType>(text.size()), allocator);
      break;
    }
    case Type::array:
      out.SetArray();
      for (const auto& item : in) {
        RjValue converted;
        toRapid(item, converted, allocator);
        out.PushBack(converted, allocator);
      }
      break;
    case Type::object:
      out.SetObject();
      for (const auto& [key, item] : in.items()) {
        RjValue name(key.data(), static_cast<rapidjson::SizeType>(key.size()), allocator);
        RjValue converted;
        toRapid(item, converted, allocator);
        out.AddMember(name, converted, allocator);
      }
      break;
    default:
      out.SetNull();
      break;  // binary / discarded never come from a parse
  }
}

/// Feeds the events a reader of `in`'s text would produce to `handler` (a schema validator):
/// false at the first it refuses. Depth is bounded by the caller (findTooDeep).
template <typename Handler>
bool feed(const nlohmann::ordered_json& in, Handler& handler) {
  using Type = nlohmann::ordered_json::value_t;
  switch (in.type()) {
    case Type::null:
      return handler.Null();
    case Type::boolean:
      return handler.Bool(in.get<bool>());
    case Type::number_integer:
      return handler.Int64(in.get<std::int64_t>());
    case Type::number_unsigned:
      return handler.Uint64(in.get<std::uint64_t>());
    case Type::number_float:
      return handler.Double(in.get<double>());
    case Type::string: {
      const auto& text = in.get_ref<const std::string&>();
      return handler.String(text.data(), static_cast<rapidjson::SizeType>(text.size()), true);
    }
    case Type::array:
      if (!handler.StartArray()) return false;
      for (const auto& item : in)
        if (!feed(item, handler)) return false;
      return handler.EndArray(static_cast<rapidjson::SizeType>(in.size()));
    case Type::object:
      if (!handler.StartObject()) return false;
      for (const auto& [key, item] : in.items()) {
        if (!handler.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()), true) ||
            !feed(item, handler))
          return false;
      }
      return handler.EndObject(static_cast<rapidjson::SizeType>(in.size()));
    default:
      return handler.Null();  // binary / discarded never come from a parse
  }
}

std::string numberText(const RjValue& value) {
  if (value.IsInt64()) return std::to_string(value.GetInt64());
  if (value.IsUint64()) return std::to_string(value.GetUint64());
  if (value.IsNumber()) return nlohmann::json(value.GetDouble()).dump();
  return "?";
}

std::string rapidType(const RjValue& value) {
  if (value.IsNull()) return "null";
  if (value.IsBool()) return "a boolean";
  if (value.IsString()) return "a string";
  if (value.IsArray()) return "an array";
  if (value.IsObject()) return "an object";
  if (value.IsInt64() || value.IsUint64()) return "the integer " + numberText(value);
  return "a number";
}

/// What is wrong, from the failing keyword and the schema object that holds it.
std::string describe(const std::string& keyword, const RjValue& schema, const RjValue* found) {
  const std::string foundText = found ? rapidType(*found) : "nothing";
  const std::string description =
      schema.HasMember("description") && schema["description"].IsString()
          ? schema["description"].GetString()
          : "";
  if (keyword == "type") {
    std::string expected = description;
    if (expected.empty() && schema.HasMember("type") && schema["type"].IsString()) {
      const std::string type = schema["type"].GetString();
      expected =
          (type == "array" || type == "object" || type == "integer") ? "an " + type : "a " + type;
    }
    return "expected " + expected + ", found " + foundText;
  }
  if (keyword == "minimum" || keyword == "maximum") {
    const bool exclusive =
        schema.HasMember(keyword == "minimum" ? "exclusiveMinimum" : "exclusiveMaximum");
    const std::string bound = numberText(schema[keyword.c_str()]);
    const std::string op =
        keyword == "minimum" ? (exclusive ? "> " : ">= ") : (exclusive ? "< " : "<= ");
    return "must be " + op + bound + ", found " + (found ? numberText(*found) : "nothing");
  }
  if (keyword == "enum") {
    std::string allowed = description;
    if (allowed.empty()) {
      allowed = "one of";
      for (const auto& option : schema["enum"].GetArray()) {
        allowed += option.IsString() ? std::string(" \"") + option.GetString() + "\"" : " ?";
      }
    }
    std::string got =
        found && found->IsString() ? std::string("\"") + found->GetString() + "\"" : foundText;
    return "must be " + allowed + ", found " + got;
  }
  if (keyword == "minItems" || keyword == "maxItems") {
    const std::string count = found && found->IsArray() ? std::to_string(found->Size()) : "?";
    if (!description.empty()) return "expected " + description + ", found " + count + " items";
    return std::string("must have ") + (keyword == "minItems" ? "at least " : "at most ") +
           numberText(schema[keyword.c_str()]) + " items, found " + count;
  }
  if (keyword == "minLength") return "must not be empty";
  if (keyword == "maxLength") {
    return "is longer than " + numberText(schema["maxLength"]) + " characters";
  }
  if (keyword == "additionalProperties") return "unknown key";
  if (keyword == "anyOf" || keyword == "oneOf" || keyword == "allOf") {
    if (!description.empty()) return "expected " + description + ", found " + foundText;
    return "matches none of the allowed forms";
  }
  return "breaks the schema rule \"" + keyword + "\"";
}

/// The embedded schema, and one compiled validator per sub-schema pointer.
class SchemaSet {
 public:
  static SchemaSet& instance() {
    static SchemaSet set;
    return set;
  }

  const RjValue& at(const std::string& pointer) const {
    const RjValue* value = rapidjson::Pointer(pointer.c_str()).Get(source_);
    return value ? *value : empty_;
  }

  /// The compiled whole schema, for a validator fed events as a text is read. Compiled schemas
  /// live as long as this set and are read-only, so validators may share the reference.
  const rapidjson::SchemaDocument& whole() {
    std::lock_guard lock(mutex_);
    return compiled("");
  }

  /// Validates `value` against the schema at `schemaPointer` ("" = the whole schema).
  /// Problems are reported at `where` + the pointer inside `value`.
  void validate(const RjValue& value, const std::string& schemaPointer, const std::string& where,
                Problems& problems) {
    std::lock_guard lock(mutex_);
    rapidjson::SchemaValidator validator(compiled(schemaPointer));
    if (value.Accept(validator)) return;
    rapidjson::StringBuffer documentPointer;
    validator.GetInvalidDocumentPointer().Stringify(documentPointer);
    rapidjson::StringBuffer schemaPointerText;
    validator.GetInvalidSchemaPointer().Stringify(schemaPointerText);
    const std::string keyword = validator.GetInvalidSchemaKeyword();
    const RjValue* found = validator.GetInvalidDocumentPointer().Get(value);
    const RjValue& schema = at(schemaPointerText.GetString());
    const std::string at = where + documentPointer.GetString();
    if (keyword == "required" && found && found->IsObject() && schema.HasMember("required")) {
      for (const auto& name : schema["required"].GetArray()) {
        if (!found->HasMember(name)) {
          problems.add(at + "/" + escapePointerToken(name.GetString()), "is required but missing");
        }
      }
      return;
    }
    problems.add(at, describe(keyword, schema, found));
  }

 private:
  SchemaSet() {
    source_.Parse(detail::kSceneSchemaText);
    // A broken embedded schema is a build mistake, caught by every scene test.
    if (source_.HasParseError() || !source_.IsObject()) source_.SetObject();
  }

  const rapidjson::SchemaDocument& compiled(const std::string& pointer) {
    auto found = compiled_.find(pointer);
    if (found != compiled_.end()) return *found->second.schema;
    Entry entry;
    entry.source = std::make_unique<RjDocument>();
    entry.source->CopyFrom(source_, entry.source->GetAllocator());
    if (!pointer.empty()) {
      // The whole schema with a root "$ref": pointers inside it resolve exactly as in the
      // original, so error pointers can be looked up there.
      const std::string ref = "#" + pointer;
      entry.source->RemoveMember("$ref");
      entry.source->AddMember("$ref", RjValue(ref.c_str(), entry.source->GetAllocator()),
                              entry.source->GetAllocator());
    }
    entry.schema = std::make_unique<rapidjson::SchemaDocument>(*entry.source);
    return *compiled_.emplace(pointer, std::move(entry)).first->second.schema;
  }

  struct Entry {
    std::unique_ptr<RjDocument> source;
    std::unique_ptr<rapidjson::SchemaDocument> schema;
  };
  RjDocument source_;
  RjValue empty_{rapidjson::kObjectType};
  std::mutex mutex_;
  std::map<std::string, Entry> compiled_;
};

/// Walks `value` against the schema at `schemaPointer`, reporting every problem.
class Walker {
 public:
  explicit Walker(Problems& problems) : problems_(problems), set_(SchemaSet::instance()) {}

  void value(const RjValue& value, std::string schemaPointer, const std::string& where) {
    schemaPointer = resolve(schemaPointer);
    const RjValue& schema = set_.at(schemaPointer);
    if (value.IsObject() && schema.HasMember("properties")) {
      object(value, schemaPointer, where);
    } else if (value.IsObject() && schema.HasMember("anyOf") && schema["anyOf"].IsArray()) {
      // "number or driver object": an object can only mean the object form, so walk that
      // one for precise pointers.
      for (rapidjson::SizeType i = 0; i < schema["anyOf"].Size(); ++i) {
        const std::string branch = resolve(schemaPointer + "/anyOf/" + std::to_string(i));
        if (set_.at(branch).HasMember("properties")) {
          object(value, branch, where);
          return;
        }
      }
      set_.validate(value, schemaPointer, where, problems_);
    } else if (value.IsArray() && schema.HasMember("items") && schema["items"].IsObject()) {
      array(value, schemaPointer, where);
    } else {
      set_.validate(value, schemaPointer, where, problems_);
    }
  }

 private:
  /// Follows "$ref" chains to the schema that holds the keywords.
  std::string resolve(std::string pointer) const {
    for (int hops = 0; hops < 16; ++hops) {
      const RjValue& schema = set_.at(pointer);
      if (!schema.HasMember("$ref") || !schema["$ref"].IsString()) break;
      const std::string ref = schema["$ref"].GetString();
      if (ref.empty() || ref[0] != '#') break;
      pointer = ref.substr(1);
    }
    return pointer;
  }

  void object(const RjValue& value, const std::string& schemaPointer, const std::string& where) {
    const RjValue& schema = set_.at(schemaPointer);
    if (schema.HasMember("required")) {
      for (const auto& name : schema["required"].GetArray()) {
        if (!value.HasMember(name)) {
          problems_.add(where + "/" + escapePointerToken(name.GetString()),
                        "is required but missing");
        }
      }
    }
    const RjValue& properties = schema["properties"];
    const bool closed = schema.HasMember("additionalProperties") &&
                        schema["additionalProperties"].IsBool() &&
                        !schema["additionalProperties"].GetBool();
    for (const auto& member : value.GetObject()) {
      const std::string key(member.name.GetString(), member.name.GetStringLength());
      const std::string token = escapePointerToken(key);
      if (properties.HasMember(member.name)) {
        this->value(member.value, schemaPointer + "/properties/" + token, where + "/" + token);
      } else if (closed) {
        problems_.add(where + "/" + token, "unknown key \"" + key + "\" here");
      }
    }
  }

  void array(const RjValue& value, const std::string& schemaPointer, const std::string& where) {
    const RjValue& schema = set_.at(schemaPointer);
    const auto size = value.Size();
    const bool tooFew = schema.HasMember("minItems") && size < schema["minItems"].GetUint();
    const bool tooMany = schema.HasMember("maxItems") && size > schema["maxItems"].GetUint();
    if (tooFew || tooMany) {
      problems_.add(where, describe(tooFew ? "minItems" : "maxItems", schema, &value));
      return;
    }
    for (rapidjson::SizeType i = 0; i < size; ++i) {
      this->value(value[i], schemaPointer + "/items", where + "/" + std::to_string(i));
    }
  }

  Problems& problems_;
  SchemaSet& set_;
};

}  // namespace

std::string_view sceneSchemaText() {
  return detail::kSceneSchemaText;
}

std::unique_ptr<rapidjson::SchemaValidator> wholeSchemaValidator() {
  return std::make_unique<rapidjson::SchemaValidator>(SchemaSet::instance().whole());
}

std::vector<Error> schemaProblems(const nlohmann::ordered_json& document) {
  if (auto deep = findTooDeep(document, kMaxSceneDepth)) {
    return {Error{*deep, "nesting deeper than " + std::to_string(kMaxSceneDepth) +
                             " arrays/objects (the limit of a scene file)"}};
  }
  // The common case, a document that meets the schema, is checked without a copy of it.
  if (const auto validator = wholeSchemaValidator();
      feed(document, *validator) && validator->IsValid())
    return {};
  RjDocument converted;
  toRapid(document, converted, converted.GetAllocator());
  Problems whole;
  SchemaSet::instance().validate(converted, "", "", whole);
  if (whole.empty()) return {};
  Problems each;
  Walker(each).value(converted, "", "");
  // The walk covers what the schema uses; should it miss a rule, the whole-document
  // validator's answer still refuses the file.
  return each.empty() ? whole.list : each.list;
}

}  // namespace floptle::scene
