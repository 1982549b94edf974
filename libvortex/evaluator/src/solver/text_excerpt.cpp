#include "solver/text_excerpt.hpp"

#include <charconv>

namespace vortex::detail {

std::string excerpt(std::string_view text, std::size_t max_chars) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  const std::size_t shown = text.size() > max_chars ? max_chars : text.size();
  for (std::size_t i = 0; i < shown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      out += "\\x";
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  if (shown < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

std::string number_text(double value) {
  char buffer[32];
  return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
}

}  // namespace vortex::detail
