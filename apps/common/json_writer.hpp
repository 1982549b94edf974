#pragma once
// A small streaming JSON writer for the benchmark's result files: objects and arrays nest, commas
// and indentation are automatic, numbers are written in their shortest exact form, non-finite
// numbers become null. Arrays or objects opened `inline` stay on one line.

#include <cstdint>
#include <string>
#include <vector>

namespace vortex::cli {

class JsonWriter {
 public:
  JsonWriter& begin_object(bool inline_ = false);
  JsonWriter& begin_array(bool inline_ = false);
  JsonWriter& end();  // closes the innermost object or array

  JsonWriter& key(const std::string& name);
  JsonWriter& value(double number);
  JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(std::uint64_t number);
  JsonWriter& value(unsigned long long number) { return value(static_cast<std::uint64_t>(number)); }
  JsonWriter& value(bool flag);
  JsonWriter& value(const std::string& text);
  JsonWriter& value(const char* text) { return value(std::string(text)); }
  JsonWriter& null();

  // key(name).value(v)
  template <typename T>
  JsonWriter& field(const std::string& name, const T& v) {
    key(name);
    return value(v);
  }

  // The document; every object and array must be closed.
  std::string str() const;

 private:
  struct Level {
    bool inline_;
    bool empty;
    char close;  // '}' or ']'
  };
  void open(char bracket, bool inline_);
  void before_value();
  void raw(const std::string& text);

  std::string text_;
  std::vector<Level> levels_;
  bool after_key_ = false;
};

// Text of a number as JSON writes it (shortest exact form; "null" when not finite).
std::string json_number(double value);
// A quoted, escaped JSON string.
std::string json_string(const std::string& text);

}  // namespace vortex::cli
