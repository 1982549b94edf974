#pragma once
// Text from an input file as it may appear in an error message: cut to a few dozen characters and
// with control and non-ASCII bytes escaped, so that a huge or binary field cannot flood stderr.

#include <cstddef>
#include <string>
#include <string_view>

namespace vortex::detail {

std::string excerpt(std::string_view text, std::size_t max_chars = 60);

// The shortest text that reads back as the value (1e-300, not 0.000000).
std::string number_text(double value);

}  // namespace vortex::detail
