#pragma once
// What DPDK logs during one control call, for an error that carries the PMD's own reason
// ("Frame size (9018) > device max frame size (1518)") instead of a bare errno while the
// reason goes only to the data plane's stderr. Thread: mgmt; DPDK's log stream is global,
// and the workers log nothing while they run.

#include <cstdio>
#include <string>

namespace lr::dp {

class PmdLogCapture {
 public:
  /// Points DPDK's log stream at a buffer until destroyed (then back where it was, with
  /// what was logged copied there too).
  PmdLogCapture();
  ~PmdLogCapture();
  PmdLogCapture(const PmdLogCapture&) = delete;
  PmdLogCapture& operator=(const PmdLogCapture&) = delete;

  /// The lines logged so far, joined with "; ", without trailing newlines.
  std::string text();

 private:
  FILE* previous_ = nullptr;
  FILE* buffer_ = nullptr;
  char* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace lr::dp
