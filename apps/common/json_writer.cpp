#include "json_writer.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace vortex::cli {

std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  return std::string(buffer, end);
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (levels_.empty()) {
    if (!text_.empty()) throw std::logic_error("JsonWriter: more than one top-level value");
    return;
  }
  Level& level = levels_.back();
  if (!level.empty) text_ += ",";
  if (level.inline_) {
    if (!level.empty) text_ += " ";
  } else {
    text_ += "\n" + std::string(2 * levels_.size(), ' ');
  }
  level.empty = false;
}

void JsonWriter::raw(const std::string& text) {
  before_value();
  text_ += text;
}

void JsonWriter::open(char bracket, bool inline_) {
  before_value();
  text_ += bracket;
  // Children of an inline container are inline too.
  const bool parent_inline = !levels_.empty() && levels_.back().inline_;
  levels_.push_back({inline_ || parent_inline, true, bracket == '{' ? '}' : ']'});
}

JsonWriter& JsonWriter::begin_object(bool inline_) {
  open('{', inline_);
  return *this;
}

JsonWriter& JsonWriter::begin_array(bool inline_) {
  open('[', inline_);
  return *this;
}

JsonWriter& JsonWriter::end() {
  if (levels_.empty() || after_key_) throw std::logic_error("JsonWriter: unbalanced end()");
  const Level level = levels_.back();
  levels_.pop_back();
  if (!level.empty && !level.inline_) text_ += "\n" + std::string(2 * levels_.size(), ' ');
  text_ += level.close;
  return *this;
}

JsonWriter& JsonWriter::key(const std::string& name) {
  if (levels_.empty() || after_key_) throw std::logic_error("JsonWriter: key outside an object");
  before_value();
  text_ += json_string(name) + ": ";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(double number) {
  raw(json_number(number));
  return *this;
}

JsonWriter& JsonWriter::value(std::int64_t number) {
  raw(std::to_string(number));
  return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t number) {
  raw(std::to_string(number));
  return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
  raw(flag ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::value(const std::string& text) {
  raw(json_string(text));
  return *this;
}

JsonWriter& JsonWriter::null() {
  raw("null");
  return *this;
}

std::string JsonWriter::str() const {
  if (!levels_.empty()) throw std::logic_error("JsonWriter: unclosed object or array");
  return text_ + "\n";
}

}  // namespace vortex::cli
