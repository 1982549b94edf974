#include "tables.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <stdexcept>

#include "vortex/file_io.hpp"

namespace vortex::cli {

std::string format(const char* pattern, ...) {
  va_list args;
  va_start(args, pattern);
  va_list copy;
  va_copy(copy, args);
  const int size = std::vsnprintf(nullptr, 0, pattern, copy);
  va_end(copy);
  std::string text(size > 0 ? static_cast<std::size_t>(size) : 0, '\0');
  if (size > 0) std::vsnprintf(text.data(), text.size() + 1, pattern, args);
  va_end(args);
  return text;
}

CsvTable& CsvTable::row() {
  rows_.emplace_back();
  return *this;
}

CsvTable& CsvTable::cell(double number) {
  return cell(std::isfinite(number) ? format("%.10g", number) : std::string("nan"));
}

CsvTable& CsvTable::cell(long long number) {
  return cell(std::to_string(number));
}

CsvTable& CsvTable::cell(const std::string& text) {
  if (rows_.empty()) throw std::logic_error("CsvTable: cell before row");
  std::string out = text;
  if (text.find_first_of(",\"\n") != std::string::npos) {
    out = "\"";
    for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    out += "\"";
  }
  rows_.back().push_back(out);
  return *this;
}

std::string CsvTable::str() const {
  auto line = [](const std::vector<std::string>& cells) {
    std::string text;
    for (std::size_t c = 0; c < cells.size(); ++c) text += (c ? "," : "") + cells[c];
    return text + "\n";
  };
  std::string text = line(columns_);
  for (const auto& r : rows_) {
    if (r.size() != columns_.size()) {
      throw std::logic_error("CsvTable: a row has " + std::to_string(r.size()) + " cells for " +
                             std::to_string(columns_.size()) + " columns");
    }
    text += line(r);
  }
  return text;
}

void CsvTable::write(const std::string& path) const {
  AtomicFile file(path);
  file.write(str());
  file.commit();
}

std::string TextTable::str() const {
  std::vector<std::size_t> width(header_.size(), 0);
  auto measure = [&width](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < cells.size() && c < width.size(); ++c) {
      width[c] = std::max(width[c], cells[c].size());
    }
  };
  measure(header_);
  for (const auto& r : rows_) measure(r);
  auto line = [&width](const std::vector<std::string>& cells) {
    std::string text;
    for (std::size_t c = 0; c < width.size(); ++c) {
      const std::string cell = c < cells.size() ? cells[c] : "";
      const std::string pad(width[c] - cell.size(), ' ');
      text += c ? "  " + pad + cell : cell + pad;
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text + "\n";
  };
  std::size_t total = 0;
  for (auto w : width) total += w + 2;
  std::string text = line(header_) + std::string(total > 2 ? total - 2 : 0, '-') + "\n";
  for (const auto& r : rows_) text += line(r);
  return text;
}

}  // namespace vortex::cli
