#pragma once
// Base64 (RFC 4648, with padding) over OpenSSL's EVP block coder: bytes in a JSON string,
// such as a capture file read over the control connection (capture.read).

#include <optional>
#include <string>
#include <string_view>

namespace lr {

std::string base64_encode(std::string_view bytes);

/// The bytes `text` encodes; none where it is not base64 (a length not a multiple of 4, a
/// character outside the alphabet, padding anywhere but at its end).
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace lr
