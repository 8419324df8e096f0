#include "dataplane/mgmt/dispatcher.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include <memory>
#include <optional>

namespace lr::dp {

using api::RpcCode;
using api::RpcError;

std::string Peer::describe() const {
  if (address.empty()) return fmt::format("pid {}, uid {}", pid, uid);
  return certificate.empty() ? address : fmt::format("{}, certificate '{}'", address, certificate);
}

void PortOwnership::check_may_change(const Session& session, const std::string& port) const {
  const auto it = owners_.find(port);
  if (it == owners_.end() || it->second.session == session.id) return;
  const Owner& o = it->second;
  throw RpcError(RpcCode::kPortOwned,
                 fmt::format("port '{}' is owned by session {} ({}{}); it can be changed once that "
                             "session releases it or disconnects",
                             port, o.session, o.client.empty() ? "" : "'" + o.client + "', ", o.peer.describe()));
}

void PortOwnership::acquire(const Session& session, const std::vector<std::string>& ports) {
  for (const std::string& port : ports) check_may_change(session, port);
  for (const std::string& port : ports) owners_[port] = Owner{session.id, session.peer, session.client};
}

void PortOwnership::release(const Session& session, const std::vector<std::string>& ports) {
  if (ports.empty()) {
    release_all(session.id);
    return;
  }
  for (const std::string& port : ports) {
    const auto it = owners_.find(port);
    if (it != owners_.end() && it->second.session == session.id) owners_.erase(it);
  }
}

void PortOwnership::release_all(uint64_t session_id) {
  std::erase_if(owners_, [&](const auto& entry) { return entry.second.session == session_id; });
}

std::optional<uint64_t> PortOwnership::owner(const std::string& port) const {
  const auto it = owners_.find(port);
  if (it == owners_.end()) return std::nullopt;
  return it->second.session;
}

struct Reply::State {
  nlohmann::json id;
  bool notification = false;
  Respond respond;
  bool answered = false;

  void answer(std::string line) {
    if (answered) return;
    answered = true;
    respond(notification ? std::string() : std::move(line));
  }
};

Reply::Reply(nlohmann::json id, bool notification, Respond respond)
    : state_(std::make_shared<State>(State{std::move(id), notification, std::move(respond)})) {}

void Reply::operator()(const nlohmann::json& result) const { state_->answer(api::make_result(state_->id, result)); }

void Reply::fail(RpcCode code, const std::string& message) const {
  state_->answer(api::make_error(state_->id, code, message));
}

void Reply::complete(const std::function<nlohmann::json()>& make_result) const {
  try {
    (*this)(make_result());
  } catch (const RpcError& error) {
    fail(error.code(), error.what());
  } catch (const nlohmann::json::exception& error) {
    fail(RpcCode::kInvalidParams, error.what());
  } catch (const std::exception& error) {
    fail(RpcCode::kInternalError, error.what());
  }
}

std::vector<std::string> declared_params(std::string_view help) {
  std::vector<std::string> names;
  size_t at = help.find("params");
  while (at != std::string_view::npos) {
    size_t open = at + 6;
    while (open < help.size() && (help[open] == ':' || help[open] == ' ')) ++open;
    if (open < help.size() && help[open] == '{') {
      at = open;
      break;
    }
    at = help.find("params", at + 6);
  }
  if (at == std::string_view::npos) return names;
  // Top level of the braces: a key starts each item; nested (), [], {} and quotes are values.
  int depth = 0;
  bool quoted = false, in_key = true;
  std::string key;
  for (size_t i = at + 1; i < help.size(); ++i) {
    const char c = help[i];
    if (quoted) {
      quoted = c != '"';
      continue;
    }
    if (depth == 0 && (c == ',' || c == '}')) {
      if (!key.empty()) names.push_back(key);
      key.clear();
      in_key = true;
      if (c == '}') break;
      continue;
    }
    if (c == '"') quoted = true;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    else if (in_key && depth == 0 && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) key += c;
    else if (in_key && !key.empty()) in_key = false;  // "?", ":" or a space ends the key
  }
  return names;
}

void Dispatcher::add(std::string name, std::string help, bool mutating, Handler handler) {
  std::vector<std::string> params = declared_params(help);
  methods_[std::move(name)] = Method{std::move(help), mutating, std::move(handler), nullptr, {}, std::move(params)};
}

void Dispatcher::add_async(std::string name, std::string help, bool mutating, AsyncHandler handler) {
  std::vector<std::string> params = declared_params(help);
  methods_[std::move(name)] = Method{std::move(help), mutating, nullptr, std::move(handler), {}, std::move(params)};
}

void Dispatcher::alias(std::string old_name, const std::string& current) {
  Method method = methods_.at(current);
  method.help = fmt::format("Deprecated (protocol 1): the old name of {}.", current);
  method.replaced_by = current;
  methods_[std::move(old_name)] = std::move(method);
}

void Dispatcher::deprecate(const std::string& name, std::string replacement) {
  Method& method = methods_.at(name);
  method.help = fmt::format("Deprecated (protocol 1): use {}. {}", replacement, method.help);
  method.replaced_by = std::move(replacement);
}

void Dispatcher::handle(Session& session, std::string_view line, Reply::Respond answer) const {
  const std::shared_ptr<SessionActivity> activity = session.activity;
  activity->last_request = std::chrono::steady_clock::now();
  ++activity->pending;
  Reply::Respond respond = [activity, answer = std::move(answer)](std::string response) {
    --activity->pending;
    activity->last_request = std::chrono::steady_clock::now();
    answer(std::move(response));
  };
  nlohmann::json id = nullptr;
  bool notification = false;
  const Method* method = nullptr;
  api::Request request;
  // Parsing and lookup: errors are answered even for notifications that could not be
  // parsed as such.
  try {
    request = api::parse_request(line);
    id = request.id;
    notification = request.notification;
    const auto found = methods_.find(request.method);
    if (found == methods_.end())
      throw RpcError(RpcCode::kMethodNotFound, fmt::format("no method '{}' (methods.list lists them)", request.method));
    method = &found->second;
    // A misspelled parameter must not be ignored: `streams` typed `stream` would start or
    // stop every stream instead of one.
    if (request.params.is_object())
      for (const auto& [key, value] : request.params.items())
        if (std::find(method->params.begin(), method->params.end(), key) == method->params.end())
          throw RpcError(RpcCode::kInvalidParams,
                         method->params.empty()
                             ? fmt::format("params.{}: {} takes no parameters", key, request.method)
                             : fmt::format("params.{}: {} has no such parameter (it takes: {})", key, request.method,
                                           fmt::join(method->params, ", ")));
  } catch (const RpcError& error) {
    respond(notification ? std::string() : api::make_error(id, error.code(), error.what()));
    return;
  } catch (const nlohmann::json::exception& error) {  // e.g. a number too large for a double
    respond(notification ? std::string() : api::make_error(id, RpcCode::kParseError, error.what()));
    return;
  } catch (const std::exception& error) {
    respond(notification ? std::string() : api::make_error(id, RpcCode::kInternalError, error.what()));
    return;
  }
  const Reply reply(id, notification, std::move(respond));
  const api::Params params(request.params);
  if (method->handler) {
    reply.complete([&] { return method->handler(session, params); });
    return;
  }
  try {
    method->async_handler(session, params, reply);
  } catch (const RpcError& error) {
    reply.fail(error.code(), error.what());
  } catch (const nlohmann::json::exception& error) {
    reply.fail(RpcCode::kInvalidParams, error.what());
  } catch (const std::exception& error) {
    reply.fail(RpcCode::kInternalError, error.what());
  }
}

std::string Dispatcher::handle(Session& session, std::string_view line) const {
  // Shared: an asynchronous method may answer after this returns.
  auto out = std::make_shared<std::optional<std::string>>();
  handle(session, line, [out](std::string response) { *out = std::move(response); });
  if (*out) return **out;
  return api::make_error(nullptr, RpcCode::kInternalError,
                         "the method answers asynchronously; it needs the control server's event loop");
}

nlohmann::json Dispatcher::list() const {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [name, method] : methods_)
    out.push_back(to_json(api::MethodListing{name, method.help, method.mutating, method.params, method.replaced_by}));
  return out;
}

}  // namespace lr::dp
