#!/usr/bin/env python3
"""Thousands of paced streams on one TX lcore (scripts/bench.sh, row 6).

  paced-streams.py profile N SECONDS [DEVICE]   a profile: N streams of 64-byte frames on one
      port (net_null0 by default) at 40G, their rates spread evenly in log over two decades
      (the fastest 100 times the slowest) and adding up to 90 % of the line rate (53.57 Mpps),
      each sending for SECONDS; 1 GiB of memory.
  paced-streams.py judge REPORT SECONDS        the aggregate rate and how far the worst stream
      is from its own target, over the run: in % and in frames (a stream of 250 frames/s
      sends 250 a second, where 0.1 % is a quarter of a frame), and the lcore's stalls, which
      cost a stream the frames past its catch-up window.
"""
import json
import math
import sys

LINE_BPS = 40e9
SHARE = 0.9
FRAME = 64


def profile(n, seconds, device="net_null0"):
    total = SHARE * LINE_BPS / ((FRAME + 20) * 8)
    weights = [100 ** (i / (n - 1)) if n > 1 else 1.0 for i in range(n)]
    scale = total / sum(weights)
    out = ['[eal]\nlcores = "0-1"\nmemory_mb = 1024\nhuge_pages = "auto"\nfile_prefix = "lr-bench"\n'
           '[run]\ndrain = "100ms"\nlive = false\n'
           '[[port]]\nname = "p0"\ndevice = "%s"\nrx_queues = 0\nspeed = "40G"\n' % device]
    for i, w in enumerate(weights):
        out.append('[[stream]]\nname = "s%d"\ntx_port = "p0"\nframe_size = %d\nrate = "%.3fpps"\nduration = "%ss"\n'
                   'ipv4 = { src = "198.18.%d.%d", dst = "198.19.0.1" }\nudp = { src = 1024, dst = 5001 }\n'
                   % (i, FRAME, w * scale, seconds, i // 250, i % 250 + 1))
    return "".join(out)


def judge(path, seconds):
    report = json.load(open(path))
    streams = report["streams"]
    achieved = sum(s["tx_packets"] for s in streams) / seconds
    target = sum(s["target_pps"] for s in streams)
    # A stream sends its frames at t = k / rate from its start, for `seconds`: ceil(rate * seconds).
    off = [(s["tx_packets"] - math.ceil(s["target_pps"] * seconds), s) for s in streams]
    frames, worst = max(off, key=lambda o: abs(o[0]) / o[1]["target_pps"])
    percent = 100.0 * abs(frames) / (worst["target_pps"] * seconds)
    within = sum(1 for f, s in off if abs(f) <= max(1, 0.001 * s["target_pps"] * seconds))
    lcore = report["lcores"][0] if report.get("lcores") else {}
    print("%.2f of %.2f Mpps; %d of %d streams within 0.1 %% (or a frame); the worst %s %.3f %% off (%+d frames); "
          "the lcore stalled %d times, %.1f ms in all, the longest %.0f us"
          % (achieved / 1e6, target / 1e6, within, len(streams), worst["name"], percent, frames,
             lcore.get("stalls", 0), lcore.get("stalled_us", 0) / 1e3, lcore.get("longest_stall_us", 0)))


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "profile":
        sys.stdout.write(profile(int(sys.argv[2]), sys.argv[3], *sys.argv[4:5]))
    elif len(sys.argv) == 4 and sys.argv[1] == "judge":
        judge(sys.argv[2], float(sys.argv[3]))
    else:
        sys.exit(__doc__)
