// Case-file parsing and validation (io/case_file.hpp): typed getters, bounds,
// --set overrides, unknown-name detection and the resolved case text.
#include <unistd.h>

#include <array>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "io/case_file.hpp"

using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::StartsWith;
using cb::io::Bounds;
using cb::io::CaseFile;

namespace {

CaseFile parse(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return CaseFile::parse(text, "case.toml", overrides);
}

const std::vector<std::string> solvers = {"scalar", "weather", "cfd", "md"};

}  // namespace

TEST_CASE("typed getters read every supported type", "[io][case_file]") {
  auto c = parse(R"([run]
solver = "cfd"
steps = 10
big = 5000000000
end_time = 2.5
restart = true
[grid]
cells = [400, 1, 200]
origin = [0.0, -1, 2.5]
[output]
fields = ["rho", "energy"]
levels = [1, 2, 3]
times = [0.5, 1]
ids = [5000000000]
)");
  CHECK(c.get<std::string>("run", "solver", "scalar") == "cfd");
  CHECK(c.require<int>("run", "steps") == 10);
  CHECK(c.require<long>("run", "big") == 5000000000L);
  CHECK(c.require<double>("run", "end_time") == 2.5);
  CHECK(c.require<bool>("run", "restart"));
  CHECK(c.require<cb::Int3>("grid", "cells") == cb::Int3{400, 1, 200});
  CHECK(c.require<std::array<double, 3>>("grid", "origin") == std::array<double, 3>{0, -1, 2.5});
  CHECK(c.require<std::vector<std::string>>("output", "fields") ==
        std::vector<std::string>{"rho", "energy"});
  CHECK(c.require<std::vector<int>>("output", "levels") == std::vector<int>{1, 2, 3});
  CHECK(c.require<std::vector<double>>("output", "times") == std::vector<double>{0.5, 1.0});
  CHECK(c.require<std::vector<long>>("output", "ids") == std::vector<long>{5000000000L});
  CHECK_FALSE(c.find<double>("time", "cfl").has_value());
  CHECK(c.get<double>("time", "cfl", 0.8) == 0.8);
  CHECK(c.has("run", "steps"));
  CHECK_FALSE(c.has("run", "case"));
  CHECK_FALSE(c.has("nowhere", "steps"));
  CHECK_NOTHROW(c.finish());
}

TEST_CASE("an integer is accepted for a float, not the other way", "[io][case_file]") {
  auto c = parse("[run]\nend_time = 2\nsteps = 1.5\n");
  CHECK(c.require<double>("run", "end_time") == 2.0);
  CHECK(c.resolved().at(0).value == "2.0");
  REQUIRE_THROWS_WITH(c.require<int>("run", "steps"),
                      "case.toml:3:1: [run] steps must be an integer, got float 1.5");
}

TEST_CASE("a wrong type names file:line:col, the key and what was found", "[io][case_file]") {
  auto c = parse("# header\n[run]\nsolver = \"scalar\"\nsteps = \"ten\"\n");
  REQUIRE_THROWS_WITH(c.require<int>("run", "steps"),
                      "case.toml:4:1: [run] steps must be an integer, got string \"ten\"");
  REQUIRE_THROWS_WITH(c.require<bool>("run", "solver"),
                      "case.toml:3:1: [run] solver must be a boolean, got string \"scalar\"");
  REQUIRE_THROWS_WITH(c.require<std::vector<std::string>>("run", "solver"),
                      ContainsSubstring("must be an array of strings"));
}

TEST_CASE("arrays check element types and fixed lengths", "[io][case_file]") {
  auto c = parse("[grid]\ncells = [400, 1]\nmixed = [1, \"a\"]\nwide = [1, 2, 3, 4]\n");
  REQUIRE_THROWS_WITH(c.require<cb::Int3>("grid", "cells"),
                      "case.toml:2:1: [grid] cells must be an array of 3 integers, got array "
                      "[400, 1]");
  REQUIRE_THROWS_WITH(c.require<std::vector<int>>("grid", "mixed"),
                      "case.toml:3:1: [grid] mixed must be an array of integers, got array "
                      "[1, \"a\"]");
  REQUIRE_THROWS_WITH((c.require<std::array<double, 3>>("grid", "wide")),
                      ContainsSubstring("[grid] wide must be an array of 3 numbers"));
  REQUIRE_THROWS_WITH(c.require<std::vector<double>>("grid", "mixed"),
                      ContainsSubstring("must be an array of numbers"));
}

TEST_CASE("numbers are checked against their bounds", "[io][case_file]") {
  const std::string text = "[run]\nsteps = 0\n[grid]\ncells = [4, 0, 2]\n\n[time]\ncfl = 1.5\n";
  auto c = parse(text);
  REQUIRE_THROWS_WITH(c.require<double>("time", "cfl", Bounds::open_closed(0, 1)),
                      "case.toml:7:7: [time] cfl = 1.5 is out of range: must be in (0, 1]");
  REQUIRE_THROWS_WITH(c.require<int>("run", "steps", Bounds::positive()),
                      "case.toml:2:9: [run] steps = 0 is out of range: must be in (0, inf)");
  CHECK(c.require<int>("run", "steps", Bounds::non_negative()) == 0);
  REQUIRE_THROWS_WITH(c.require<cb::Int3>("grid", "cells", Bounds::at_least(1)),
                      "case.toml:4:13: [grid] cells[1] = 0 is out of range: must be in [1, inf)");
  CHECK(c.require<cb::Int3>("grid", "cells", Bounds::non_negative()) == cb::Int3{4, 0, 2});
}

TEST_CASE("Bounds honour open and closed ends", "[io][case_file]") {
  const double inf = std::numeric_limits<double>::infinity();
  const Bounds oc = Bounds::open_closed(0, 1);
  CHECK_FALSE(oc.contains(0.0));
  CHECK(oc.contains(1e-300));
  CHECK(oc.contains(1.0));
  CHECK_FALSE(oc.contains(1.0000000000000002));
  CHECK(Bounds::closed(0, 1).contains(0.0));
  CHECK(Bounds::closed(0, 1).contains(1.0));
  CHECK_FALSE(Bounds::positive().contains(0.0));
  CHECK(Bounds::non_negative().contains(0.0));
  CHECK_FALSE(Bounds::at_least(2).contains(1.5));
  CHECK_FALSE(Bounds::positive().contains(inf));
  CHECK_FALSE(Bounds::any().contains(std::numeric_limits<double>::quiet_NaN()));
  CHECK(Bounds::any().contains(-1e300));
  CHECK(oc.describe() == "(0, 1]");
  CHECK(Bounds::closed(-0.5, 2).describe() == "[-0.5, 2]");
  CHECK(Bounds::non_negative().describe() == "[0, inf)");
  CHECK(Bounds::positive().describe() == "(0, inf)");
  CHECK(Bounds::any().describe() == "(-inf, inf)");
  CHECK(Bounds{0, 1, true, false}.describe() == "[0, 1)");
}

TEST_CASE("an integer that overflows int is an error, not a wrap", "[io][case_file]") {
  auto c = parse("[run]\nsteps = 3000000000\n");
  REQUIRE_THROWS_WITH(c.require<int>("run", "steps"),
                      "case.toml:2:9: [run] steps = 3000000000 is out of range: must be in "
                      "[-2147483648, 2147483647]");
  CHECK(c.require<long>("run", "steps") == 3000000000L);
}

TEST_CASE("a missing required key names the section or the file", "[io][case_file]") {
  auto c = parse("[output]\nevery_steps = 1\n\n[run]\nsolver = \"md\"\n");
  REQUIRE_THROWS_WITH(c.require<double>("run", "end_time"),
                      "case.toml:4:1: missing required key 'end_time' in [run]");
  REQUIRE_THROWS_WITH(c.require<cb::Int3>("grid", "cells"),
                      "case.toml: missing required key 'cells' in [grid]");
  REQUIRE_THROWS_WITH(c.choice("time", "mode", {"a", "b"}),
                      "case.toml: missing required key 'mode' in [time]");
}

TEST_CASE("choice lists the allowed values and suggests the closest", "[io][case_file]") {
  auto c = parse("[run]\nsolver = \"scalr\"\ncase = \"zzzz\"\n");
  REQUIRE_THROWS_WITH(c.choice("run", "solver", solvers),
                      "case.toml:2:10: [run] solver = \"scalr\" is not one of: scalar, weather, "
                      "cfd, md; did you mean \"scalar\"?");
  REQUIRE_THROWS_WITH(c.choice("run", "case", {"sine", "square"}),
                      "case.toml:3:8: [run] case = \"zzzz\" is not one of: sine, square");
  auto ok = parse("[run]\nsolver = \"md\"\n");
  CHECK(ok.choice("run", "solver", solvers) == "md");
  CHECK(ok.choice("run", "case", {"sine", "square"}, std::string("sine")) == "sine");
  REQUIRE(ok.resolved().size() == 2);
  CHECK(ok.resolved()[1].defaulted);
  CHECK(ok.resolved()[1].value == "\"sine\"");
}

TEST_CASE("a top-level non-table is rejected where it stands", "[io][case_file]") {
  REQUIRE_THROWS_WITH(parse("# comment\nsteps = 3\n[run]\n"),
                      StartsWith("case.toml:2:1: ") && ContainsSubstring("'steps'"));
}

TEST_CASE("a TOML syntax error gives file:line:col and the reason", "[io][case_file]") {
  REQUIRE_THROWS_WITH(parse("[run]\nsolver = \"scalar\"\nsteps = \n"),
                      StartsWith("case.toml:3:") && ContainsSubstring(": TOML syntax error: "));
  REQUIRE_THROWS_WITH(parse("[run\n"),
                      StartsWith("case.toml:1:") && ContainsSubstring("TOML syntax error"));
}

TEST_CASE("finish reports the first unknown section or key in file order", "[io][case_file]") {
  const std::string text =
      "[run]\nsolver = \"md\"\nend_tme = 1.0\n[grid]\ncells = [1, 1, 1]\n\n\n\n[gird]\nx = 1\n";
  auto read_all = [](CaseFile& c) {
    c.choice("run", "solver", solvers);
    c.find<double>("run", "end_time");
    c.find<cb::Int3>("grid", "cells");
  };
  auto c = parse(text);
  read_all(c);
  REQUIRE_THROWS_WITH(c.finish(),
                      "case.toml:3:1: unknown key 'end_tme' in [run]; did you mean 'end_time'?");

  auto sections = parse("[run]\nsolver = \"md\"\n[grid]\ncells = [1, 1, 1]\n\n\n\n\n[gird]\n");
  read_all(sections);
  REQUIRE_THROWS_WITH(sections.finish(),
                      "case.toml:9:1: unknown section [gird]; did you mean [grid]?");

  auto far = parse("[run]\nsolver = \"md\"\nwhatever = 1\n[zzzzzz]\n");
  read_all(far);
  REQUIRE_THROWS_WITH(far.finish(),
                      "case.toml:3:1: unknown key 'whatever' in [run] (known keys: "
                      "'solver', 'end_time')");
}

TEST_CASE("allow declares a key without reading it", "[io][case_file]") {
  auto c = parse("[run]\nsolver = \"md\"\nend_time = 1.0\n[checkpoint]\nkeep = 3\n");
  c.choice("run", "solver", solvers);
  REQUIRE_THROWS_WITH(c.finish(), ContainsSubstring("unknown key 'end_time' in [run]"));
  c.allow("run", "end_time");
  REQUIRE_THROWS_WITH(c.finish(), StartsWith("case.toml:4:1: unknown section [checkpoint]"));
  c.allow("checkpoint", "keep");
  CHECK_NOTHROW(c.finish());
  CHECK(c.resolved().size() == 1);
}

TEST_CASE("fail points at the key, else the section, else the file", "[io][case_file]") {
  const auto c = parse("[run]\nsolver = \"md\"\n  end_time = 1.0\n");
  REQUIRE_THROWS_WITH(c.fail("run", "end_time", "give end_time or steps, not both"),
                      "case.toml:3:3: give end_time or steps, not both");
  REQUIRE_THROWS_WITH(c.fail("run", "steps", "need steps"), "case.toml:1:1: need steps");
  REQUIRE_THROWS_WITH(c.fail("md", "seed", "need a seed"), "case.toml: need a seed");
  auto o = parse("[run]\n", {"run.steps=5"});
  REQUIRE_THROWS_WITH(o.fail("run", "steps", "bad"), "--set run.steps=5: bad");
}

TEST_CASE("--set overrides set or replace keys as TOML values", "[io][case_file]") {
  auto c = parse("[run]\ncase = \"square\"\n[time]\ncfl = 0.8\n",
                 {"grid.cells=[400,1,200]", "run.case=sine", "time.cfl=0.5", "run.solver=\"md\"",
                  " run.steps = 20 "});
  CHECK(c.require<cb::Int3>("grid", "cells") == cb::Int3{400, 1, 200});
  CHECK(c.require<std::string>("run", "case") == "sine");
  CHECK(c.require<double>("time", "cfl") == 0.5);
  CHECK(c.choice("run", "solver", solvers) == "md");
  CHECK(c.require<int>("run", "steps") == 20);
  CHECK_NOTHROW(c.finish());
  CHECK(c.source_text() == "[run]\ncase = \"square\"\n[time]\ncfl = 0.8\n");
  CHECK(parse("[run]\n", {"run.case=\"sine\""}).require<std::string>("run", "case") == "sine");
  CHECK(parse("", {"md.data_file=data/lj.data"}).require<std::string>("md", "data_file") ==
        "data/lj.data");
}

TEST_CASE("--set errors name the override", "[io][case_file]") {
  REQUIRE_THROWS_WITH(parse("", {"gridcells=4"}), StartsWith("--set: "));
  REQUIRE_THROWS_WITH(parse("", {"grid.cells"}), StartsWith("--set: "));
  REQUIRE_THROWS_WITH(parse("", {".cells=1"}), StartsWith("--set: "));
  REQUIRE_THROWS_WITH(parse("", {"grid.=1"}), StartsWith("--set: "));
  REQUIRE_THROWS_WITH(parse("", {"grid.cells=[400,1"}),
                      StartsWith("--set grid.cells=[400,1: TOML syntax error in value: "));
  REQUIRE_THROWS_WITH(parse("", {"run.case=\"sine"}), StartsWith("--set run.case=\"sine: "));
  REQUIRE_THROWS_WITH(parse("", {"run.case="}), StartsWith("--set run.case=: "));

  auto typed = parse("[run]\nsteps = 10\n", {"run.steps=ten", "time.cfl=2"});
  REQUIRE_THROWS_WITH(typed.require<int>("run", "steps"),
                      "--set run.steps=ten: [run] steps must be an integer, got string \"ten\"");
  REQUIRE_THROWS_WITH(typed.require<double>("time", "cfl", Bounds::open_closed(0, 1)),
                      "--set time.cfl=2: [time] cfl = 2 is out of range: must be in (0, 1]");

  auto unknown = parse("[run]\nend_time = 2.0\n", {"run.end_tme=1"});
  unknown.require<double>("run", "end_time");
  REQUIRE_THROWS_WITH(unknown.finish(),
                      "--set run.end_tme=1: unknown key 'end_tme' in [run]; did you mean "
                      "'end_time'?");
  auto section = parse("[grid]\ncells = [1, 1, 1]\n", {"gird.cells=[2,2,2]"});
  section.require<cb::Int3>("grid", "cells");
  REQUIRE_THROWS_WITH(section.finish(),
                      "--set gird.cells=[2,2,2]: unknown section [gird]; did you mean [grid]?");
}

TEST_CASE("file problems are reported before override problems", "[io][case_file]") {
  auto c = parse("[run]\nsolver = \"md\"\n\nstepz = 3\n", {"run.end_tme=1"});
  c.choice("run", "solver", solvers);
  c.find<int>("run", "steps");
  c.find<double>("run", "end_time");
  REQUIRE_THROWS_WITH(c.finish(), StartsWith("case.toml:4:1: unknown key 'stepz' in [run]"));
}

TEST_CASE("resolved entries keep first-asked order and defaulted flags", "[io][case_file]") {
  auto c = parse("[run]\nsolver = \"scalar\"\n[grid]\ncells = [8, 1, 4]\n");
  c.choice("run", "solver", solvers);
  c.get<double>("run", "end_time", 1.0);
  c.get<cb::Int3>("grid", "cells", cb::Int3{1, 1, 1});
  c.get<bool>("parallel", "gpu_aware_mpi", false);
  c.get<double>("run", "end_time", 1.0);  // again: no second entry
  CHECK_FALSE(c.find<int>("run", "steps").has_value());
  const auto& r = c.resolved();
  REQUIRE(r.size() == 4);
  CHECK((r[0].section == "run" && r[0].key == "solver" && r[0].value == "\"scalar\"" &&
         !r[0].defaulted));
  CHECK((r[1].key == "end_time" && r[1].value == "1.0" && r[1].defaulted));
  CHECK((r[2].key == "cells" && r[2].value == "[8, 1, 4]" && !r[2].defaulted));
  CHECK((r[3].section == "parallel" && r[3].value == "false" && r[3].defaulted));
  CHECK(c.resolved_text() ==
        "[run]\nsolver = \"scalar\"\nend_time = 1.0  # default\n\n[grid]\ncells = [8, 1, 4]\n\n"
        "[parallel]\ngpu_aware_mpi = false  # default\n");
}

TEST_CASE("resolved_text round-trips through parse exactly", "[io][case_file]") {
  const double third = 1.0 / 3.0;
  auto c = parse("[time]\ncfl = 0.1\ndt = 1e-300\n[md]\ndata_file = \"a \\\"b\\\"\\\\c\"\n");
  const double cfl = c.require<double>("time", "cfl");
  const double dt = c.require<double>("time", "dt");
  c.get<double>("time", "end", third);
  c.get<double>("time", "one", 1.0);
  c.get<double>("time", "huge", 1e300);
  const auto file = c.require<std::string>("md", "data_file");
  c.get<std::vector<double>>("md", "masses", {1.0, 39.948, third});
  c.get<std::vector<std::string>>("output", "fields", {"rho", "tab\there"});
  c.get<std::array<double, 3>>("md", "box", {1, 2, 3});
  c.get<long>("md", "seed", 12345678901L);

  auto back = parse(c.resolved_text());
  CHECK(back.require<double>("time", "cfl") == cfl);
  CHECK(back.require<double>("time", "dt") == dt);
  CHECK(back.require<double>("time", "end") == third);
  CHECK(back.require<double>("time", "one") == 1.0);
  CHECK(back.require<double>("time", "huge") == 1e300);
  CHECK(back.require<std::string>("md", "data_file") == file);
  CHECK(back.require<std::vector<double>>("md", "masses") ==
        std::vector<double>{1.0, 39.948, third});
  CHECK(back.require<std::vector<std::string>>("output", "fields") ==
        std::vector<std::string>{"rho", "tab\there"});
  CHECK(back.require<std::array<double, 3>>("md", "box") == std::array<double, 3>{1, 2, 3});
  CHECK(back.require<long>("md", "seed") == 12345678901L);
  CHECK_NOTHROW(back.finish());
  std::string without_marks = c.resolved_text();
  for (auto at = without_marks.find("  # default"); at != std::string::npos;
       at = without_marks.find("  # default"))
    without_marks.erase(at, std::string("  # default").size());
  CHECK(back.resolved_text() == without_marks);
}

TEST_CASE("load reads a file and reports an unreadable one", "[io][case_file]") {
  const auto path = std::filesystem::temp_directory_path() /
                    ("cloudburst_case_file_test_" + std::to_string(::getpid()) + ".toml");
  {
    std::ofstream out(path);
    out << "[run]\nsolver = \"md\"\nstepz = 5\n";
  }
  auto c = CaseFile::load(path.string(), {"run.steps=7"});
  CHECK(c.path() == path.string());
  CHECK(c.source_text() == "[run]\nsolver = \"md\"\nstepz = 5\n");
  CHECK(c.require<int>("run", "steps") == 7);
  c.choice("run", "solver", solvers);
  REQUIRE_THROWS_WITH(c.finish(), path.string() +
                                      ":3:1: unknown key 'stepz' in [run]; did you "
                                      "mean 'steps'?");
  std::filesystem::remove(path);

  REQUIRE_THROWS_WITH(CaseFile::load("/nonexistent/case.toml"),
                      "/nonexistent/case.toml: cannot read case file: No such file or directory");
  const auto dir = std::filesystem::temp_directory_path().string();
  REQUIRE_THROWS_WITH(CaseFile::load(dir), StartsWith(dir + ": cannot read case file: "));
}

TEST_CASE("closest_match suggests only close names", "[io][case_file]") {
  const std::vector<std::string> keys = {"end_time", "steps", "solver", "case"};
  CHECK(cb::io::closest_match("end_tme", keys) == "end_time");
  CHECK(cb::io::closest_match("end_tmie", keys) == "end_time");  // a transposition
  CHECK(cb::io::closest_match("Solver", keys) == "solver");
  CHECK(cb::io::closest_match("cas", keys) == "case");
  CHECK(cb::io::closest_match("temperature", keys).empty());
  CHECK(cb::io::closest_match("x", {}).empty());
}

TEST_CASE("arrays of tables are read as name[N], checked and resolved", "[io][case_file]") {
  const std::string text = R"([run]
solver = "cfd"

[[geometry]]
shape = "sphere"
radius = 0.5

[[geometry]]
shape = "box"
sise = [1, 2, 3]
)";
  auto c = parse(text);
  CHECK(c.tables("geometry") == 2);
  CHECK(c.tables("run") == 0);
  CHECK(c.tables("absent") == 0);
  CHECK(c.get<std::string>("run", "solver", "") == "cfd");
  CHECK(c.get<std::string>("geometry[1]", "shape", "") == "sphere");
  CHECK(c.get<double>("geometry[1]", "radius", 0.0) == 0.5);
  CHECK(c.get<std::string>("geometry[2]", "shape", "") == "box");
  CHECK_FALSE(c.find<double>("geometry[3]", "radius"));
  // An unknown key in the second table, located and suggested.
  c.allow("geometry[2]", "size");
  CHECK_THROWS_WITH(c.finish(), ContainsSubstring("case.toml:10:1: unknown key 'sise' in "
                                                  "[geometry[2]]; did you mean 'size'?"));
  // A table no reader asked for is an unknown section, spelled as written.
  auto d = parse(text);
  d.get<std::string>("run", "solver", "");
  CHECK_THROWS_WITH(d.finish(), ContainsSubstring("unknown section [[geometry]]"));
  // --set reaches a table of the array; one past the end is an error.
  auto e = parse(text, {"geometry[1].radius=0.25"});
  CHECK(e.get<std::string>("geometry[1]", "shape", "") == "sphere");
  CHECK(e.get<double>("geometry[1]", "radius", 0.0) == 0.25);
  CHECK_THROWS_WITH(parse(text, {"geometry[3].radius=1"}),
                    ContainsSubstring("there is no table geometry[3]"));
  // The resolved text writes the tables back as [[geometry]].
  CHECK_THAT(e.resolved_text(),
             ContainsSubstring("[[geometry]]\nshape = \"sphere\"\nradius = 0.25"));
}
