// RX per lcore: the work after rte_eth_rx_burst (find the signature, extend the
// sequence, track loss / reorder / duplicates, record latency, free the mbufs) on bursts
// of 32 signed 64-byte frames held in real mbufs. No PMD: this is the cost linerate adds
// to a receive loop, and the one pool get of a PMD's refill that balances the free. The
// mbufs and the streams' state are in DPDK memory, on hugepages where the host has them
// free, as the data plane's are (on 4 KiB pages, each frame's mbuf and stream cost TLB
// misses the data plane does not have). Run by scripts/bench.sh; never part of the test
// run.

#include <benchmark/benchmark.h>
#include <emmintrin.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_mbuf.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "dataplane/capture/packet_filter.hpp"
#include "dataplane/eal/numa_alloc.hpp"
#include "dataplane/fastpath/lcore_ctx.hpp"
#include "dataplane/fastpath/received_mbufs.hpp"
#include "dataplane/fastpath/slow_path.hpp"
#include "dataplane/fastpath/worker.hpp"
#include "lib/frames/stream_builder.hpp"
#include "lib/wire/arp.hpp"
#include "lib/wire/packet_writer.hpp"

namespace {


// Where a frame's signature ends: the line the accounting fetches ahead.
char* signature_line(rte_mbuf* m) { return rte_pktmbuf_mtod_offset(m, char*, m->data_len - 1); }

// What a queue's capture hook has to do: nothing (no capture), a capture whose filter matches
// none of the frames (the cost of looking), or no hook at all (the accounting called alone:
// against kNone, what the hook costs a queue without a capture).
enum class CaptureCase : int64_t { kNone = 0, kMatchingNothing = 1, kNoHook = 2 };

// The frames, stream state and queue of one benchmark: `frames` signed frames of `streams`
// streams interleaved frame by frame, each stream in sequence; `capture` as above; with `slow_path`, one
// frame in 100 an ARP request that the queue hands to its port's emulated hosts (a ring
// this thread empties, as the host service's would).
class RxBench {
 public:
  RxBench(uint16_t n_streams, uint32_t n_frames, CaptureCase capture, bool shuffled, bool slow_path = false)
      : n_frames_(n_frames), slow_share_(slow_path ? 100 : 0), hooked_(capture != CaptureCase::kNoHook) {
    pool_ = rte_pktmbuf_pool_create("bench", n_frames * 2, 256, 8, 2048, SOCKET_ID_ANY);
    mbufs_.resize(n_frames);
    if (pool_ == nullptr || rte_pktmbuf_alloc_bulk(pool_, mbufs_.data(), n_frames) != 0) {
      error_ = "mempool";
      return;
    }
    // A pool in use for a while hands out its mbufs in no address order: no stride for the
    // hardware prefetcher to follow.
    if (shuffled) {
      std::vector<rte_mbuf*> order(mbufs_);
      std::shuffle(order.begin(), order.end(), std::mt19937(7));
      write_frames(order, n_streams, slow_share_);
      mbufs_ = std::move(order);
    } else {
      write_frames(mbufs_, n_streams, slow_share_);
    }
    if (slow_path) {
      slow_.ring = rte_ring_create("bench_slow", 4096, SOCKET_ID_ANY, RING_F_SC_DEQ);
      if (slow_.ring == nullptr) {
        error_ = "slow-path ring";
        return;
      }
      queue_.slow_path = &slow_;
    }
    // The stream state where the data plane keeps it (dataplane/plan/run_state.cpp): DPDK
    // memory, on hugepages where the host has them (fewer TLB misses with a thousand streams).
    streams_ = lr::dp::NumaArray<lr::fast::RxStream>::make(n_streams, SOCKET_ID_ANY);
    trackers_ = lr::dp::NumaArray<lr::fast::SeqTracker>::make(n_streams, SOCKET_ID_ANY);
    if (!streams_.ok() || !trackers_.ok()) {
      error_ = "stream state";
      return;
    }
    for (uint16_t s = 0; s < n_streams; ++s) {
      streams_[s].n_lanes = 1;
      streams_[s].late_ns = 10'000'000;
      streams_[s].first_tracker = s;
    }
    ctx_.rx_streams = streams_.data();
    ctx_.rx_trackers = trackers_.data();
    ctx_.n_streams = n_streams;
    if (capture == CaptureCase::kMatchingNothing) {
      auto filter = lr::capture::PacketFilter::compile("udp dst port 9", 1518);
      if (!filter) {
        error_ = "filter";
        return;
      }
      filter_.emplace(std::move(*filter));
      filter_->attach(tap_);
      tap_.open = true;
      queue_.capture = &tap_;
    }
  }
  ~RxBench() {
    if (slow_.ring != nullptr) {
      drain_slow_path(0);
      rte_ring_free(slow_.ring);
    }
    if (pool_ == nullptr) return;
    rte_pktmbuf_free_bulk(mbufs_.data(), static_cast<unsigned>(mbufs_.size()));
    rte_mempool_free(pool_);
  }
  RxBench(const RxBench&) = delete;
  RxBench& operator=(const RxBench&) = delete;

  const char* error() const { return error_; }
  const std::vector<rte_mbuf*>& mbufs() const { return mbufs_; }

  /// Accounts and frees the next 32 frames as rx_queue_burst does after a receive, takes
  /// as many mbufs from the pool as a PMD's refill would, and returns the frames (whose
  /// mbufs the refill took back: the next cycle receives them again).
  rte_mbuf* const* next_burst() {
    if (at_ == n_frames_) {
      at_ = 0;
      for (size_t s = 0; s < trackers_.size(); ++s) trackers_[s] = lr::fast::SeqTracker{};  // the sequence starts over
    }
    rte_mbuf** burst = mbufs_.data() + at_;
    if (hooked_) lr::fast::rx_process_burst(ctx_, queue_, burst, lr::fast::kRxBurst, 2000, 2000);
    else lr::fast::rx_account_burst(ctx_, queue_, burst, lr::fast::kRxBurst, 2000, 2000);
    lr::fast::free_received(burst, lr::fast::kRxBurst);
    // The pool's cache hands back the mbufs just freed: the pool is as it was.
    void* refill[lr::fast::kRxBurst];
    if (rte_mempool_get_bulk(pool_, refill, lr::fast::kRxBurst) != 0) refill_failed_ = true;
    if (slow_.ring != nullptr) drain_slow_path(lr::fast::kRxBurst);
    at_ += lr::fast::kRxBurst;
    frames_ += lr::fast::kRxBurst;
    return burst;
  }

  void finish(benchmark::State& state) const {
    state.counters["Mpps"] = benchmark::Counter(static_cast<double>(frames_) / 1e6, benchmark::Counter::kIsRate);
    if (trackers_[0].counts().duplicate != 0) state.SkipWithError("unexpected duplicates");
    if (tap_.matched != 0) state.SkipWithError("the capture's filter matched a frame");
    if (refill_failed_) state.SkipWithError("the pool could not refill a burst");
    if (slow_.dropped.load() != 0) state.SkipWithError("the slow-path ring overflowed");
    if (slow_share_ != 0 && frames_ >= slow_share_ && slow_handed_ + rte_ring_count(slow_.ring) == 0)
      state.SkipWithError("no frame went to the slow path");
  }

  // The host service's side: its frames freed once a burst of them is waiting.
  void drain_slow_path(unsigned at_least) {
    void* got[lr::fast::kRxBurst];
    while (rte_ring_count(slow_.ring) > at_least) {
      const unsigned n = rte_ring_sc_dequeue_burst(slow_.ring, got, lr::fast::kRxBurst, nullptr);
      slow_handed_ += n;
      rte_pktmbuf_free_bulk(reinterpret_cast<rte_mbuf**>(got), n);
    }
  }

 private:
  // Signed frames of the streams in turn, each in sequence; with `slow_share` n, every nth
  // frame an ARP request instead (no signature), the streams' sequences going on around it.
  static void write_frames(const std::vector<rte_mbuf*>& mbufs, uint16_t n_streams, uint32_t slow_share) {
    lr::api::StreamSpec cfg;
    cfg.vlan = lr::api::VlanSpec{100, 3};
    std::vector<lr::wire::TxStreamPlan> plans;
    for (uint16_t s = 0; s < n_streams; ++s) plans.push_back(lr::plan::build_stream_plan(cfg, s));
    uint32_t signed_frames = 0;
    for (uint32_t i = 0; i < mbufs.size(); ++i) {
      rte_mbuf* m = mbufs[i];
      auto* data = rte_pktmbuf_mtod(m, uint8_t*);
      if (slow_share != 0 && i % slow_share == slow_share - 1) {
        const std::vector<uint8_t> arp = arp_request();
        std::copy(arp.begin(), arp.end(), data);
        m->data_len = m->pkt_len = static_cast<uint16_t>(arp.size());
        continue;
      }
      const uint32_t k = signed_frames++;
      const lr::wire::TxStreamPlan& plan = plans[k % n_streams];
      std::copy(plan.template_bytes.begin(), plan.template_bytes.end(), data);
      uint16_t last = 0;
      lr::fast::write_frame(data, plan, plan.sizes[0], last,
                            lr::wire::Signature{plan.stream_id, 0, k / n_streams, 1000},
                            lr::fast::cursor_at(plan, k / n_streams));
      m->data_len = m->pkt_len = plan.sizes[0].data_len;
    }
  }

  // A router's broadcast ARP request for a host, padded to 60 bytes.
  static std::vector<uint8_t> arp_request() {
    std::vector<uint8_t> frame(60, 0);
    const uint8_t head[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0, 0,    0, 0,   0xfe, 0x08, 0x06,
                            0,    1,    0x08, 0,    6,    4,    0,    1, 0x02, 0, 0,   0,    0,    0xfe,
                            198,  18,   0,    254,  0,    0,    0,    0, 0,    0, 198, 18,   0,    1};
    std::copy(std::begin(head), std::end(head), frame.begin());
    return frame;
  }

  uint32_t n_frames_;
  uint32_t slow_share_;
  bool hooked_;
  uint32_t at_ = 0;
  uint64_t frames_ = 0;
  const char* error_ = nullptr;
  bool refill_failed_ = false;
  rte_mempool* pool_ = nullptr;
  std::vector<rte_mbuf*> mbufs_;
  lr::dp::NumaArray<lr::fast::RxStream> streams_;
  lr::dp::NumaArray<lr::fast::SeqTracker> trackers_;
  lr::fast::LcoreCtx ctx_;
  lr::fast::RxQueue queue_;
  lr::fast::CaptureTap tap_;
  lr::fast::SlowPath slow_;
  uint64_t slow_handed_ = 0;
  std::optional<lr::capture::PacketFilter> filter_;
};

// range(0): streams; range(1): frames cycled through; range(2): the CaptureCase;
// 256 frames stay in L1/L2 (the compute cost). 4,096 frames (a 1024-descriptor ring,
// mempool caches and more) and 16,384 leave L1; what each touches (its mbuf's first line
// and its frame's line, 128 bytes) fits in L2 or L3 here: the frames a NIC leaves in the
// LLC (Intel's DDIO). BM_RxAccountingFromDram reads them from DRAM.
void BM_RxAccounting(benchmark::State& state) {
  RxBench bench(static_cast<uint16_t>(state.range(0)), static_cast<uint32_t>(state.range(1)),
                static_cast<CaptureCase>(state.range(2)), false, state.range(3) == 1);
  if (bench.error() != nullptr) {
    state.SkipWithError(bench.error());
    return;
  }
  for (auto _ : state) bench.next_burst();
  bench.finish(state);
}
// 1024 streams interleaved frame by frame, 16 frames each: every frame's stream state
// (tracker, histogram, counters) is another stream's, out of cache as in a fabric test.
// range(3): 1, one frame in 100 an ARP request for the emulated hosts (the slow path).
BENCHMARK(BM_RxAccounting)
    ->ArgNames({"streams", "frames", "capture", "slow"})
    ->Args({1, 256, 0, 0})
    ->Args({16, 256, 0, 0})
    ->Args({16, 4096, 0, 0})
    ->Args({16, 4096, 0, 1})
    ->Args({16, 4096, 1, 0})
    ->Args({16, 4096, 2, 0})
    ->Args({256, 4096, 0, 0})
    ->Args({1024, 16384, 0, 0});

// Each frame's line read from DRAM, as a NIC that writes to memory without cache injection
// leaves it (AMD EPYC before SDCI): after its burst is accounted, each frame's line is
// flushed from every cache (and the mbufs come in no address order), and only the
// burst's accounting, free and refill are timed (the TSC around them). The
// mbuf's first line stays cached: a PMD has just written it.
void BM_RxAccountingFromDram(benchmark::State& state) {
  RxBench bench(static_cast<uint16_t>(state.range(0)), static_cast<uint32_t>(state.range(1)), CaptureCase::kNone, true);
  if (bench.error() != nullptr) {
    state.SkipWithError(bench.error());
    return;
  }
  const double tsc_hz = static_cast<double>(rte_get_tsc_hz());
  for (auto _ : state) {
    const uint64_t begin = rte_rdtsc_precise();
    rte_mbuf* const* burst = bench.next_burst();
    const uint64_t end = rte_rdtsc_precise();
    for (uint32_t k = 0; k < lr::fast::kRxBurst; ++k)
      _mm_clflush(signature_line(burst[k]));
    _mm_mfence();
    state.SetIterationTime(static_cast<double>(end - begin) / tsc_hz);
  }
  bench.finish(state);
}
BENCHMARK(BM_RxAccountingFromDram)
    ->UseManualTime()
    ->ArgNames({"streams", "frames"})
    ->Args({16, 4096})
    ->Args({1024, 16384});

// What one frame's line costs from DRAM when nothing overlaps it: the 16-stream FromDram
// row's mbufs, each frame's line holding the address of the next one's, flushed, then read
// in a chain. No frame can be read before the one before it, so each read waits the whole
// latency: what the first frame of a burst waits in the FromDram rows.
void BM_DramLatency(benchmark::State& state) {
  RxBench bench(16, 4096, CaptureCase::kNone, true);
  if (bench.error() != nullptr) {
    state.SkipWithError(bench.error());
    return;
  }
  const std::vector<rte_mbuf*>& mbufs = bench.mbufs();
  auto line_of = [](rte_mbuf* m) {
    return static_cast<void**>(static_cast<void*>(RTE_PTR_ALIGN_FLOOR(signature_line(m), RTE_CACHE_LINE_SIZE)));
  };
  for (size_t i = 0; i < mbufs.size(); ++i) *line_of(mbufs[i]) = line_of(mbufs[(i + 1) % mbufs.size()]);
  const double tsc_hz = static_cast<double>(rte_get_tsc_hz());
  void* at = line_of(mbufs[0]);
  for (auto _ : state) {
    for (rte_mbuf* m : mbufs) _mm_clflush(line_of(m));
    _mm_mfence();
    const uint64_t begin = rte_rdtsc_precise();
    for (size_t i = 0; i < mbufs.size(); ++i) at = *static_cast<void**>(at);
    const uint64_t end = rte_rdtsc_precise();
    benchmark::DoNotOptimize(at);
    state.SetIterationTime(static_cast<double>(end - begin) / tsc_hz);
  }
  state.counters["per_line"] = benchmark::Counter(static_cast<double>(state.iterations() * mbufs.size()),
                                                  benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_DramLatency)->UseManualTime();

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
