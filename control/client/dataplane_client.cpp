#include "control/client/dataplane_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/write.hpp>
#include <fmt/format.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <chrono>
#include <functional>
#include <optional>
#include <string_view>

#include "lib/api/rpc.hpp"

namespace lr::ctl {

namespace asio = boost::asio;
namespace ssl = asio::ssl;
using Local = asio::local::stream_protocol;
using tcp = asio::ip::tcp;

namespace {

// A data plane on another host that does not answer is said within this, not the
// kernel's two minutes of SYN retries.
constexpr auto kConnectDeadline = std::chrono::seconds(10);

}  // namespace

struct DataplaneClient::Impl {
  asio::io_context io;
  DataplaneAddress address;
  std::optional<Local::socket> local;
  std::optional<tcp::socket> plain;
  std::optional<ssl::context> tls_context;
  std::optional<ssl::stream<tcp::socket>> tls;
  std::string buffer;
  std::string client_name;  ///< as hello gave it: said again on reconnect
  bool connected = false;

  /// Runs `f` on the stream of this connection.
  template <class F>
  auto with_stream(F&& f) {
    if (local) return f(*local);
    if (tls) return f(*tls);
    return f(*plain);
  }
  int native_handle() {
    if (local) return local->native_handle();
    return tls ? tls->next_layer().native_handle() : plain->native_handle();
  }
  void close() {
    boost::system::error_code ignored;
    if (local) local->close(ignored);
    if (plain) plain->close(ignored);
    if (tls) tls->next_layer().close(ignored);
    buffer.clear();
    connected = false;
  }
  /// What to check when the link fails with `ec`: plain TCP to a data plane that wants
  /// TLS, or (TLS 1.3 says it after the handshake) our certificate refused.
  std::string hint(const boost::system::error_code& ec) const {
    if (address.engine.empty()) return "";
    if (!address.tls.any()) return " (a data plane serving TLS needs --engine-ca, --engine-cert and --engine-key)";
    if (ec.category() != asio::error::get_ssl_category()) return "";
    return " (it refused this controller's certificate: --engine-cert must be signed by the CA it was given as "
           "--tls-ca)";
  }

  void connect();
  void connect_local();
  void connect_tcp();
  void run_until(const std::function<bool()>& done, const std::string& what);
};

DataplaneClient::DataplaneClient(const std::string& socket_path) : DataplaneClient(unix_socket_address(socket_path)) {}

DataplaneClient::DataplaneClient(const DataplaneAddress& address) : impl_(std::make_unique<Impl>()) {
  impl_->address = address;
  impl_->connect();
}

DataplaneClient::DataplaneClient(const DataplaneAddress& address, ConnectLater later)
    : impl_(std::make_unique<Impl>()) {
  impl_->address = address;
  impl_->client_name = std::move(later.client_name);
}

void DataplaneClient::Impl::connect() {
  close();
  if (address.engine.empty()) connect_local();
  else connect_tcp();
  connected = true;
}

void DataplaneClient::Impl::connect_local() {
  const std::string& socket_path = address.socket;
  boost::system::error_code ec;
  local.emplace(io);
  local->connect(Local::endpoint(socket_path), ec);
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
}

// Runs the io context until `done` (the asynchronous connect and handshake set it) or the
// deadline, which ends with a ConnectionError naming `what`.
void DataplaneClient::Impl::run_until(const std::function<bool()>& done, const std::string& what) {
  io.restart();
  io.run_for(kConnectDeadline);
  if (done()) return;
  close();
  io.restart();
  io.run();  // the cancelled operations' handlers
  throw ConnectionError(
      fmt::format("the data plane at {} did not {} within {} s", address.engine, what, kConnectDeadline.count()));
}

void DataplaneClient::Impl::connect_tcp() {
  std::string host, port;
  if (!split_engine_address(address.engine, host, port))
    throw ConnectionError(fmt::format("--engine '{}': give HOST:PORT ([::1]:7300 for IPv6)", address.engine));
  boost::system::error_code ec;
  tcp::resolver resolver(io);
  const tcp::resolver::results_type endpoints = resolver.resolve(host, port, ec);
  if (ec)
    throw ConnectionError(fmt::format("--engine {}: cannot resolve '{}': {}", address.engine, host, ec.message()));
  if (address.tls.any()) {
    if (!tls_context) {  // once: a reconnect reads the files again for nothing
      auto context = tls::make_mutual_tls_context(address.tls, tls::TlsSide::kClient);
      if (!context) throw ConnectionError(context.error().context);
      tls_context.emplace(std::move(*context));
    }
    tls.emplace(io, *tls_context);
    // The data plane's certificate must name the host dialled (its DNS name or IP address).
    tls->set_verify_callback(ssl::host_name_verification(host));
    asio::ip::make_address(host, ec);
    if (ec) SSL_set_tlsext_host_name(tls->native_handle(), host.c_str());  // SNI: for a name, not an address
  } else {
    plain.emplace(io);
  }
  tcp::socket& socket = tls ? tls->next_layer() : *plain;
  std::optional<boost::system::error_code> connected_ec;
  asio::async_connect(socket, endpoints,
                      [&](const boost::system::error_code& e, const tcp::endpoint&) { connected_ec = e; });
  run_until([&] { return connected_ec.has_value(); }, "accept the connection");
  if (*connected_ec)
    throw ConnectionError(
        fmt::format("cannot reach the data plane at {}: {} (is `linerate-dataplane --serve --listen "
                    "{}` running there?)",
                    address.engine, connected_ec->message(), address.engine));
  socket.set_option(tcp::no_delay(true), ec);
  if (!tls) return;
  std::optional<boost::system::error_code> handshake_ec;
  tls->async_handshake(ssl::stream_base::client, [&](const boost::system::error_code& e) { handshake_ec = e; });
  run_until([&] { return handshake_ec.has_value(); }, "finish the TLS handshake");
  if (*handshake_ec)
    throw ConnectionError(
        fmt::format("the TLS handshake with the data plane at {} failed: {} (its certificate must be "
                    "signed by --engine-ca {} and name {}; ours, --engine-cert, by the CA it was "
                    "given as --tls-ca)",
                    address.engine, handshake_ec->message(), address.tls.ca, host));
}

DataplaneClient::~DataplaneClient() = default;

bool DataplaneClient::connected() const noexcept { return impl_->connected; }

const DataplaneAddress& DataplaneClient::address() const noexcept { return impl_->address; }

bool DataplaneClient::hung_up() {
  if (!impl_->connected) return true;
  pollfd fd{impl_->native_handle(), POLLIN | POLLRDHUP, 0};
  if (::poll(&fd, 1, 0) <= 0) return false;  // nothing to read: still there
  if (impl_->tls) {
    // TLS sends records unasked (session tickets after the handshake): only the peer's
    // end of the stream says it hung up.
    if ((fd.revents & (POLLRDHUP | POLLHUP | POLLERR)) == 0) return false;
    impl_->close();
    return true;
  }
  char byte = 0;
  // Readable between calls: the end of the stream (0), or an error; a byte sent unasked
  // (none is) would be left for the next call's read.
  const ssize_t n = ::recv(fd.fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  if (n > 0 || (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))) return false;
  impl_->close();
  return true;
}

void DataplaneClient::reconnect() {
  impl_->connect();
  if (!impl_->client_name.empty()) hello(impl_->client_name);
}

void DataplaneClient::lost(const std::string& what) {
  impl_->close();
  throw ConnectionError(what);
}

void DataplaneClient::send(const std::string& requests) {
  const std::string& where = impl_->address.text();
  if (!impl_->connected) lost(fmt::format("the session with the data plane at {} has ended", where));
  boost::system::error_code ec;
  impl_->with_stream([&](auto& stream) { asio::write(stream, asio::buffer(requests), ec); });
  if (ec) lost(fmt::format("sending to {}: {}{}", where, ec.message(), impl_->hint(ec)));
}

DataplaneClient::Answer DataplaneClient::read_answer(int64_t id) {
  boost::system::error_code ec;
  const size_t n = impl_->with_stream(
      [&](auto& stream) { return asio::read_until(stream, asio::dynamic_buffer(impl_->buffer), '\n', ec); });
  if (ec) lost(fmt::format("the data plane at {} hung up: {}{}", impl_->address.text(), ec.message(), impl_->hint(ec)));
  nlohmann::json reply;
  try {
    reply = nlohmann::json::parse(impl_->buffer.data(), impl_->buffer.data() + n - 1);
  } catch (const nlohmann::json::exception& error) {
    impl_->buffer.erase(0, n);
    lost(fmt::format("the data plane answered something that is not JSON: {}", error.what()));
  }
  impl_->buffer.erase(0, n);
  if (!reply.is_object()) lost(fmt::format("the data plane answered {}, not a JSON-RPC response", reply.type_name()));
  // Answers come in the order asked: another id means the session is out of step.
  if (const auto got = reply.find("id"); got == reply.end() || !got->is_number_integer() || got->get<int64_t>() != id)
    lost(fmt::format("the data plane answered request {} where {} was asked",
                     got == reply.end() ? std::string("(none)") : got->dump(), id));
  Answer answer;
  try {
    if (const auto error = reply.find("error"); error != reply.end()) {
      answer.error_code = error->value("code", 0);
      answer.error = error->value("message", std::string("unknown error"));
      if (answer.error.empty()) answer.error = "unknown error";
    } else if (const auto result = reply.find("result"); result != reply.end()) {
      answer.result = std::move(*result);  // moved: an answer can be large
    }
  } catch (const nlohmann::json::exception& error) {
    lost(fmt::format("the data plane answered an error that is not JSON-RPC's: {}", error.what()));
  }
  return answer;
}

std::string DataplaneClient::request_line(const std::string& method, const nlohmann::json& params) {
  std::string request = api::make_request(next_id_++, method, params) + "\n";
  if (request.size() - 1 > api::kMaxRequestBytes)
    throw RpcCallError(static_cast<int>(api::RpcCode::kRequestTooLarge),
                       fmt::format("{} of {} bytes exceeds the control socket's {}-byte limit; not sent", method,
                                   request.size() - 1, api::kMaxRequestBytes));
  return request;
}

nlohmann::json DataplaneClient::call(const std::string& method, const nlohmann::json& params) {
  const int64_t id = next_id_;
  send(request_line(method, params));
  Answer answer = read_answer(id);
  if (!answer.ok()) throw RpcCallError(answer.error_code, answer.error);
  return std::move(answer.result);
}

std::vector<DataplaneClient::Answer> DataplaneClient::call_all(
    const std::vector<std::pair<std::string, nlohmann::json>>& calls) {
  const int64_t first = next_id_;
  std::string requests;
  for (const auto& [method, params] : calls) requests += request_line(method, params);
  send(requests);
  std::vector<Answer> answers;
  answers.reserve(calls.size());
  for (size_t i = 0; i < calls.size(); ++i) answers.push_back(read_answer(first + static_cast<int64_t>(i)));
  return answers;
}

nlohmann::json DataplaneClient::hello(const std::string& client_name) {
  impl_->client_name = client_name;
  try {
    return call("hello", {{"client", client_name}, {"protocol", api::kProtocolVersion}});
  } catch (const RpcCallError& error) {
    // Protocol 1 took no `protocol`, and refused it as a parameter it does not know.
    if (error.code() != static_cast<int>(api::RpcCode::kInvalidParams) ||
        std::string_view(error.what()).find("params.protocol") == std::string_view::npos)
      throw;
    throw RpcCallError(static_cast<int>(api::RpcCode::kInvalidRequest),
                       fmt::format("the data plane at {} is of an earlier release (protocol 1); this linerate speaks "
                                   "protocol {}: use a linerate of the same release",
                                   impl_->address.text(), api::kProtocolVersion));
  }
}

nlohmann::json DataplaneClient::methods() { return call("methods.list"); }

nlohmann::json DataplaneClient::call_raw(const std::string& method, const nlohmann::json& params) {
  return call(method, params);
}

}  // namespace lr::ctl
