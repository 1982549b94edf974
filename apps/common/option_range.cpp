#include "option_range.hpp"

#include <cstdio>

namespace vortex::cli {

std::string number_text(long double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.15Lg", v);
  return buffer;
}

std::string short_text(long double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.4Lg", v);
  return buffer;
}

std::string range_text(const Range& r) {
  return (r.lo_open ? "(" : "[") + short_text(r.lo) + ", " + short_text(r.hi) +
         (r.hi_open ? ")" : "]");
}

std::string out_of_range(const std::string& option, double value, const Range& r,
                         const std::string& why) {
  return option + " " + number_text(value) + " is out of range " + range_text(r) +
         (why.empty() ? "" : " (" + why + ")");
}

std::string out_of_range(const std::string& option, double value, const std::string& quantity,
                         double q, const Range& r, const std::string& context) {
  return option + " " + number_text(value) + ": " + quantity + " = " + short_text(q) +
         " is out of range " + range_text(r) + " (" + context + ")";
}

std::string valid(const Range& r, const std::string& unit, bool or_zero) {
  return std::string("; valid: ") + (or_zero ? "0 or " : "") + range_text(r) + unit;
}

}  // namespace vortex::cli
