#!/usr/bin/env python3
"""Every repository path that a Markdown document or a source comment names must exist.

Scanned: every *.md, and the comments of *.hpp *.h *.cpp *.c *.cu *.cuh *.py *.sh, CMakeLists.txt
and *.cmake. A reference is a Markdown link to a relative path, or a word that contains a '/' and
starts with a top-level folder (docs/, gpu/, scripts/, ...) or ends with the extension of a source
or document (.hpp, .cu, .md, .py, ...); data files (.csv, .vtp, .png, ...) count when they start
with a top-level folder, since elsewhere they name what a run writes. A reference resolves when it
names a file or folder
  - from the repository root, or from the referring file's folder or one of its parents;
  - for a Markdown link, from the document's folder;
  - with '...' standing for any folders in between (math/.../acceptance.hpp);
and, unless --strict, in two short forms:
  - a file whose first folder is not a top-level one (near/near_field_cpu.cpp, vortex/math/hd.hpp)
    as the trailing part of a file's path;
  - a top-level folder and a file name (math/acceptance.hpp) as a file of that folder.
Not references: URLs, absolute paths, build outputs (build/, build-*/), paths git ignores (out/),
placeholders ($OUT, OUT/, <dir>, {a,b}) and glob patterns (*). A document named by its file name
alone must be one of the repository's, and no path may climb out of the repository (../): what
the code relies on is written in the repository's own documents.

  /usr/bin/python3 scripts/dev/check_references.py [--strict]

Prints `path:line: reference` for each dangling one and exits 1; else prints a summary, exit 0.
"""

import os
import re
import subprocess
import sys

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))

TOP_FOLDERS = ("apps", "cmake", "data", "docs", "examples", "gpu", "libvortex", "math",
               "multipole", "python", "scripts", "tests")
SOURCE_EXTENSIONS = (".hpp", ".h", ".cpp", ".c", ".cu", ".cuh", ".md", ".py", ".sh", ".cmake",
                     ".f90", ".gp", ".toml")
DATA_EXTENSIONS = (".json", ".csv", ".vtp", ".pvd", ".txt", ".png")
# A document named by its file name alone, and a path that starts by climbing a folder.
BARE_DOCUMENT = re.compile(r"(?<![\w/.$-])([A-Za-z][\w-]*\.md)\b")
CLIMBING = re.compile(r"(?<![\w/.])\.\./[\w.-]+")
COMMENTED = (".hpp", ".h", ".cpp", ".c", ".cu", ".cuh", ".py", ".sh", ".cmake")

LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
WORD_SPLIT = re.compile(r"[\s`'\"()\[\]|,;=]+")  # in NAME=value, the value alone
LINE_SUFFIX = re.compile(r"(:\d+(-\d+)?)+$")  # path:123 or path:12-34
PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9_]*$")  # OUT/x.png: a folder the caller names


# ---------------------------------------------------------------------------------------------
# The files and the part of each that is checked (a source's comments), line numbers kept.

def repository_files():
    """Tracked files and untracked ones git does not ignore (no build trees)."""
    try:
        out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
        files = [f for f in out.splitlines() if os.path.isfile(os.path.join(ROOT, f))]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for dirpath, dirnames, filenames in os.walk(ROOT):
            dirnames[:] = [d for d in dirnames if not d.startswith((".", "build"))]
            files += [os.path.relpath(os.path.join(dirpath, f), ROOT) for f in filenames]
    return sorted(f for f in files if not f.startswith(("build/", "build-")))


def c_comments(text):
    """The comment text of C, C++ and CUDA sources, string and character literals left out, with
    everything else blanked so that line numbers stay."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(text[i:end])
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(text[i:end])
            i = end
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(re.sub(r"[^\n]", " ", text[i:j + 1]))
            i = j + 1
        elif c == "#" and re.match(r"#\s*include\b", text[i:i + 20]):
            end = text.find("\n", i)  # an include line names a header, not a reference
            end = n if end < 0 else end
            i = end
        else:
            out.append(c if c == "\n" else " ")
            i += 1
    return "".join(out)


def hash_comments(text, docstrings):
    """'#' comments of CMake, shell and Python (and Python's triple-quoted strings)."""
    out = []
    in_doc = None
    for line in text.split("\n"):
        kept = []
        i = 0
        quote = None
        while i < len(line):
            if in_doc:
                end = line.find(in_doc, i)
                kept.append(line[i:] if end < 0 else line[i:end])
                if end < 0:
                    break
                i, in_doc = end + 3, None
                continue
            c = line[i]
            if quote:
                if c == "\\":
                    i += 1
                elif c == quote:
                    quote = None
            elif docstrings and line.startswith(('"""', "'''"), i):
                in_doc = line[i:i + 3]
                i += 3
                continue
            elif c in "\"'":
                quote = c
            elif c == "#" and (i == 0 or line[i - 1] in " \t;(") and not line.startswith("#!", i):
                kept.append(line[i:])
                break
            i += 1
        out.append(" ".join(kept))
    return "\n".join(out)


def checked_text(path):
    with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
        text = f.read()
    name = os.path.basename(path)
    if name.endswith(".md"):
        return text
    if name == "CMakeLists.txt" or name.endswith((".cmake", ".sh")):
        return hash_comments(text, docstrings=False)
    if name.endswith(".py"):
        return hash_comments(text, docstrings=True)
    if name.endswith(COMMENTED):
        return c_comments(text)
    return None


# ---------------------------------------------------------------------------------------------
# References and their resolution.

class Tree:
    """The repository's files and folders, for lookups by trailing path."""

    def __init__(self, files):
        self.paths = set(files)
        for f in files:
            parts = f.split("/")
            self.paths.update("/".join(parts[:k]) for k in range(1, len(parts)))

    def exists(self, rel):
        rel = os.path.normpath(rel)
        return rel in self.paths or os.path.exists(os.path.join(ROOT, rel))

    def matches(self, pattern, anywhere):
        """Whether a path with '...' (any folders) matches, from the root or as a trailing path."""
        parts = [re.escape(p) for p in pattern.strip("/").split("/")]
        regex = "/".join(parts).replace("/\\.\\.\\./", "/(?:.*/)?").replace("\\.\\.\\./", "(?:.*/)?")
        full = re.compile(("(?:^|.*/)" if anywhere else "^") + regex + "$")
        return any(full.match(p) for p in self.paths)


def candidates(line, markdown):
    """(reference, is Markdown link) for each path-like word of a line of text."""
    found = []
    if markdown:
        found = [(m.group(1), True) for m in LINK.finditer(line)]
        line = LINK.sub(lambda m: " " * len(m.group(0)), line)
    for word in WORD_SPLIT.split(line):
        word = word.split("::")[0]  # a pytest id, file::test
        word = LINE_SUFFIX.sub("", word.rstrip(".:!?")).rstrip(".:")
        if "/" in word:
            found.append((word, False))
    return found


def normalized(ref):
    ref = ref.split("#")[0]  # a Markdown anchor
    return ref[2:] if ref.startswith("./") else ref


def is_reference(ref, link, ignored):
    if "://" in ref or ref.startswith(("www.", "mailto:", "#")):
        return False
    if any(c in ref for c in "*$<>{}%@\\~^"):  # globs and placeholders
        return False
    ref = normalized(ref)
    first = ref.split("/")[0]
    if not ref or ref.startswith("/") or first == "build" or first.startswith("build-"):
        return False
    if PLACEHOLDER.match(first) or (first.startswith(".") and first not in (".", "..")):
        return False  # OUT/x.png, or a list of extensions such as .csv/.vtp
    if ignored(ref):
        return False
    if link:
        return True
    return (first in TOP_FOLDERS or ref.endswith(SOURCE_EXTENSIONS)
            or (ref.endswith(DATA_EXTENSIONS) and first == ".."))


def resolves(ref, path, link, tree, strict):
    ref = normalized(ref)
    folder = os.path.dirname(path)
    bases = [""]
    while folder:
        bases.append(folder)
        folder = os.path.dirname(folder)
    wildcard = "..." in ref.split("/")
    for base in bases:
        rel = os.path.join(base, ref)
        if wildcard:
            if tree.matches(rel, anywhere=False):
                return True
        elif tree.exists(rel):
            return True
    if strict or link or wildcard:
        return False
    parts = ref.split("/")
    if parts[0] in TOP_FOLDERS:
        return len(parts) == 2 and tree.matches(parts[0] + "/.../" + parts[1], anywhere=False)
    return parts[0] != ".." and tree.matches(ref, anywhere=True)


def git_ignored():
    """A test for paths git ignores (run outputs such as out/), or a test that is always false."""
    cache = {}

    def ignored(ref):
        first = ref.split("/")[0]
        if first not in cache:
            try:
                cache[first] = subprocess.run(["git", "check-ignore", "-q", "--no-index", first],
                                              cwd=ROOT, capture_output=True).returncode == 0
            except OSError:
                cache[first] = False
        return cache[first]

    return ignored


def check(strict):
    files = repository_files()
    tree = Tree(files)
    ignored = git_ignored()
    violations, references, scanned = [], 0, 0
    documents = {os.path.basename(f) for f in files if f.endswith(".md")}
    for path in files:
        text = checked_text(path)
        if text is None:
            continue
        scanned += 1
        for number, line in enumerate(text.split("\n"), 1):
            for m in BARE_DOCUMENT.finditer(line):
                if m.group(1) not in documents:
                    violations.append((path, number, f"{m.group(1)} (not in the repository)"))
            for m in CLIMBING.finditer(line):
                if not os.path.normpath(os.path.join(os.path.dirname(path), m.group(0))).startswith(
                        ".."):
                    continue
                violations.append((path, number, f"{m.group(0)} (outside the repository)"))
            for ref, link in candidates(line, path.endswith(".md")):
                if not is_reference(ref, link, ignored):
                    continue
                references += 1
                if not resolves(ref, path, link, tree, strict):
                    violations.append((path, number, ref))
    return violations, references, scanned


def main():
    strict = sys.argv[1:] == ["--strict"]
    if sys.argv[1:] and not strict:
        print(__doc__)
        return 0 if sys.argv[1] in ("-h", "--help") else 2
    violations, references, scanned = check(strict)
    for path, number, ref in violations:
        print(f"{path}:{number}: {ref}")
    if violations:
        print(f"check_references: {len(violations)} dangling reference(s) "
              f"({references} references in {scanned} files)")
        return 1
    print(f"check_references: every reference resolves ({references} references in {scanned} "
          "files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
