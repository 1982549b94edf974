#!/usr/bin/env python3
"""Arrows only down: no build target includes a header of a target that does not sit below it.

The targets, the folders they own and their links are read from the CMake files (the top-level
CMakeLists.txt and every add_subdirectory/include under it; cmake_model.py beside this file). A target sits below T when T links it,
directly or through other targets, in any configuration. Every `#include "..."` of the folders
that hold targets (math/, multipole/, gpu/, libvortex/, apps/, tests/, python/, ...) is resolved
to the target owning the header, and every target_include_directories that names another target's
folder is checked the same way.

  /usr/bin/python3 scripts/dev/check_includes.py           # violations, or a one-line summary
  /usr/bin/python3 scripts/dev/check_includes.py --layers  # the layer table the check enforces

Exit status 1 when an include runs up, else 0. Standard library only.
"""

import argparse
import os
import re
import sys
from collections import defaultdict

from cmake_model import CMakeModel, within

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))

SOURCE_EXTENSIONS = (".hpp", ".h", ".cpp", ".cc", ".c", ".cu", ".cuh")
INCLUDE_LINE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


# ---------------------------------------------------------------------------------------------
# The layer table: for each target, the targets below it (those it may include). This is the only
# place the layering is decided, and it comes from target_link_libraries.

def layer_table(model):
    below = {}

    def reach(name, seen=()):
        if name in below:
            return below[name]
        if name in seen:
            raise SystemExit(f"check_includes: link cycle through {name}")
        out = set()
        for l in model.targets[name].links:
            out |= {l} | reach(l, seen + (name,))
        below[name] = out
        return out

    for name in model.targets:
        reach(name)
    return below


def levels(model):
    """Each target's height: 0 for one that links no project target."""
    level = {}

    def height(name):
        if name not in level:
            level[name] = 1 + max((height(l) for l in model.targets[name].links), default=-1)
        return level[name]

    for name in model.targets:
        height(name)
    return level


class Ownership:
    """Which targets a file or folder belongs to: the targets compiling it, else the targets whose
    own folder (an include folder or the folder of a source) holds it most closely."""

    def __init__(self, model):
        self.by_source = defaultdict(set)
        self.folders = defaultdict(set)  # owned folder -> targets
        self.include_dirs = []  # every include folder of the project, in declaration order
        for t in model.targets.values():
            for s in t.sources:
                self.by_source[s].add(t.name)
                if t.owns(os.path.dirname(s)):
                    self.folders[os.path.dirname(s)].add(t.name)
            for folder, _scope, _file, _line in t.include_dirs:
                if t.owns(folder):
                    self.folders[folder].add(t.name)
                if folder not in self.include_dirs:
                    self.include_dirs.append(folder)

    def of_folder(self, folder):
        best = None
        for owned in self.folders:
            if within(folder, owned) and (best is None or len(owned) > len(best)):
                best = owned
        return self.folders[best] if best is not None else set()

    def of_file(self, path):
        return self.by_source.get(path) or self.of_folder(os.path.dirname(path))


def allowed(users, owners, below):
    """Whether some target using a header may see some target owning it."""
    return any(o == u or o in below[u] for u in users for o in owners)


def names(targets):
    return ", ".join(sorted(targets))


def check(model, root):
    below = layer_table(model)
    own = Ownership(model)
    violations, includes, files = [], 0, 0

    # CMake: include folders of other targets.
    for t in model.targets.values():
        for folder, _scope, cmake_file, line in t.include_dirs:
            owners = own.of_folder(folder)
            if owners and not allowed({t.name}, owners, below):
                violations.append((cmake_file, line, f"{t.name} includes {folder}/ of "
                                   f"{names(owners)} (target_include_directories)"))

    # Sources: every quoted include of every folder that holds a target (the library folders
    # math/, multipole/, gpu/, libvortex/, and the apps, tests and bindings above them).
    unresolved = []
    for top in scanned_folders(model):
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for filename in sorted(filenames):
                if not filename.endswith(SOURCE_EXTENSIONS):
                    continue
                path = os.path.relpath(os.path.join(dirpath, filename), root)
                users = own.of_file(path)
                files += 1
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                    lines = f.read().splitlines()
                for number, text in enumerate(lines, 1):
                    m = INCLUDE_LINE.match(text)
                    if not m:
                        continue
                    includes += 1
                    header = resolve(m.group(1), path, users, model, own, root)
                    if header is None:
                        unresolved.append(f"{path}:{number}: cannot find \"{m.group(1)}\"")
                        continue
                    owners = own.of_file(header)
                    if users and owners and not allowed(users, owners, below):
                        violations.append((path, number, f"{names(users)} includes {header} of "
                                           f"{names(owners)}"))
    return violations, unresolved, includes, files


def scanned_folders(model):
    """The top-level folders holding a target's list file or sources."""
    paths = [p for t in model.targets.values() for p in (t.folder, *t.sources)]
    return sorted({p.split("/")[0] for p in paths if p})


def resolve(name, path, users, model, own, root):
    """The repository file an include names: next to the including file, then in the include
    folders of its targets, then in any include folder of the project (where an up-arrow lands)."""
    candidates = [os.path.dirname(path)]
    for u in users:
        candidates += [d for d, *_ in model.targets[u].include_dirs]
    candidates += own.include_dirs
    for folder in candidates:
        rel = os.path.normpath(os.path.join(folder, name))
        if os.path.isfile(os.path.join(root, rel)):
            return rel
    return None


def print_layers(model, below):
    level = levels(model)
    libraries = [t for t in model.targets.values() if t.kind != "EXECUTABLE"]
    print(f"{'level':<6}{'target':<24}{'folder':<24}may include (besides itself)")
    for t in sorted(libraries, key=lambda t: (level[t.name], t.folder, t.name)):
        print(f"{level[t.name]:<6}{t.name:<24}{t.home() + '/':<24}{names(below[t.name]) or '-'}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layers", action="store_true", help="print the layer table and exit")
    args = parser.parse_args()

    model = CMakeModel(ROOT)
    if args.layers:
        print_layers(model, layer_table(model))
        return 0
    violations, unresolved, includes, files = check(model, ROOT)
    for path, line, text in sorted(violations):
        print(f"{path}:{line}: {text}")
    for text in unresolved:  # a quoted include that names no project file: worth a look
        print(f"note: {text}", file=sys.stderr)
    summary = (f"{includes} includes in {files} files of {', '.join(scanned_folders(model))}; "
               f"{len(model.targets)} targets")
    if violations:
        print(f"check_includes: {len(violations)} include(s) run up ({summary})")
        return 1
    print(f"check_includes: arrows only down ({summary})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
