#include "case_file.hpp"

#include <cmath>
#include <cstdint>
#include <exception>
#include <nlohmann/json.hpp>
#include <set>

#include "vortex/file_io.hpp"

namespace vortex::cli {

namespace {

// ordered: errors name the first bad entry in the file's order.
using Json = nlohmann::ordered_json;

enum class Kind { Unknown, Flag, Text, Number, Integer };

// Whether the parser takes this one word (the parsed value goes into the probe's settings).
bool accepts(OptionParser& parser, const std::string& word) {
  std::string program = "case", arg = word;
  char* argv[] = {program.data(), arg.data()};
  try {
    return parser.parse(2, argv);
  } catch (const std::exception&) {
    return false;
  }
}

// The option's type, from what its parser accepts: the parser is the one source of the options.
Kind kind_of(OptionParser& parser, const std::string& option) {
  if (accepts(parser, option)) return Kind::Flag;
  if (accepts(parser, option + "=x")) return Kind::Text;
  if (accepts(parser, option + "=0.5")) return Kind::Number;
  if (accepts(parser, option + "=1")) return Kind::Integer;
  return Kind::Unknown;
}

std::string describe(const Json& v) {
  switch (v.type()) {
    case Json::value_t::string:
      return "the string " + v.dump();
    case Json::value_t::boolean:
      return "the boolean " + v.dump();
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return "the number " + v.dump();
    case Json::value_t::null:
      return "null";
    case Json::value_t::array:
      return "an array";
    default:
      return "an object";
  }
}

// "[json.exception.parse_error.101] parse error at line 1, column 19: ..." without the tag.
std::string untagged(const Json::exception& e) {
  const std::string what = e.what();
  const auto end = what.find("] ");
  return what.rfind("[json.", 0) == 0 && end != std::string::npos ? what.substr(end + 2) : what;
}

bool plain_key(const std::string& key) {
  if (key.empty() || key.front() == '-') return false;
  for (char c : key)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

// The option's value as the parser's text; throws (the caller adds the key) on a wrong type.
std::string value_text(const Json& v, Kind kind) {
  switch (kind) {
    case Kind::Text:
      if (!v.is_string()) throw std::invalid_argument("expected a string");
      if (v.get_ref<const std::string&>().find('\0') != std::string::npos)
        throw std::invalid_argument("expected a string without NUL characters");
      return v.get<std::string>();
    case Kind::Number:
      if (!v.is_number()) throw std::invalid_argument("expected a number");
      return v.dump();  // the shortest text that reads back as the same double
    case Kind::Integer:
      if (v.is_number_integer()) return v.dump();
      if (v.is_number_float()) {
        // JSON has one number type: 1e3 is the integer 1000.
        const double x = v.get<double>();
        if (std::floor(x) == x && std::abs(x) < 9.2e18)
          return std::to_string(static_cast<std::int64_t>(x));
        if (std::floor(x) == x)
          throw std::invalid_argument("expected an integer of at most 18 digits");
      }
      throw std::invalid_argument("expected an integer");
    default:
      throw std::logic_error("value_text: no value");
  }
}

}  // namespace

std::vector<std::string> case_file_arguments(const std::string& path, OptionParser& options) {
  const std::string text = read_file(path);
  // Keys of the one object (depth 1); a repeated key would silently drop one of the values.
  std::set<std::string> seen;
  std::string repeated;
  const auto on_event = [&](int depth, Json::parse_event_t event, Json& parsed) {
    if (event == Json::parse_event_t::key && depth == 1 && parsed.is_string() &&
        !seen.insert(parsed.get<std::string>()).second && repeated.empty())
      repeated = parsed.get<std::string>();
    return true;
  };
  Json json;
  try {
    json = Json::parse(text, on_event);
  } catch (const Json::parse_error& e) {
    throw FileError(path + ": offset " + std::to_string(e.byte) + ": " + untagged(e) +
                    " (a case file is one flat JSON object)");
  } catch (const Json::exception& e) {
    throw FileError(path + ": " + untagged(e));
  }
  if (!json.is_object())
    throw FileError(path + ": " + describe(json) +
                    " where one flat JSON object of the options is expected");
  if (!repeated.empty()) throw FileError(path + ": key '" + repeated + "' appears twice");
  std::vector<std::string> args;
  for (const auto& [key, value] : json.items()) {
    if (!plain_key(key))
      throw FileError(path + ": key '" + key +
                      "' is not an option name (lowercase letters, digits and dashes, without the "
                      "leading dashes)");
    if (key == "case" || key == "help")
      throw FileError(path + ": key '" + key + "' is not allowed in a case file");
    const std::string option = "--" + key;
    const Kind kind = kind_of(options, option);
    if (kind == Kind::Unknown) {
      // "plot": false for the flag --no-plot.
      if (kind_of(options, "--no-" + key) != Kind::Flag)
        throw FileError(path + ": unknown key '" + key +
                        "' (the keys are the long option names without the dashes; see --help)");
      if (!value.is_boolean())
        throw FileError(path + ": key '" + key + "' is a flag (false: --no-" + key +
                        "): expected true or false, got " + describe(value));
      if (!value.get<bool>()) args.push_back("--no-" + key);
      continue;
    }
    if (kind == Kind::Flag) {
      if (!value.is_boolean())
        throw FileError(path + ": key '" + key + "' is a flag: expected true or false, got " +
                        describe(value));
      if (value.get<bool>()) args.push_back(option);
      continue;
    }
    try {
      args.push_back(option + "=" + value_text(value, kind));
    } catch (const std::invalid_argument& e) {
      throw FileError(path + ": key '" + key + "': " + e.what() + ", got " + describe(value));
    }
  }
  return args;
}

bool parse_with_case_file(
    OptionParser& parser, int argc, char** argv,
    const std::function<std::vector<std::string>(const std::string& path)>& read_case) {
  std::vector<std::string> args{argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--case" && i + 1 < argc) || a.rfind("--case=", 0) == 0) {
      for (auto& x : read_case(a == "--case" ? argv[i + 1] : a.substr(7))) args.push_back(x);
    }
  }
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  std::vector<char*> pointers;
  for (auto& a : args) pointers.push_back(a.data());
  return parser.parse(static_cast<int>(pointers.size()), pointers.data());
}

}  // namespace vortex::cli
