// Client JSON's nesting bound: a text at the bound is read, one level deeper is refused
// before a tree is built, naming the byte; brackets inside strings are not nesting.

#include "lib/api/bounded_json.hpp"

#include <gtest/gtest.h>

namespace lr::api {
namespace {

std::string arrays(size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

std::string objects(size_t depth) {
  std::string out;
  for (size_t i = 0; i < depth; ++i) out += R"({"a":)";
  out += "1";
  return out + std::string(depth, '}');
}

TEST(BoundedJson, ATextAtTheBoundIsRead) {
  EXPECT_EQ(json_depth_problem(arrays(kMaxJsonDepth)), std::nullopt);
  EXPECT_EQ(parse_bounded_json(arrays(kMaxJsonDepth)).dump(), arrays(kMaxJsonDepth));
  EXPECT_EQ(parse_bounded_json(objects(kMaxJsonDepth)).dump(), objects(kMaxJsonDepth));
}

TEST(BoundedJson, OneLevelDeeperIsRefusedNamingItsByte) {
  EXPECT_EQ(json_depth_problem(arrays(kMaxJsonDepth + 1)), "JSON nested deeper than 64 levels at byte 65");
  // {"a": is 5 bytes: the 65th brace is byte 64 * 5 + 1.
  EXPECT_EQ(json_depth_problem(objects(kMaxJsonDepth + 1)), "JSON nested deeper than 64 levels at byte 321");
  EXPECT_THROW(parse_bounded_json(objects(kMaxJsonDepth + 1)), JsonTooDeep);
}

// The body that ended `otg serve` in SIGSEGV: refused at once, whatever follows.
TEST(BoundedJson, AHundredThousandDeepIsRefused) {
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  try {
    parse_bounded_json(deep);
    FAIL() << "read a text 100,000 deep";
  } catch (const JsonTooDeep& e) {
    EXPECT_STREQ(e.what(), "JSON nested deeper than 64 levels at byte 65");
  }
  // Unclosed and a million deep: the same.
  EXPECT_EQ(json_depth_problem(std::string(1'000'000, '{')), "JSON nested deeper than 64 levels at byte 65");
}

TEST(BoundedJson, OtherBoundsAreTheirs) {
  EXPECT_EQ(json_depth_problem(arrays(3), 2), "JSON nested deeper than 2 levels at byte 3");
  EXPECT_EQ(json_depth_problem(arrays(2), 2), std::nullopt);
}

TEST(BoundedJson, BracketsInStringsAreNotNesting) {
  const std::string text = R"({"a":")" + std::string(100, '[') + R"(\"[{","b":["\\",[1]]})";
  EXPECT_EQ(json_depth_problem(text, 3), std::nullopt);
  EXPECT_EQ(parse_bounded_json(text, 3)["b"][1][0], 1);
  EXPECT_EQ(json_depth_problem(text, 2),
            "JSON nested deeper than 2 levels at byte " + std::to_string(text.find("[1]") + 1));
}

// Not JSON is the parser's to say, as before.
TEST(BoundedJson, NotJsonIsAParseError) {
  EXPECT_THROW(parse_bounded_json("[1,"), nlohmann::json::parse_error);
  EXPECT_THROW(parse_bounded_json("]]]"), nlohmann::json::parse_error);
}

}  // namespace
}  // namespace lr::api
