#!/usr/bin/env python3
"""Tests of what users touch besides the reports' contents: the driver
(kkrace-clang++), KKRACE_OPTIONS, the log, JSON Lines and SARIF outputs,
suppressions, exit statuses, crashes with reports pending, and the CMake
package.  Prints "N passed, M failed"."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap

RACE = textwrap.dedent("""\
    #include <Kokkos_Core.hpp>
    #include <cstdio>
    int main(int argc, char *argv[]) {
      Kokkos::initialize(argc, argv);
      {
        Kokkos::View<double *> a("a", 11);
        Kokkos::parallel_for("shift", 10, KOKKOS_LAMBDA(const int i) { a(i) = a(i + 1); });
        Kokkos::fence();
      }
      Kokkos::finalize();
      printf("main ran\\n");
      return 7;
    }
    """)

# A race the host finds (pending until the next Kokkos call), then a crash.
CRASH = textwrap.dedent("""\
    #include <Kokkos_Core.hpp>
    #include <cstdio>
    #include <cstdlib>
    #include <unistd.h>
    int main(int argc, char *argv[]) {
      Kokkos::initialize(argc, argv);
      Kokkos::View<double *, Kokkos::HostSpace> x("x", 4);
      Kokkos::parallel_for("fill", 4, KOKKOS_LAMBDA(const int i) { x(i) = i; });
      double v = x(2);
      if (argc > 1 && argv[1][0] == 'e') _exit((int)v);
      if (argc > 1 && argv[1][0] == 'q') std::quick_exit((int)v);
      if (argc > 1 && argv[1][0] == 't') {  // killed while it sleeps
        printf("ready\\n");
        fflush(stdout);
        sleep(60);
      }
      abort();
    }
    """)

# A read-modify-write race in a template function: two reports of one pair
# of lines (the read and the write), on the same 4 elements.
TEMPLATE = textwrap.dedent("""\
    #include <Kokkos_Core.hpp>
    namespace physics {
    template <class V> void bump(V s, int n) {
      Kokkos::parallel_for("bump", n, KOKKOS_LAMBDA(const int i) { s(i % 4) += i; });
    }
    }  // namespace physics
    int main(int argc, char *argv[]) {
      Kokkos::initialize(argc, argv);
      {
        Kokkos::View<int *> s("s", 4);
        physics::bump(s, 16);
        Kokkos::fence();
      }
      Kokkos::finalize();
      return 0;
    }
    """)

NORACE_C = textwrap.dedent("""\
    #include <stdio.h>
    int main(void) { printf("plain C\\n"); return 0; }
    """)

results = []


def check(name, cond, detail=""):
    results.append((name, bool(cond)))
    if not cond:
        print("FAIL: %s %s" % (name, detail))
    else:
        print("ok: %s" % name)


def run(cmd, env=None, **kw):
    e = dict(os.environ)
    e.pop("KKRACE_OPTIONS", None)
    if env:
        e.update(env)
    return subprocess.run(cmd, capture_output=True, text=True, env=e,
                          timeout=600, **kw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--driver", required=True)
    ap.add_argument("--kokkos-include", required=True)
    ap.add_argument("--kokkos-libdir", default="")
    ap.add_argument("--kokkos-libs", default="trilinos_kokkoscore")
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--sarif-schema", required=True)
    ap.add_argument("--workdir", required=True)
    a = ap.parse_args()
    w = a.workdir
    shutil.rmtree(w, ignore_errors=True)
    os.makedirs(w)
    driver = a.driver
    cdriver = os.path.join(os.path.dirname(driver), "kkrace-clang")
    kk_link = []
    if a.kokkos_libdir:
        kk_link += ["-L" + a.kokkos_libdir, "-Wl,-rpath," + a.kokkos_libdir]
    kk_link += ["-l" + l for l in a.kokkos_libs.split(",")] + ["-ldl"]
    kk_inc = ["-std=c++17", "-I" + a.kokkos_include]

    def write(name, text):
        p = os.path.join(w, name)
        with open(p, "w") as f:
            f.write(text)
        return p

    race_src = write("race.cpp", RACE)
    crash_src = write("crash.cpp", CRASH)
    c_src = write("plain.c", NORACE_C)
    exe = os.path.join(w, "race")

    # -- Driver --------------------------------------------------------------
    r = run([driver, "-O1", "-c", race_src, "-o", os.path.join(w, "plain.o")] +
            kk_inc, env={"KKRACE_DRIVER_VERBOSE": "1"})
    check("driver: without -fsanitize=kkrace nothing is added",
          r.returncode == 0 and "-fpass-plugin" not in r.stderr
          and "__SANITIZE_KKRACE__" not in r.stderr, r.stderr[-500:])

    r = run([driver, "-fsanitize=kkrace,undefined", "-O1", race_src, "-o",
             exe + "_ubsan"] + kk_inc + kk_link,
            env={"KKRACE_DRIVER_VERBOSE": "1"})
    check("driver: kkrace inside a -fsanitize list",
          r.returncode == 0 and "-fsanitize=undefined" in r.stderr
          and "-fpass-plugin" in r.stderr, r.stderr[-800:])
    r = run([exe + "_ubsan"])
    check("driver: kkrace with ubsan finds the race",
          r.returncode == 66 and "WARNING: kkrace: data race" in r.stderr,
          r.stderr[-800:])

    r = run([driver, "-fsanitize=kkrace", "-fno-sanitize=kkrace", "-c", race_src,
             "-o", os.path.join(w, "off.o")] + kk_inc,
            env={"KKRACE_DRIVER_VERBOSE": "1"})
    check("driver: -fno-sanitize=kkrace turns it off",
          r.returncode == 0 and "-fpass-plugin" not in r.stderr, r.stderr[-500:])

    r = run([driver, "-fsanitize=kkrace,thread", "-c", race_src, "-o",
             os.path.join(w, "x.o")] + kk_inc)
    check("driver: kkrace and thread are refused",
          r.returncode != 0 and "cannot be combined" in r.stderr, r.stderr)

    obj = os.path.join(w, "race.o")
    r1 = run([driver, "-fsanitize=kkrace", "-O2", "-c", race_src, "-o", obj] +
             kk_inc)
    r2 = run([driver, "-fsanitize=kkrace", obj, "-o", exe] + kk_link)
    check("driver: compile and link in two steps",
          r1.returncode == 0 and r2.returncode == 0, r1.stderr + r2.stderr)

    r = run([cdriver, "-fsanitize=kkrace", c_src, "-o", os.path.join(w, "plainc")])
    r2 = run([os.path.join(w, "plainc")]) if r.returncode == 0 else r
    check("driver: kkrace-clang builds C programs",
          r.returncode == 0 and r2.returncode == 0 and "plain C" in r2.stdout,
          r.stderr + r2.stderr)

    # -- Exit status and the program's own output ------------------------------
    r = run([exe])
    check("exit status 66 after a report", r.returncode == 66,
          "got %d" % r.returncode)
    check("the program ran to its end", "main ran" in r.stdout)
    check("text report on stderr",
          "WARNING: kkrace: data race on View 'a'" in r.stderr and
          "SUMMARY: kkrace: data race on View 'a'" in r.stderr and
          "kkrace: reported 1 warning" in r.stderr, r.stderr)
    r = run([exe], env={"KKRACE_OPTIONS": "exitcode=0"})
    check("exitcode=0 keeps the program's status", r.returncode == 7)

    # -- Options -------------------------------------------------------------
    r = run([exe], env={"KKRACE_OPTIONS": "bogus=1"})
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    check("unknown option: one line, before main",
          r.returncode == 1 and len(lines) == 1 and "'bogus'" in lines[0]
          and "main ran" not in r.stdout, r.stderr)
    r = run([exe], env={"KKRACE_OPTIONS": "halt_on_error=maybe"})
    check("bad value: names the option and the value",
          r.returncode == 1 and "'maybe'" in r.stderr and
          "'halt_on_error'" in r.stderr, r.stderr)
    r = run([exe], env={"KKRACE_OPTIONS": "exitcode=300"})
    check("out-of-range value", r.returncode == 1 and "exitcode" in r.stderr,
          r.stderr)
    r = run([exe], env={"KKRACE_OPTIONS": "model=serial"})
    check("bad model", r.returncode == 1 and "minikokkos" in r.stderr, r.stderr)
    r = run([exe], env={"KKRACE_OPTIONS": "help=1"})
    names = ["model", "log_path", "json_path", "sarif_path", "graph_path", "exitcode",
             "halt_on_error", "suppressions", "detect_deadlocks",
             "hang_timeout_ms"]
    check("help=1 lists every option with its default",
          all(re.search(r"\b%s=" % n, r.stderr) for n in names)
          and "exitcode=66" in r.stderr, r.stderr[:2000])
    r = run([exe], env={"KKRACE_OPTIONS": "verbosity=1:exitcode=5 halt_on_error=0"})
    check("options separated by ':' and spaces", r.returncode == 5, r.stderr)
    check("verbosity=1 prints the shadow's forms at exit",
          re.search(r"kkrace: shadow of \d+ MiB of memory: \d+ MiB as cells", r.stderr),
          r.stderr[-2000:])
    m = re.search(r"kkrace: peak resident memory of the process: (\d+) MiB", r.stderr)
    check("verbosity=1 prints the process's peak memory",
          m and 1 <= int(m.group(1)) < 4096, r.stderr[-2000:])

    # -- log_path ------------------------------------------------------------
    log = os.path.join(w, "log")
    r = run([exe], env={"KKRACE_OPTIONS": "log_path=" + log})
    logs = [f for f in os.listdir(w) if f.startswith("log.")]
    text = open(os.path.join(w, logs[0])).read() if logs else ""
    check("log_path writes log_path.PID",
          len(logs) == 1 and "WARNING: kkrace" in text and
          "WARNING: kkrace" not in r.stderr, str(logs))
    r = run([exe], env={"KKRACE_OPTIONS": "log_path=/nonexistent/dir/log"})
    check("unwritable log_path is an error", r.returncode == 1 and
          "log_path" in r.stderr, r.stderr)

    # -- JSON Lines ------------------------------------------------------------
    jpath = os.path.join(w, "r.jsonl")
    r = run([exe], env={"KKRACE_OPTIONS": "json_path=" + jpath})
    reps = [json.loads(l) for l in open(jpath)] if os.path.exists(jpath) else []
    ok = len(reps) == 1
    if ok:
        rep = reps[0]
        ok = (rep["kind"] == "data-race" and rep["subkind"] == "iteration-overlap"
              and rep["view"] == "a" and rep["address"].startswith("0x")
              and rep["size"] == 8 and len(rep["accesses"]) == 2
              and "summary" in rep)
        for acc in rep["accesses"] if ok else []:
            n = acc["node"]
            ok = ok and acc["op"] in ("read", "write") and acc["atomic"] is False
            ok = ok and n["type"] == "strand" and n["work"] == "shift" and \
                n["work_kind"] == "parallel_for" and n["instance"] == "Serial#0" \
                and n["strand"] in [str(i) for i in range(11)]
            top = acc["stack"][0]
            ok = ok and all(k in top for k in ("function", "file", "line", "column"))
            ok = ok and os.path.basename(top["file"]) == "race.cpp" and top["line"] == 7
    check("JSON Lines: the required fields", ok, json.dumps(reps)[:2000])
    r = run([exe], env={"KKRACE_OPTIONS": "json_path=" + jpath})
    n = len(open(jpath).read().splitlines())
    check("JSON Lines appends", n == 2, "lines: %d" % n)

    # -- SARIF ---------------------------------------------------------------
    spath = os.path.join(w, "r.sarif")
    r = run([exe], env={"KKRACE_OPTIONS": "sarif_path=" + spath})
    ok, detail = False, ""
    try:
        sarif = json.load(open(spath))
        import jsonschema
        schema = json.load(open(a.sarif_schema))
        jsonschema.validate(sarif, schema)
        res = sarif["runs"][0]["results"]
        ok = (len(res) == 1 and res[0]["ruleId"] == "data-race/iteration-overlap"
              and res[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 7
              and len(res[0]["relatedLocations"]) == 1)
        detail = json.dumps(res)[:1000]
    except Exception as e:  # noqa: BLE001 -- report any failure
        detail = repr(e)
    check("SARIF validates against the 2.1.0 schema", ok, detail)
    # -- graph_path --------------------------------------------------------
    gpath = os.path.join(w, "g.dot")
    r = run([exe], env={"KKRACE_OPTIONS": "graph_path=" + gpath})
    dot = open(gpath).read() if os.path.exists(gpath) else ""
    check("graph_path: DOT with the kernel, its dispatch and the race",
          dot.startswith("// The computation graph") and "digraph kkrace" in dot
          and "parallel_for 'shift'" in dot and "label=\"dispatch\"" in dot
          and "race on a" in dot and dot.rstrip().endswith("}"), dot[:2000])
    if shutil.which("dot"):
        rd = run(["dot", "-Tsvg", gpath, "-o", os.path.join(w, "g.svg")])
        check("graph_path: Graphviz renders it", rd.returncode == 0, rd.stderr)
    r = run([exe], env={"KKRACE_OPTIONS": "graph_path=/nonexistent/g.dot"})
    check("unwritable graph_path is an error before main",
          r.returncode == 1 and "graph_path" in r.stderr and
          "main ran" not in r.stdout, r.stderr)

    r = run([exe], env={"KKRACE_OPTIONS": "sarif_path=/nonexistent/x.sarif"})
    check("unwritable sarif_path is an error before main",
          r.returncode == 1 and "main ran" not in r.stdout, r.stderr)

    # -- Suppressions ----------------------------------------------------------
    sup = write("sup.txt", "# comment\n\nrace:main::*operator()\n")
    r = run([exe], env={"KKRACE_OPTIONS": "suppressions=" + sup})
    check("race: suppression hides the report",
          r.returncode == 7 and "WARNING" not in r.stderr and
          "Matched 1 suppression" in r.stderr, r.stderr)
    sup = write("sup2.txt", "view:^a$\n")
    r = run([exe], env={"KKRACE_OPTIONS": "suppressions=" + sup})
    check("view: suppression", r.returncode == 7 and "WARNING" not in r.stderr,
          r.stderr)
    sup = write("sup3.txt", "view:b\nrace:nothing_like_this\n")
    r = run([exe], env={"KKRACE_OPTIONS": "suppressions=" + sup})
    check("non-matching suppressions hide nothing", r.returncode == 66,
          r.stderr)
    sup = write("sup4.txt", "race:x\nbogus line\n")
    r = run([exe], env={"KKRACE_OPTIONS": "suppressions=" + sup})
    check("bad suppression line: its number, before main",
          r.returncode == 1 and "line 2" in r.stderr and "main ran" not in r.stdout,
          r.stderr)
    r = run([exe], env={"KKRACE_OPTIONS": "suppressions=" + w + "/missing.txt"})
    check("unreadable suppressions file", r.returncode == 1 and
          "cannot read suppressions file" in r.stderr, r.stderr)
    r = run([exe], env={"KKRACE_OPTIONS": "suppressions=" + w})
    check("a directory as suppressions file", r.returncode == 1 and
          "cannot read suppressions file" in r.stderr and
          "main ran" not in r.stdout, r.stderr)

    tsrc = write("template.cpp", TEMPLATE)
    texe = os.path.join(w, "template")
    r = run([driver, "-fsanitize=kkrace", "-O1", tsrc, "-o", texe] + kk_inc +
            kk_link)
    check("template test builds", r.returncode == 0, r.stderr)
    sup = write("sup5.txt", "race:^physics::bump\n")
    r = run([texe], env={"KKRACE_OPTIONS": "suppressions=" + sup})
    check("race:^ns::f matches a template function (whose demangled name "
          "starts with its return type); hits count reports",
          r.returncode == 0 and "WARNING" not in r.stderr and
          "Matched 1 suppression" in r.stderr and
          "  1 race:^physics::bump" in r.stderr, r.stderr)
    tj, ts = texe + ".jsonl", texe + ".sarif"
    r = run([texe], env={"KKRACE_OPTIONS": "json_path=%s sarif_path=%s" %
                         (tj, ts)})
    counts = [json.loads(l)["count"] for l in open(tj)] if os.path.exists(tj) else []
    try:
        scounts = [x["properties"]["count"]
                   for x in json.load(open(ts))["runs"][0]["results"]]
    except Exception:  # noqa: BLE001 -- shown below
        scounts = []
    check("a read and a write of one pair of lines: one report, its elements "
          "counted once in JSON and SARIF",
          r.returncode == 66 and counts == [4] and scounts == [4],
          "%s %s %s" % (counts, scounts, r.stderr[-1500:]))

    # -- Crashes and early exits lose nothing ------------------------------
    cexe = os.path.join(w, "crash")
    r = run([driver, "-fsanitize=kkrace", "-O1", crash_src, "-o", cexe] + kk_inc + kk_link)
    check("crash test builds", r.returncode == 0, r.stderr)
    cj = os.path.join(w, "crash.jsonl")
    r = run([cexe], env={"KKRACE_OPTIONS": "json_path=" + cj})
    reps = [json.loads(l) for l in open(cj)] if os.path.exists(cj) else []
    check("abort with a report pending: printed and in JSON",
          r.returncode < 0 and "WARNING: kkrace: data race on View 'x'" in r.stderr
          and len(reps) == 1 and reps[0]["subkind"] == "missing-fence", r.stderr)
    r = run([cexe, "e"], env={"KKRACE_OPTIONS": "json_path=" + cj + "2"})
    check("_exit with a report pending: printed, exit status 66",
          r.returncode == 66 and "WARNING: kkrace" in r.stderr, r.stderr)
    r = run([cexe, "q"], env={"KKRACE_OPTIONS": "json_path=" + cj + "3"})
    check("quick_exit with a report pending: printed, exit status 66",
          r.returncode == 66 and "WARNING: kkrace" in r.stderr and
          os.path.getsize(cj + "3") > 0, r.stderr)
    e = dict(os.environ)
    e["KKRACE_OPTIONS"] = "json_path=%s4 sarif_path=%s.sarif" % (cj, cj)
    p = subprocess.Popen([cexe, "t"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=e)
    ready = p.stdout.readline()
    p.terminate()
    _, err = p.communicate(timeout=120)
    sarif = open(cj + ".sarif").read() if os.path.exists(cj + ".sarif") else ""
    check("SIGTERM with a report pending: printed, in JSON and SARIF, "
          "and the process dies of SIGTERM",
          ready == "ready\n" and p.returncode == -15 and
          "WARNING: kkrace" in err and os.path.getsize(cj + "4") > 0 and
          '"ruleId"' in sarif, err)

    # -- Elements of a vectorized access ---------------------------------------
    # A host loop over floats, vectorized at -O2: its stores cover several
    # elements each; the report counts the View's elements, not the stores'.
    vsrc = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "races", "interleaved_fill_race.cpp")
    vexe = os.path.join(w, "vector")
    r = run([driver, "-fsanitize=kkrace", "-O2", vsrc, "-o", vexe] + kk_inc + kk_link)
    check("vectorized test builds", r.returncode == 0, r.stderr)
    vj = os.path.join(w, "vector.jsonl")
    r = run([vexe], env={"KKRACE_OPTIONS": "json_path=" + vj})
    m = re.search(r"Write of size (\d+) at \S+ \(x\[(\d+)\.\.(\d+)\], "
                  r"elements (\d+) to (\d+) of 1048576\) by main thread", r.stderr)
    check("vectorized access: the elements it covers, of the View's count",
          m and int(m.group(1)) == 4 * (int(m.group(3)) - int(m.group(2)) + 1)
          and "(x[0], element 0 of 1048576) by parallel_for 'scale'" in r.stderr,
          r.stderr[-1500:])
    reps = [json.loads(l) for l in open(vj)] if os.path.exists(vj) else []
    check("vectorized access: JSON counts the View's elements",
          len(reps) == 1 and reps[0].get("elements") == 1048576, str(reps)[:800])

    # -- The CMake package ---------------------------------------------------
    prefix = os.path.join(w, "prefix")
    r = run(["cmake", "--install", a.build_dir, "--prefix", prefix])
    proj = os.path.join(w, "proj")
    os.makedirs(proj)
    shutil.copy(race_src, os.path.join(proj, "race.cpp"))
    libs = " ".join(a.kokkos_libs.split(","))
    with open(os.path.join(proj, "CMakeLists.txt"), "w") as f:
        f.write(textwrap.dedent("""\
            cmake_minimum_required(VERSION 3.20)
            project(user CXX)
            find_package(KKRace REQUIRED)
            add_executable(race race.cpp)
            target_include_directories(race PRIVATE %s)
            target_link_directories(race PRIVATE %s)
            target_link_libraries(race PRIVATE %s dl)
            target_link_libraries(race PRIVATE KKRace::kkrace)
            """ % (a.kokkos_include, a.kokkos_libdir or "/usr/lib", libs)))
    bdir = os.path.join(w, "proj-build")
    clangxx = shutil.which("clang++-19") or "clang++"
    r1 = run(["cmake", "-S", proj, "-B", bdir, "-DCMAKE_PREFIX_PATH=" + prefix,
              "-DCMAKE_CXX_COMPILER=" + clangxx, "-DCMAKE_CXX_STANDARD=17"])
    r2 = run(["cmake", "--build", bdir]) if r1.returncode == 0 else r1
    r3 = run([os.path.join(bdir, "race")]) if r2.returncode == 0 else r2
    check("CMake package: find_package(KKRace) and KKRace::kkrace",
          r.returncode == 0 and r3.returncode == 66 and
          "WARNING: kkrace: data race on View 'a'" in r3.stderr,
          (r.stderr + r1.stderr + r1.stdout + r2.stdout + r2.stderr + r3.stderr)[-3000:])
    r = run(["cmake", "-S", proj, "-B", bdir + "-gcc", "-DCMAKE_PREFIX_PATH=" + prefix,
             "-DCMAKE_CXX_COMPILER=g++"])
    check("CMake package: a compiler other than clang 19 is refused clearly",
          r.returncode != 0 and "KKRace needs clang 19" in r.stderr, r.stderr[-1000:])

    failed = sum(1 for _, ok in results if not ok)
    print("%d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
