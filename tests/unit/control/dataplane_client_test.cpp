// The data plane's client on a socket this test serves: a request longer than the
// socket carries is refused without being sent, the session going on; a data plane that
// hangs up is a ConnectionError, the client then disconnected until reconnect() opens a
// new session (hello said again); a hang-up between calls is found without a call.
#include "control/client/dataplane_client.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <optional>
#include <string>
#include <thread>

#include "lib/api/rpc.hpp"
#include "tests/unit/control/scripted_dataplane.hpp"

namespace lr::ctl {
namespace {

using nlohmann::json;

// Answers each request with {"method": ...}, one session at a time.
class FakeDataplane : public test::ListeningSocket {
 public:
  // Accepts one session and answers `n` request lines with {"method": ...}, then hangs up.
  void serve(int n) const {
    const int conn = ::accept(fd(), nullptr, nullptr);
    std::string buffer;
    for (int i = 0; i < n; ++i) {
      const std::optional<json> request = test::read_request(conn, buffer);
      if (!request) break;
      const std::string reply = api::make_result((*request)["id"], {{"method", (*request)["method"]}}) + "\n";
      EXPECT_EQ(::write(conn, reply.data(), reply.size()), static_cast<ssize_t>(reply.size()));
    }
    ::close(conn);
  }
};

TEST(DataplaneClient, ARequestLongerThanTheSocketCarriesIsNotSent) {
  FakeDataplane dp;
  std::thread server([&] { dp.serve(1); });
  DataplaneClient client(dp.path());
  const std::string huge(api::kMaxRequestBytes, 'x');
  try {
    client.call("stream.load", {{"path", huge}});
    FAIL() << "sent a request over the limit";
  } catch (const RpcCallError& e) {
    EXPECT_EQ(e.code(), static_cast<int>(api::RpcCode::kRequestTooLarge));
    const size_t line = api::make_request(1, "stream.load", {{"path", huge}}).size();
    EXPECT_EQ(std::string(e.what()), "stream.load of " + std::to_string(line) +
                                         " bytes exceeds the control socket's 67108864-byte limit; not sent");
  }
  // Nothing was sent: the session answers its next request.
  EXPECT_TRUE(client.connected());
  EXPECT_EQ(client.call("next")["method"], "next");
  server.join();
}

// A data plane of protocol 1 knew no `protocol` in hello and refused it as an unknown
// parameter: the client says which release it is instead.
TEST(DataplaneClient, AnEarlierProtocolIsNamedAtHello) {
  test::ListeningSocket dp;
  std::thread server([&] {
    const int conn = ::accept(dp.fd(), nullptr, nullptr);
    std::string buffer;
    const std::optional<json> request = test::read_request(conn, buffer);
    ASSERT_TRUE(request.has_value());
    EXPECT_EQ((*request)["params"]["protocol"], api::kProtocolVersion);
    const std::string reply = api::make_error((*request)["id"], api::RpcCode::kInvalidParams,
                                              "params.protocol: hello has no such parameter (it takes: client)") +
                              "\n";
    EXPECT_EQ(::write(conn, reply.data(), reply.size()), static_cast<ssize_t>(reply.size()));
    ::close(conn);
  });
  DataplaneClient client(dp.path());
  try {
    client.hello("t");
    FAIL() << "hello passed";
  } catch (const RpcCallError& e) {
    EXPECT_EQ(e.code(), static_cast<int>(api::RpcCode::kInvalidRequest));
    EXPECT_EQ(std::string(e.what()), "the data plane at " + dp.path() +
                                         " is of an earlier release (protocol 1); this linerate speaks protocol 2: "
                                         "use a linerate of the same release");
  }
  server.join();
}

TEST(DataplaneClient, AHangUpIsAConnectionErrorUntilReconnected) {
  FakeDataplane dp;
  std::thread server([&] {
    dp.serve(1);  // hello, then hangs up
    dp.serve(2);  // the new session: hello again, then one more
  });
  DataplaneClient client(dp.path());
  EXPECT_EQ(client.hello("t")["method"], "hello");
  EXPECT_THROW(client.call("lost"), ConnectionError);
  EXPECT_FALSE(client.connected());
  try {
    client.call("still");
    FAIL() << "a call on a broken session was sent";
  } catch (const ConnectionError& e) {
    EXPECT_EQ(std::string(e.what()), "the session with the data plane at " + dp.path() + " has ended");
  }
  client.reconnect();
  EXPECT_TRUE(client.connected());
  EXPECT_EQ(client.call("after")["method"], "after");
  server.join();
}

TEST(DataplaneClient, AHangUpIsFoundBetweenCallsWithoutACall) {
  FakeDataplane dp;
  std::thread server([&] { dp.serve(2); });  // two requests, then hangs up
  DataplaneClient client(dp.path());
  EXPECT_EQ(client.call("one")["method"], "one");
  EXPECT_FALSE(client.hung_up());  // open and idle: nothing to read
  EXPECT_EQ(client.call("two")["method"], "two");
  server.join();  // it has closed its end
  EXPECT_TRUE(client.hung_up());
  EXPECT_FALSE(client.connected());
  EXPECT_THROW(client.call("three"), ConnectionError);
}

}  // namespace
}  // namespace lr::ctl
