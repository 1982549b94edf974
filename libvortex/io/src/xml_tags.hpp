#pragma once
// A small scanner of XML tags, enough for the VTK XML files we read (.vtp, .pvd): it yields start,
// end and empty-element tags with their attributes, and skips declarations and comments. Text
// between tags is left to the caller (by byte offsets), since VTK stores array data there.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vortex::xml {

struct Tag {
  enum class Kind { Start, End, Empty };
  Kind kind = Kind::Start;
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;  // values with entities decoded
  std::size_t begin = 0;                                        // offset of '<'
  std::size_t end = 0;                                          // offset one past '>'

  // The attribute's value, or nullptr.
  const std::string* attribute(std::string_view key) const;
};

class TagScanner {
 public:
  // Scans text[0, limit); `path` names the file in error messages.
  TagScanner(std::string_view text, std::size_t limit, std::string path);

  // The next tag; false at the limit. Throws FileError (path:line: ...) on a malformed tag.
  bool next(Tag& tag);

  // 1-based line number of a byte offset in the text.
  int line_of(std::size_t offset) const;
  // "path:line: " for error messages.
  std::string where(std::size_t offset) const;

 private:
  std::string_view text_;
  std::size_t limit_;
  std::size_t pos_ = 0;
  std::string path_;
};

// Replaces &amp; &lt; &gt; &quot; &apos; by their characters, for attribute values we write.
std::string escape(std::string_view text);

}  // namespace vortex::xml
