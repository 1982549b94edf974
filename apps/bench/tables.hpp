#pragma once
// Result tables of the benchmark: CSV files (a header line, then one line per row; what gnuplot
// and spreadsheets read) and fixed-width text tables for the terminal and report.txt.

#include <string>
#include <vector>

namespace vortex::cli {

class CsvTable {
 public:
  explicit CsvTable(std::vector<std::string> columns) : columns_(std::move(columns)) {}

  // Starts a row; cells are then added in column order.
  CsvTable& row();
  CsvTable& cell(double number);  // 10 significant digits, "nan" when not finite
  CsvTable& cell(long long number);
  CsvTable& cell(const std::string& text);  // quoted when it holds a comma or a quote

  std::string str() const;  // throws std::logic_error when a row has the wrong cell count
  void write(const std::string& path) const;  // atomically

 private:
  std::vector<std::string> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// Columns padded to their widest cell: the first column left-aligned, the others right-aligned.
class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  std::string str() const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

// printf-style formatting into a std::string.
std::string format(const char* pattern, ...) __attribute__((format(printf, 1, 2)));

}  // namespace vortex::cli
