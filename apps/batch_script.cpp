// Rendering of the sbatch templates and reading of sweep files.
#include "apps/batch_script.hpp"

#include "apps/build_info.hpp"

#include "core/error.hpp"
#include "io/detail/case_text.hpp"

#include <toml++/toml.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <utility>

namespace cb::app {
namespace {
namespace fs = std::filesystem;

std::string quoted_list(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + shell_quote(w);
  return out;
}

std::string directive(const std::string& option, const std::string& value) {
  return value.empty() ? "" : "#SBATCH --" + option + "=" + value;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) {
    if (!line.empty()) out += (out.empty() ? "" : "\n") + line;
  }
  return out;
}

std::string optional_directives(const BatchJob& job) {
  std::vector<std::string> lines{directive("time", job.time), directive("partition", job.partition),
                                 directive("account", job.account)};
  if (!job.sweep.empty())
    lines.push_back(directive("array", "0-" + std::to_string(job.sweep.size() - 1)));
  return join_lines(lines);
}

// The shell variables the template's body uses, every value quoted.
std::string settings(const BatchJob& job) {
  std::string text =
      "# --- filled in by cloudburst submit; every value is one shell-quoted word ---\n"
      "cloudburst=" +
      shell_quote(job.cloudburst) + "\n" + "batch_wrapper=" + shell_quote(job.batch_wrapper) +
      "\n" + "output_dir=" + shell_quote(job.output_dir) + "\n" +
      "max_restarts=" + std::to_string(job.max_restarts) + "\n" + "run_args=(" +
      quoted_list(job.run_args) + ")";
  if (job.sweep.empty()) return text;
  text +=
      "\n# parameter sweep: array task N runs with its overrides into output_dir/task_N\n"
      "task=${SLURM_ARRAY_TASK_ID:?this job script runs as a job array}\n"
      "case \"$task\" in\n";
  char name[32];
  for (size_t n = 0; n < job.sweep.size(); ++n) {
    std::snprintf(name, sizeof name, "/task_%04zu", n);
    std::vector<std::string> args;
    for (const std::string& o : job.sweep[n]) args.insert(args.end(), {"--set", o});
    text += "  " + std::to_string(n) + ") output_dir+=" + shell_quote(name) + "; run_args+=(" +
            quoted_list(args) + ") ;;\n";
  }
  text += "  *) echo \"cloudburst: no sweep task '$task'\" >&2; exit 2 ;;\nesac";
  return text;
}

void replace_field(std::string& text, const std::string& field, const std::string& value) {
  const std::string token = "@" + field + "@";
  for (size_t at = text.find(token); at != std::string::npos; at = text.find(token, at)) {
    const bool own_line = (at == 0 || text[at - 1] == '\n') &&
                          (at + token.size() == text.size() || text[at + token.size()] == '\n');
    if (value.empty() && own_line) {
      text.erase(at, token.size() + (at + token.size() < text.size() ? 1 : 0));
    } else {
      text.replace(at, token.size(), value);
      at += value.size();
    }
  }
}

// "section.key" -> values: quoted keys ("grid.cells" = [...]) and dotted ones
// (grid.cells = [...], which TOML makes a nested table) alike.
void flatten_sweep(const toml::table& table, const std::string& prefix, const std::string& path,
                   std::vector<std::pair<std::string, const toml::array*>>& out) {
  for (const auto& [key, node] : table) {
    const std::string name = prefix + std::string(key.str());
    if (const toml::table* nested = node.as_table()) {
      flatten_sweep(*nested, name + ".", path, out);
      continue;
    }
    const toml::array* values = node.as_array();
    if (name.find('.') == std::string::npos || !values || values->empty()) {
      throw InputError(path + ": [sweep] " + name +
                       ": expected \"section.key\" = [value, ...] with at least one value");
    }
    out.emplace_back(name, values);
  }
}

}  // namespace

std::string shell_quote(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string render_batch_script(const std::string& template_text, const BatchJob& job) {
  char minutes[32];
  std::snprintf(minutes, sizeof minutes, "%g", job.checkpoint_minutes);
  const std::string tasks = job.ranks_per_node > 0
                                ? directive("ntasks-per-node", std::to_string(job.ranks_per_node))
                                : "";
  const std::vector<std::pair<std::string, std::string>> fields{
      {"JOB_NAME", job.job_name},
      {"NODES", std::to_string(job.nodes)},
      {"TASKS_PER_NODE", tasks},
      {"RANKS_PER_NODE", std::to_string(job.ranks_per_node)},
      {"GPUS_PER_NODE", std::to_string(job.gpus_per_node)},
      {"SIGNAL_SECONDS", std::to_string(job.signal_seconds)},
      {"LOG_NAME", job.sweep.empty() ? "slurm-%j.out" : "slurm-%A_%a.out"},
      {"OPTIONAL_DIRECTIVES", optional_directives(job)},
      {"CHECKPOINT_MINUTES", minutes},
      {"SETTINGS", settings(job)},
  };
  std::string text = template_text;
  for (const auto& [field, value] : fields) replace_field(text, field, value);
  return text;
}

std::vector<std::vector<std::string>> read_sweep(const std::string& path) {
  toml::table doc;
  try {
    doc = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    throw InputError(path + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) +
                     ": " + std::string(e.description()));
  }
  const toml::table* sweep = doc["sweep"].as_table();
  if (!sweep || sweep->empty() || doc.size() != 1) {
    throw InputError(path + ": expected one [sweep] table of \"section.key\" = [values...]");
  }
  std::vector<std::pair<std::string, const toml::array*>> parameters;
  flatten_sweep(*sweep, "", path, parameters);
  std::vector<std::vector<std::string>> tasks{{}};
  for (const auto& [name, values] : parameters) {
    std::vector<std::vector<std::string>> next;
    for (const auto& task : tasks) {
      for (const toml::node& value : *values) {
        next.push_back(task);
        next.back().push_back(name + "=" + io::detail::spell_node(value));
      }
    }
    tasks = std::move(next);
  }
  if (tasks.size() > 10000) throw InputError(path + ": more than 10000 sweep tasks");
  return tasks;
}

std::string templates_dir(const std::string& program_path) {
  std::vector<std::string> candidates;
  if (const char* dir = std::getenv("CLOUDBURST_SLURM_TEMPLATES")) candidates.emplace_back(dir);
  candidates.push_back(
      (fs::path(program_path).parent_path().parent_path() / "share" / "cloudburst" / "slurm")
          .string());
  candidates.emplace_back(build::slurm_dir);
  for (const std::string& dir : candidates) {
    if (fs::exists(fs::path(dir) / "cpu.sbatch")) return dir;
  }
  throw InputError("no sbatch templates found (looked in " + candidates.front() +
                   "; set CLOUDBURST_SLURM_TEMPLATES to the scripts/slurm directory)");
}

}  // namespace cb::app
