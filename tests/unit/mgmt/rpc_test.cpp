// The control protocol's codec and dispatch: every error path answers with its code
// and a message a person can act on.

#include <gtest/gtest.h>

#include "lib/api/rpc.hpp"
#include "dataplane/mgmt/dispatcher.hpp"

namespace lr::dp {
namespace {

using api::RpcCode;
using nlohmann::json;

class RpcDispatch : public ::testing::Test {
 protected:
  void SetUp() override {
    dispatcher_.add("echo", "returns params {text, n: 0-10, list?: [0-7]}", false, [](Session&, const api::Params& p) {
      return json{{"text", p.string("text")}, {"n", p.number("n", 0, 10)}, {"list", p.integers("list", 0, 7)}};
    });
    dispatcher_.add("change", "changes p0", true, [this](Session& s, const api::Params&) {
      ownership_.check_may_change(s, "p0");
      return json{{"changed", true}};
    });
    dispatcher_.add("boom", "throws", false, [](Session&, const api::Params&) -> json {
      throw std::runtime_error("internal failure");
    });
  }

  json call(Session& session, const std::string& line) { return json::parse(dispatcher_.handle(session, line)); }

  static void expect_error(const json& reply, RpcCode code, const std::string& message) {
    ASSERT_TRUE(reply.contains("error")) << reply.dump();
    EXPECT_EQ(reply["error"]["code"], static_cast<int>(code));
    EXPECT_EQ(reply["error"]["message"], message);
  }

  Dispatcher dispatcher_;
  PortOwnership ownership_;
  Session a_{1, Peer{100, 0, 0, "", ""}, "alice"};
  Session b_{2, Peer{200, 0, 0, "", ""}, ""};
};

TEST_F(RpcDispatch, AnswersAValidRequest) {
  const json reply = call(a_, R"({"jsonrpc":"2.0","id":7,"method":"echo","params":{"text":"hi","n":3}})");
  EXPECT_EQ(reply["id"], 7);
  EXPECT_EQ(reply["result"]["text"], "hi");
  EXPECT_EQ(reply["result"]["n"], 3.0);
}

// Our words and the byte where parsing stopped; the JSON library's own wording is its own.
TEST_F(RpcDispatch, NotJson) {
  const json reply = call(a_, "{\"jsonrpc\": ");
  EXPECT_EQ(reply["error"]["code"], static_cast<int>(RpcCode::kParseError));
  EXPECT_TRUE(reply["error"]["message"].get<std::string>().starts_with("request is not JSON: byte 13: ")) << reply;
}

// Found by the fuzzer: a number beyond a double is a parse error answered, not an abort.
TEST_F(RpcDispatch, NumberBeyondADoubleIsAParseError) {
  const json reply = call(a_, R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"n":9990000090900e9999}})");
  EXPECT_EQ(reply["error"]["code"], static_cast<int>(RpcCode::kParseError)) << reply;
}

TEST_F(RpcDispatch, NotARequest) {
  expect_error(call(a_, "[1,2]"), RpcCode::kInvalidRequest, "request must be a JSON object");
  expect_error(call(a_, R"({"id":1,"method":"echo"})"), RpcCode::kInvalidRequest,
               "request must have \"jsonrpc\": \"2.0\"");
  expect_error(call(a_, R"({"jsonrpc":"2.0","id":1})"), RpcCode::kInvalidRequest,
               "request must have a \"method\" string");
  expect_error(call(a_, R"({"jsonrpc":"2.0","id":[1],"method":"echo"})"), RpcCode::kInvalidRequest,
               "\"id\" must be a string, an integer or null");
  expect_error(call(a_, R"({"jsonrpc":"2.0","id":1,"method":"echo","params":[1]})"), RpcCode::kInvalidRequest,
               "\"params\" must be an object of named parameters");
  expect_error(call(a_, R"({"jsonrpc":"2.0","id":1,"method":"echo","extra":1})"), RpcCode::kInvalidRequest,
               "unknown member \"extra\" in the request");
}

TEST_F(RpcDispatch, UnknownMethod) {
  const json reply = call(a_, R"({"jsonrpc":"2.0","id":"x","method":"nope"})");
  EXPECT_EQ(reply["id"], "x");
  expect_error(reply, RpcCode::kMethodNotFound, "no method 'nope' (methods.list lists them)");
}

TEST_F(RpcDispatch, WrongParams) {
  expect_error(call(a_, R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"n":1}})"), RpcCode::kInvalidParams,
               "params.text: is required");
  expect_error(call(a_, R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"text":5,"n":1}})"),
               RpcCode::kInvalidParams, "params.text: expected a string, found number");
  expect_error(call(a_, R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"text":"a","n":11}})"),
               RpcCode::kInvalidParams, "params.n: 11 is out of range [0, 10]");
  expect_error(call(a_, R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"text":"a","n":1,"list":[3,"4"]}})"),
               RpcCode::kInvalidParams, "params.list: expected an array of integers 0-7, found \"4\"");
  expect_error(call(a_, R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"text":"a","n":1,"list":[8]}})"),
               RpcCode::kInvalidParams, "params.list: 8 is out of range [0, 7]");
  expect_error(call(a_, R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"text":"a","n":1,"list":3}})"),
               RpcCode::kInvalidParams, "params.list: expected an array of integers 0-7, found number");
  const json ok = call(a_, R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"text":"a","n":1,"list":[3,4]}})");
  EXPECT_EQ(ok["result"]["list"], json::parse("[3,4]"));
}

// A misspelled parameter is refused before the method runs, with the names there are.
TEST_F(RpcDispatch, UnknownParamsAreRefusedNamingTheOnesThereAre) {
  expect_error(call(a_, R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"text":"a","n":1,"lst":[3]}})"),
               RpcCode::kInvalidParams, "params.lst: echo has no such parameter (it takes: text, n, list)");
  expect_error(call(a_, R"({"jsonrpc":"2.0","id":1,"method":"change","params":{"port":"p0"}})"), RpcCode::kInvalidParams,
               "params.port: change takes no parameters");
  EXPECT_EQ(dispatcher_.list()[2]["params"], json::parse(R"(["text", "n", "list"])"));
}

TEST(DeclaredParams, TopLevelKeysOfTheHelpsParamsObject) {
  using V = std::vector<std::string>;
  EXPECT_EQ(declared_params("Sets it: params {port, mode: off|rs, keep?: bool (stays; else not)}. Returns it."),
            (V{"port", "mode", "keep"}));
  EXPECT_EQ(declared_params(R"(Link. params {port, speed?: "50G" (fixed, else {a, b}), advertise?: [m, n], up?})"),
            (V{"port", "speed", "advertise", "up"}));
  EXPECT_EQ(declared_params("Counters. params: {port, filter?}: names containing filter."), (V{"port", "filter"}));
  EXPECT_EQ(declared_params("Per-stream results so far (params are none)."), V{});
}

TEST_F(RpcDispatch, TooLarge) {
  const std::string big = R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"text":")" +
                          std::string(api::kMaxRequestBytes, 'x') + R"("}})";
  expect_error(call(a_, big), RpcCode::kRequestTooLarge,
               "request of " + std::to_string(big.size()) + " bytes exceeds the " + std::to_string(api::kMaxRequestBytes) + "-byte limit");
}

// Nesting is bounded before a tree is built: a million deep is refused at once, naming
// the byte, and a request at the bound is answered.
TEST_F(RpcDispatch, NestedDeeperThanTheBoundIsAnInvalidRequest) {
  const std::string deep = R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"text":)" +
                           std::string(1'000'000, '[') + std::string(1'000'000, ']') + "}}";
  expect_error(call(a_, deep), RpcCode::kInvalidRequest,
               "request is JSON nested deeper than 64 levels at byte 120");
  // 62 arrays inside params: 64 levels in all, read (and refused by the method, not the codec).
  const std::string at_bound = R"({"jsonrpc":"2.0","id":2,"method":"echo","params":{"text":"t","n":1,"list":)" +
                               std::string(62, '[') + std::string(62, ']') + "}}";
  expect_error(call(a_, at_bound), RpcCode::kInvalidParams,
               "params.list: expected an array of integers 0-7, found " + std::string(61, '[') + std::string(61, ']'));
}

TEST_F(RpcDispatch, HandlerFailureIsAnInternalError) {
  expect_error(call(a_, R"({"jsonrpc":"2.0","id":1,"method":"boom"})"), RpcCode::kInternalError, "internal failure");
}

TEST_F(RpcDispatch, NotificationGetsNoReply) {
  EXPECT_EQ(dispatcher_.handle(a_, R"({"jsonrpc":"2.0","method":"echo","params":{"text":"a","n":1}})"), "");
}

TEST_F(RpcDispatch, OwnedPortRefusesOthersUntilReleased) {
  ownership_.acquire(a_, {"p0"});
  EXPECT_EQ(call(a_, R"({"jsonrpc":"2.0","id":1,"method":"change"})")["result"]["changed"], true);
  expect_error(call(b_, R"({"jsonrpc":"2.0","id":1,"method":"change"})"), RpcCode::kPortOwned,
               "port 'p0' is owned by session 1 ('alice', pid 100, uid 0); it can be changed once that session "
               "releases it or disconnects");
  EXPECT_THROW(ownership_.acquire(b_, {"p0"}), api::RpcError);
  ownership_.release_all(a_.id);  // the connection closed
  EXPECT_EQ(call(b_, R"({"jsonrpc":"2.0","id":1,"method":"change"})")["result"]["changed"], true);
  ownership_.acquire(b_, {"p0"});
  EXPECT_EQ(ownership_.owner("p0"), 2u);
  ownership_.release(b_, {});
  EXPECT_FALSE(ownership_.owner("p0").has_value());
}

TEST_F(RpcDispatch, OwnerOverTheNetworkIsNamedByAddressAndCertificate) {
  const Session remote{3, Peer{0, 0, 0, "192.0.2.7:51234", "controller-a"}, "linerate-cli"};
  ownership_.acquire(remote, {"p0"});
  expect_error(call(a_, R"({"jsonrpc":"2.0","id":1,"method":"change"})"), RpcCode::kPortOwned,
               "port 'p0' is owned by session 3 ('linerate-cli', 192.0.2.7:51234, certificate 'controller-a'); it can "
               "be changed once that session releases it or disconnects");
  EXPECT_EQ(ownership_.new_session_id(), 1u);  // ids count up, shared by the listeners
  EXPECT_EQ(ownership_.new_session_id(), 2u);
}

TEST_F(RpcDispatch, ListsMethodsWithHelp) {
  const json list = dispatcher_.list();
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0]["name"], "boom");
  EXPECT_EQ(list[1]["mutating"], true);
}

}  // namespace
}  // namespace lr::dp
