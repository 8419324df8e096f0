#include "lib/common/result.hpp"

#include <cstring>

namespace lr {

const char* errc_name(Errc code) noexcept {
  switch (code) {
    case Errc::kInvalid: return "invalid";
    case Errc::kNotSupported: return "not supported";
    case Errc::kBusy: return "busy";
    case Errc::kNoMemory: return "no memory";
    case Errc::kNoDevice: return "no device";
    case Errc::kTimeout: return "timeout";
  }
  return "unknown";
}

std::string to_string(const Error& error) {
  std::string text = error.context;
  if (error.sys_errno != 0) {
    text += ": ";
    text += std::strerror(error.sys_errno);
  }
  return text;
}

}  // namespace lr
