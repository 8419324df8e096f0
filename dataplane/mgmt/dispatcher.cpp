#include "dataplane/mgmt/dispatcher.hpp"

#include <fmt/format.h>

namespace lr::dp {

using api::RpcCode;
using api::RpcError;

void PortOwnership::check_may_change(const Session& session, const std::string& port) const {
  const auto it = owners_.find(port);
  if (it == owners_.end() || it->second.session == session.id) return;
  const Owner& o = it->second;
  throw RpcError(RpcCode::kPortOwned,
                 fmt::format("port '{}' is owned by session {} ({}pid {}, uid {}); it can be changed once that "
                             "session releases it or disconnects",
                             port, o.session, o.client.empty() ? "" : "'" + o.client + "', ", o.peer.pid, o.peer.uid));
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

void Dispatcher::add(std::string name, std::string help, bool mutating, Handler handler) {
  methods_[std::move(name)] = Method{std::move(help), mutating, std::move(handler)};
}

std::string Dispatcher::handle(Session& session, std::string_view line) const {
  nlohmann::json id = nullptr;
  bool notification = false;
  try {
    api::Request request = api::parse_request(line);
    id = request.id;
    notification = request.notification;
    const auto method = methods_.find(request.method);
    if (method == methods_.end())
      throw RpcError(RpcCode::kMethodNotFound,
                     fmt::format("no method '{}' (methods.list lists them)", request.method));
    const api::Params params(request.params);
    nlohmann::json result = method->second.handler(session, params);
    return notification ? std::string() : api::make_result(id, result);
  } catch (const RpcError& error) {
    // Errors are answered even for notifications that could not be parsed as such.
    return notification ? std::string() : api::make_error(id, error.code(), error.what());
  } catch (const nlohmann::json::exception& error) {
    return notification ? std::string() : api::make_error(id, RpcCode::kInvalidParams, error.what());
  } catch (const std::exception& error) {
    return notification ? std::string() : api::make_error(id, RpcCode::kInternalError, error.what());
  }
}

nlohmann::json Dispatcher::list() const {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [name, method] : methods_)
    out.push_back({{"name", name}, {"help", method.help}, {"mutating", method.mutating}});
  return out;
}

}  // namespace lr::dp
