#include "control/views/gnuplot_svg.hpp"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <filesystem>
#include <fstream>

namespace lr::ctl {

Svg gnuplot_svg(const std::string& script, int width, int height) {
  char path[] = "/tmp/linerate-chart-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return {"", "cannot create a temporary file for gnuplot"};
  close(fd);
  {
    std::ofstream out(path);
    // Names are text: enhanced text would set rx_packets with a subscript. The legend goes
    // under the plot, where it covers no point (a chart may set its own).
    out << fmt::format("set terminal svg size {},{} font 'sans,11' background rgb 'white' noenhanced\n"
                       "set key outside below center horizontal\n",
                       width, height)
        << script << "\n";
  }
  // gnuplot's errors go to its stderr: read them in place of the chart.
  const std::string errors = std::string(path) + ".err";
  FILE* pipe = popen(fmt::format("gnuplot '{}' 2>'{}'", path, errors).c_str(), "r");
  Svg result;
  if (pipe != nullptr) {
    char buffer[65536];
    size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.svg.append(buffer, n);
    const int status = pclose(pipe);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::ifstream in(errors);
      std::string message((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      // gnuplot names its script: the temporary file's random name would make a page rebuilt
      // from the same report.json differ, so it is named for what it is.
      const std::string_view script_name = path, shown_as = "chart";
      for (size_t at = message.find(script_name); at != std::string::npos; at = message.find(script_name, at + shown_as.size()))
        message.replace(at, script_name.size(), shown_as);
      result.error = WIFEXITED(status) && WEXITSTATUS(status) == 127
                         ? "gnuplot is not installed (Debian: apt install gnuplot-nox)"
                         : "gnuplot failed: " + message;
      result.svg.clear();
    }
  } else {
    result.error = "cannot run gnuplot";
  }
  std::filesystem::remove(path);
  std::filesystem::remove(errors);
  // Inline the <svg> element itself, without the XML prologue.
  if (const size_t at = result.svg.find("<svg"); at != std::string::npos) result.svg.erase(0, at);
  else if (result.error.empty()) result.error = "gnuplot wrote no SVG", result.svg.clear();
  return result;
}

}  // namespace lr::ctl
