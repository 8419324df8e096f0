#pragma once
// A report.json of the views' fuzz corpus (tests/fuzz/corpus/report_views/), as a suite
// wrote it: the tests of the report codecs and of the views read the same files.
// Needs LR_SOURCE_ROOT (the test's meson cpp_args).

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>

namespace lr::test {

inline nlohmann::json report_corpus(const std::string& name) {
  std::ifstream file(std::string(LR_SOURCE_ROOT) + "/tests/fuzz/corpus/report_views/" + name);
  std::stringstream text;
  text << file.rdbuf();
  return nlohmann::json::parse(text.str());
}

}  // namespace lr::test
