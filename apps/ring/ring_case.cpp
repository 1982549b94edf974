#include "ring_case.hpp"

#include <cctype>
#include <cstdlib>
#include <utility>

#include "vortex/file_io.hpp"

namespace vortex::ring_app {
namespace {

class FlatJsonParser {
 public:
  FlatJsonParser(std::string text, std::string path)
      : s_(std::move(text)), path_(std::move(path)) {}

  // (key, value text, kind) with kind 's' string, 'n' number, 't' true, 'f' false, '0' null.
  struct Entry {
    std::string key, value;
    char kind;
  };

  std::vector<Entry> parse() {
    std::vector<Entry> entries;
    skip();
    expect('{');
    skip();
    if (peek() == '}') {
      ++i_;
    } else {
      for (;;) {
        skip();
        Entry e;
        e.key = string();
        skip();
        expect(':');
        skip();
        value(e);
        entries.push_back(e);
        skip();
        if (peek() == ',') {
          ++i_;
          continue;
        }
        expect('}');
        break;
      }
    }
    skip();
    if (i_ != s_.size()) fail("unexpected text after the object");
    return entries;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    std::size_t line = 1;
    for (std::size_t k = 0; k < i_ && k < s_.size(); ++k) line += s_[k] == '\n';
    throw FileError(path_ + ":" + std::to_string(line) + ": " + what +
                    " (a case file is one flat JSON object of numbers, strings and booleans)");
  }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++i_;
  }
  std::string string() {
    expect('"');
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c == '\\') {
        if (i_ >= s_.size()) break;
        const char e = s_[i_++];
        switch (e) {
          case 'n':
            c = '\n';
            break;
          case 't':
            c = '\t';
            break;
          case 'r':
            c = '\r';
            break;
          case 'b':
            c = '\b';
            break;
          case 'f':
            c = '\f';
            break;
          case 'u':
            fail("\\u escapes are not supported in case files");
          default:
            c = e;  // \" \\ \/
        }
      }
      out += c;
    }
    expect('"');
    return out;
  }
  void value(Entry& e) {
    const char c = peek();
    if (c == '"') {
      e.value = string();
      e.kind = 's';
      return;
    }
    for (const auto& [word, kind] :
         {std::pair<const char*, char>{"true", 't'}, {"false", 'f'}, {"null", '0'}}) {
      const std::string w = word;
      if (s_.compare(i_, w.size(), w) == 0) {
        i_ += w.size();
        e.kind = kind;
        return;
      }
    }
    const char* begin = s_.c_str() + i_;
    char* end = nullptr;
    std::strtod(begin, &end);
    if (end == begin) fail("value of '" + e.key + "' is not a number, string or boolean");
    e.value.assign(begin, static_cast<std::size_t>(end - begin));
    e.kind = 'n';
    i_ += static_cast<std::size_t>(end - begin);
  }

  std::string s_, path_;
  std::size_t i_ = 0;
};

}  // namespace

// The case file's entries as command-line arguments.
std::vector<std::string> case_file_arguments(const std::string& path) {
  std::vector<std::string> args;
  for (const auto& e : FlatJsonParser(read_file(path), path).parse()) {
    if (e.key.empty() || e.key.rfind("-", 0) == 0)
      throw FileError(path + ": key '" + e.key + "' should be an option name without dashes");
    if (e.key == "case") throw FileError(path + ": a case file cannot name another case file");
    const std::string option = "--" + e.key;
    if (e.kind == 't') {
      args.push_back(option);
    } else if (e.kind == 's' || e.kind == 'n') {
      args.push_back(option);
      args.push_back(e.value);
    }
  }
  return args;
}

}  // namespace vortex::ring_app
