// The HTTP servers' connection cap: served up to the cap, refused up to the refusals'
// bound, dropped beyond; a ticket gives its place back once, when it goes.
#include "control/http/connection_gate.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <utility>
#include <vector>

namespace lr::ctl {
namespace {

using Verdict = ConnectionGate::Verdict;

TEST(ConnectionGate, ServesToTheCapRefusesToTheBoundThenDrops) {
  ConnectionGate gate(2, 1);
  std::vector<ConnectionGate::Entry> held;
  for (const Verdict expected : {Verdict::kServe, Verdict::kServe, Verdict::kRefuse, Verdict::kDrop, Verdict::kDrop}) {
    held.push_back(gate.enter());
    EXPECT_EQ(held.back().verdict, expected) << held.size();
  }
  EXPECT_EQ(gate.open(), 2U);
  EXPECT_EQ(gate.refusing(), 1U);
  EXPECT_EQ(gate.refusal_text(), "linerate holds at most 2 connections at once; 2 are open");
}

TEST(ConnectionGate, AClosedConnectionFreesItsPlaceOnce) {
  ConnectionGate gate(1, 1);
  std::optional<ConnectionGate::Entry> first = gate.enter();
  ASSERT_EQ(first->verdict, Verdict::kServe);
  ConnectionGate::Ticket moved = std::move(first->ticket);
  first.reset();  // the moved-from ticket holds nothing
  EXPECT_EQ(gate.open(), 1U);
  EXPECT_EQ(gate.enter().verdict, Verdict::kRefuse);  // its refusal ticket goes at once
  EXPECT_EQ(gate.refusing(), 0U);
  moved = ConnectionGate::Ticket();  // the connection closes
  EXPECT_EQ(gate.open(), 0U);
  ConnectionGate::Entry next = gate.enter();
  EXPECT_EQ(next.verdict, Verdict::kServe);
  EXPECT_EQ(gate.open(), 1U);
}

}  // namespace
}  // namespace lr::ctl
