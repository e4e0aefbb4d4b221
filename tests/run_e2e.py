#!/usr/bin/env python3
"""Runs one kkrace end-to-end test: a program whose expected reports are
written in it.

The test file says what kkrace must report, in comments:

  // EXPECT: data-race view=a subkind=iteration-overlap nodes=parallel_for:shift,parallel_for:shift
  // EXPECT: deadlock subkind=fence-in-kernel nodes=parallel_for:bad
  // EXPECT: no-report
  // EXPECT-TEXT: Previous read of size 8       (in the text report)
  // EXPECT-EXIT: 3                             (exit status; default: 66
  //                                             with reports, else 0)
  // KKRACE-OPTIONS: model=minikokkos           (added to KKRACE_OPTIONS)
  // OPT: O0 O2                                 (levels to build at)
  // ARGS: 10 20                                (program arguments)
  // BUILD-FLAGS: -DFOO                         (extra compiler flags)
  // EXPECT-KOKKOS44: deadlock subkind=hang     (expected on Kokkos 4.4 and
  //                                             later only)
  // REQUIRES: kokkos4                          (skipped, status 77, on
  //                                             older Kokkos; kokkoskernels:
  //                                             without Kokkos Kernels)
  // MPI-RANKS: 2 4                             (built with mpicxx, run with
  //                                             mpirun -np 2 and -np 4; the
  //                                             ranks' reports, deduplicated,
  //                                             match the EXPECT lines, and
  //                                             EXPECT[np4] lines with 4)
  // RUN: late model=minikokkos -- late         (a variant: a name, options
  //                                             added to KKRACE_OPTIONS,
  //                                             and after -- its arguments)
  // EXPECT[late]: data-race ...                (expected in that variant
  //                                             only; plain EXPECT lines
  //                                             hold in every variant)

An EXPECT line matches one report: kind, and each key=value given
(view=- means not a View; nodes= is the unordered pair of nodes, each
'host' or '<work_kind>:<label>'; lines= the unordered pair of source lines of
this file where the two accesses are).  The reports found must match the
EXPECT lines one to one: a report nobody expected fails the test, as does an
expected one that is missing.  Several EXPECT lines for the same variant
with a test option 'RUN: name KKRACE_OPTIONS' run the program several times.
A test that needs a newer Kokkos than the one it is built against exits
with status 77, which CTest shows as skipped.
"""
import argparse
import glob
import shutil
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile


def parse_test(path):
    spec = {"expect": [], "text": [], "exit": None, "options": "",
            "opt": ["O0", "O2"], "args": [], "flags": [], "runs": [],
            "requires": [], "expect44": [], "ranks": []}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            m = re.match(r"\s*//\s*([A-Z0-9-]+)(?:\[([\w-]+)\])?:\s*(.*?)\s*$",
                         line)
            if not m:
                continue
            key, variant, val = m.group(1), m.group(2), m.group(3)
            if key == "EXPECT":
                spec["expect"].append((lineno, val, variant))
            elif key == "EXPECT-KOKKOS44":
                spec["expect44"].append((lineno, val, variant))
            elif key == "RUN":
                words = shlex.split(val)
                args = []
                if "--" in words:
                    args = words[words.index("--") + 1:]
                    words = words[:words.index("--")]
                spec["runs"].append((words[0], " ".join(words[1:]), args))
            elif key == "REQUIRES":
                spec["requires"] += val.split()
            elif key == "EXPECT-TEXT":
                spec["text"].append(val)
            elif key == "EXPECT-EXIT":
                spec["exit"] = int(val)
            elif key == "KKRACE-OPTIONS":
                spec["options"] = val
            elif key == "OPT":
                spec["opt"] = val.split()
            elif key == "ARGS":
                spec["args"] = shlex.split(val)
            elif key == "MPI-RANKS":
                spec["ranks"] = [int(x) for x in val.split()]
            elif key == "BUILD-FLAGS":
                spec["flags"] = shlex.split(val)
    return spec


def parse_expect(text):
    words = text.split()
    if not words:
        raise ValueError("empty EXPECT")
    if words[0] == "no-report":
        return None
    exp = {"kind": words[0]}
    for w in words[1:]:
        if "=" not in w:
            raise ValueError("bad EXPECT word %r" % w)
        k, v = w.split("=", 1)
        exp[k] = v
    return exp


def node_token(node):
    t = node.get("type")
    if t == "host":
        return "host"
    kind = node.get("work_kind", "?")
    if t in ("copy", "fill"):
        return kind
    return "%s:%s" % (kind, node.get("work", ""))


def access_line(access, test_file):
    """The line of the test file in the access's stack; for work whose
    accesses are all in Kokkos (an asynchronous copy), the line that
    submitted it."""
    base = os.path.basename(test_file)
    node = access.get("node", {})
    for stack in (access.get("stack", []), node.get("submitted_at", [])):
        for fr in stack:
            if fr.get("file") and os.path.basename(fr["file"]) == base:
                return str(fr.get("line"))
    return "?"


def matches(exp, rep, test_file):
    if rep.get("kind") != exp["kind"]:
        return False
    for k, v in exp.items():
        if k == "kind":
            continue
        if k == "view":
            want = None if v == "-" else v
            if rep.get("view") != want:
                return False
        elif k == "subkind":
            if rep.get("subkind") != v:
                return False
        elif k == "nodes":
            got = sorted(node_token(a["node"]) for a in rep["accesses"])
            if got != sorted(v.split(",")):
                return False
        elif k == "lines":
            got = sorted(access_line(a, test_file) for a in rep["accesses"])
            if got != sorted(v.split(",")):
                return False
        elif k == "ops":
            got = sorted(a["op"] for a in rep["accesses"])
            if got != sorted(v.split(",")):
                return False
        elif k == "atomic":
            got = sorted("1" if a.get("atomic") else "0"
                         for a in rep["accesses"])
            if got != sorted(v.split(",")):
                return False
        else:
            raise ValueError("unknown EXPECT key %r" % k)
    return True


def describe(rep, test_file):
    nodes = ",".join(node_token(a["node"]) for a in rep.get("accesses", []))
    lines = ",".join(access_line(a, test_file) for a in rep.get("accesses", []))
    return "%s subkind=%s view=%s nodes=%s lines=%s" % (
        rep.get("kind"), rep.get("subkind"), rep.get("view"), nodes, lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--driver", required=True)
    ap.add_argument("--kokkos-include", required=True)
    ap.add_argument("--kokkos-libdir", default="")
    ap.add_argument("--kokkos-libs", default="trilinos_kokkoscore")
    ap.add_argument("--std", default="c++17")
    ap.add_argument("--workdir", default=None)
    ap.add_argument("test")
    a = ap.parse_args()

    spec = parse_test(a.test)
    if not spec["expect"]:
        print("FAIL: %s has no EXPECT line" % a.test)
        return 1
    version = kokkos_version(a.kokkos_include)
    if version >= 40400:
        spec["expect"] += spec["expect44"]
    if "kokkos4" in spec["requires"] and version < 40000:
        print("SKIP: %s needs Kokkos 4 (found %d)" % (a.test, version))
        return 77
    if "kokkos-before-3.6" in spec["requires"] and version >= 30600:
        print("SKIP: %s is about Kokkos before 3.6 (found %d)" %
              (a.test, version))
        return 77
    if "kokkoskernels" in spec["requires"] and not os.path.exists(
            os.path.join(a.kokkos_include, "KokkosKernels_config.h")):
        print("SKIP: %s needs Kokkos Kernels next to Kokkos" % a.test)
        return 77
    if spec["ranks"] and not (shutil.which("mpicxx") and
                              shutil.which("mpirun")):
        print("SKIP: %s needs MPI (mpicxx, mpirun)" % a.test)
        return 77
    runs = spec["runs"] or [(None, "", spec["args"])]
    if spec["ranks"]:
        # One variant per number of ranks, all with the same expectations.
        runs = [("np%d" % n, "", spec["args"]) for n in spec["ranks"]]
    for variant, _, _ in runs:
        if variant is not None and not any(v in (variant, None) for _, _, v
                                           in spec["expect"]):
            print("FAIL: %s: variant %s has no EXPECT[%s] line" %
                  (a.test, variant, variant))
            return 1
    workdir = a.workdir or tempfile.mkdtemp(prefix="kkrace-e2e-")
    os.makedirs(workdir, exist_ok=True)
    name = os.path.splitext(os.path.basename(a.test))[0]
    failures = []

    for opt, (variant, run_options, run_args) in (
            (o, r) for o in spec["opt"] for r in runs):
        exe = os.path.join(workdir, "%s.%s" % (name, opt))
        built = os.path.exists(exe) and variant != runs[0][0]
        expects = []
        for lineno, text, v in spec["expect"]:
            if v is not None and v != variant:
                continue
            e = parse_expect(text)
            if e is not None:
                expects.append((lineno, e))
        tag = opt if variant is None else "%s %s" % (opt, variant)
        if not built:
            driver = [a.driver]
            benv = None
            if spec["ranks"]:
                # Open MPI's wrapper around kkrace's driver: the driver
                # puts kkrace's MPI layer before the MPI library.
                driver = ["mpicxx"]
                benv = dict(os.environ, OMPI_CXX=a.driver, MPICH_CXX=a.driver)
            cmd = driver + ["-fsanitize=kkrace", "-" + opt, "-std=" + a.std,
                   "-I" + a.kokkos_include, "-Wno-deprecated-declarations"]
            cmd += spec["flags"] + [a.test, "-o", exe]
            if a.kokkos_libdir:
                cmd += ["-L" + a.kokkos_libdir, "-Wl,-rpath," + a.kokkos_libdir]
            cmd += ["-l" + l for l in a.kokkos_libs.split(",") if l]
            cmd += ["-ldl", "-pthread"]
            r = subprocess.run(cmd, capture_output=True, text=True, env=benv)
            if r.returncode != 0:
                failures.append("[-%s] build failed:\n%s\n%s" %
                                (opt, " ".join(cmd), r.stderr[-4000:]))
                continue
        json_path = exe + ".jsonl"
        json_paths = [json_path]
        for old in [json_path] + glob.glob(exe + ".rank*.jsonl"):
            if os.path.exists(old):
                os.remove(old)
        env = dict(os.environ)
        argv = [exe] + run_args
        if spec["ranks"]:
            nranks = int(variant[2:])
            json_path = exe + ".rank%r.jsonl"
            json_paths = [exe + ".rank%d.jsonl" % i for i in range(nranks)]
            argv = ["mpirun", "--allow-run-as-root", "--oversubscribe",
                    "-np", str(nranks)] + argv
        env["KKRACE_OPTIONS"] = "json_path=%s %s %s" % (
            json_path, spec["options"], run_options)
        r = subprocess.run(argv, capture_output=True,
                           text=True, env=env, timeout=300)
        reports = []
        for path in json_paths:
            if not os.path.exists(path):
                continue
            with open(path) as f:
                for line in f:
                    line = line.strip()
                    if line:
                        try:
                            reports.append(json.loads(line))
                        except ValueError as e:
                            failures.append("[-%s] bad JSON line (%s): %s"
                                            % (tag, e, line[:300]))
        nwarn_total = r.stderr.count("WARNING: kkrace:")
        if spec["ranks"]:
            # The same report from several ranks counts once.
            seen, unique = set(), []
            for rep in reports:
                if rep.get("fingerprint") not in seen:
                    seen.add(rep.get("fingerprint"))
                    unique.append(rep)
            if nwarn_total != len(reports):
                failures.append("[-%s] %d text reports but %d JSON reports" %
                                (tag, nwarn_total, len(reports)))
            reports = unique
            nwarn_total = len(reports)
        # One to one: each expectation takes one matching report.
        left = list(reports)
        for lineno, e in expects:
            hit = next((rep for rep in left if matches(e, rep, a.test)), None)
            if hit is None:
                failures.append("[-%s] missing report expected at line %d: %s"
                                % (tag, lineno, e))
            else:
                left.remove(hit)
        for rep in left:
            failures.append("[-%s] unexpected report: %s" %
                            (tag, describe(rep, a.test)))
        want_exit = spec["exit"]
        if want_exit is None:
            want_exit = 66 if expects else 0
        if r.returncode != want_exit:
            failures.append("[-%s] exit status %d, expected %d" %
                            (tag, r.returncode, want_exit))
        nwarn = nwarn_total
        if nwarn != len(reports):
            failures.append("[-%s] %d text reports but %d JSON reports" %
                            (tag, nwarn, len(reports)))
        if expects or variant is None:
            for t in spec["text"]:
                if t not in r.stderr:
                    failures.append("[-%s] text report lacks %r" % (tag, t))
        if failures and not any("stderr of" in x for x in failures):
            failures.append("stderr of -%s:\n%s" % (tag, r.stderr[-6000:]))

    if failures:
        print("FAIL: %s" % a.test)
        for f in failures:
            print("  " + f)
        return 1
    print("PASS: %s (%s; %d variant%s)" %
          (a.test, " ".join("-" + o for o in spec["opt"]), len(runs),
           "" if len(runs) == 1 else "s"))
    return 0


def kokkos_version(include):
    try:
        with open(os.path.join(include, "KokkosCore_config.h")) as f:
            m = re.search(r"#define KOKKOS_VERSION (\d+)", f.read())
            return int(m.group(1)) if m else 0
    except OSError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
