// log(...): one line for the trace, its arguments as tostring gives them, separated by
// spaces; it carries the tick and the running script's node ("" for a scene-level script).
#include "script/script_context.h"

namespace floptle::runtime::script {
namespace {

/// Longest log line kept (B); longer ones are cut there.
constexpr std::size_t kMaxLogLine = 4096;

int log(lua_State* L) {
  const int n = lua_gettop(L);
  std::string text;
  for (int i = 1; i <= n; ++i) {
    std::size_t length = 0;
    const char* part = luaL_tolstring(L, i, &length);
    if (i > 1) text.push_back(' ');
    text.append(part, length);
    lua_pop(L, 1);
  }
  if (text.size() > kMaxLogLine) text.resize(kMaxLogLine);
  ScriptContext& ctx = contextOf(L);
  ctx.logs.push_back({ctx.tick, ctx.node, std::move(text)});
  return 0;
}

}  // namespace

void openLog(lua_State* L) {
  lua_pushcfunction(L, log);
  lua_setglobal(L, "log");
}

}  // namespace floptle::runtime::script
