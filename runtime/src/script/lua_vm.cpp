// LuaVm: the sandboxed, bounded Lua state (lua_vm.h).
#include "script/lua_vm.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace floptle::runtime::script {
namespace {

/// Registry key of the table of modules `require` has loaded, by name.
constexpr const char* kLoadedKey = "floptle.loaded";

/// `relative` resolved inside `dir`, or an error when it is absolute or leaves the folder.
Expected<std::filesystem::path> insideFolder(const std::filesystem::path& dir,
                                             const std::string& relative) {
  const std::filesystem::path asked(relative);
  if (relative.empty() || asked.is_absolute())
    return Error{relative, "a script path must be relative to the scene's folder"};
  std::error_code ec;
  const std::filesystem::path root = std::filesystem::weakly_canonical(dir, ec);
  const std::filesystem::path full = std::filesystem::weakly_canonical(dir / asked, ec);
  if (ec) return Error{relative, "cannot resolve the path"};
  const auto [rootEnd, fullIt] = std::mismatch(root.begin(), root.end(), full.begin(), full.end());
  if (rootEnd != root.end()) return Error{relative, "outside the scene's folder (refused)"};
  return full;
}

}  // namespace

LuaVm& LuaVm::of(lua_State* L) {
  return **static_cast<LuaVm**>(lua_getextraspace(L));
}

void* LuaVm::allocate(void* ud, void* ptr, std::size_t osize, std::size_t nsize) {
  auto* vm = static_cast<LuaVm*>(ud);
  const std::size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    vm->bytes_ -= old;
    std::free(ptr);
    return nullptr;
  }
  if (nsize > old && vm->bytes_ - old + nsize > vm->limits_.memoryBytes) {
    // Refused: remember who asked (the running Lua function's line), for the error.
    // The nearest Lua function: a library function (string.rep) has no line of its own.
    lua_Debug ar;
    for (int level = 0; vm->L_ && lua_getstack(vm->L_, level, &ar); ++level) {
      if (lua_getinfo(vm->L_, "Sl", &ar) && ar.currentline > 0) {
        vm->refusedWhere_ = std::string(ar.short_src) + ":" + std::to_string(ar.currentline);
        break;
      }
    }
    return nullptr;
  }
  void* grown = std::realloc(ptr, nsize);
  if (grown) vm->bytes_ = vm->bytes_ - old + nsize;
  return grown;
}

void LuaVm::countHook(lua_State* L, lua_Debug*) {
  LuaVm& vm = of(L);
  vm.used_ += kHookInterval;
  if (vm.used_ <= vm.limits_.instructionsPerTick) return;
  lua_Debug ar;
  std::string where = "?";
  if (lua_getstack(L, 0, &ar) && lua_getinfo(L, "Sl", &ar))
    where = std::string(ar.short_src) + ":" + std::to_string(ar.currentline);
  lua_pushfstring(L, "%s: instruction budget of %I per tick exceeded (a runaway loop?)",
                  where.c_str(), static_cast<lua_Integer>(vm.limits_.instructionsPerTick));
  lua_error(L);
}

Expected<std::unique_ptr<LuaVm>> LuaVm::create(const std::filesystem::path& sceneDir,
                                               std::uint64_t seed, const ScriptLimits& limits) {
  std::unique_ptr<LuaVm> vm(new LuaVm(sceneDir, limits));
  vm->L_ = lua_newstate(&LuaVm::allocate, vm.get());
  if (!vm->L_) return Error{"scripts", "cannot create the Lua state"};
  *static_cast<LuaVm**>(lua_getextraspace(vm->L_)) = vm.get();
  if (auto opened = vm->openLibraries(seed); !opened) return opened.error();
  lua_sethook(vm->L_, &LuaVm::countHook, LUA_MASKCOUNT, kHookInterval);
  return vm;
}

LuaVm::~LuaVm() {
  if (L_) lua_close(L_);
}

Expected<void> LuaVm::openLibraries(std::uint64_t seed) {
  static const luaL_Reg kLibraries[] = {
      {LUA_GNAME, luaopen_base},        {LUA_TABLIBNAME, luaopen_table},
      {LUA_STRLIBNAME, luaopen_string}, {LUA_MATHLIBNAME, luaopen_math},
      {LUA_UTF8LIBNAME, luaopen_utf8},  {LUA_COLIBNAME, luaopen_coroutine}};
  for (const luaL_Reg& lib : kLibraries) {
    luaL_requiref(L_, lib.name, lib.func, 1);
    lua_pop(L_, 1);
  }
  // What the sandbox takes away from the base and string libraries.
  for (const char* name : {"dofile", "loadfile", "print", "collectgarbage"}) {
    lua_pushnil(L_);
    lua_setglobal(L_, name);
  }
  lua_getglobal(L_, LUA_STRLIBNAME);
  lua_pushnil(L_);
  lua_setfield(L_, -2, "dump");
  lua_pop(L_, 1);
  // load: text only, the original kept as this closure's upvalue.
  lua_getglobal(L_, "load");
  lua_pushcclosure(L_, &LuaVm::textOnlyLoad, 1);
  lua_setglobal(L_, "load");
  lua_pushcfunction(L_, &LuaVm::sandboxedDofile);
  lua_setglobal(L_, "dofile");
  lua_pushcfunction(L_, &LuaVm::sandboxedRequire);
  lua_setglobal(L_, "require");
  lua_newtable(L_);
  lua_setfield(L_, LUA_REGISTRYINDEX, kLoadedKey);
  // math.random from the scene's seed (Lua seeds it from the clock and an address).
  lua_getglobal(L_, LUA_MATHLIBNAME);
  lua_getfield(L_, -1, "randomseed");
  lua_pushinteger(L_, static_cast<lua_Integer>(seed & 0x7fffffffffffffffULL));
  if (lua_pcall(L_, 1, 0, 0) != LUA_OK) return Error{"scripts", "cannot seed math.random"};
  lua_pop(L_, 1);
  return {};
}

int LuaVm::textOnlyLoad(lua_State* L) {
  // load(chunk [, chunkname [, mode [, env]]]) with mode forced to "t".
  const int n = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushvalue(L, 1);
  if (n >= 2) {
    lua_pushvalue(L, 2);
  } else {
    lua_pushnil(L);
  }
  lua_pushliteral(L, "t");
  if (n >= 4) {
    lua_pushvalue(L, 4);
    lua_call(L, 4, LUA_MULTRET);
  } else {
    lua_call(L, 3, LUA_MULTRET);
  }
  return lua_gettop(L) - n;
}

Expected<void> LuaVm::loadFile(const std::string& relative) {
  auto path = insideFolder(sceneDir_, relative);
  if (!path) return path.error();
  std::ifstream file(*path, std::ios::binary);
  if (!file) return Error{relative, "cannot open the script file"};
  std::stringstream text;
  text << file.rdbuf();
  const std::string source = text.str();
  const std::string chunkName = "@" + relative;
  const int status = luaL_loadbufferx(L_, source.data(), source.size(), chunkName.c_str(), "t");
  if (status != LUA_OK) {
    std::string message = lua_tostring(L_, -1) ? lua_tostring(L_, -1) : "cannot load";
    lua_pop(L_, 1);
    return Error{"", message};
  }
  return {};
}

void LuaVm::pushNewEnvironment() {
  lua_newtable(L_);
  lua_newtable(L_);
  lua_pushglobaltable(L_);
  lua_setfield(L_, -2, "__index");
  lua_setmetatable(L_, -2);
}

namespace {

/// Message handler: any error value as a string (an error table or nil as well).
int messageHandler(lua_State* L) {
  if (!lua_isstring(L, 1)) luaL_tolstring(L, 1, nullptr);
  return 1;
}

}  // namespace

Expected<void> LuaVm::call(int nargs, int nresults) {
  const int base = lua_gettop(L_) - nargs;  // the function's index
  lua_pushcfunction(L_, messageHandler);
  lua_insert(L_, base);
  refusedWhere_.clear();
  const int status = lua_pcall(L_, nargs, nresults, base);
  lua_remove(L_, base);
  if (status == LUA_OK) return {};
  std::string message;
  if (status == LUA_ERRMEM) {
    message = (refusedWhere_.empty() ? std::string("?") : refusedWhere_) + ": memory cap of " +
              std::to_string(limits_.memoryBytes) + " bytes exceeded (a runaway allocation?)";
  } else {
    const char* text = lua_tostring(L_, -1);
    message = text ? text : "error";
  }
  lua_pop(L_, 1);
  return Error{"", message};
}

bool LuaVm::pushChunkOf(lua_State* L, bool module) {
  const std::string argument = lua_tostring(L, 1);
  std::string relative = argument;
  if (module) {
    // "a.b" is the file a/b.lua in the scene's folder.
    for (char& c : relative)
      if (c == '.') c = '/';
    relative += ".lua";
  }
  auto loaded = of(L).loadFile(relative);
  if (loaded) return true;
  const std::string message = module ? "require '" + argument + "': " + loaded.error().what
                                     : "dofile: " + relative + ": " + loaded.error().what;
  luaL_where(L, 1);  // "file:line:" of the calling script, as luaL_error gives
  lua_pushstring(L, message.c_str());
  lua_concat(L, 2);
  return false;
}

// The chunk is loaded by pushChunkOf and run here, its errors raised as they come (lua_vm.h,
// "Errors").
int LuaVm::sandboxedDofile(lua_State* L) {
  luaL_checkstring(L, 1);
  if (!pushChunkOf(L, false)) return lua_error(L);
  lua_call(L, 0, LUA_MULTRET);
  return lua_gettop(L) - 1;
}

int LuaVm::sandboxedRequire(lua_State* L) {
  luaL_checkstring(L, 1);
  lua_getfield(L, LUA_REGISTRYINDEX, kLoadedKey);  // [name, loaded]
  lua_pushvalue(L, 1);
  lua_gettable(L, 2);  // [name, loaded, cached]
  if (!lua_isnil(L, -1)) return 1;
  lua_pop(L, 1);
  if (!pushChunkOf(L, true)) return lua_error(L);
  // The module runs in an environment of its own, like a script.
  of(L).pushNewEnvironment();
  if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
  lua_call(L, 0, 1);  // [name, loaded, result]
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_pushboolean(L, 1);
  }
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 3);
  lua_settable(L, 2);
  return 1;
}

}  // namespace floptle::runtime::script
