#include "vortex/csv.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "solver/text_excerpt.hpp"

namespace vortex {

const char* const kParticleCsvHeader = "x,y,z,Gx,Gy,Gz,sigma";

std::string field_csv_header(bool gradient) {
  std::string header = "x,y,z,ux,uy,uz";
  if (gradient) {
    header += ",dux_dx,dux_dy,dux_dz,duy_dx,duy_dy,duy_dz,duz_dx,duz_dy,duz_dz";
  }
  return header;
}

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char p, char q) {
           return std::tolower(static_cast<unsigned char>(p)) ==
                  std::tolower(static_cast<unsigned char>(q));
         });
}

void split_fields(std::string_view line, std::vector<std::string_view>& fields) {
  fields.clear();
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(
        trim(line.substr(start, comma == std::string_view::npos ? line.npos : comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
}

// Walks the data lines of a CSV text, skipping comments and blank lines, counting line numbers.
class CsvLines {
 public:
  explicit CsvLines(std::string_view text) : text_(text) {}

  // The next line that is neither blank nor a comment; false at the end of the text.
  bool next(std::string_view& line) {
    while (pos_ < text_.size()) {
      const std::size_t end = std::min(text_.find('\n', pos_), text_.size());
      std::string_view candidate = text_.substr(pos_, end - pos_);
      pos_ = end + 1;
      ++line_number_;
      const std::string_view content = trim(candidate);
      if (content.empty() || content.front() == '#') continue;
      line = candidate;
      return true;
    }
    return false;
  }
  int line_number() const { return line_number_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int line_number_ = 0;
};

struct Column {
  const char* name;
  int field = -1;  // index in the header
};

// Parses a CSV file into the named numeric columns; sigma_column (or -1) must be positive.
template <std::size_t K>
std::array<std::vector<double>, K> read_columns(const std::string& path,
                                                std::array<Column, K> columns, int sigma_column) {
  const std::string text = read_file(path);
  // Spreadsheet programs start UTF-8 files with a byte order mark.
  std::string_view body(text);
  if (body.substr(0, 3) == "\xEF\xBB\xBF") body.remove_prefix(3);
  CsvLines lines(body);
  std::string_view line;
  if (!lines.next(line)) throw FileError(path + ": empty file: no header line and no data rows");

  std::vector<std::string_view> fields;
  split_fields(line, fields);
  const int header_line = lines.line_number();
  for (std::size_t f = 0; f < fields.size(); ++f) {
    std::string_view name = fields[f];
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
      name = name.substr(1, name.size() - 2);
    }
    for (auto& column : columns) {
      if (!equal_ignoring_case(name, column.name)) continue;
      if (column.field >= 0) {
        throw FileError(path + ":" + std::to_string(header_line) + ": column '" + column.name +
                        "' appears twice in the header");
      }
      column.field = static_cast<int>(f);
    }
  }
  for (const auto& column : columns) {
    if (column.field < 0) {
      throw FileError(path + ":" + std::to_string(header_line) + ": missing column '" +
                      column.name + "' (header: " + detail::excerpt(trim(line)) + ")");
    }
  }

  std::array<std::vector<double>, K> values;
  const std::size_t n_fields = fields.size();
  while (lines.next(line)) {
    split_fields(line, fields);
    // Messages are built only when something is wrong.
    auto where = [&] { return path + ":" + std::to_string(lines.line_number()) + ": "; };
    if (fields.size() != n_fields) {
      throw FileError(where() + "expected " + std::to_string(n_fields) +
                      " fields as in the header, found " + std::to_string(fields.size()));
    }
    for (std::size_t k = 0; k < K; ++k) {
      std::string_view token = fields[static_cast<std::size_t>(columns[k].field)];
      auto fail = [&](const std::string& problem) {
        throw FileError(where() + "column '" + columns[k].name + "': " + problem);
      };
      auto quoted = [&] { return "\"" + detail::excerpt(token) + "\""; };
      if (token.empty()) fail("empty value");
      std::string_view digits = token;
      // from_chars takes no '+'; one is allowed before a digit or point, not before a sign.
      if (digits.size() > 1 && digits.front() == '+' && digits[1] != '-' && digits[1] != '+') {
        digits.remove_prefix(1);
      }
      double value = 0;
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
      if (ec == std::errc::result_out_of_range) fail(quoted() + " is out of range");
      if (ec != std::errc() || end != digits.data() + digits.size()) {
        fail(quoted() + " is not a number");
      }
      if (!std::isfinite(value)) fail(quoted() + " is not finite");
      if (static_cast<int>(k) == sigma_column && !(value > 0)) {
        fail("core radius must be positive, got " + quoted());
      }
      values[k].push_back(value);
    }
  }
  if (values[0].empty()) throw FileError(path + ": empty file: no data rows after the header");
  return values;
}

// Appends a number with 17 significant digits (as %.17g).
void append_number(std::string& out, double value) {
  char buffer[32];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 17);
  out.append(buffer, result.ptr);
}

// Writes rows of numeric columns below a header, atomically.
template <class RowWriter>
void write_rows(const std::string& path, const std::string& header, std::size_t rows,
                RowWriter&& row_values) {
  AtomicFile file(path);
  std::string text = header + "\n";
  std::vector<double> values;
  for (std::size_t i = 0; i < rows; ++i) {
    values.clear();
    row_values(i, values);
    for (std::size_t k = 0; k < values.size(); ++k) {
      if (k) text.push_back(',');
      append_number(text, values[k]);
    }
    text.push_back('\n');
    if (text.size() > (1u << 20)) {
      file.write(text);
      text.clear();
    }
  }
  file.write(text);
  file.commit();
}

}  // namespace

ParticleSet read_particles_csv(const std::string& path) {
  auto v = read_columns<7>(path,
                           {Column{"x"}, Column{"y"}, Column{"z"}, Column{"Gx"}, Column{"Gy"},
                            Column{"Gz"}, Column{"sigma"}},
                           6);
  ParticleSet p;
  p.x = std::move(v[0]);
  p.y = std::move(v[1]);
  p.z = std::move(v[2]);
  p.gx = std::move(v[3]);
  p.gy = std::move(v[4]);
  p.gz = std::move(v[5]);
  p.sigma = std::move(v[6]);
  return p;
}

Points read_points_csv(const std::string& path) {
  auto v = read_columns<3>(path, {Column{"x"}, Column{"y"}, Column{"z"}}, -1);
  Points p;
  p.x = std::move(v[0]);
  p.y = std::move(v[1]);
  p.z = std::move(v[2]);
  return p;
}

void write_particles_csv(const std::string& path, const ParticleSet& p) {
  validate_sources(p);
  write_rows(path, kParticleCsvHeader, p.size(), [&](std::size_t i, std::vector<double>& row) {
    row.insert(row.end(), {p.x[i], p.y[i], p.z[i], p.gx[i], p.gy[i], p.gz[i], p.sigma[i]});
  });
}

void write_field_csv(const std::string& path, PointsView targets, const VelocityField& field) {
  if (field.size() != targets.size()) {
    throw std::invalid_argument("write_field_csv: " + std::to_string(field.size()) +
                                " results for " + std::to_string(targets.size()) + " targets");
  }
  const bool gradient = field.has_gradient;
  write_rows(path, field_csv_header(gradient), targets.size(),
             [&](std::size_t i, std::vector<double>& row) {
               row.insert(row.end(), {targets.x[i], targets.y[i], targets.z[i], field.u[0][i],
                                      field.u[1][i], field.u[2][i]});
               if (gradient) {
                 for (int c = 0; c < 9; ++c) row.push_back(field.du[c][i]);
               }
             });
}

}  // namespace vortex
