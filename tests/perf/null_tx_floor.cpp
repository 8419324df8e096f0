// The floor of any TX benchmark on net_null: one worker lcore takes bursts of 32 mbufs
// from a mempool and hands them to rte_eth_tx_burst, writing nothing per frame (the
// template was written once per mbuf, as linerate's pools are). What remains is the
// mempool and net_null's own per-frame free, which every generator on net_null pays.
// Its Mpps is the most any generator can reach there, so it says how much of a TX
// loop's time is its own. Run by scripts/bench.sh; never part of the test run.
//
// Usage: null_tx_floor SECONDS [EAL args...], e.g. 5 -l 0-1 --no-pci --vdev net_null0

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr uint16_t kBurst = 32;      // linerate's kTxBurst and testpmd's --burst
constexpr unsigned kPoolCache = 256;  // linerate's TX pool cache
constexpr unsigned kPoolSize = 8191;

struct Loop {
  uint16_t port = 0;
  rte_mempool* pool = nullptr;
  uint64_t end_tsc = 0;
  uint64_t sent = 0;
  uint64_t tsc_used = 0;
};

int tx_loop(void* arg) {
  Loop& loop = *static_cast<Loop*>(arg);
  rte_mbuf* pkts[kBurst];
  uint64_t sent = 0;
  const uint64_t start = rte_rdtsc();
  while (rte_rdtsc() < loop.end_tsc) {
    if (rte_mempool_get_bulk(loop.pool, reinterpret_cast<void**>(pkts), kBurst) != 0) continue;
    const uint16_t n = rte_eth_tx_burst(loop.port, 0, pkts, kBurst);
    if (n < kBurst) rte_pktmbuf_free_bulk(pkts + n, kBurst - n);
    sent += n;
  }
  loop.tsc_used = rte_rdtsc() - start;
  loop.sent = sent;
  return 0;
}

void fill(rte_mempool*, void*, void* obj, unsigned) {
  auto* m = static_cast<rte_mbuf*>(obj);
  std::memset(rte_pktmbuf_mtod(m, void*), 0, 60);
  m->data_len = 60;
  m->pkt_len = 60;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s SECONDS [EAL args...]\n", argv[0]);
    return 2;
  }
  const double seconds = std::atof(argv[1]);
  argv[1] = argv[0];
  if (rte_eal_init(argc - 1, argv + 1) < 0 || rte_eth_dev_count_avail() == 0) {
    std::fprintf(stderr, "null_tx_floor: EAL init failed or no port (pass --vdev net_null0)\n");
    return 1;
  }
  const unsigned worker = rte_get_next_lcore(rte_lcore_id(), 1, 0);
  if (worker >= RTE_MAX_LCORE) {
    std::fprintf(stderr, "null_tx_floor: needs two lcores (-l 0-1)\n");
    return 1;
  }
  Loop loop;
  loop.pool = rte_pktmbuf_pool_create("floor", kPoolSize, kPoolCache, 8, RTE_PKTMBUF_HEADROOM + 64,
                                      static_cast<int>(rte_lcore_to_socket_id(worker)));
  rte_eth_conf conf{};
  if (loop.pool == nullptr || rte_eth_dev_configure(loop.port, 0, 1, &conf) != 0 ||
      rte_eth_tx_queue_setup(loop.port, 0, 1024, rte_eth_dev_socket_id(loop.port), nullptr) != 0 ||
      rte_eth_dev_start(loop.port) != 0) {
    std::fprintf(stderr, "null_tx_floor: port or mempool set-up failed\n");
    return 1;
  }
  rte_mempool_obj_iter(loop.pool, fill, nullptr);
  loop.end_tsc = rte_rdtsc() + static_cast<uint64_t>(seconds * static_cast<double>(rte_get_tsc_hz()));
  rte_eal_remote_launch(tx_loop, &loop, worker);
  rte_eal_mp_wait_lcore();
  const double elapsed = static_cast<double>(loop.tsc_used) / static_cast<double>(rte_get_tsc_hz());
  std::printf("Mpps=%.2f\n", static_cast<double>(loop.sent) / elapsed / 1e6);
  rte_eth_dev_stop(loop.port);
  rte_eth_dev_close(loop.port);
  rte_mempool_free(loop.pool);
  rte_eal_cleanup();
  return 0;
}
