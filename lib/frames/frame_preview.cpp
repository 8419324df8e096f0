#include "lib/frames/frame_preview.hpp"

#include "lib/wire/packet_writer.hpp"
#include "lib/frames/stream_builder.hpp"

namespace lr::plan {

std::vector<PreviewFrame> preview_frames(const api::StreamSpec& stream, uint16_t stream_id, uint64_t count) {
  const wire::TxStreamPlan plan = build_stream_plan(stream, stream_id);
  // One buffer for every frame, as an mbuf is reused: the writer relies on what the
  // template left in it.
  std::vector<uint8_t> buffer(plan.template_bytes.begin(), plan.template_bytes.end());
  uint16_t last_signature = 0;
  std::vector<PreviewFrame> frames;
  fast::FrameCursor cursor = fast::cursor_at(plan, 0);
  for (uint64_t seq = 0; seq < count; ++seq, fast::advance(plan, cursor)) {
    const wire::SizeEntry& size = plan.sizes[fast::size_index(plan, cursor, 0)];
    fast::write_frame(buffer.data(), plan, size, last_signature,
                      wire::Signature{stream_id, 0, static_cast<uint32_t>(seq), 0}, cursor);
    frames.push_back({0, seq, std::vector<uint8_t>(buffer.begin(), buffer.begin() + size.data_len)});
  }
  return frames;
}

}  // namespace lr::plan
