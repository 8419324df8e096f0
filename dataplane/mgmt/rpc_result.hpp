#pragma once
// Result<T> to an RPC answer: the value, or an RpcError with the code that fits the Errc.

#include <type_traits>
#include <utility>

#include "lib/api/rpc.hpp"
#include "lib/common/result.hpp"

namespace lr::dp {

inline api::RpcCode rpc_code(Errc code) {
  switch (code) {
    case Errc::kInvalid: return api::RpcCode::kInvalidParams;
    case Errc::kBusy: return api::RpcCode::kBusy;
    case Errc::kNotSupported: return api::RpcCode::kNotSupported;
    case Errc::kNoDevice: return api::RpcCode::kNoDevice;
    case Errc::kNoMemory: return api::RpcCode::kNoResource;
    case Errc::kTimeout: return api::RpcCode::kFailed;
  }
  return api::RpcCode::kFailed;
}

template <class T>
T value_or_throw(Result<T> result) {
  if (!result) throw api::RpcError(rpc_code(result.error().code), to_string(result.error()));
  if constexpr (!std::is_void_v<T>) return std::move(*result);
}

}  // namespace lr::dp
