#pragma once
// Charts for the HTML reports, drawn by gnuplot (Debian's gnuplot-nox) as SVG: the
// script is gnuplot's own language with the data inline as datablocks, and the SVG is
// returned to be inlined in the page, so the page opens offline.

#include <string>

namespace lr::ctl {

struct Svg {
  std::string svg;    ///< the <svg> element, or "" when gnuplot failed
  std::string error;  ///< why not: gnuplot missing, or its message
};

/// Runs gnuplot on `script` (which must not set a terminal or output).
Svg gnuplot_svg(const std::string& script, int width = 760, int height = 400);

}  // namespace lr::ctl
