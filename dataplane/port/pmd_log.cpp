#include "dataplane/port/pmd_log.hpp"

#include <rte_log.h>

#include <cstdlib>

namespace lr::dp {

PmdLogCapture::PmdLogCapture() : previous_(rte_log_get_stream()), buffer_(open_memstream(&data_, &size_)) {
  if (buffer_ != nullptr) rte_openlog_stream(buffer_);
}

PmdLogCapture::~PmdLogCapture() {
  if (buffer_ == nullptr) return;
  rte_openlog_stream(previous_ == stderr ? nullptr : previous_);
  std::fclose(buffer_);
  if (size_ != 0) {
    std::fwrite(data_, 1, size_, previous_ != nullptr ? previous_ : stderr);  // the service's log keeps it too
  }
  std::free(data_);
}

std::string PmdLogCapture::text() {
  if (buffer_ == nullptr) return "";
  std::fflush(buffer_);
  std::string out;
  const std::string all(data_ != nullptr ? data_ : "", size_);
  size_t at = 0;
  while (at < all.size()) {
    size_t end = all.find('\n', at);
    if (end == std::string::npos) end = all.size();
    if (end > at) out += (out.empty() ? "" : "; ") + all.substr(at, end - at);
    at = end + 1;
  }
  return out;
}

}  // namespace lr::dp
