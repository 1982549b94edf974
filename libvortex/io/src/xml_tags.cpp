#include "xml_tags.hpp"

#include <algorithm>
#include <cctype>

#include "solver/text_excerpt.hpp"
#include "vortex/file_io.hpp"

namespace vortex::xml {

const std::string* Tag::attribute(std::string_view key) const {
  for (const auto& [name, value] : attributes) {
    if (name == key) return &value;
  }
  return nullptr;
}

TagScanner::TagScanner(std::string_view text, std::size_t limit, std::string path)
    : text_(text), limit_(std::min(limit, text.size())), path_(std::move(path)) {}

int TagScanner::line_of(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  return 1 + static_cast<int>(std::count(text_.begin(), text_.begin() + offset, '\n'));
}

std::string TagScanner::where(std::size_t offset) const {
  return path_ + ":" + std::to_string(line_of(offset)) + ": ";
}

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
         c == ':';
}

std::string decode_entities(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out.push_back(s[i]);
      continue;
    }
    static const std::pair<std::string_view, char> entities[] = {
        {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
    bool matched = false;
    for (const auto& [entity, c] : entities) {
      if (s.substr(i, entity.size()) == entity) {
        out.push_back(c);
        i += entity.size() - 1;
        matched = true;
        break;
      }
    }
    if (!matched) out.push_back('&');
  }
  return out;
}

}  // namespace

bool TagScanner::next(Tag& tag) {
  while (true) {
    const std::size_t open = text_.find('<', pos_);
    if (open == std::string_view::npos || open >= limit_) {
      pos_ = limit_;
      return false;
    }
    const std::string_view rest = text_.substr(open);
    // Declarations, processing instructions and comments carry nothing we need.
    std::string_view closer;
    if (rest.substr(0, 4) == "<!--") {
      closer = "-->";
    } else if (rest.substr(0, 2) == "<?") {
      closer = "?>";
    } else if (rest.substr(0, 2) == "<!") {
      closer = ">";
    }
    if (!closer.empty()) {
      const std::size_t close = text_.find(closer, open + 2);
      if (close == std::string_view::npos) throw FileError(where(open) + "unterminated XML markup");
      pos_ = close + closer.size();
      continue;
    }

    std::size_t i = open + 1;
    tag = Tag{};
    tag.begin = open;
    if (i < text_.size() && text_[i] == '/') {
      tag.kind = Tag::Kind::End;
      ++i;
    }
    const std::size_t name_begin = i;
    while (i < text_.size() && is_name_char(text_[i])) ++i;
    if (i == name_begin) throw FileError(where(open) + "malformed XML tag");
    tag.name = std::string(text_.substr(name_begin, i - name_begin));
    while (true) {
      while (i < text_.size() && is_space(text_[i])) ++i;
      if (i >= text_.size())
        throw FileError(where(open) + "unterminated XML tag <" + detail::excerpt(tag.name));
      if (text_[i] == '>') {
        ++i;
        break;
      }
      if (text_[i] == '/' && i + 1 < text_.size() && text_[i + 1] == '>') {
        if (tag.kind == Tag::Kind::End) throw FileError(where(open) + "malformed XML tag");
        tag.kind = Tag::Kind::Empty;
        i += 2;
        break;
      }
      const std::size_t key_begin = i;
      while (i < text_.size() && is_name_char(text_[i])) ++i;
      if (i == key_begin) {
        throw FileError(where(i) + "malformed attribute in XML tag <" + detail::excerpt(tag.name));
      }
      std::string key(text_.substr(key_begin, i - key_begin));
      while (i < text_.size() && is_space(text_[i])) ++i;
      if (i >= text_.size() || text_[i] != '=') {
        throw FileError(where(i) + "attribute '" + detail::excerpt(key) + "' of <" +
                        detail::excerpt(tag.name) + "> has no value");
      }
      ++i;
      while (i < text_.size() && is_space(text_[i])) ++i;
      if (i >= text_.size() || (text_[i] != '"' && text_[i] != '\'')) {
        throw FileError(where(i) + "attribute '" + detail::excerpt(key) + "' of <" +
                        detail::excerpt(tag.name) + "> has an unquoted value");
      }
      const char quote = text_[i++];
      const std::size_t value_end = text_.find(quote, i);
      if (value_end == std::string_view::npos) {
        throw FileError(where(i) + "unterminated attribute '" + detail::excerpt(key) + "' of <" +
                        detail::excerpt(tag.name) + ">");
      }
      tag.attributes.emplace_back(std::move(key), decode_entities(text_.substr(i, value_end - i)));
      i = value_end + 1;
    }
    tag.end = i;
    pos_ = i;
    return true;
  }
}

std::string escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

}  // namespace vortex::xml
