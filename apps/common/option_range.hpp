#pragma once
// The valid values of a numeric command-line option, shared by the apps' checks and their --help.

#include <string>

namespace vortex::cli {

// [lo, hi], either end open.
struct Range {
  double lo, hi;
  bool lo_open = false, hi_open = false;
  bool contains(double v) const {
    return (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi);
  }
};

// A value as given (up to 15 digits) and a derived one (4).
std::string number_text(long double v);
std::string short_text(long double v);
// "[lo, hi]", "(lo, hi]", ...
std::string range_text(const Range& r);
// "OPTION VALUE is out of range RANGE (WHY)": the message of a value outside its range.
std::string out_of_range(const std::string& option, double value, const Range& r,
                         const std::string& why = "");
// "OPTION VALUE: QUANTITY = Q is out of range RANGE (CONTEXT)": a quantity the option's value sets
// with others (e.g. dt U / D) outside its range.
std::string out_of_range(const std::string& option, double value, const std::string& quantity,
                         double q, const Range& r, const std::string& context);

// "; valid: [lo, hi] unit", for --help; `or_zero` adds 0 (a default chosen by the app).
std::string valid(const Range& r, const std::string& unit = "", bool or_zero = false);

// Throws Error naming the option, the value and the range when the value is outside it; or, for a
// quantity that the option's value sets with others (`context` gives them), when that quantity is
// outside the range. An app declares one, with the error type its front end reports.
template <class Error>
struct RangeCheck {
  void operator()(const std::string& option, double value, const Range& r,
                  const std::string& why = "") const {
    if (!r.contains(value)) throw Error(out_of_range(option, value, r, why));
  }
  void operator()(const std::string& option, double value, const std::string& quantity, double q,
                  const Range& r, const std::string& context) const {
    if (!r.contains(q)) throw Error(out_of_range(option, value, quantity, q, r, context));
  }
};

}  // namespace vortex::cli
