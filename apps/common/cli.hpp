#pragma once
// A small command-line option parser: --name VALUE, --name=VALUE, -o VALUE, flags and positional
// arguments, with --help listing every option and its default.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace vortex::cli {

// A bad command line; the message says what is wrong and points to --help.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class OptionParser {
 public:
  // `usage` is the synopsis after the program name; `description` is printed under it.
  OptionParser(std::string program, std::string usage, std::string description);

  // An option with a value. `names` is comma-separated, e.g. "-o,--output". The variable's value
  // before parse() is the default shown by --help (`default_text` overrides it when not empty;
  // "-" shows none, for required options).
  void add(const std::string& names, const std::string& metavar, const std::string& help,
           std::string& value, const std::string& default_text = "");
  void add(const std::string& names, const std::string& metavar, const std::string& help,
           int& value, const std::string& default_text = "");
  void add(const std::string& names, const std::string& metavar, const std::string& help,
           double& value, const std::string& default_text = "");
  void add(const std::string& names, const std::string& metavar, const std::string& help,
           std::uint64_t& value, const std::string& default_text = "");
  // A flag without a value: sets `value` to true.
  void add_flag(const std::string& names, const std::string& help, bool& value);
  // A positional argument (in the order added).
  void add_positional(const std::string& metavar, const std::string& help, std::string& value,
                      bool required);

  // Parses argv. Returns false when --help was asked for (the help is then printed to stdout).
  // Throws UsageError for unknown options, missing values or arguments, and malformed numbers.
  bool parse(int argc, char** argv);

  std::string help() const;
  // Whether the option (any of its names) was given on the command line.
  bool given(const std::string& name) const;

 private:
  struct Option {
    std::vector<std::string> names;
    std::string metavar;  // empty for flags
    std::string help;
    std::string default_text;
    std::function<void(const std::string& name, const std::string& text)> set;
    bool given = false;
  };
  struct Positional {
    std::string metavar;
    std::string help;
    std::string* value;
    bool required;
  };

  void add_option(const std::string& names, const std::string& metavar, const std::string& help,
                  const std::string& default_text,
                  std::function<void(const std::string&, const std::string&)> set);
  Option* find(const std::string& name);

  std::string program_, usage_, description_;
  std::vector<Option> options_;
  std::vector<Positional> positionals_;
};

// Numbers from option values; UsageError naming the option when the text is not one.
int parse_int(const std::string& option, const std::string& text);
double parse_double(const std::string& option, const std::string& text);
std::uint64_t parse_uint64(const std::string& option, const std::string& text);

// Splits "a,b,c" into its non-empty items.
std::vector<std::string> split_list(const std::string& text, char separator = ',');

}  // namespace vortex::cli
