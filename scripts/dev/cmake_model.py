"""A small CMake reader for scripts/dev/check_includes.py: the targets of the project's list files,
their sources, include folders and links. Standard library only."""

import os
import re

# Paths inside the build tree: every binary-dir variable stands for them (not in the sources).
BUILD_DIR = "<build>"
COMMAND = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\s*\(")
VARIABLE = re.compile(r"\$(?:ENV)?\{([^${}]*)\}")
GENEX = re.compile(r"\$<([A-Za-z0-9_]+)(?::([^$<>]*))?>")  # innermost generator expression


# ---------------------------------------------------------------------------------------------
# A small CMake reader: enough of the language to follow variables, foreach loops, functions and
# add_subdirectory. Every branch of every if() is taken, so the graph is the union of all
# configurations (CUDA on and off, VTK, Python, ...).

def tokenize(text):
    """Yields (command, [(argument, quoted)], line) for each command invocation of a list file."""
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif c == "#":
            if text.startswith("#[[", i):  # bracket comment
                end = text.find("]]", i)
                end = n if end < 0 else end + 2
            else:
                end = text.find("\n", i)
                end = n if end < 0 else end
            line += text.count("\n", i, end)
            i = end
        else:
            m = COMMAND.match(text, i)
            if not m:
                raise SyntaxError(f"line {line}: unexpected {text[i:i + 20]!r}")
            name, start_line = m.group(0)[:-1].strip().lower(), line
            i = m.end()
            args, depth, cur, quoted = [], 0, "", False

            def flush():
                nonlocal cur, quoted
                if cur or quoted:
                    args.append((cur, quoted))
                cur, quoted = "", False

            while i < n:
                c = text[i]
                if c == '"':
                    j = i + 1
                    while j < n and text[j] != '"':
                        j += 2 if text[j] == "\\" else 1
                    cur += text[i + 1:j].replace('\\"', '"')
                    quoted = True
                    line += text.count("\n", i, j)
                    i = j + 1
                elif c == "#" and not cur:
                    end = text.find("\n", i)
                    i = n if end < 0 else end
                elif c == "(":
                    depth += 1
                    cur += c
                    i += 1
                elif c == ")":
                    if depth == 0:
                        flush()
                        i += 1
                        break
                    depth -= 1
                    cur += c
                    i += 1
                elif c.isspace():
                    line += c == "\n"
                    flush()
                    i += 1
                else:
                    cur += c
                    i += 1
            yield name, args, start_line


class Target:
    def __init__(self, name, kind, cmake_file, line):
        self.name, self.kind = name, kind
        self.cmake_file, self.line = cmake_file, line
        self.folder = os.path.dirname(cmake_file)  # the folder of the list file that made it
        self.sources = set()
        self.include_dirs = []  # (folder, scope, list file, line)
        self.links = set()
        self.objects_of = set()  # object libraries whose objects it takes

    def home(self):
        """The folder that holds its own sources and include folders (gpu/plan for gpu_plan)."""
        mine = [os.path.dirname(s) for s in self.sources] + [d for d, *_ in self.include_dirs]
        mine = [d for d in mine if self.owns(d)]
        return os.path.commonpath(mine) if mine else self.folder

    def owns(self, folder):
        """Whether `folder` is one of this target's own folders (under its list file's folder)."""
        return within(folder, self.folder)


def within(path, folder):
    return folder == "" or path == folder or path.startswith(folder + "/")


class CMakeModel:
    """Targets, their sources, include folders and links, from the project's list files."""

    def __init__(self, root):
        self.root = root
        self.targets = {}
        self.aliases = {}
        self.functions = {}
        scope = {"PROJECT_SOURCE_DIR": root, "CMAKE_SOURCE_DIR": root,
                 "CMAKE_CURRENT_SOURCE_DIR": root, "CMAKE_CURRENT_LIST_DIR": root,
                 "PROJECT_BINARY_DIR": BUILD_DIR,
                 "CMAKE_BINARY_DIR": BUILD_DIR, "CMAKE_CURRENT_BINARY_DIR": BUILD_DIR}
        self.run_file("CMakeLists.txt", scope)
        self._fold_object_libraries()

    # -- paths -------------------------------------------------------------------------------
    def path(self, value, scope):
        """A repository-relative path ('' for the root), or None outside the source tree."""
        if value == "" or value.startswith(BUILD_DIR):
            return None
        full = os.path.normpath(os.path.join(scope["CMAKE_CURRENT_SOURCE_DIR"], value))
        if not within(full, self.root):
            return None
        rel = os.path.relpath(full, self.root)
        return "" if rel == "." else rel

    # -- evaluation --------------------------------------------------------------------------
    def expand(self, text, scope):
        while True:  # innermost first: ${a_${b}}
            new = VARIABLE.sub(lambda m: scope.get(m.group(1), ""), text)
            if new == text:
                return text
            text = new

    def genex(self, value):
        """Reduces generator expressions to what a build-tree include or link sees."""
        while True:
            m = GENEX.search(value)
            if not m:
                return value
            name, arg = m.group(1), m.group(2) or ""
            if name in ("BUILD_INTERFACE", "1"):
                out = arg
            elif name == "TARGET_OBJECTS":
                out = "\0objects:" + arg
            elif name in ("INSTALL_INTERFACE", "0") or name.startswith("TARGET_"):
                out = ""
            else:
                out = "1"  # a condition (COMPILE_LANGUAGE, CONFIG, ...): every branch is taken
            value = value[:m.start()] + out + value[m.end():]

    def arguments(self, args, scope):
        out = []
        for text, quoted in args:
            value = self.expand(text, scope)
            if quoted:
                out.append(value)
            else:
                out.extend(v for v in value.split(";") if v != "")
        return out

    def run_file(self, rel_file, scope):
        with open(os.path.join(self.root, rel_file), encoding="utf-8") as f:
            commands = list(tokenize(f.read()))
        self.run(commands, scope, rel_file)

    def block_end(self, commands, i, opener, closer):
        depth = 0
        for j in range(i, len(commands)):
            if commands[j][0] == opener:
                depth += 1
            elif commands[j][0] == closer:
                depth -= 1
                if depth == 0:
                    return j
        raise SyntaxError(f"no {closer} for {opener}")

    def run(self, commands, scope, rel_file):
        i = 0
        while i < len(commands):
            name, raw, line = commands[i]
            if name in ("foreach", "function", "macro"):
                end = self.block_end(commands, i, name, "end" + name)
                body = commands[i + 1:end]
                args = self.arguments(raw, scope)
                if name == "foreach":
                    var, items = args[0], args[1:]
                    if items[:2] == ["IN", "LISTS"]:
                        items = [v for lst in items[2:] for v in scope.get(lst, "").split(";") if v]
                    elif items[:2] == ["IN", "ITEMS"]:
                        items = items[2:]
                    for item in items:
                        scope[var] = item
                        self.run(body, scope, rel_file)
                else:
                    self.functions[args[0].lower()] = (name, args[1:], body, rel_file)
                i = end + 1
                continue
            self.command(name, raw, line, scope, rel_file)
            i += 1

    def command(self, name, raw, line, scope, rel_file):
        args = self.arguments(raw, scope)
        where = (rel_file, line)
        if name == "set" and args:
            values = []
            for a in args[1:]:
                if a in ("CACHE", "PARENT_SCOPE"):
                    break
                values.append(a)
            scope[args[0]] = ";".join(values)
        elif name == "list" and len(args) >= 2 and args[0] == "APPEND":
            old = scope.get(args[1], "")
            scope[args[1]] = ";".join([v for v in old.split(";") if v] + args[2:])
        elif name == "get_filename_component" and len(args) >= 3:
            base = os.path.basename(args[1])
            scope[args[0]] = {"NAME_WE": base.split(".")[0], "NAME": base,
                              "DIRECTORY": os.path.dirname(args[1])}.get(args[2], args[1])
        elif name == "add_subdirectory":
            folder = self.path(args[0], scope)
            if folder is not None and os.path.exists(os.path.join(self.root, folder,
                                                                  "CMakeLists.txt")):
                full = os.path.join(self.root, folder)
                child = dict(scope, CMAKE_CURRENT_SOURCE_DIR=full, CMAKE_CURRENT_LIST_DIR=full)
                self.run_file(os.path.join(folder, "CMakeLists.txt"), child)
        elif name == "include" and args and args[0].endswith(".cmake"):
            rel = self.path(args[0], scope)
            if rel is not None and os.path.exists(os.path.join(self.root, rel)):
                self.run_file(rel, scope)
        elif name in ("add_library", "add_executable", "pybind11_add_module"):
            self.add_target(name, args, scope, where)
        elif name == "target_sources" and args[0] in self.targets:
            self.add_sources(self.targets[args[0]], args[1:], scope)
        elif name == "target_include_directories" and args[0] in self.targets:
            scope_word = "PRIVATE"
            for a in args[1:]:
                if a in ("PUBLIC", "PRIVATE", "INTERFACE"):
                    scope_word = a
                elif a not in ("SYSTEM", "BEFORE", "AFTER"):
                    folder = self.path(self.genex(a), scope)
                    if folder is not None:
                        self.targets[args[0]].include_dirs.append((folder, scope_word, *where))
        elif name == "target_link_libraries" and args[0] in self.targets:
            for a in args[1:]:
                if a not in ("PUBLIC", "PRIVATE", "INTERFACE"):
                    self.targets[args[0]].links.add(self.genex(a))
        elif name in self.functions:
            self.call(name, args, scope, where)

    def add_target(self, command, args, scope, where):
        name, rest = args[0], args[1:]
        if "ALIAS" in rest:
            self.aliases[name] = rest[rest.index("ALIAS") + 1]
            return
        if "IMPORTED" in rest:
            return
        kinds = ("STATIC", "SHARED", "MODULE", "OBJECT", "INTERFACE")
        kind = next((a for a in rest if a in kinds), "EXECUTABLE" if command == "add_executable"
                    else "LIBRARY")
        target = Target(name, kind, where[0], where[1])
        self.targets[name] = target
        self.add_sources(target, [a for a in rest if a not in kinds + ("NO_EXTRAS",
                                                                        "EXCLUDE_FROM_ALL")], scope)

    def add_sources(self, target, items, scope):
        for a in items:
            if a in ("PUBLIC", "PRIVATE", "INTERFACE"):
                continue
            a = self.genex(a)
            if a.startswith("\0objects:"):
                target.objects_of.add(a[len("\0objects:"):])
                continue
            path = self.path(a, scope)
            if path is not None and os.path.isfile(os.path.join(self.root, path)):
                target.sources.add(path)

    def call(self, name, args, scope, where):
        kind, params, body, rel_file = self.functions[name]
        inner = scope if kind == "macro" else dict(scope)
        for k, p in enumerate(params):
            inner[p] = args[k] if k < len(args) else ""
        inner["ARGN"] = ";".join(args[len(params):])
        inner["ARGV"] = ";".join(args)
        # Targets made inside a function are reported at the call, where a reader looks for them.
        self.run([(c, a, where[1]) for c, a, _ in body], inner, where[0])

    def _fold_object_libraries(self):
        """An object library built only into another target is part of that target."""
        for t in list(self.targets.values()):
            for obj in t.objects_of:
                part = self.targets.pop(obj, None)
                if part is None:
                    continue
                t.sources |= part.sources
                t.include_dirs += part.include_dirs
                t.links |= part.links
        for t in self.targets.values():
            t.links = {self.aliases.get(l, l) for l in t.links}
            t.links = {l for l in t.links if l in self.targets and l != t.name}
