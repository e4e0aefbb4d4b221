#!/usr/bin/env python3
"""kkrace's CUDA tests: programs whose expected reports are written in them
(the EXPECT lines of tests/run_e2e.py).

Each test runs in two variants:
  inst     built by nvcc with kkrace-clang++ as host compiler and
           -fsanitize=kkrace: host code instrumented, CUDA work from CUPTI;
  preload  built by nvcc alone, run with libkkrace.so preloaded: CUDA work
           and the CUDA calls' own host accesses only.
EXPECT lines hold in both; EXPECT[inst] / EXPECT[preload] in one.  A test
with a '// VARIANTS: preload' line runs in that variant only: the Kokkos
programs of kokkos/, built with nvcc against a Kokkos whose CUDA backend is
on (build --kokkos DIR), whose host code kkrace does not instrument.

  run_gpu.py build  --driver D --nvcc N --out DIR [--kokkos K] TESTS...
                                                             (no GPU needed)
  run_gpu.py run    --libdir L --out DIR TESTS...            (on a GPU: also
                    records each run's GPU event trace next to the binary)
  run_gpu.py replay --replay R --traces T TESTS...           (no GPU: replays
                    the recorded traces through kkrace-gpu-replay and checks
                    the same expectations, source lines aside)
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
import run_e2e  # noqa: E402

VARIANTS = ("inst", "preload")


def variants_of(test):
    """The variants a test runs in: both, unless a '// VARIANTS:' line says
    (Kokkos programs built for CUDA run with the runtime preloaded only)."""
    with open(test) as f:
        for line in f:
            if line.startswith("// VARIANTS:"):
                return tuple(line.split(":", 1)[1].split())
    return VARIANTS


def is_kokkos(test):
    with open(test) as f:
        return "#include <Kokkos_Core.hpp>" in f.read()


def expectations(spec, variant):
    out = []
    for lineno, text, v in spec["expect"]:
        if v is not None and v != variant:
            continue
        e = run_e2e.parse_expect(text)
        if e is not None:
            out.append((lineno, e))
    return out


def check(test, variant, reports, ignore_lines=False):
    spec = run_e2e.parse_test(test)
    expects = expectations(spec, variant)
    left = list(reports)
    failures = []
    for lineno, e in expects:
        if ignore_lines:
            e = {k: v for k, v in e.items() if k != "lines"}
        hit = next((r for r in left if run_e2e.matches(e, r, test)), None)
        if hit is None:
            failures.append("missing report expected at line %d: %s" %
                            (lineno, e))
        else:
            left.remove(hit)
    for r in left:
        failures.append("unexpected report: %s" % run_e2e.describe(r, test))
    return failures


def read_jsonl(path):
    reports = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip():
                    reports.append(json.loads(line))
    return reports


def name_of(test):
    return os.path.splitext(os.path.basename(test))[0]


def build(a):
    os.makedirs(a.out, exist_ok=True)
    bad = 0
    for test in a.tests:
        name = name_of(test)
        common = ["-g", "-O1", "-arch=" + a.arch, "-I" + os.path.dirname(test)]
        with open(test) as f:
            for line in f:
                if line.startswith("// NVCC-FLAGS:"):
                    common += line.split(":", 1)[1].split()
        cmds = {
            "inst": [a.nvcc, "-ccbin", a.driver, "-Xcompiler",
                     "-fsanitize=kkrace"] + common +
                    [test, "-o", os.path.join(a.out, name + ".inst"),
                     "-lcudart"],
            "preload": [a.nvcc] + common +
                       [test, "-o", os.path.join(a.out, name + ".preload")],
        }
        if is_kokkos(test):
            # A Kokkos installation built with its CUDA backend (--kokkos).
            if not a.kokkos:
                print("BUILD FAIL %s: a Kokkos program needs --kokkos" % name)
                bad += 1
                continue
            cmds["preload"] = (
                [a.nvcc, "-x", "cu", "-std=c++17", "--extended-lambda",
                 "-I" + os.path.join(a.kokkos, "include")] + common +
                [test, "-o", os.path.join(a.out, name + ".preload"),
                 "-L" + os.path.join(a.kokkos, "lib"), "-lkokkoscore",
                 "-lcuda", "-ldl"])
        for v in variants_of(test):
            cmd = cmds[v]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode:
                print("BUILD FAIL %s %s\n%s\n%s" % (name, v, " ".join(cmd),
                                                   r.stderr[-3000:]))
                bad += 1
    return 1 if bad else 0


def run(a):
    bad = 0
    for test in a.tests:
        name = name_of(test)
        for v in variants_of(test):
            exe = os.path.join(a.out, "%s.%s" % (name, v))
            json_path = exe + ".jsonl"
            trace = exe + ".trace"
            for p in (json_path, trace):
                if os.path.exists(p):
                    os.remove(p)
            env = dict(os.environ)
            env["KKRACE_OPTIONS"] = "json_path=%s gpu_trace=%s %s" % (
                json_path, trace, a.options)
            env["LD_LIBRARY_PATH"] = a.libdir + ":" + env.get(
                "LD_LIBRARY_PATH", "")
            if v == "preload":
                env["LD_PRELOAD"] = "%s/libkkrace.so %s/libkkrace_cupti.so" % (
                    a.libdir, a.libdir)
            r = subprocess.run([exe], capture_output=True, text=True,
                               env=env, timeout=120)
            fails = []
            if r.returncode not in (0, 66):
                fails.append("exit status %d" % r.returncode)
            fails += check(test, v, read_jsonl(json_path))
            status = "FAIL" if fails else "ok"
            print("%-4s %s [%s]" % (status, name, v))
            for f in fails:
                print("     " + f)
            if fails or a.verbose:
                print("     stderr:\n" + "\n".join(
                    "       " + l for l in r.stderr.splitlines()[-60:]))
            bad += bool(fails)
    return 1 if bad else 0


def replay(a):
    bad = 0
    ran = 0
    for test in a.tests:
        name = name_of(test)
        for v in variants_of(test):
            trace = os.path.join(a.traces, "%s.%s.trace" % (name, v))
            if not os.path.exists(trace):
                print("FAIL %s [%s]: no recorded trace %s" % (name, v, trace))
                bad += 1
                continue
            json_path = os.path.join(a.out, "%s.%s.replay.jsonl" % (name, v))
            if os.path.exists(json_path):
                os.remove(json_path)
            env = dict(os.environ)
            env["KKRACE_OPTIONS"] = "json_path=%s" % json_path
            r = subprocess.run([a.replay, trace], capture_output=True,
                               text=True, env=env, timeout=120)
            fails = []
            if r.returncode not in (0, 66):
                fails.append("exit status %d: %s" % (r.returncode,
                                                     r.stderr[-2000:]))
            fails += check(test, v, read_jsonl(json_path), ignore_lines=True)
            print("%-4s %s [%s, replayed]" % ("FAIL" if fails else "ok", name,
                                             v))
            for f in fails:
                print("     " + f)
            bad += bool(fails)
            ran += 1
    return 1 if bad or not ran else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["build", "run", "replay"])
    ap.add_argument("--driver")
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--out", default=".")
    ap.add_argument("--libdir")
    ap.add_argument("--kokkos", help="a Kokkos built for CUDA, for the "
                    "Kokkos tests (kokkos/)")
    ap.add_argument("--options", default="")
    ap.add_argument("--replay")
    ap.add_argument("--traces")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("tests", nargs="+")
    a = ap.parse_args()
    return {"build": build, "run": run, "replay": replay}[a.mode](a)


if __name__ == "__main__":
    sys.exit(main())
