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

An EXPECT line matches one report: kind, and each key=value given
(view=- means not a View; nodes= is the unordered pair of nodes, each
'host' or '<work_kind>:<label>'; lines= the unordered pair of source lines of
this file where the two accesses are).  The reports found must match the
EXPECT lines one to one: a report nobody expected fails the test, as does an
expected one that is missing.  Several EXPECT lines for the same variant
with a test option 'RUN: name KKRACE_OPTIONS' run the program several times.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile


def parse_test(path):
    spec = {"expect": [], "text": [], "exit": None, "options": "",
            "opt": ["O0", "O2"], "args": [], "flags": [], "runs": []}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            m = re.match(r"\s*//\s*([A-Z-]+):\s*(.*?)\s*$", line)
            if not m:
                continue
            key, val = m.group(1), m.group(2)
            if key == "EXPECT":
                spec["expect"].append((lineno, val))
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
    base = os.path.basename(test_file)
    for fr in access.get("stack", []):
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
    expects = []
    for lineno, text in spec["expect"]:
        e = parse_expect(text)
        if e is not None:
            expects.append((lineno, e))
    if not spec["expect"]:
        print("FAIL: %s has no EXPECT line" % a.test)
        return 1
    workdir = a.workdir or tempfile.mkdtemp(prefix="kkrace-e2e-")
    os.makedirs(workdir, exist_ok=True)
    name = os.path.splitext(os.path.basename(a.test))[0]
    failures = []

    for opt in spec["opt"]:
        exe = os.path.join(workdir, "%s.%s" % (name, opt))
        cmd = [a.driver, "-fsanitize=kkrace", "-" + opt, "-std=" + a.std,
               "-I" + a.kokkos_include, "-Wno-deprecated-declarations"]
        cmd += spec["flags"] + [a.test, "-o", exe]
        if a.kokkos_libdir:
            cmd += ["-L" + a.kokkos_libdir, "-Wl,-rpath," + a.kokkos_libdir]
        cmd += ["-l" + l for l in a.kokkos_libs.split(",") if l] + ["-ldl"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            failures.append("[-%s] build failed:\n%s\n%s" %
                            (opt, " ".join(cmd), r.stderr[-4000:]))
            continue
        json_path = exe + ".jsonl"
        if os.path.exists(json_path):
            os.remove(json_path)
        env = dict(os.environ)
        env["KKRACE_OPTIONS"] = "json_path=%s %s" % (json_path, spec["options"])
        r = subprocess.run([exe] + spec["args"], capture_output=True,
                           text=True, env=env, timeout=300)
        reports = []
        if os.path.exists(json_path):
            with open(json_path) as f:
                for line in f:
                    line = line.strip()
                    if line:
                        try:
                            reports.append(json.loads(line))
                        except ValueError as e:
                            failures.append("[-%s] bad JSON line (%s): %s"
                                            % (opt, e, line[:300]))
        # One to one: each expectation takes one matching report.
        left = list(reports)
        for lineno, e in expects:
            hit = next((rep for rep in left if matches(e, rep, a.test)), None)
            if hit is None:
                failures.append("[-%s] missing report expected at line %d: %s"
                                % (opt, lineno, e))
            else:
                left.remove(hit)
        for rep in left:
            failures.append("[-%s] unexpected report: %s" %
                            (opt, describe(rep, a.test)))
        want_exit = spec["exit"]
        if want_exit is None:
            want_exit = 66 if expects else 0
        if r.returncode != want_exit:
            failures.append("[-%s] exit status %d, expected %d" %
                            (opt, r.returncode, want_exit))
        nwarn = r.stderr.count("WARNING: kkrace:")
        if nwarn != len(reports):
            failures.append("[-%s] %d text reports but %d JSON reports" %
                            (opt, nwarn, len(reports)))
        for t in spec["text"]:
            if t not in r.stderr:
                failures.append("[-%s] text report lacks %r" % (opt, t))
        if failures and not any("stderr of" in x for x in failures):
            failures.append("stderr of -%s:\n%s" % (opt, r.stderr[-6000:]))

    if failures:
        print("FAIL: %s" % a.test)
        for f in failures:
            print("  " + f)
        return 1
    print("PASS: %s (%s; %d report%s expected)" %
          (a.test, " ".join("-" + o for o in spec["opt"]), len(expects),
           "" if len(expects) == 1 else "s"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
