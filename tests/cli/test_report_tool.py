#!/usr/bin/env python3
"""Tests of kkrace-report on real reports: builds report_baseline.cpp with
kkrace-clang++ (once as it is, once with -DNEW_RACE, which adds a race), runs
it with json_path and graph_path, and checks merging, the summary, the
baseline gate, SARIF, JUnit XML, JSON Lines, --graph, and errors on bad
input.  Prints "N passed, M failed"."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "report_baseline.cpp")

# A fence inside a kernel: a deadlock report (on Kokkos 4.4 and later the
# fence hangs, and the watchdog reports the hang).
DEADLOCK = """\
#include <Kokkos_Core.hpp>
int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *> x("x", 10);
    Kokkos::parallel_for("bad", 10, KOKKOS_LAMBDA(const int i) {
      x(i) = i;
      if (i == 3) Kokkos::fence();
    });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
"""

results = []


def check(name, cond, detail=""):
    results.append((name, bool(cond)))
    if not cond:
        print("FAIL: %s %s" % (name, detail))
    else:
        print("ok: %s" % name)


def run(cmd, env=None, cwd=None, stdin=None):
    e = dict(os.environ)
    e.pop("KKRACE_OPTIONS", None)
    if env:
        e.update(env)
    return subprocess.run(cmd, capture_output=True, text=True, env=e, cwd=cwd,
                          input=stdin, timeout=600)


def race_line(tag):
    """The line of report_baseline.cpp marked "// RACE: <tag>"."""
    with open(SOURCE) as f:
        for n, line in enumerate(f, 1):
            if "// RACE: " + tag in line:
                return n
    raise RuntimeError("no line marked RACE: " + tag)


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


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
    w = os.path.abspath(a.workdir)
    shutil.rmtree(w, ignore_errors=True)
    os.makedirs(w)
    tool = os.path.join(a.build_dir, "bin", "kkrace-report")
    kk_link = []
    if a.kokkos_libdir:
        kk_link += ["-L" + a.kokkos_libdir, "-Wl,-rpath," + a.kokkos_libdir]
    kk_link += ["-l" + l for l in a.kokkos_libs.split(",")] + ["-ldl"]
    kk_inc = ["-std=c++17", "-I" + a.kokkos_include]

    def p(name):
        return os.path.join(w, name)

    def write(name, text):
        with open(p(name), "w") as f:
            f.write(text)
        return p(name)

    def report(*args, cwd=None, stdin=None):
        return run([tool] + list(args), cwd=cwd or w, stdin=stdin)

    shift_line = race_line("shifted")
    host_line = race_line("unfenced (host)")
    kernel_line = race_line("unfenced (kernel)")

    # -- The programs, and their reports -----------------------------------
    base, new = p("base"), p("new")
    r1 = run([a.driver, "-fsanitize=kkrace", "-O1", SOURCE, "-o", base] +
             kk_inc + kk_link)
    r2 = run([a.driver, "-fsanitize=kkrace", "-O1", "-DNEW_RACE", SOURCE, "-o",
              new] + kk_inc + kk_link)
    check("the programs build", r1.returncode == 0 and r2.returncode == 0,
          (r1.stderr + r2.stderr)[-2000:])
    if r1.returncode or r2.returncode:
        return finish()
    # Two runs of the old program (as two processes of a test suite would),
    # one of the new one; each with its own JSON Lines file and graph.
    runs = {}
    for name, exe in (("old1", base), ("old2", base), ("new", new)):
        r = run([exe], cwd=w, env={"KKRACE_OPTIONS": "json_path=%s graph_path=%s"
                                   % (p(name + ".jsonl"), p(name + ".dot"))})
        runs[name] = read_jsonl(p(name + ".jsonl")) \
            if os.path.exists(p(name + ".jsonl")) else []
        check("%s: the program reports its races (exit status 66)" % name,
              r.returncode == 66 and
              len(runs[name]) == (2 if name == "new" else 1), r.stderr[-2000:])
    if not all(runs.values()) or len(runs["new"]) != 2:
        return finish()
    old_fp = runs["old1"][0]["fingerprint"]
    new_fp = [x["fingerprint"] for x in runs["new"] if x["fingerprint"] != old_fp]
    check("fingerprints are stable across runs and builds",
          runs["old2"][0]["fingerprint"] == old_fp and len(new_fp) == 1 and
          re.fullmatch(r"[0-9a-f]{16}", old_fp),
          json.dumps([x["fingerprint"] for v in runs.values() for x in v]))

    # The same program with lines added above its race: the same fingerprint
    # (it has the text of the racing lines, not their numbers).
    os.makedirs(p("moved"))
    with open(SOURCE) as f:
        moved_src = write(os.path.join("moved", "report_baseline.cpp"),
                          "// three lines\n// added above\n// the races\n" +
                          f.read())
    moved = p("moved/prog")
    r = run([a.driver, "-fsanitize=kkrace", "-O1", moved_src, "-o", moved] +
            kk_inc + kk_link)
    r = run([moved], cwd=w, env={"KKRACE_OPTIONS": "json_path=" +
                                 p("moved.jsonl")})
    moved_fps = [x["fingerprint"] for x in read_jsonl(p("moved.jsonl"))] \
        if os.path.exists(p("moved.jsonl")) else []
    check("lines added above a race leave its fingerprint as it was",
          moved_fps == [old_fp], "%s %s %s" % (moved_fps, old_fp,
                                                r.stderr[-1500:]))

    # -- Merging -------------------------------------------------------------
    r = report(p("old1.jsonl"), p("old2.jsonl"), "--json", p("merged.jsonl"))
    merged = read_jsonl(p("merged.jsonl")) if os.path.exists(p("merged.jsonl")) else []
    total = runs["old1"][0]["count"] + runs["old2"][0]["count"]
    check("merge: two runs of one race are one report",
          r.returncode == 1 and
          "1 distinct report (2 reports from 2 runs in 2 files)" in r.stdout and
          len(re.findall(r"^  #\d+ ", r.stdout, re.M)) == 1, r.stdout + r.stderr)
    check("merge: counts summed, seen in 2 runs",
          re.search(r"\(count %d, seen in 2 runs of 2 files\)" % total, r.stdout)
          and len(merged) == 1 and merged[0]["count"] == total and
          merged[0]["runs"] == 2 and merged[0]["fingerprint"] == old_fp,
          r.stdout + json.dumps(merged)[:1000])
    check("--json: the rest of the report is kept",
          len(merged) == 1 and all(merged[0][k] == runs["old1"][0][k] for k in
                                   ("kind", "subkind", "view", "accesses",
                                    "summary", "pid")),
          json.dumps(merged)[:1000])
    r = report(p("merged.jsonl"), p("old1.jsonl"))
    check("--json output reads back (and its runs are not counted twice)",
          r.returncode == 1 and re.search(r"count %d, seen in 2 runs" %
                                          (total + runs["old1"][0]["count"]),
                                          r.stdout), r.stdout + r.stderr)
    r = report(p("old1.jsonl"), p("old1.jsonl"), "./old1.jsonl")
    check("a file named twice is read once",
          "1 distinct report (1 report from 1 run in 1 file)" in r.stdout,
          r.stdout)
    with open(p("old1.jsonl")) as f:
        old1_text = f.read()
    r = report("-", p("old2.jsonl"), stdin=old1_text)
    check("'-' reads standard input",
          r.returncode == 1 and "(2 reports from 2 runs in 2 files)" in r.stdout,
          r.stdout + r.stderr)

    # -- The summary -----------------------------------------------------------
    # Run from the source folder: locations under it are printed relative.
    r = report(p("new.jsonl"), cwd=HERE)
    out = r.stdout
    tables = out.split("\nReports:\n")[0]
    check("summary: exit status 1 with reports", r.returncode == 1, r.stderr)
    check("summary: by kind",
          re.search(r"^\s+1\s+\d+\s+data-race/iteration-overlap$", tables, re.M)
          and re.search(r"^\s+1\s+1\s+data-race/missing-fence$", tables, re.M),
          out)
    check("summary: by View",
          re.search(r"^\s+1\s+\d+\s+View 'shifted'$", tables, re.M) and
          re.search(r"^\s+1\s+1\s+View 'unfenced'$", tables, re.M), out)
    check("summary: by source locations, relative to the current directory",
          re.search(r"^\s+1\s+\d+\s+report_baseline\.cpp:%d / "
                    r"report_baseline\.cpp:%d$" % (shift_line, shift_line),
                    tables, re.M) and
          re.search(r"^\s+1\s+1\s+report_baseline\.cpp:%d / "
                    r"report_baseline\.cpp:%d$" % (host_line, kernel_line),
                    tables, re.M), out)
    lines = re.findall(r"^  #(\d+) (\S+) ([0-9a-f]{16}): (.*)$", out, re.M)
    check("summary: one line per report with its summary and locations",
          len(lines) == 2 and lines[0][0] == "1" and lines[1][0] == "2" and
          lines[0][3].startswith(runs["new"][0]["summary"]) and
          ("report_baseline.cpp:%d:" % host_line) in lines[1][3] and
          ("report_baseline.cpp:%d:" % kernel_line) in lines[1][3], out)
    r = report(p("new.jsonl"), cwd=w)
    check("summary: paths outside the current directory stay absolute",
          SOURCE + ":%d" % shift_line in r.stdout, r.stdout)
    r = report("-q", p("new.jsonl"))
    check("-q prints nothing, the exit status stays",
          r.returncode == 1 and r.stdout == "" and r.stderr == "", r.stdout)
    write("empty.jsonl", "\n")
    r = report(p("empty.jsonl"))
    check("no reports: exit status 0",
          r.returncode == 0 and "no reports (1 file read)" in r.stdout,
          r.stdout + r.stderr)

    # -- The baseline gate -------------------------------------------------------
    r = report("--baseline", p("old1.jsonl"), p("old2.jsonl"))
    check("--baseline: nothing new, exit status 0",
          r.returncode == 0 and "0 new, 1 in the baseline" in r.stdout and
          "No new reports." in r.stdout and "#1" not in r.stdout,
          r.stdout + r.stderr)
    r = report("--baseline", p("old1.jsonl"), p("new.jsonl"))
    lines = re.findall(r"^  #(\d+) (\S+) ([0-9a-f]{16}): (.*)$", r.stdout, re.M)
    check("--baseline: the new race, and only it, exit status 1",
          r.returncode == 1 and "1 new, 1 in the baseline" in r.stdout and
          len(lines) == 1 and lines[0][2] == new_fp[0] and
          "'unfenced'" in lines[0][3] and "'shifted'" not in r.stdout,
          r.stdout + r.stderr)
    r = report("--baseline", p("new.jsonl"), p("old2.jsonl"))
    check("--baseline: a race gone is counted as fixed",
          r.returncode == 0 and "1 baseline report fixed" in r.stdout and
          re.search(r"Fixed .*\n  data-race/missing-fence %s: " % new_fp[0],
                    r.stdout), r.stdout + r.stderr)
    r = report("--baseline", p("old1.jsonl"), "--baseline", p("new.jsonl"),
               p("new.jsonl"))
    check("--baseline is repeatable", r.returncode == 0 and
          "0 new, 2 in the baseline" in r.stdout, r.stdout + r.stderr)

    # -- SARIF -----------------------------------------------------------------
    r = report(p("new.jsonl"), "--sarif", p("all.sarif"), cwd=HERE)
    ok, detail = False, ""
    try:
        import jsonschema
        schema = json.load(open(a.sarif_schema))
        sarif = json.load(open(p("all.sarif")))
        jsonschema.Draft7Validator(schema).validate(sarif)
        run0 = sarif["runs"][0]
        res = run0["results"]
        rules = run0["tool"]["driver"]["rules"]
        by_fp = {x["fingerprint"]: x for x in runs["new"]}
        ok = run0["tool"]["driver"]["name"] == "kkrace" and len(res) == 2
        for x in res if ok else []:
            src = by_fp[x["partialFingerprints"]["kkraceLocationPair/v1"]]
            loc = x["locations"][0]["physicalLocation"]
            rel = x["relatedLocations"][0]["physicalLocation"]
            ok = ok and x["ruleId"] == "%s/%s" % (src["kind"], src["subkind"]) \
                and rules[x["ruleIndex"]]["id"] == x["ruleId"] \
                and x["level"] == "error" \
                and x["message"]["text"] == src["summary"] \
                and loc["artifactLocation"] == {"uri": "report_baseline.cpp",
                                                "uriBaseId": "%SRCROOT%"} \
                and loc["region"]["startLine"] == src["accesses"][0]["stack"][0]["line"] \
                and rel["region"]["startLine"] == src["accesses"][1]["stack"][0]["line"] \
                and x["properties"]["count"] == src["count"] \
                and x["properties"]["view"] == src["view"]
        ok = ok and run0["originalUriBaseIds"]["%SRCROOT%"]["uri"] == \
            "file://" + HERE + "/"
        detail = json.dumps(res)[:2000]
    except Exception as e:  # noqa: BLE001 -- report any failure
        ok, detail = False, repr(e)
    check("--sarif: valid SARIF 2.1.0, both locations, fingerprints", ok, detail)
    r = report("--baseline", p("old1.jsonl"), p("new.jsonl"), "--sarif",
               p("new.sarif"))
    try:
        res = json.load(open(p("new.sarif")))["runs"][0]["results"]
        ok = [x["partialFingerprints"]["kkraceLocationPair/v1"] for x in res] == new_fp
        detail = json.dumps(res)[:1000]
    except Exception as e:  # noqa: BLE001
        ok, detail = False, repr(e)
    check("--sarif with --baseline: the new report only", ok, detail)
    rules_rt = None
    try:
        # The runtime's own SARIF names the same rules (one table, kkr_rules.h).
        rr = run([new], cwd=w, env={"KKRACE_OPTIONS": "sarif_path=" + p("rt.sarif")})
        rules_rt = json.load(open(p("rt.sarif")))["runs"][0]["tool"]["driver"]["rules"]
        rules_tool = json.load(open(p("all.sarif")))["runs"][0]["tool"]["driver"]["rules"]
        ok = rr.returncode == 66 and rules_rt == rules_tool and len(rules_rt) >= 6
    except Exception as e:  # noqa: BLE001
        ok, detail = False, repr(e)
    check("--sarif: the runtime's rule table", ok, json.dumps(rules_rt)[:500])

    # -- A deadlock ----------------------------------------------------------------
    dl = p("deadlock")
    r = run([a.driver, "-fsanitize=kkrace", "-O1", write("deadlock.cpp", DEADLOCK),
             "-o", dl] + kk_inc + kk_link)
    r = run([dl], cwd=w, env={"KKRACE_OPTIONS": "json_path=%s hang_timeout_ms=2000"
                              % p("deadlock.jsonl")}) if r.returncode == 0 else r
    dls = read_jsonl(p("deadlock.jsonl")) if os.path.exists(p("deadlock.jsonl")) else []
    r = report(p("deadlock.jsonl"), p("new.jsonl"), "--sarif", p("dl.sarif"),
               "--junit", p("dl.xml"))
    try:
        schema = json.load(open(a.sarif_schema))
        sarif = json.load(open(p("dl.sarif")))
        jsonschema.Draft7Validator(schema).validate(sarif)
        res = sarif["runs"][0]["results"]
        rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        root = ET.parse(p("dl.xml")).getroot()
        ok = (len(dls) >= 1 and dls[0]["kind"] == "deadlock" and r.returncode == 1
              and re.search(r"^\s+1\s+\d+\s+deadlock/%s$" % dls[0]["subkind"],
                            r.stdout, re.M) and len(res) == len(dls) + 2 and
              res[0]["ruleId"] == "deadlock/" + dls[0]["subkind"] and
              rules[res[0]["ruleIndex"]]["id"] == res[0]["ruleId"] and
              root.get("failures") == str(len(dls) + 2))
        detail = r.stdout + json.dumps(res[0])[:1000]
    except Exception as e:  # noqa: BLE001
        ok, detail = False, repr(e) + r.stdout + r.stderr
    check("a deadlock report: summary, SARIF rule, JUnit", ok, detail)
    r = report(p("deadlock.jsonl"), "--graph", "1", "--dot", p("new.dot"))
    check("--graph refuses a deadlock",
          r.returncode == 2 and "draws the two nodes of a data race" in r.stderr,
          r.stderr)

    # -- JUnit XML ----------------------------------------------------------------
    r = report(p("new.jsonl"), "--junit", p("all.xml"))
    try:
        root = ET.parse(p("all.xml")).getroot()
        cases = root.findall("./testsuite/testcase")
        fails = [c.find("failure") for c in cases]
        ok = (root.tag == "testsuites" and root.get("failures") == "2" and
              root.find("testsuite").get("name") == "kkrace" and
              len(cases) == 2 and all(f is not None for f in fails) and
              sorted(f.get("message") for f in fails) ==
              sorted(x["summary"] for x in runs["new"]) and
              all("#0 " in f.text and "report_baseline.cpp:" in f.text
                  for f in fails))
        detail = ET.tostring(root, encoding="unicode")[:2000]
    except Exception as e:  # noqa: BLE001
        ok, detail = False, repr(e)
    check("--junit: one failing test case per report", ok, detail)
    r = report("--baseline", p("old1.jsonl"), p("old2.jsonl"), "--junit",
               p("none.xml"))
    try:
        root = ET.parse(p("none.xml")).getroot()
        cases = root.findall("./testsuite/testcase")
        ok = (r.returncode == 0 and root.get("failures") == "0" and len(cases) == 1
              and cases[0].get("name") == "kkrace" and
              cases[0].find("failure") is None)
        detail = ET.tostring(root, encoding="unicode")
    except Exception as e:  # noqa: BLE001
        ok, detail = False, repr(e)
    check("--junit: one passing test case when nothing is new", ok, detail)

    # -- Escapes: JSON in, JSON, XML and SARIF out ---------------------------------
    odd = dict(runs["old1"][0])
    odd["view"] = "v\u00e9\U0001F600<&>\"'"
    odd["summary"] = "data race on View '%s'\tand \x01 control" % odd["view"]
    odd["fingerprint"] = "0123456789abcdef"
    line = json.dumps(odd, ensure_ascii=True)  # \uXXXX escapes, a surrogate pair
    write("odd.jsonl", line + "\n")
    r = report(p("odd.jsonl"), "--json", p("odd-out.jsonl"), "--junit",
               p("odd.xml"), "--sarif", p("odd.sarif"))
    try:
        back = read_jsonl(p("odd-out.jsonl"))[0]
        fail = ET.parse(p("odd.xml")).getroot().find("./testsuite/testcase/failure")
        sres = json.load(open(p("odd.sarif")))["runs"][0]["results"][0]
        ok = (back["view"] == odd["view"] and back["summary"] == odd["summary"]
              and "View 'v\u00e9\U0001F600<&>\"''" in fail.get("message")
              and sres["properties"]["view"] == odd["view"]
              and "View 'v\u00e9\U0001F600<&>\"'" in r.stdout)
        detail = repr((back["view"], fail.get("message"), r.stdout[:300]))
    except Exception as e:  # noqa: BLE001
        ok, detail = False, repr(e) + r.stderr
    check("\\u escapes decode to UTF-8; XML and JSON outputs escape", ok, detail)

    # -- The top frame: the first one outside Kokkos and the C++ library ----------
    lib = dict(runs["new"][1])
    lib["fingerprint"] = "00000000000000ff"
    acc = [dict(x) for x in lib["accesses"]]
    acc[1]["stack"] = [
        {"function": "void std::__invoke_impl<void>(int)", "file": "/usr/include/c++/12/bits/invoke.h",
         "line": 61, "column": 14, "pc": "0x1", "module": "new"},
        {"function": "std::enable_if<true, void>::type Kokkos::Impl::ParallelFor<F, "
                     "Kokkos::RangePolicy<>, Kokkos::Serial>::exec<void>() const",
         "file": "/usr/include/trilinos/Kokkos_Serial.hpp", "line": 431, "column": 7,
         "pc": "0x2", "module": "new"}] + acc[1]["stack"]
    acc[0]["stack"] = [{"function": "Kokkos::deep_copy<double>(double const&)",
                        "file": "/usr/include/trilinos/Kokkos_CopyViews.hpp",
                        "line": 1234, "column": 3, "pc": "0x3", "module": "new"}]
    lib["accesses"] = acc
    write("lib.jsonl", json.dumps(lib) + "\n")
    r = report(p("lib.jsonl"), "--sarif", p("lib.sarif"), cwd=HERE)
    try:
        res = json.load(open(p("lib.sarif")))["runs"][0]["results"][0]
        ok = (res["relatedLocations"][0]["physicalLocation"]["region"]["startLine"]
              == kernel_line and
              res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
              == "file:///usr/include/trilinos/Kokkos_CopyViews.hpp" and
              "/usr/include/trilinos/Kokkos_CopyViews.hpp:1234 / "
              "report_baseline.cpp:%d\n" % kernel_line in r.stdout)
        detail = r.stdout + json.dumps(res)[:1000]
    except Exception as e:  # noqa: BLE001
        ok, detail = False, repr(e) + r.stdout + r.stderr
    check("top frame: Kokkos:: and std:: frames skipped, else the first", ok,
          detail)

    # -- --graph -----------------------------------------------------------------
    new_race = [x for x in runs["new"] if x["fingerprint"] == new_fp[0]][0]
    racing = [acc["node"]["graph_node"] for acc in new_race["accesses"]]
    r = report(p("new.jsonl"), "--graph", "2", "--dot", p("new.dot"), "-o",
               p("race2.dot"))
    dot = open(p("race2.dot")).read() if os.path.exists(p("race2.dot")) else ""
    full = open(p("new.dot")).read()

    def nodes(text):
        return set(re.findall(r"^\s*(n\d+) \[", text, re.M))

    race_edge = re.search(r"^\s*(n\d+) -> (n\d+) \[(.*label=\"no path: "
                          r"unfenced\")\];$", dot, re.M)
    check("--graph 2: both racing nodes and the red race edge",
          race_edge and set(race_edge.group(1, 2)) == set(racing) and
          "color=red" in race_edge.group(3) and "penwidth=3" in race_edge.group(3)
          and set(racing) <= nodes(dot) and "style=dashed" in race_edge.group(3),
          dot[:3000])
    check("--graph 2: only the nodes around the race, paths elided",
          len(nodes(dot)) < len(nodes(full)) / 2 and "style=dotted" in dot and
          'xlabel="common ancestor"' in dot and "subgraph cluster_" in dot,
          "%d of %d nodes" % (len(nodes(dot)), len(nodes(full))))
    check("--graph: the summary is still printed with -o",
          r.returncode == 1 and "Reports:" in r.stdout, r.stdout + r.stderr)
    if shutil.which("dot"):
        rd = run(["dot", "-Tsvg", p("race2.dot"), "-o", p("race2-dot.svg")])
        check("--graph: Graphviz renders the DOT", rd.returncode == 0, rd.stderr)
        r = report("-q", p("new.jsonl"), "--graph", "2", "--dot", p("new.dot"),
                   "-o", p("race2.svg"))
        svg = open(p("race2.svg")).read() if os.path.exists(p("race2.svg")) else ""
        check("--graph -o OUT.svg runs dot -Tsvg",
              r.returncode == 1 and "<svg" in svg and "no path: unfenced" in svg,
              r.stderr + svg[:300])
    r = report(p("new.jsonl"), "--graph", "1", "--dot", p("new.dot"))
    shift_node = runs["new"][0]["accesses"][0]["node"]["graph_node"]
    check("--graph 1 (two iterations of one kernel): a loop on its node",
          r.returncode == 1 and re.search(
              r"^\s*%s -> %s \[.*label=\"no path: shifted\"\];$" %
              (shift_node, shift_node), r.stdout, re.M) and
          r.stdout.startswith("// Report #1"), r.stdout[:2000] + r.stderr)
    r = report("--baseline", p("old1.jsonl"), p("new.jsonl"), "--graph", "1",
               "--dot", p("new.dot"))
    check("--graph with --baseline numbers the new reports",
          "no path: unfenced" in r.stdout, r.stdout[:500] + r.stderr)
    r = report(p("new.jsonl"), "--graph", "2", "--dot", p("old1.dot"))
    check("--graph: the graph of another process is refused",
          r.returncode == 2 and "is the graph of pid %d" % runs["old1"][0]["pid"]
          in r.stderr and str(new_race["pid"]) in r.stderr and
          len(r.stderr.splitlines()) == 1, r.stderr)
    r = report(p("new.jsonl"), "--graph", "3", "--dot", p("new.dot"))
    check("--graph: a report number out of range",
          r.returncode == 2 and "there are 2 reports" in r.stderr, r.stderr)
    write("bad.dot", "digraph g { a -> b; }\n")
    r = report(p("new.jsonl"), "--graph", "2", "--dot", p("bad.dot"))
    check("--graph: a DOT file kkrace did not write",
          r.returncode == 2 and "bad.dot:1:" in r.stderr, r.stderr)
    r = run([tool, p("new.jsonl"), "--graph", "2", "--dot", p("new.dot"),
             "-o", p("x.svg")], env={"PATH": "/nonexistent"}, cwd=w)
    check("--graph -o OUT.svg without Graphviz: a clear error",
          r.returncode == 2 and "cannot run 'dot'" in r.stderr and
          "graphviz" in r.stderr, r.stderr)

    # -- Bad input -----------------------------------------------------------------
    good = open(p("old1.jsonl")).read().splitlines()[0]
    write("bad.jsonl", good + "\n" + good[:-5] + "\n")
    r = report(p("new.jsonl"), p("bad.jsonl"))
    check("a malformed line: exit status 2, file:line",
          r.returncode == 2 and re.search(r"bad\.jsonl:2:\d+: invalid JSON", r.stderr)
          and len(r.stderr.splitlines()) == 1 and r.stdout == "", r.stderr)
    write("notreport.jsonl", '{"kind":"data-race"}\n')
    r = report(p("notreport.jsonl"))
    check("a line that is no report: exit status 2, file:line",
          r.returncode == 2 and "notreport.jsonl:1: not a kkrace report" in r.stderr,
          r.stderr)
    write("surrogate.jsonl", good.replace('"summary":"', '"summary":"\\ud800', 1) + "\n")
    r = report(p("surrogate.jsonl"))
    check("an unpaired surrogate is malformed",
          r.returncode == 2 and "surrogate.jsonl:1:" in r.stderr and
          "surrogate" in r.stderr, r.stderr)
    r = report(p("missing.jsonl"))
    check("a missing file: exit status 2",
          r.returncode == 2 and "missing.jsonl" in r.stderr and
          len(r.stderr.splitlines()) == 1, r.stderr)
    r = report("--baseline", p("missing-base.jsonl"), p("new.jsonl"))
    check("a missing baseline: exit status 2",
          r.returncode == 2 and "missing-base.jsonl" in r.stderr, r.stderr)
    r = report("--bogus", p("new.jsonl"))
    check("an unknown option: one line, exit status 2",
          r.returncode == 2 and "'--bogus'" in r.stderr and
          len(r.stderr.splitlines()) == 1, r.stderr)
    r = report()
    check("no input file: exit status 2", r.returncode == 2 and
          "no input files" in r.stderr, r.stderr)
    r = report(p("new.jsonl"), "--graph", "1")
    check("--graph without --dot: exit status 2",
          r.returncode == 2 and "--dot" in r.stderr, r.stderr)
    r = report("--help")
    check("--help lists every option",
          r.returncode == 0 and all(o in r.stdout for o in (
              "--baseline", "--sarif", "--junit", "--json", "--graph", "--dot",
              "--depth", "-o ", "--quiet", "Exit status")), r.stdout)

    # -- Installed with the drivers --------------------------------------------------
    prefix = p("prefix")
    r = run(["cmake", "--install", a.build_dir, "--prefix", prefix])
    inst = os.path.join(prefix, "bin", "kkrace-report")
    r2 = run([inst, "--version"]) if os.path.exists(inst) else r
    check("cmake --install puts kkrace-report in bin",
          r.returncode == 0 and r2.returncode == 0 and
          r2.stdout.startswith("kkrace-report "), r.stderr + r2.stderr)
    return finish()


def finish():
    failed = sum(1 for _, ok in results if not ok)
    print("%d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed or not results else 0


if __name__ == "__main__":
    sys.exit(main())
