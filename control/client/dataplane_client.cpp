#include "control/client/dataplane_client.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>
#include <fmt/format.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstdlib>

#include "lib/api/rpc.hpp"

namespace lr::ctl {

namespace asio = boost::asio;
using Local = asio::local::stream_protocol;

struct DataplaneClient::Impl {
  asio::io_context io;
  Local::socket socket{io};
  std::string buffer;
  std::string path;
  std::string client_name;  ///< as hello gave it: said again on reconnect
  bool connected = false;

  void connect();
};

DataplaneClient::DataplaneClient(const std::string& socket_path) : impl_(std::make_unique<Impl>()) {
  impl_->path = socket_path;
  impl_->connect();
}

void DataplaneClient::Impl::connect() {
  const std::string& socket_path = path;
  boost::system::error_code ec;
  socket.close(ec);
  buffer.clear();
  socket.connect(Local::endpoint(socket_path), ec);
  if (ec == boost::system::errc::permission_denied || ec == boost::system::errc::operation_not_permitted)
    // It serves, but not this user: root, its own user and its [control] group may connect.
    throw ConnectionError(fmt::format("the data plane at {} refused this user: {} (root and the data plane's own user "
                                      "may connect; to let others, set [control] group = \"GROUP\" in its profile and "
                                      "add them to that group)",
                                      socket_path, ec.message()));
  if (ec)
    throw ConnectionError(fmt::format("cannot reach the data plane at {}: {} (is `linerate-dataplane --serve` "
                                      "running? --socket or $LINERATE_SOCKET pick another socket)",
                                      socket_path, ec.message()));
  connected = true;
}

DataplaneClient::~DataplaneClient() = default;

bool DataplaneClient::connected() const noexcept { return impl_->connected; }

const std::string& DataplaneClient::socket_path() const noexcept { return impl_->path; }

bool DataplaneClient::hung_up() {
  if (!impl_->connected) return true;
  pollfd fd{impl_->socket.native_handle(), POLLIN | POLLRDHUP, 0};
  if (::poll(&fd, 1, 0) <= 0) return false;  // nothing to read: still there
  char byte = 0;
  // Readable between calls: the end of the stream (0), or an error; a byte sent unasked
  // (none is) would be left for the next call's read.
  const ssize_t n = ::recv(fd.fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  if (n > 0 || (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))) return false;
  impl_->connected = false;
  boost::system::error_code ignored;
  impl_->socket.close(ignored);
  impl_->buffer.clear();
  return true;
}

void DataplaneClient::reconnect() {
  impl_->connect();
  if (!impl_->client_name.empty()) hello(impl_->client_name);
}

void DataplaneClient::lost(const std::string& what) {
  impl_->connected = false;
  boost::system::error_code ignored;
  impl_->socket.close(ignored);
  impl_->buffer.clear();
  throw ConnectionError(what);
}

nlohmann::json DataplaneClient::call(const std::string& method, const nlohmann::json& params) {
  const int64_t id = next_id_++;
  const std::string request = api::make_request(id, method, params) + "\n";
  if (request.size() - 1 > api::kMaxRequestBytes)
    throw RpcCallError(static_cast<int>(api::RpcCode::kRequestTooLarge),
                       fmt::format("{} of {} bytes exceeds the control socket's {}-byte limit; not sent", method,
                                   request.size() - 1, api::kMaxRequestBytes));
  if (!impl_->connected) lost(fmt::format("the session with the data plane at {} has ended", impl_->path));
  boost::system::error_code ec;
  asio::write(impl_->socket, asio::buffer(request), ec);
  if (ec) lost(fmt::format("sending to {}: {}", impl_->path, ec.message()));
  const size_t n = asio::read_until(impl_->socket, asio::dynamic_buffer(impl_->buffer), '\n', ec);
  if (ec) lost(fmt::format("the data plane at {} hung up: {}", impl_->path, ec.message()));
  const std::string line = impl_->buffer.substr(0, n - 1);
  impl_->buffer.erase(0, n);
  nlohmann::json reply;
  try {
    reply = nlohmann::json::parse(line);
  } catch (const nlohmann::json::exception& error) {
    throw ConnectionError(fmt::format("the data plane answered something that is not JSON: {}", error.what()));
  }
  if (reply.contains("error")) {
    const nlohmann::json& error = reply["error"];
    throw RpcCallError(error.value("code", 0), error.value("message", std::string("unknown error")));
  }
  return reply.value("result", nlohmann::json());
}

nlohmann::json DataplaneClient::hello(const std::string& client_name) {
  impl_->client_name = client_name;
  return call("hello", {{"client", client_name}});
}

nlohmann::json DataplaneClient::methods() { return call("methods.list"); }

nlohmann::json DataplaneClient::call_raw(const std::string& method, const nlohmann::json& params) {
  return call(method, params);
}

std::string default_socket_path(const std::string& option) {
  if (!option.empty()) return option;
  if (const char* env = std::getenv("LINERATE_SOCKET"); env != nullptr && *env != '\0') return env;
  return "/run/linerate/dataplane.sock";
}

}  // namespace lr::ctl
