// free_received: every mbuf of a received burst goes back to its pool exactly once, the
// plain ones by the bulk path and the others (segments, clones, references held
// elsewhere) by rte_pktmbuf_free, whatever the pools and however long the burst.

#include "dataplane/fastpath/received_mbufs.hpp"

#include <gtest/gtest.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <vector>

#include "tests/support/eal_env.hpp"

namespace lr::test {

std::vector<std::string> eal_test_args() {
  return {"vdev_received_mbufs", "--lcores=0@0", "--no-huge", "-m", "128", "--no-pci", "--no-shconf",
          "--log-level", "lib.eal:warning"};
}

namespace {

constexpr unsigned kPoolSize = 255;

class ReceivedMbufs : public ::testing::Test {
 protected:
  void SetUp() override {
    a_ = rte_pktmbuf_pool_create("recv_a", kPoolSize, 32, 0, 2048, SOCKET_ID_ANY);
    b_ = rte_pktmbuf_pool_create("recv_b", kPoolSize, 32, 0, 2048, SOCKET_ID_ANY);
    ASSERT_NE(a_, nullptr);
    ASSERT_NE(b_, nullptr);
  }
  void TearDown() override {
    rte_mempool_free(a_);
    rte_mempool_free(b_);
  }
  static unsigned out_of(const rte_mempool* pool) { return kPoolSize - rte_mempool_avail_count(pool); }
  static rte_mbuf* alloc(rte_mempool* pool) {
    rte_mbuf* m = rte_pktmbuf_alloc(pool);
    EXPECT_NE(m, nullptr);
    return m;
  }

  rte_mempool* a_ = nullptr;
  rte_mempool* b_ = nullptr;
};

TEST_F(ReceivedMbufs, AnEmptyBurstFreesNothing) {
  rte_mbuf* m = alloc(a_);
  lr::fast::free_received(&m, 0);
  EXPECT_EQ(out_of(a_), 1u);
  rte_pktmbuf_free(m);
}

TEST_F(ReceivedMbufs, PlainMbufsOfTwoPoolsInterleavedAllGoBack) {
  std::vector<rte_mbuf*> burst;
  for (int i = 0; i < 32; ++i) burst.push_back(alloc(i % 3 == 0 ? b_ : a_));
  ASSERT_EQ(out_of(a_), 21u);
  ASSERT_EQ(out_of(b_), 11u);
  lr::fast::free_received(burst.data(), static_cast<uint16_t>(burst.size()));
  EXPECT_EQ(out_of(a_), 0u);
  EXPECT_EQ(out_of(b_), 0u);
}

TEST_F(ReceivedMbufs, ABurstLongerThanOneBatchAllGoesBack) {
  std::vector<rte_mbuf*> burst(200);
  ASSERT_EQ(rte_pktmbuf_alloc_bulk(a_, burst.data(), 200), 0);
  lr::fast::free_received(burst.data(), 200);
  EXPECT_EQ(out_of(a_), 0u);
}

TEST_F(ReceivedMbufs, EverySegmentOfAChainGoesBackAndComesOutPlain) {
  rte_mbuf* head = alloc(a_);
  rte_mbuf* tail = alloc(b_);
  ASSERT_EQ(rte_pktmbuf_chain(head, tail), 0);
  ASSERT_EQ(head->nb_segs, 2);
  rte_mbuf* burst[] = {alloc(a_), head, alloc(a_)};
  lr::fast::free_received(burst, 3);
  EXPECT_EQ(out_of(a_), 0u);
  EXPECT_EQ(out_of(b_), 0u);  // the second segment too
  std::vector<rte_mbuf*> all(kPoolSize);
  ASSERT_EQ(rte_pktmbuf_alloc_bulk(a_, all.data(), kPoolSize), 0);
  for (const rte_mbuf* m : all) {
    EXPECT_EQ(m->next, nullptr);
    EXPECT_EQ(m->nb_segs, 1);
  }
  rte_pktmbuf_free_bulk(all.data(), kPoolSize);
}

TEST_F(ReceivedMbufs, AnMbufHeldElsewhereStaysOutWithOneReferenceLess) {
  rte_mbuf* held = alloc(a_);
  rte_mbuf_refcnt_update(held, 1);
  rte_mbuf* burst[] = {alloc(a_), held};
  lr::fast::free_received(burst, 2);
  EXPECT_EQ(out_of(a_), 1u);
  EXPECT_EQ(rte_mbuf_refcnt_read(held), 1);
  lr::fast::free_received(&held, 1);
  EXPECT_EQ(out_of(a_), 0u);
}

TEST_F(ReceivedMbufs, AClonesBufferGoesBackWithItsLastReference) {
  rte_mbuf* original = alloc(a_);
  rte_mbuf* clone = rte_pktmbuf_clone(original, b_);
  ASSERT_NE(clone, nullptr);
  ASSERT_FALSE(RTE_MBUF_DIRECT(clone));
  lr::fast::free_received(&clone, 1);
  EXPECT_EQ(out_of(b_), 0u);
  EXPECT_EQ(out_of(a_), 1u);
  EXPECT_EQ(rte_mbuf_refcnt_read(original), 1);  // detached: the clone held a reference
  lr::fast::free_received(&original, 1);
  EXPECT_EQ(out_of(a_), 0u);
}

}  // namespace
}  // namespace lr::test
