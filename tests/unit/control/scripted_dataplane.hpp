#pragma once
// Data planes for client tests, on a Unix socket in a directory of their own: the socket
// and the reading of request lines (ListeningSocket, read_request), and ScriptedDataplane,
// which takes one session and answers each request with the next scripted reply (a
// result, or a JSON-RPC error), keeping the requests it was sent for the test to check.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "lib/api/rpc.hpp"

namespace lr::ctl::test {

/// A listening Unix socket in a directory of its own; both removed with it.
class ListeningSocket {
 public:
  ListeningSocket() {
    char dir[] = "/tmp/lr-client-test-XXXXXX";
    dir_ = ::mkdtemp(dir);
    path_ = dir_ + "/dp.sock";
    fd_ = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path_.c_str(), sizeof(addr.sun_path) - 1);
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    EXPECT_EQ(::listen(fd_, 4), 0);
  }
  ~ListeningSocket() {
    ::close(fd_);
    std::filesystem::remove_all(dir_);
  }
  ListeningSocket(const ListeningSocket&) = delete;
  ListeningSocket& operator=(const ListeningSocket&) = delete;

  const std::string& path() const { return path_; }
  int fd() const { return fd_; }

 private:
  std::string dir_, path_;
  int fd_ = -1;
};

/// The next request line on `conn` (`buffer` keeps what came after it); none when the
/// client hung up first.
inline std::optional<nlohmann::json> read_request(int conn, std::string& buffer) {
  size_t newline;
  while ((newline = buffer.find('\n')) == std::string::npos) {
    char chunk[4096];
    const ssize_t got = ::read(conn, chunk, sizeof(chunk));
    if (got <= 0) return std::nullopt;
    buffer.append(chunk, static_cast<size_t>(got));
  }
  nlohmann::json request = nlohmann::json::parse(buffer.substr(0, newline));
  buffer.erase(0, newline + 1);
  return request;
}

struct ScriptedReply {
  nlohmann::json result;
  std::optional<api::RpcCode> error;  ///< an error reply with `message` instead of the result
  std::string message;
};

inline ScriptedReply answer(nlohmann::json result) { return {std::move(result), std::nullopt, ""}; }
inline ScriptedReply refusal(api::RpcCode code, std::string message) { return {nullptr, code, std::move(message)}; }

class ScriptedDataplane {
 public:
  /// Serves `replies` on a thread of its own, one per request, in order.
  explicit ScriptedDataplane(std::vector<ScriptedReply> replies) : replies_(std::move(replies)) {
    server_ = std::thread([this] { serve(); });
  }
  ~ScriptedDataplane() {
    ::shutdown(socket_.fd(), SHUT_RDWR);  // an accept() still waiting returns
    if (server_.joinable()) server_.join();
  }
  ScriptedDataplane(const ScriptedDataplane&) = delete;
  ScriptedDataplane& operator=(const ScriptedDataplane&) = delete;

  const std::string& path() const { return socket_.path(); }
  /// The requests it was sent ({"method", "params", ...}), once every reply went out (it
  /// waits for that: call it after the calls).
  const std::vector<nlohmann::json>& requests() {
    if (server_.joinable()) server_.join();
    return requests_;
  }

 private:
  void serve() {
    const int conn = ::accept(socket_.fd(), nullptr, nullptr);
    if (conn < 0) return;
    std::string buffer;
    for (const ScriptedReply& reply : replies_) {
      std::optional<nlohmann::json> request = read_request(conn, buffer);
      if (!request) break;
      const nlohmann::json& id = (*request)["id"];
      const std::string line =
          (reply.error ? api::make_error(id, *reply.error, reply.message) : api::make_result(id, reply.result)) + "\n";
      requests_.push_back(std::move(*request));
      EXPECT_EQ(::write(conn, line.data(), line.size()), static_cast<ssize_t>(line.size()));
    }
    ::close(conn);
  }

  ListeningSocket socket_;
  std::vector<ScriptedReply> replies_;
  std::vector<nlohmann::json> requests_;
  std::thread server_;
};

}  // namespace lr::ctl::test
