#include "case_file.hpp"

#include <cctype>

#include "vortex/file_io.hpp"

namespace vortex::body_app {

namespace {

class FlatJson {
 public:
  FlatJson(std::string path, std::string text) : path_(std::move(path)), s_(std::move(text)) {}

  std::vector<std::string> arguments() {
    std::vector<std::string> args;
    expect('{');
    skip();
    if (peek() == '}') return args;
    while (true) {
      skip();
      const std::string key = string();
      expect(':');
      skip();
      if (peek() == '"') {
        const std::string value = string();
        args.push_back("--" + key);
        args.push_back(value);
      } else {
        const std::string value = bare();
        if (value == "true") {
          args.push_back("--" + key);
        } else if (value != "false") {
          args.push_back("--" + key);
          args.push_back(value);
        }
      }
      skip();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect('}');
      skip();
      if (pos_ != s_.size()) fail("text after the object");
      return args;
    }
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw FileError(path_ + ": offset " + std::to_string(pos_) + ": " + what +
                    " (a case file is one flat JSON object)");
  }
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void expect(char c) {
    skip();
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  std::string string() {
    expect('"');
    std::string out;
    while (pos_ < s_.size() && s_[pos_] != '"') {
      if (s_[pos_] == '\\') ++pos_;
      if (pos_ < s_.size()) out += s_[pos_++];
    }
    if (pos_ >= s_.size()) fail("unterminated string");
    ++pos_;
    return out;
  }
  std::string bare() {
    const std::size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) ||
                                s_[pos_] == '.' || s_[pos_] == '-' || s_[pos_] == '+'))
      ++pos_;
    if (pos_ == start) fail("expected a value (a string, number or boolean; no nesting)");
    return s_.substr(start, pos_ - start);
  }

  std::string path_, s_;
  std::size_t pos_ = 0;
};

}  // namespace

std::vector<std::string> case_file_arguments(const std::string& path) {
  return FlatJson(path, read_file(path)).arguments();
}

}  // namespace vortex::body_app
