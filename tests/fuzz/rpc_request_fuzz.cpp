// libFuzzer target: any bytes as one control-socket request line. The dispatcher must
// answer every input with a JSON-RPC response (or nothing, for a notification), never
// crash, hang or throw. Built with clang by scripts/fuzz.sh; CI runs it for a bounded time.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "dataplane/mgmt/dispatcher.hpp"

namespace {

lr::dp::Dispatcher make_dispatcher() {
  lr::dp::Dispatcher d;
  d.add("echo", "", false, [](lr::dp::Session&, const lr::api::Params& p) {
    return nlohmann::json{{"s", p.optional_string("s").value_or("")},
                          {"list", p.strings("list")},
                          {"n", p.number("n", -1e9, 1e9)}};
  });
  return d;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const lr::dp::Dispatcher dispatcher = make_dispatcher();
  lr::dp::Session session;
  const std::string reply = dispatcher.handle(session, std::string_view(reinterpret_cast<const char*>(data), size));
  if (!reply.empty()) {
    const nlohmann::json parsed = nlohmann::json::parse(reply);  // throws (and so aborts) if not JSON
    if (!parsed.contains("result") && !parsed.contains("error")) __builtin_trap();
  }
  return 0;
}
