#include "cli.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace vortex::cli {

namespace {

std::string format_double(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace

OptionParser::OptionParser(std::string program, std::string usage, std::string description)
    : program_(std::move(program)), usage_(std::move(usage)), description_(std::move(description)) {
  add_option("-h,--help", "", "print this help and exit", "", nullptr);
}

void OptionParser::add_option(const std::string& names, const std::string& metavar,
                              const std::string& help, const std::string& default_text,
                              std::function<void(const std::string&, const std::string&)> set) {
  Option option;
  option.names = split_list(names);
  option.metavar = metavar;
  option.help = help;
  option.default_text = default_text;
  option.set = std::move(set);
  options_.push_back(std::move(option));
}

void OptionParser::add(const std::string& names, const std::string& metavar,
                       const std::string& help, std::string& value,
                       const std::string& default_text) {
  add_option(names, metavar, help, default_text.empty() ? value : default_text,
             [&value](const std::string&, const std::string& text) { value = text; });
}

void OptionParser::add(const std::string& names, const std::string& metavar,
                       const std::string& help, int& value, const std::string& default_text) {
  add_option(names, metavar, help, default_text.empty() ? std::to_string(value) : default_text,
             [&value](const std::string& name, const std::string& text) {
               value = parse_int(name, text);
             });
}

void OptionParser::add(const std::string& names, const std::string& metavar,
                       const std::string& help, double& value, const std::string& default_text) {
  add_option(names, metavar, help, default_text.empty() ? format_double(value) : default_text,
             [&value](const std::string& name, const std::string& text) {
               value = parse_double(name, text);
             });
}

void OptionParser::add(const std::string& names, const std::string& metavar,
                       const std::string& help, std::uint64_t& value,
                       const std::string& default_text) {
  add_option(names, metavar, help, default_text.empty() ? std::to_string(value) : default_text,
             [&value](const std::string& name, const std::string& text) {
               value = parse_uint64(name, text);
             });
}

void OptionParser::add_flag(const std::string& names, const std::string& help, bool& value) {
  add_option(names, "", help, "",
             [&value](const std::string&, const std::string&) { value = true; });
}

void OptionParser::add_positional(const std::string& metavar, const std::string& help,
                                  std::string& value, bool required) {
  positionals_.push_back({metavar, help, &value, required});
}

OptionParser::Option* OptionParser::find(const std::string& name) {
  for (auto& option : options_) {
    for (const auto& n : option.names) {
      if (n == name) return &option;
    }
  }
  return nullptr;
}

bool OptionParser::given(const std::string& name) const {
  for (const auto& option : options_) {
    for (const auto& n : option.names) {
      if (n == name) return option.given;
    }
  }
  return false;
}

bool OptionParser::parse(int argc, char** argv) {
  std::size_t next_positional = 0;
  bool only_positionals = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (!only_positionals && arg == "--") {
      only_positionals = true;
      continue;
    }
    if (only_positionals || arg.size() < 2 || arg[0] != '-') {
      if (next_positional >= positionals_.size()) {
        throw UsageError("unexpected argument '" + arg + "' (see --help)");
      }
      *positionals_[next_positional++].value = arg;
      continue;
    }
    std::string name = arg, value;
    bool inline_value = false;
    if (const auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      inline_value = true;
    }
    Option* option = find(name);
    if (!option) throw UsageError("unknown option '" + name + "' (see --help)");
    if (name == "-h" || name == "--help") {
      std::fputs(help().c_str(), stdout);
      return false;
    }
    option->given = true;
    if (option->metavar.empty()) {
      if (inline_value) throw UsageError("option " + name + " takes no value");
      option->set(name, "");
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= argc) throw UsageError("option " + name + " needs a value " + option->metavar);
      value = argv[++i];
    }
    option->set(name, value);
  }
  for (std::size_t k = next_positional; k < positionals_.size(); ++k) {
    if (positionals_[k].required) {
      throw UsageError("missing argument " + positionals_[k].metavar + " (see --help)");
    }
  }
  return true;
}

std::string OptionParser::help() const {
  constexpr std::size_t kIndent = 30, kWidth = 100;
  std::string text = "Usage: " + program_ + " " + usage_ + "\n\n" + description_ + "\n";
  // Name column, then the help wrapped at word boundaries.
  auto line = [&text](std::string left, const std::string& right) {
    left = "  " + left;
    if (left.size() < kIndent) {
      left.resize(kIndent, ' ');
    } else {
      left += "\n" + std::string(kIndent, ' ');
    }
    text += left;
    std::size_t column = kIndent, start = 0;
    while (start < right.size()) {
      std::size_t end = right.find(' ', start);
      if (end == std::string::npos) end = right.size();
      const std::size_t word = end - start;
      if (column > kIndent && column + 1 + word > kWidth) {
        text += "\n" + std::string(kIndent, ' ');
        column = kIndent;
      } else if (column > kIndent) {
        text += ' ';
        ++column;
      }
      text += right.substr(start, word);
      column += word;
      start = end + 1;
    }
    text += "\n";
  };
  if (!positionals_.empty()) {
    text += "\nArguments:\n";
    for (const auto& p : positionals_) line(p.metavar, p.help + (p.required ? "" : " (optional)"));
  }
  text += "\nOptions:\n";
  for (const auto& option : options_) {
    std::string left;
    for (const auto& n : option.names) left += (left.empty() ? "" : ", ") + n;
    if (!option.metavar.empty()) left += " " + option.metavar;
    std::string right = option.help;
    // "-" marks a required option or one without a meaningful default.
    if (!option.metavar.empty() && option.default_text != "-") {
      right += " (default: " + (option.default_text.empty() ? "none" : option.default_text) + ")";
    }
    line(left, right);
  }
  return text;
}

int parse_int(const std::string& option, const std::string& text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw UsageError("option " + option + ": \"" + text + "\" is not an integer");
  }
  return value;
}

double parse_double(const std::string& option, const std::string& text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    throw UsageError("option " + option + ": \"" + text + "\" is not a finite number");
  }
  return value;
}

std::uint64_t parse_uint64(const std::string& option, const std::string& text) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw UsageError("option " + option + ": \"" + text + "\" is not a non-negative integer");
  }
  return value;
}

std::vector<std::string> split_list(const std::string& text, char separator) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(separator, start), text.size());
    if (end > start) items.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return items;
}

}  // namespace vortex::cli
