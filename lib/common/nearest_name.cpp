#include "lib/common/nearest_name.hpp"

#include <algorithm>

namespace lr {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string nearest_name(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = 3;  // a prefix, else at most two edits
  for (const std::string& name : candidates) {
    if (name == word) return "";
    const size_t distance = std::string_view(name).starts_with(word) ? 0 : edit_distance(word, name);
    if (distance < best_distance) best = name, best_distance = distance;
  }
  return best;
}

}  // namespace lr
