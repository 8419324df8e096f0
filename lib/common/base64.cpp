#include "lib/common/base64.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <stdexcept>

namespace lr {

std::string base64_encode(std::string_view bytes) {
  if (bytes.size() > INT_MAX / 4 * 3) throw std::length_error("base64_encode: more than 1.5 GiB at once");
  // EVP_EncodeBlock writes a terminating NUL too: one byte more than the text.
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0 || text.size() > INT_MAX) return std::nullopt;
  if (text.empty()) return std::string();
  const size_t padding = text.ends_with("==") ? 2 : text.ends_with('=') ? 1 : 0;
  // The alphabet only: EVP_DecodeBlock would pass over white space and more.
  const auto in_alphabet = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '+' || c == '/';
  };
  if (!std::all_of(text.begin(), text.end() - static_cast<std::ptrdiff_t>(padding), in_alphabet)) return std::nullopt;
  std::string out(text.size() / 4 * 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (n < 0) return std::nullopt;
  out.resize(static_cast<size_t>(n) - padding);  // EVP_DecodeBlock counts the padding as zero bytes
  return out;
}

}  // namespace lr
