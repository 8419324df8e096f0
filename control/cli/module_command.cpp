#include "control/cli/module_command.hpp"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "lib/host/module/decoded_module.hpp"

namespace lr::ctl {

int print_module(const std::vector<uint8_t>& bytes, const std::string& source, bool as_json, bool hex) {
  if (hex && !as_json) std::printf("%s\n", module::hex_dump(bytes).c_str());
  try {
    const module::DecodedModule decoded = module::decode_module(bytes);
    if (as_json) {
      nlohmann::json j = module::module_to_json(decoded);
      if (hex) j["hex"] = module::hex_dump(bytes);
      std::printf("%s\n", j.dump(2).c_str());
    } else {
      std::printf("%s", module::format_module(decoded).c_str());
    }
    // Decoded, but a script must notice that the bytes may not be what the module holds.
    if (const std::string problem = module::checksum_problem(decoded); !problem.empty()) {
      std::fprintf(stderr, "linerate: %s: %s\n", source.c_str(), problem.c_str());
      return kExitChecksumsBad;
    }
  } catch (const module::DecodeError& error) {
    std::fprintf(stderr, "linerate: %s: %s\n", source.c_str(), error.what());
    return 1;
  }
  return 0;
}

int decode_module_file(const std::string& path, bool as_json, bool hex) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "linerate: cannot read %s\n", path.c_str());
    return 2;
  }
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return print_module(bytes, path, as_json, hex);
}

}  // namespace lr::ctl
