#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# check_platformio.py ROOT [--src-filter FILTER]: validates library.json
# without PlatformIO (which cannot be installed here). It checks the
# manifest's fields, runs its extraScript with a stand-in construction
# environment for each supported platform, applies the resulting srcFilter
# to the tree the way PlatformIO does (ordered +<glob>/-<glob>, a folder
# stands for every source file under it) and compares the selection with
# what a framework build needs, derived from the tree: every source file of
# port/framework_<chip>/ plus src/assert.cpp, and nothing else (no kernel,
# no other port, no test). --src-filter replaces the manifest's filter, to
# show a wrong one fails. Exit status 0 when everything holds.
import glob
import importlib.util
import json
import os
import re
import sys

SRC_EXTS = {"c", "cc", "cpp", "cxx", "c++", "S", "spp", "SPP", "sx", "s", "asm", "ASM"}
COMMON_SOURCES = {"src/assert.cpp"}  # portable, not kernel: kairos_assert_failed
PLATFORM_PORTS = {"espressif8266": "framework_esp8266", "espressif32": "framework_esp32"}

errors = []


def fail(msg):
    errors.append(msg)
    print("FAIL: " + msg)


def is_source(path):
    return path.rsplit(".", 1)[-1] in SRC_EXTS if "." in os.path.basename(path) else False


def sources_under(root, rel_dir):
    """sources_under(root, rel_dir) is every source file below rel_dir."""
    out = set()
    for dirpath, _, files in os.walk(os.path.join(root, rel_dir)):
        for f in files:
            p = os.path.relpath(os.path.join(dirpath, f), root)
            if is_source(p):
                out.add(p)
    return out


def apply_src_filter(src_dir, src_filter):
    """apply_src_filter(src_dir, filter) is the set of source files (paths
    relative to src_dir) PlatformIO's match_src_files selects."""
    if isinstance(src_filter, (list, tuple)):
        src_filter = " ".join(src_filter)
    selected = set()
    for action, pattern in re.findall(r"(\+|-)<([^>]+)>", src_filter):
        items = set()
        for item in glob.glob(os.path.join(glob.escape(src_dir), pattern), recursive=True):
            if os.path.isdir(item):
                items |= {os.path.join(os.path.relpath(item, src_dir), p)
                          for p in sources_under(item, ".")}
            elif is_source(item):
                items.add(os.path.relpath(item, src_dir))
        items = {os.path.normpath(p) for p in items}
        if action == "+":
            selected |= items
        else:
            selected -= items
    return selected


class StandInEnv:
    """The part of a SCons construction environment the extraScript uses."""

    def __init__(self, platform):
        self.vars = {"PIOPLATFORM": platform, "CPPPATH": []}

    def subst(self, s):
        return re.sub(r"\$(\w+)", lambda m: self.vars.get(m.group(1), ""), s)

    def Replace(self, **kw):
        self.vars.update(kw)

    def Append(self, **kw):
        for k, v in kw.items():
            self.vars.setdefault(k, [])
            self.vars[k] = list(self.vars[k]) + list(v)


def check_manifest(root, manifest):
    for field in ("name", "version", "description", "repository", "license", "frameworks",
                  "platforms", "build"):
        if field not in manifest:
            fail("library.json: no %r" % field)
    if manifest.get("name") != "kairos":
        fail("library.json: name %r, not 'kairos'" % manifest.get("name"))
    if not re.fullmatch(r"\d+\.\d+\.\d+", str(manifest.get("version", ""))):
        fail("library.json: version %r is not semver" % manifest.get("version"))
    if manifest.get("license") != "MIT":
        fail("library.json: license %r, not the SPDX 'MIT' of LICENSE" % manifest.get("license"))
    repo = manifest.get("repository", {})
    if repo.get("type") != "git" or not str(repo.get("url", "")).startswith("https://"):
        fail("library.json: repository must be {type: git, url: https://...}")
    with open(os.path.join(root, "CMakeLists.txt")) as f:
        m = re.search(r'HOMEPAGE_URL "([^"]+)"', f.read())
    if not m or repo.get("url") != m.group(1):
        fail("library.json: repository.url %r is not project(HOMEPAGE_URL) %r"
             % (repo.get("url"), m.group(1) if m else None))
    if set(manifest.get("platforms", [])) != set(PLATFORM_PORTS):
        fail("library.json: platforms %r, expected %r" % (manifest.get("platforms"),
                                                         sorted(PLATFORM_PORTS)))
    if set(manifest.get("frameworks", [])) != {"arduino", "espidf"}:
        fail("library.json: frameworks %r, expected arduino and espidf" % manifest.get("frameworks"))
    build = manifest.get("build", {})
    if build.get("libArchive") is not False:
        fail("library.json: build.libArchive must be false (the ports' interrupt handlers and "
             "constructors are referenced by nothing else, an archive would drop them)")
    inc = build.get("includeDir")
    if not inc or not os.path.isfile(os.path.join(root, inc, "kairos", "port.hpp")):
        fail("library.json: build.includeDir %r does not hold kairos/port.hpp" % inc)
    script = build.get("extraScript")
    if not script or not os.path.isfile(os.path.join(root, script)):
        fail("library.json: build.extraScript %r does not exist" % script)


def check_platform(root, manifest, script, platform, filter_override):
    port = PLATFORM_PORTS[platform]
    env = StandInEnv(platform)
    other = StandInEnv(platform)
    script.configure(env, [env, other], root)
    src_filter = env.vars.get("SRC_FILTER")
    if filter_override is not None:
        src_filter = filter_override
    src_dir = os.path.join(root, manifest["build"].get("srcDir", "src"))
    got = apply_src_filter(src_dir, src_filter)
    got = {os.path.normpath(os.path.relpath(os.path.join(src_dir, p), root)) for p in got}
    port_dir = os.path.join("port", port)
    want = COMMON_SOURCES | sources_under(root, port_dir)
    if not os.path.isdir(os.path.join(root, port_dir)):
        print("note: %s is not in this tree; only %s expected" % (port_dir, sorted(COMMON_SOURCES)))
    for p in sorted(got - want):
        fail("%s: srcFilter selects %s, which a framework build must not compile" % (platform, p))
    for p in sorted(want - got):
        fail("%s: srcFilter misses %s" % (platform, p))
    include = os.path.realpath(os.path.join(root, port_dir))
    for e, name in ((env, "library"), (other, "project")):
        if include not in e.vars.get("CPPPATH", []):
            fail("%s: %s include path lacks %s" % (platform, name, port_dir))
    if os.path.isdir(include) and not os.path.isfile(os.path.join(include, "kairos",
                                                                  "port_config.hpp")):
        fail("%s: %s has no kairos/port_config.hpp (include/kairos/port.hpp needs it)"
             % (platform, port_dir))
    print("%s: %d sources selected: %s" % (platform, len(got), " ".join(sorted(got))))


def main():
    root = os.path.realpath(sys.argv[1])
    filter_override = None
    if len(sys.argv) == 4 and sys.argv[2] == "--src-filter":
        filter_override = sys.argv[3]
    with open(os.path.join(root, "library.json")) as f:
        manifest = json.load(f)
    check_manifest(root, manifest)
    spec = importlib.util.spec_from_file_location(
        "kairos_pio_script", os.path.join(root, manifest["build"]["extraScript"]))
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    for platform in sorted(PLATFORM_PORTS):
        check_platform(root, manifest, script, platform, filter_override)
    try:
        script.configure(StandInEnv("atmelavr"), [], root)
        fail("extraScript accepted the unsupported platform atmelavr")
    except ValueError:
        pass
    if errors:
        print("%d problem(s)" % len(errors))
        return 1
    print("library.json: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
