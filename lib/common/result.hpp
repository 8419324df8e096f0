#pragma once
// Error values for data plane init and mgmt code (STYLE.md §E). The fast path never
// returns errors: it counts them.

#include <cstdint>
#include <expected>
#include <string>
#include <utility>

namespace lr {

enum class Errc : uint16_t {
  kInvalid,       ///< the request or profile asks for something impossible
  kNotSupported,  ///< the device or driver cannot do it
  kBusy,          ///< the resource is in use
  kNoMemory,      ///< mempool / hugepage allocation failed
  kNoDevice,      ///< no such port or device
  kTimeout,
};

const char* errc_name(Errc code) noexcept;

struct Error {
  Errc code = Errc::kInvalid;
  int sys_errno = 0;     ///< positive errno from DPDK or the kernel, 0 if none
  std::string context;   ///< what was being done, for a person to act on
};

template <class T>
using Result = std::expected<T, Error>;

inline std::unexpected<Error> make_error(Errc code, std::string context, int sys_errno = 0) {
  return std::unexpected<Error>(Error{code, sys_errno, std::move(context)});
}

/// "context: strerror(errno)" for logs and CLI messages.
std::string to_string(const Error& error);

}  // namespace lr
