#!/usr/bin/env python3
"""The project's layout checks: the docs stay reference (tools/ci/check-docs.py), the
include layers hold (tools/ci/check-includes.py), and the engine binary links none of the
tools' code (src/toolkit/, src/tune/, src/nnue/train/).

usage: python3 tests/test_layout.py ENGINE
Checks: both scripts pass on the tree; check-docs flags each kind of lab note planted in a
copy (date, load, nice level, time of writing, a wide table line, a target of the Makefile
or of a fragment in mk/ left out of make help, a lab note in a fragment) and passes the
same copy once they are gone; the engine's symbol table (nm) has no self-play, book-building, tuner or trainer function; every command of the
README's command table is named by `saavedra --help` and by the man page. The last line is
"N passed, N failed".
"""
import os
import re
import shutil
import subprocess
import sys

import testkit
from testkit import check, test

ENGINE = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(testkit.ROOT, "saavedra")
CHECK_DOCS = os.path.join(testkit.ROOT, "tools", "ci", "check-docs.py")
CHECK_INCLUDES = os.path.join(testkit.ROOT, "tools", "ci", "check-includes.py")
TMP = testkit.temp_dir("layout")


def check_docs(root=None):
    return testkit.run([sys.executable, CHECK_DOCS] + ([root] if root else []))


@test
def the_tree_has_no_lab_notes():
    rc, out, err = check_docs()
    check(rc == 0, "check-docs.py found lab notes:\n" + out + err)


@test
def the_include_layers_hold():
    rc, out, err = testkit.run([sys.executable, CHECK_INCLUDES])
    check(rc == 0 and out.rstrip().endswith(" 0 problems"), out + err)


def planted_copy(page_text, extra_target=None):
    """A copy of the Makefile (with mk/) and a page; extra_target names the makefile
    ("Makefile" or "mk/NAME.mk") that gets a target make help does not list."""
    root = os.path.join(TMP, "copy")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(os.path.join(root, "docs"))
    shutil.copy(os.path.join(testkit.ROOT, "Makefile"), root)
    shutil.copytree(os.path.join(testkit.ROOT, "mk"), os.path.join(root, "mk"))
    if extra_target:
        with open(os.path.join(root, extra_target), "a") as f:
            f.write("\nundocumented-target:\n\ttrue\n")
    with open(os.path.join(root, "README.md"), "w") as f:
        f.write("# Saavedra\n\nA chess engine.\n")
    with open(os.path.join(root, "docs", "page.md"), "w") as f:
        f.write(page_text)
    with open(os.path.join(root, "docs", "results.md"), "w") as f:
        f.write("| run | 2026-11-25 | load 6-8, nice 10 beside it |\n")  # allowed here
    return root


@test
def each_kind_of_lab_note_is_flagged():
    cases = {
        "date": "Measured on 2026-11-22.\n",
        "machine load": "Times at a load average of 6-8.\n",
        "nice level": "The generator ran at nice 10.\n",
        "time of writing": "It reports 116 modules at the time of writing.\n",
        # The word is put together here, so that this file does not read as a lab note.
        "work period": "Measured in this " + "ses" + "sion.\n",
        "table line": "| a | b |\n| --- | --- |\n| " + "x" * 220 + " | y |\n",
    }
    for what, text in cases.items():
        rc, out, _ = check_docs(planted_copy("# Page\n\n" + text))
        check(rc == 1 and "docs/page.md:" in out, "%s not flagged: %s" % (what, out))
    rc, out, _ = check_docs(planted_copy("# Page\n\nHow it works.\n"))
    check(rc == 0, "a clean copy was refused: " + out)


@test
def a_target_missing_from_make_help_is_flagged():
    for makefile in ("Makefile", "mk/test.mk", "mk/release.mk"):
        rc, out, _ = check_docs(planted_copy("# Page\n", extra_target=makefile))
        check(rc == 1 and makefile + ":" in out and "'undocumented-target'" in out, makefile + ": " + out)


@test
def a_lab_note_in_a_makefile_fragment_is_flagged():
    root = planted_copy("# Page\n")
    with open(os.path.join(root, "mk", "build.mk"), "a") as f:
        f.write("\n# Measured at nice 10 on 2026-11-22.\n")
    rc, out, _ = check_docs(root)
    check(rc == 1 and "mk/build.mk:" in out, out)


@test
def the_engine_links_no_tool_code():
    if shutil.which("nm") is None:
        print("  (nm not found: skipped)")
        return
    out = subprocess.run(["nm", ENGINE], capture_output=True, text=True).stdout
    check(out, "nm printed no symbols for " + ENGINE)
    names = [line.split()[-1] for line in out.splitlines() if line.split()]
    check(any(n == "engine_go" for n in names), "engine_go not found: a stripped binary?")
    tool_code = ("selfgame_", "bookbuild_", "book_builder", "nnue_train", "nnue_model", "tune_set_", "qleaf_")
    found = sorted({n for n in names if any(t in n.lower() for t in tool_code)})
    check(not found, "tool code in the engine: " + " ".join(found[:10]))


def readme_commands():
    """The first word of each command in README.md's "Console commands" table."""
    with open(os.path.join(testkit.ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("## Console commands", 1)[1].split("\n## ", 1)[0]
    names = []
    for line in section.splitlines():
        if line.startswith("| `"):
            for code in line.split("|")[1].split("`")[1::2]:
                names.append(code.split()[0])
    return names


@test
def readme_help_and_man_page_name_the_same_commands():
    names = readme_commands()
    check(len(names) >= 10 and "bench" in names and "annotate" in names, "README table: %r" % names)
    rc, help_text, _ = testkit.run([ENGINE, "--help"])
    check(rc == 0, "--help failed")
    with open(os.path.join(testkit.ROOT, "docs", "saavedra.6"), encoding="utf-8") as f:
        man = f.read()
    man_words = set(re.findall(r"[a-z]+", man.replace("\\fB", " ").replace("\\fR", " ")))
    missing_help = [n for n in names if not re.search(r"\b%s\b" % re.escape(n), help_text)]
    missing_man = [n for n in names if n not in man_words]
    check(not missing_help, "not in --help: %r" % missing_help)
    check(not missing_man, "not in the man page: %r" % missing_man)


testkit.finish()
