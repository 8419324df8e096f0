#pragma once
// One client connection of the control socket, over any stream (a Unix socket, TCP, TLS
// over TCP): read a line, answer it, read the next. One request at a time, so a slow
// client only slows itself. Its session's ports are released when it closes.

#include <boost/asio/read_until.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/write.hpp>
#include <fmt/format.h>

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "dataplane/mgmt/dispatcher.hpp"

namespace lr::dp {

/// Closes a stream's socket (a TLS stream's too, without its close_notify: the session
/// is over either way).
template <class Socket>
void close_socket(Socket& socket) {
  boost::system::error_code ignored;
  socket.close(ignored);
}
template <class Socket>
void close_socket(boost::asio::ssl::stream<Socket>& stream) {
  close_socket(stream.next_layer());
}

template <class Stream>
class RpcConnection : public std::enable_shared_from_this<RpcConnection<Stream>> {
 public:
  RpcConnection(Stream stream, const Dispatcher& dispatcher, PortOwnership& ownership, Session session,
                const std::function<void(uint64_t)>& on_end)
      : stream_(std::move(stream)),
        dispatcher_(dispatcher),
        ownership_(ownership),
        session_(std::move(session)),
        on_end_(on_end) {}

  void start() { read(); }

  /// Answers with an error and closes (a peer the server does not serve).
  void refuse(const std::string& message) {
    send(api::make_error(nullptr, api::RpcCode::kInvalidRequest, message) + "\n", true);
  }

  Stream& stream() noexcept { return stream_; }
  Session& session() noexcept { return session_; }

 private:
  void read() {
    auto self = this->shared_from_this();
    // One byte over the limit: a line that long cannot be a valid request.
    boost::asio::async_read_until(stream_, boost::asio::dynamic_buffer(buffer_, api::kMaxRequestBytes + 1), '\n',
                                  [this, self](const boost::system::error_code& ec, size_t n) {
                                    if (ec == boost::asio::error::not_found) return discard(buffer_.size());
                                    if (ec) return close();
                                    on_line(n);
                                  });
  }

  void on_line(size_t n) {
    std::string line = buffer_.substr(0, n - 1);
    buffer_.erase(0, n);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) return read();
    // One request at a time per connection: the next is read once this one is answered,
    // which for an asynchronous method is later, while other connections go on.
    auto self = this->shared_from_this();
    dispatcher_.handle(session_, line, [this, self](std::string reply) {
      if (reply.empty()) read();
      else send(std::move(reply) + "\n", false);
    });
  }

  // A line over the limit: read on to its newline, keeping none of it, then answer it
  // with an error; the session (and the ports it owns) stays, and the next line is read.
  void discard(size_t n_dropped) {
    buffer_.clear();
    chunk_.resize(64 * 1024);
    auto self = this->shared_from_this();
    stream_.async_read_some(boost::asio::buffer(chunk_), [this, self, n_dropped](const boost::system::error_code& ec,
                                                                                 size_t n) {
      if (ec) return close();
      const size_t newline = std::string_view(chunk_.data(), n).find('\n');
      if (newline == std::string_view::npos) return discard(n_dropped + n);
      buffer_.assign(chunk_.data() + newline + 1, n - newline - 1);
      send(api::make_error(nullptr, api::RpcCode::kRequestTooLarge,
                           fmt::format("request of {} bytes exceeds the {}-byte limit; it was read to its newline and "
                                       "discarded (the session stays open)",
                                       n_dropped + newline, api::kMaxRequestBytes)) +
               "\n",
           false);
    });
  }

  void send(std::string data, bool close_after) {
    auto self = this->shared_from_this();
    out_ = std::move(data);
    boost::asio::async_write(stream_, boost::asio::buffer(out_),
                             [this, self, close_after](const boost::system::error_code& ec, size_t) {
                               if (ec || close_after) {
                                 close();
                                 return;
                               }
                               read();
                             });
  }

  void close() {
    close_socket(stream_);
    if (closed_) return;
    closed_ = true;
    ownership_.release_all(session_.id);
    if (on_end_) on_end_(session_.id);
  }

  Stream stream_;
  const Dispatcher& dispatcher_;
  PortOwnership& ownership_;
  Session session_;
  std::function<void(uint64_t)> on_end_;
  bool closed_ = false;
  std::string buffer_;
  std::string chunk_;  ///< what discard() reads into
  std::string out_;
};

}  // namespace lr::dp
