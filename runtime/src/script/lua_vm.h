#pragma once
// LuaVm: the one Lua 5.4 state that runs a scene's scripts, sandboxed and bounded.
//   Sandbox: only the base (without dofile, loadfile, print, collectgarbage), table, string
//   (without dump), math, utf8 and coroutine libraries; no io, os, package or debug. `load`
//   takes source text only (mode "t": never bytecode). `require(name)` and `dofile(file)` read
//   only files inside the scene's folder. math.random is seeded from the scene (never the
//   clock), so two runs draw the same numbers.
//   Budget: a count hook stops a tick's scripts once they ran instructionsPerTick VM
//   instructions, with "file:line: instruction budget of N per tick exceeded".
//   Memory: the allocator refuses to grow the state past memoryBytes; the error names the
//   file and line that asked ("file:line: memory cap of N bytes exceeded").
//   Errors: Lua is Debian's C++ build (lua5.4-c++, runtime/CMakeLists.txt), so a Lua error
//   (luaL_error, lua_error, a failed luaL_check*, a refused allocation, an error in a
//   metamethod) is a C++ exception that Lua's own frames catch: an API function may raise at
//   any point with C++ objects alive, their destructors run. Hence, between an API function
//   and the raise: no noexcept function and no catch (...), which would end the program or
//   swallow the error. A C++ exception an API function lets escape is caught by Lua too but
//   carries no message, so API functions report bad input as Lua errors and throw nothing.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include <lua.hpp>

#include "floptle/core/expected.h"
#include "floptle/runtime/script_stage.h"

namespace floptle::runtime::script {

using ScriptLimits = ScriptStageLimits;

class LuaVm {
 public:
  /// A sandboxed state over the scene folder `sceneDir`; `seed` seeds math.random.
  static Expected<std::unique_ptr<LuaVm>> create(const std::filesystem::path& sceneDir,
                                                 std::uint64_t seed, const ScriptLimits& limits);
  ~LuaVm();
  LuaVm(const LuaVm&) = delete;
  LuaVm& operator=(const LuaVm&) = delete;

  lua_State* state() const { return L_; }
  const std::filesystem::path& sceneDir() const { return sceneDir_; }
  const ScriptLimits& limits() const { return limits_; }

  /// Starts a tick: the instruction budget is full again.
  void beginTick() { used_ = 0; }
  /// Bytes the state holds now (B).
  std::size_t bytesInUse() const { return bytes_; }

  /// Reads `relative` (a path inside the scene folder) and compiles it as text; on success
  /// pushes the chunk (a function). Errors: a path outside the folder, an unreadable file, a
  /// syntax error ("file:line: message").
  Expected<void> loadFile(const std::string& relative);
  /// Calls the function below `nargs` arguments on the stack (popping them and it) under the
  /// budget and the cap; nresults results are left on the stack. Errors carry Lua's
  /// "file:line: message".
  Expected<void> call(int nargs, int nresults);
  /// Pushes a fresh environment table for a script: its globals, reading the sandbox's
  /// libraries through __index.
  void pushNewEnvironment();

  /// The LuaVm that owns L (from the state's extra space).
  static LuaVm& of(lua_State* L);
  /// Free for the user of the VM (the script stage's context).
  void* user = nullptr;

 private:
  LuaVm(std::filesystem::path sceneDir, ScriptLimits limits)
      : sceneDir_(std::move(sceneDir)), limits_(limits) {}
  static void* allocate(void* ud, void* ptr, std::size_t osize, std::size_t nsize);
  static void countHook(lua_State* L, lua_Debug* ar);
  static int sandboxedDofile(lua_State* L);
  static int sandboxedRequire(lua_State* L);
  /// The chunk of the file named by argument 1 (a module name when `module`) pushed, or its
  /// error message pushed and false.
  static bool pushChunkOf(lua_State* L, bool module);
  static int textOnlyLoad(lua_State* L);
  Expected<void> openLibraries(std::uint64_t seed);

  lua_State* L_ = nullptr;
  std::filesystem::path sceneDir_;
  ScriptLimits limits_;
  std::int64_t used_ = 0;     ///< instructions run this tick (-)
  std::size_t bytes_ = 0;     ///< bytes held (B)
  std::string refusedWhere_;  ///< "file:line" of the last refused allocation
};

/// Instructions between two budget checks (-).
inline constexpr int kHookInterval = 1000;

}  // namespace floptle::runtime::script
