#include "lib/api/rpc.hpp"

#include <fmt/format.h>

#include "lib/api/bounded_json.hpp"
#include "lib/api/json_fields.hpp"

namespace lr::api {

using nlohmann::json;

Request parse_request(std::string_view line) {
  if (line.size() > kMaxRequestBytes)
    throw RpcError(RpcCode::kRequestTooLarge,
                   fmt::format("request of {} bytes exceeds the {}-byte limit", line.size(), kMaxRequestBytes));
  // Refused before a tree is built: a tree nested deeper would end the process on its stack.
  if (auto too_deep = json_depth_problem(line)) throw RpcError(RpcCode::kInvalidRequest, "request is " + *too_deep);
  json doc;
  try {
    doc = json::parse(line);
  } catch (const json::parse_error& error) {
    throw RpcError(RpcCode::kParseError, fmt::format("request is not JSON: byte {}: {}", error.byte,
                                                     std::string(error.what()).substr(std::string(error.what()).find(':') + 2)));
  }
  if (!doc.is_object()) throw RpcError(RpcCode::kInvalidRequest, "request must be a JSON object");
  const auto jsonrpc = doc.find("jsonrpc");
  if (jsonrpc == doc.end() || *jsonrpc != "2.0")
    throw RpcError(RpcCode::kInvalidRequest, "request must have \"jsonrpc\": \"2.0\"");
  Request request;
  const auto id = doc.find("id");
  if (id == doc.end()) {
    request.notification = true;
  } else if (id->is_string() || id->is_number_integer() || id->is_null()) {
    request.id = *id;
  } else {
    throw RpcError(RpcCode::kInvalidRequest, "\"id\" must be a string, an integer or null");
  }
  const auto method = doc.find("method");
  if (method == doc.end() || !method->is_string() || method->get<std::string>().empty())
    throw RpcError(RpcCode::kInvalidRequest, "request must have a \"method\" string");
  request.method = method->get<std::string>();
  const auto params = doc.find("params");
  if (params == doc.end()) {
    request.params = json::object();
  } else if (params->is_object()) {
    request.params = *params;
  } else {
    throw RpcError(RpcCode::kInvalidRequest, "\"params\" must be an object of named parameters");
  }
  for (const auto& [key, value] : doc.items()) {
    if (key != "jsonrpc" && key != "id" && key != "method" && key != "params")
      throw RpcError(RpcCode::kInvalidRequest, fmt::format("unknown member \"{}\" in the request", key));
  }
  return request;
}

std::string make_result(const json& id, const json& result) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"result", result}}.dump();
}

std::string make_error(const json& id, RpcCode code, const std::string& message) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", static_cast<int>(code)}, {"message", message}}}}.dump(
      -1, ' ', false, json::error_handler_t::replace);
}

std::string make_request(const json& id, const std::string& method, const json& params) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump();
}

namespace {

[[noreturn]] void bad_param(const char* key, const std::string& why) {
  throw RpcError(RpcCode::kInvalidParams, fmt::format("params.{}: {}", key, why));
}

const char* type_name(const json& value) { return value.type_name(); }

}  // namespace

std::string Params::string(const char* key) const {
  auto value = optional_string(key);
  if (!value) bad_param(key, "is required");
  return *value;
}

std::optional<std::string> Params::optional_string(const char* key) const {
  const auto it = params_.find(key);
  if (it == params_.end()) return std::nullopt;
  if (!it->is_string()) bad_param(key, fmt::format("expected a string, found {}", type_name(*it)));
  return it->get<std::string>();
}

std::vector<std::string> Params::strings(const char* key) const {
  std::vector<std::string> out;
  const auto it = params_.find(key);
  if (it == params_.end()) return out;
  if (!it->is_array()) bad_param(key, fmt::format("expected an array of strings, found {}", type_name(*it)));
  for (const json& item : *it) {
    if (!item.is_string()) bad_param(key, "expected an array of strings");
    out.push_back(item.get<std::string>());
  }
  return out;
}

std::vector<int64_t> Params::integers(const char* key, int64_t min, int64_t max) const {
  std::vector<int64_t> out;
  const auto it = params_.find(key);
  if (it == params_.end()) return out;
  const std::string expected = fmt::format("expected an array of integers {}-{}", min, max);
  if (!it->is_array()) bad_param(key, fmt::format("{}, found {}", expected, type_name(*it)));
  for (const json& item : *it) {
    if (!item.is_number_integer()) bad_param(key, fmt::format("{}, found {}", expected, item.dump()));
    const auto v = item.get<int64_t>();
    if (v < min || v > max) bad_param(key, fmt::format("{} is out of range [{}, {}]", v, min, max));
    out.push_back(v);
  }
  return out;
}

const json& Params::raw(const char* key) const {
  static const json kAbsent;
  const auto it = params_.find(key);
  return it == params_.end() ? kAbsent : *it;
}

bool Params::boolean(const char* key) const {
  const auto value = optional_bool(key);
  if (!value) bad_param(key, "is required");
  return *value;
}

std::optional<bool> Params::optional_bool(const char* key) const {
  const auto it = params_.find(key);
  if (it == params_.end()) return std::nullopt;
  if (!it->is_boolean()) bad_param(key, fmt::format("expected true or false, found {}", type_name(*it)));
  return it->get<bool>();
}

double Params::number(const char* key, double min, double max) const {
  const auto it = params_.find(key);
  if (it == params_.end()) bad_param(key, "is required");
  if (!it->is_number()) bad_param(key, fmt::format("expected a number, found {}", type_name(*it)));
  const double value = it->get<double>();
  if (value < min || value > max) bad_param(key, fmt::format("{} is out of range [{}, {}]", value, min, max));
  return value;
}

namespace {
constexpr auto method_listing_fields = LR_JSON_FIELDS(name, help, mutating, params, deprecated);
}  // namespace

nlohmann::json to_json(const MethodListing& m) {
  nlohmann::json out = write_fields(m, method_listing_fields);
  if (m.deprecated.empty()) out.erase("deprecated");  // said only of an old name
  return out;
}

MethodListing method_listing_from_json(const nlohmann::json& j) {
  return read_fields<MethodListing>(j, method_listing_fields);
}

}  // namespace lr::api
