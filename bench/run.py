#!/usr/bin/env python3
"""kkrace benchmarks: each workload built three ways -- plain -O2, with
-fsanitize=thread, with -fsanitize=kkrace -- and run side by side in one
session, the three builds in turn in each repetition.  Prints wall time, peak memory and compile time, and the ratios to
the plain build, with geometric means.

  python3 bench/run.py                      # all workloads, default sizes
  python3 bench/run.py --only triad --reps 5
  python3 bench/run.py --json results.json  # also write the numbers

Every workload is race-free: a report from kkrace or ThreadSanitizer here is
a false positive and fails the run."""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# name: (source, arguments, what it stresses)
WORKLOADS = {
    "triad": ("triad.cpp", ["2000000", "10"], "bandwidth-bound triad"),
    "stencil": ("stencil.cpp", ["512", "10"], "MDRange 2D stencil"),
    "stencil3d": ("stencil3d.cpp", ["96", "10"], "MDRange 3D stencil, hashed strand ids"),
    "spmv": ("spmv.cpp", ["200000", "10"], "TeamPolicy sparse matvec + dots"),
    "nbody": ("nbody.cpp", ["1500", "2"], "compute-bound n-body"),
    "tiny": ("tiny.cpp", ["100000"], "many tiny dispatches"),
    "particles": ("particles.cpp", ["1000000", "10"],
                  "float and int Views: RangePolicy pushes, MDRange diffusion"),
}
# Run only when asked for (--only): large, and long under ThreadSanitizer.
EXTRA = {
    "bigview": ("bigview.cpp", [], "10^8 iterations over a 1 GiB View"),
    "assembly": ("assembly.cpp", ["512", "5"],
                 "atomic scatter-add, ScatterView histogram, team scratch tiles"),
    "heat": ("heat.cpp", ["1024", "20"],
             "RangePolicy 5-point stencil on a flat grid, no fence between steps"),
}


def run_timed(spawn, cmd, env):
    """Wall seconds, exit status, stdout, stderr and peak RSS (MiB) of one
    run of cmd, measured by the small launcher spawn (bench/spawn.c): a
    child forked from this script would count the script's own memory in
    its peak."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r") as res:
        p = subprocess.run([spawn, res.name] + cmd, stdout=out, stderr=err, env=env)
        wall, kib = res.read().split()
        out.seek(0)
        err.seek(0)
        return (float(wall), p.returncode, out.read().decode(errors="replace"),
                err.read().decode(errors="replace"), int(kib) / 1024.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--kokkos-include", default="/usr/include/trilinos")
    ap.add_argument("--kokkos-libdir", default="")
    ap.add_argument("--kokkos-libs", default="trilinos_kokkoscore")
    ap.add_argument("--clangxx", default=shutil.which("clang++-19") or "clang++")
    ap.add_argument("--reps", type=int, default=3, help="runs per build; the fastest counts")
    ap.add_argument("--only", action="append", help="run only these workloads")
    ap.add_argument("--json", help="write the results here too")
    a = ap.parse_args()

    driver = os.path.join(a.build_dir, "bin", "kkrace-clang++")
    out_dir = os.path.join(a.build_dir, "bench")
    os.makedirs(out_dir, exist_ok=True)
    link = []
    if a.kokkos_libdir:
        link += ["-L" + a.kokkos_libdir, "-Wl,-rpath," + a.kokkos_libdir]
    link += ["-l" + l for l in a.kokkos_libs.split(",")] + ["-ldl"]
    common = ["-O2", "-std=c++17", "-I" + a.kokkos_include]
    variants = {
        "plain": [a.clangxx] + common,
        "tsan": [a.clangxx, "-fsanitize=thread", "-g"] + common,
        "kkrace": [driver, "-fsanitize=kkrace"] + common,
    }
    spawn = os.path.join(out_dir, "spawn")
    r = subprocess.run([shutil.which("clang-19") or "cc", "-O2",
                        os.path.join(HERE, "spawn.c"), "-o", spawn],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print("build of spawn.c failed:\n%s" % r.stderr[-3000:])
        return 1
    env = dict(os.environ)
    env["TSAN_OPTIONS"] = "report_bugs=1:exitcode=67"
    env.pop("KKRACE_OPTIONS", None)

    names = a.only or list(WORKLOADS)
    results = {}
    failed = False
    for name in names:
        if name not in WORKLOADS and name not in EXTRA:
            print("unknown workload %r (known: %s)" %
                  (name, ", ".join(list(WORKLOADS) + list(EXTRA))))
            return 2
        src, args, what = WORKLOADS.get(name) or EXTRA[name]
        res = {"what": what}
        exes = {}
        for v, cc in variants.items():
            exe = os.path.join(out_dir, "%s.%s" % (name, v))
            t0 = time.perf_counter()
            r = subprocess.run(cc + [os.path.join(HERE, src), "-o", exe] + link,
                               capture_output=True, text=True)
            ctime = time.perf_counter() - t0
            if r.returncode != 0:
                print("build of %s (%s) failed:\n%s" % (name, v, r.stderr[-3000:]))
                return 1
            exes[v] = exe
            res[v] = {"seconds": None, "peak_mib": 0, "compile_seconds": ctime}
        # The three builds one after the other in each repetition: a host
        # whose speed drifts (a virtual machine's neighbours, its memory
        # backed or not) drifts for all three alike.
        for _ in range(a.reps):
            for v in variants:
                wall, rc, out, err, mib = run_timed(spawn, [exes[v]] + args, env)
                rv = res[v]
                rv["peak_mib"] = max(rv["peak_mib"], mib)
                if rc != 0:
                    print("%s (%s) exited with %d:\n%s" % (name, v, rc, err[-3000:]))
                    failed = True
                rv["seconds"] = wall if rv["seconds"] is None else min(rv["seconds"], wall)
        results[name] = res
        print_row(name, res)
    print_summary(results)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=2)
    return 1 if failed else 0


HEADER_PRINTED = [False]


def print_row(name, res):
    if not HEADER_PRINTED[0]:
        print("%-9s %9s %9s %9s | %8s %8s %8s | %9s %9s %9s | %8s %8s" % (
            "workload", "plain s", "tsan s", "kkrace s", "tsan x", "kkrace x",
            "kk/tsan", "plain MiB", "tsan MiB", "kkr MiB", "mem tsan", "mem kkr"))
        HEADER_PRINTED[0] = True
    p, t, k = res["plain"], res["tsan"], res["kkrace"]
    print("%-9s %9.3f %9.3f %9.3f | %8.2f %8.2f %8.2f | %9.1f %9.1f %9.1f | %8.2f %8.2f" % (
        name, p["seconds"], t["seconds"], k["seconds"],
        t["seconds"] / p["seconds"], k["seconds"] / p["seconds"],
        k["seconds"] / t["seconds"],
        p["peak_mib"], t["peak_mib"], k["peak_mib"],
        t["peak_mib"] / p["peak_mib"], k["peak_mib"] / p["peak_mib"]))
    sys.stdout.flush()


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def print_summary(results):
    if not results:
        return
    rs = list(results.values())
    g = lambda v, k: geomean([r[v][k] / r["plain"][k] for r in rs])
    print("geometric mean slowdown: tsan %.2fx, kkrace %.2fx (kkrace/tsan %.2f)" % (
        g("tsan", "seconds"), g("kkrace", "seconds"),
        g("kkrace", "seconds") / g("tsan", "seconds")))
    print("geometric mean peak memory: tsan %.2fx, kkrace %.2fx" % (
        g("tsan", "peak_mib"), g("kkrace", "peak_mib")))
    print("geometric mean compile time: tsan %.2fx, kkrace %.2fx" % (
        g("tsan", "compile_seconds"), g("kkrace", "compile_seconds")))


if __name__ == "__main__":
    sys.exit(main())
