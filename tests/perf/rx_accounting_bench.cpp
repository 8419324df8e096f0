// RX accounting per lcore: the work after rte_eth_rx_burst (find the signature, extend
// the sequence, track loss / reorder / duplicates, record latency) on bursts of 32
// signed 64-byte frames held in real mbufs. No PMD: this is the cost linerate adds to
// a receive loop. The mbufs and the streams' state are in DPDK memory, on hugepages where
// the host has them free, as the data plane's are (on 4 KiB pages, each frame's mbuf and
// stream cost TLB misses the data plane does not have). Run by scripts/bench.sh; never
// part of the test run.

#include <benchmark/benchmark.h>
#include <rte_eal.h>
#include <rte_mbuf.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "dataplane/capture/packet_filter.hpp"
#include "dataplane/eal/numa_alloc.hpp"
#include "dataplane/fastpath/lcore_ctx.hpp"
#include "dataplane/fastpath/packet_writer.hpp"
#include "dataplane/fastpath/worker.hpp"
#include "dataplane/frames/stream_builder.hpp"

namespace {


// range(0): streams; range(1): frames cycled through. 256 frames stay in L1/L2 (the
// compute cost); 4096 frames (a 1024-descriptor ring, mempool caches and more) come
// from memory, the worst case: a NIC's DMA usually leaves them in the LLC. range(2): 1,
// the queue has a capture whose filter matches none of the frames (the cost of looking).
void BM_RxAccounting(benchmark::State& state) {
  const auto n_streams = static_cast<uint16_t>(state.range(0));
  const auto kFrames = static_cast<uint32_t>(state.range(1));
  rte_mempool* pool = rte_pktmbuf_pool_create("bench", kFrames * 2, 256, 8, 2048, SOCKET_ID_ANY);
  std::vector<rte_mbuf*> mbufs(kFrames);
  if (pool == nullptr || rte_pktmbuf_alloc_bulk(pool, mbufs.data(), kFrames) != 0) {
    state.SkipWithError("mempool");
    return;
  }
  lr::api::StreamSpec cfg;
  cfg.vlan = lr::api::VlanSpec{100, 3};
  std::vector<lr::wire::TxStreamPlan> plans;
  for (uint16_t s = 0; s < n_streams; ++s) plans.push_back(lr::plan::build_stream_plan(cfg, s));
  // Frames of n_streams streams interleaved, each stream in sequence.
  for (uint32_t i = 0; i < kFrames; ++i) {
    rte_mbuf* m = mbufs[i];
    const lr::wire::TxStreamPlan& plan = plans[i % n_streams];
    auto* data = rte_pktmbuf_mtod(m, uint8_t*);
    std::copy(plan.template_bytes.begin(), plan.template_bytes.end(), data);
    uint16_t last = 0;
    lr::fast::write_frame(data, plan, plan.sizes[0], last,
                          lr::wire::Signature{plan.stream_id, 0, i / n_streams, 1000},
                          lr::fast::cursor_at(plan, i / n_streams));
    m->data_len = m->pkt_len = plan.sizes[0].data_len;
  }
  // The stream state where the data plane keeps it (dataplane/plan/run_state.cpp): DPDK
  // memory, on hugepages where the host has them (fewer TLB misses with a thousand streams).
  auto streams = lr::dp::NumaArray<lr::fast::RxStream>::make(n_streams, SOCKET_ID_ANY);
  auto trackers = lr::dp::NumaArray<lr::fast::SeqTracker>::make(n_streams, SOCKET_ID_ANY);
  if (!streams.ok() || !trackers.ok()) {
    state.SkipWithError("stream state");
    return;
  }
  for (uint16_t s = 0; s < n_streams; ++s) {
    streams[s].n_lanes = 1;
    streams[s].late_ns = 10'000'000;
    streams[s].first_tracker = s;
  }
  lr::fast::LcoreCtx ctx;
  ctx.rx_streams = streams.data();
  ctx.rx_trackers = trackers.data();
  ctx.n_streams = n_streams;
  lr::fast::RxQueue queue;
  lr::fast::CaptureTap tap;
  auto filter = lr::capture::PacketFilter::compile("udp dst port 9", 1518);
  if (state.range(2) == 1) {
    if (!filter) {
      state.SkipWithError("filter");
      return;
    }
    tap.filter = filter->bpf();
    tap.filter_jit = filter->jit();
    tap.open = true;
    queue.capture = &tap;
  }
  uint32_t at = 0;
  uint64_t frames = 0;
  for (auto _ : state) {
    if (at == kFrames) {
      at = 0;
      for (size_t s = 0; s < trackers.size(); ++s) trackers[s] = lr::fast::SeqTracker{};  // the sequence starts over
    }
    lr::fast::rx_process_burst(ctx, queue, mbufs.data() + at, lr::fast::kRxBurst, 2000, 2000);
    at += lr::fast::kRxBurst;
    frames += lr::fast::kRxBurst;
  }
  state.counters["Mpps"] = benchmark::Counter(static_cast<double>(frames) / 1e6, benchmark::Counter::kIsRate);
  if (trackers[0].counts().duplicate != 0) state.SkipWithError("unexpected duplicates");
  if (tap.matched != 0) state.SkipWithError("the capture's filter matched a frame");
  rte_pktmbuf_free_bulk(mbufs.data(), kFrames);
  rte_mempool_free(pool);
}
// 1024 streams interleaved frame by frame, 16 frames each: every frame's stream state
// (tracker, histogram, counters) is another stream's, out of cache as in a fabric test.
BENCHMARK(BM_RxAccounting)
    ->ArgNames({"streams", "frames", "capture"})
    ->Args({1, 256, 0})
    ->Args({16, 256, 0})
    ->Args({16, 4096, 0})
    ->Args({16, 4096, 1})
    ->Args({256, 4096, 0})
    ->Args({1024, 16384, 0});

bool hugepages_free() {
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);)
    if (line.starts_with("HugePages_Free:")) return std::strtoull(line.c_str() + 15, nullptr, 10) > 0;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  // Hugepages where the host has them free, as the data plane runs (its mbufs and stream
  // state on them); else 4 KiB pages.
  const bool huge = hugepages_free();
  std::vector<std::string> eal{"rx_accounting_bench", "--no-pci", "--log-level", "lib.eal:warning", "-l", "0"};
  if (huge) eal.insert(eal.end(), {"--in-memory"});
  else eal.insert(eal.end(), {"--no-huge", "-m", "256", "--no-shconf"});
  std::vector<char*> eal_argv;
  for (std::string& a : eal) eal_argv.push_back(a.data());
  if (rte_eal_init(static_cast<int>(eal_argv.size()), eal_argv.data()) < 0) {
    std::fprintf(stderr, "EAL init failed\n");
    return 1;
  }
  benchmark::AddCustomContext("memory", huge ? "hugepages" : "4 KiB pages (no hugepages free)");
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  rte_eal_cleanup();
  return 0;
}
