// Base64 as RFC 4648 §10's test vectors write it, every byte value through and back, and the
// texts that are not base64 refused.
#include "lib/common/base64.hpp"

#include <gtest/gtest.h>

#include <string>

namespace lr {
namespace {

TEST(Base64, EncodesRfc4648Vectors) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("foob"), "Zm9vYg==");
  EXPECT_EQ(base64_encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
}

TEST(Base64, DecodesWhatItEncodedEveryByteValueAndLength) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
  for (size_t n = 0; n <= bytes.size(); n += 37) {
    const std::string part = bytes.substr(0, n) + std::string(n % 3, '\0');  // trailing zeros, each padding
    EXPECT_EQ(base64_decode(base64_encode(part)), part) << n;
  }
  EXPECT_EQ(base64_decode("Zm9vYg=="), "foob");
}

TEST(Base64, RefusesWhatIsNotBase64) {
  EXPECT_EQ(base64_decode("Zm9"), std::nullopt);        // not a multiple of 4
  EXPECT_EQ(base64_decode("Zm9v!A=="), std::nullopt);   // outside the alphabet
  EXPECT_EQ(base64_decode("Zg==Zm9v"), std::nullopt);   // padding inside
  EXPECT_EQ(base64_decode("Z==="), std::nullopt);       // three of padding
  EXPECT_EQ(base64_decode("QUJD    "), std::nullopt);   // white space, which OpenSSL alone would pass over
  EXPECT_EQ(base64_decode("    QQ=="), std::nullopt);
}

}  // namespace
}  // namespace lr
