// docs/ci.md's recipes cannot rot: the GitHub Actions and GitLab CI recipe
// of each job must run the same etbench commands, every variable those
// commands use must be declared by the job, and the commands themselves
// (the `run:` of each GitHub step named "etbench: …") are run with bash, as
// written, against a real PostgreSQL server and this build's etbench. Only
// the job variables are set to local values (a small suite, a short budget,
// this build's programs, the test database).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "postgres_server.h"
#include "support/test_support.h"

namespace etbench {
namespace {

namespace fs = std::filesystem;

struct Job {
  std::string name;
  std::map<std::string, std::string> env;  // GitHub env / GitLab variables
  std::vector<std::string> commands;       // one per line
  std::vector<std::string> matrix_shards;  // GitHub strategy.matrix.shard
};

struct Recipe {
  std::vector<Job> github, gitlab;
};

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t") != std::string::npos) lines.push_back(line);
  }
  return lines;
}

std::map<std::string, std::string> StringMap(const YAML::Node& node) {
  std::map<std::string, std::string> m;
  if (node && node.IsMap()) {
    for (const auto& kv : node) m[kv.first.as<std::string>()] = kv.second.as<std::string>();
  }
  return m;
}

// The ```yaml blocks of docs/ci.md, in order.
std::vector<YAML::Node> YamlBlocks(const std::string& markdown) {
  std::vector<YAML::Node> blocks;
  std::istringstream in(markdown);
  std::string line, block;
  bool inside = false;
  while (std::getline(in, line)) {
    if (!inside && line == "```yaml") {
      inside = true;
      block.clear();
    } else if (inside && line == "```") {
      inside = false;
      blocks.push_back(YAML::Load(block));
    } else if (inside) {
      block += line + "\n";
    }
  }
  return blocks;
}

std::vector<Job> GithubJobs(const YAML::Node& workflow) {
  std::vector<Job> jobs;
  for (const auto& kv : workflow["jobs"]) {
    Job job;
    job.name = kv.first.as<std::string>();
    job.env = StringMap(kv.second["env"]);
    if (const YAML::Node strategy = kv.second["strategy"]) {
      for (const auto& s : strategy["matrix"]["shard"]) job.matrix_shards.push_back(s.as<std::string>());
    }
    for (const auto& step : kv.second["steps"]) {
      if (!step["name"] || step["name"].as<std::string>().rfind("etbench: ", 0) != 0) continue;
      for (std::string& l : Lines(step["run"].as<std::string>())) job.commands.push_back(l);
    }
    jobs.push_back(std::move(job));
  }
  return jobs;
}

std::vector<Job> GitlabJobs(const YAML::Node& pipeline) {
  std::vector<Job> jobs;
  for (const auto& kv : pipeline) {
    if (!kv.second.IsMap() || !kv.second["script"]) continue;
    Job job;
    job.name = kv.first.as<std::string>();
    job.env = StringMap(kv.second["variables"]);
    for (const auto& l : kv.second["script"]) job.commands.push_back(l.as<std::string>());
    jobs.push_back(std::move(job));
  }
  return jobs;
}

// docs/ci.md's two recipes: the gate, then the nightly run (each a GitHub
// workflow followed by its GitLab pipeline).
std::vector<Recipe> ReadRecipes() {
  const std::string text = testing::ReadTextFile(testing::SourcePath("docs/ci.md"));
  std::vector<Recipe> recipes;
  for (const YAML::Node& block : YamlBlocks(text)) {
    if (!block.IsMap()) continue;  // a fragment (the v3 upload steps)
    if (block["jobs"]) {
      recipes.push_back({GithubJobs(block), {}});
    } else if (!recipes.empty() && recipes.back().gitlab.empty()) {
      recipes.back().gitlab = GitlabJobs(block);
    }
  }
  return recipes;
}

// $NAME and ${NAME} references in `commands`.
std::set<std::string> VariablesUsed(const std::vector<std::string>& commands) {
  std::set<std::string> names;
  const std::regex var(R"(\$\{?([A-Za-z_][A-Za-z0-9_]*))");
  for (const std::string& c : commands) {
    for (std::sregex_iterator it(c.begin(), c.end(), var), end; it != end; ++it) {
      names.insert((*it)[1].str());
    }
  }
  return names;
}

std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs `commands` with bash -e in `dir` with `env` exported; the exit code.
int RunJob(const std::string& dir, const std::map<std::string, std::string>& env,
           const std::vector<std::string>& commands, const std::string& log) {
  std::string script = "set -euo pipefail\ncd " + ShellQuote(dir) + "\n";
  for (const auto& [k, v] : env) script += "export " + k + "=" + ShellQuote(v) + "\n";
  for (const std::string& c : commands) script += c + "\n";
  const std::string path = dir + "/job.sh";
  testing::WriteTextFile(path, script);
  const int status = std::system(("bash " + ShellQuote(path) + " > " + ShellQuote(log) + " 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The job's variables with the local values: every GitHub expression
// (${{ … }}) must be one the test provides.
std::map<std::string, std::string> LocalEnv(const Job& job,
                                            const std::map<std::string, std::string>& local) {
  std::map<std::string, std::string> env = job.env;
  for (auto& [k, v] : env) {
    auto it = local.find(k);
    if (it != local.end()) {
      v = it->second;
    } else {
      EXPECT_EQ(v.find("${{"), std::string::npos) << job.name << ": no local value for " << k;
    }
  }
  for (const auto& [k, v] : local) env.emplace(k, v);
  return env;
}

TEST(CiRecipesTest, GithubAndGitlabRecipesRunTheSameDeclaredCommands) {
  const std::vector<Recipe> recipes = ReadRecipes();
  ASSERT_EQ(recipes.size(), 2u) << "docs/ci.md: the gate and the nightly recipe";
  for (const Recipe& recipe : recipes) {
    ASSERT_EQ(recipe.github.size(), recipe.gitlab.size());
    for (std::size_t i = 0; i < recipe.github.size(); ++i) {
      const Job& gh = recipe.github[i];
      const Job& gl = recipe.gitlab[i];
      EXPECT_FALSE(gh.commands.empty()) << gh.name << " has no 'etbench: …' step";
      EXPECT_EQ(gh.commands, gl.commands) << gh.name << " vs " << gl.name;
      for (const std::string& v : VariablesUsed(gh.commands)) {
        EXPECT_TRUE(gh.env.count(v)) << gh.name << " uses $" << v << " but does not set it";
        // GitLab takes the history's URI from a masked project variable.
        EXPECT_TRUE(gl.env.count(v) || v == "ETBENCH_HISTORY")
            << gl.name << " uses $" << v << " but does not set it";
      }
    }
  }
}

class CiRecipesRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!server_.error().empty()) GTEST_SKIP() << server_.error();
    history_ = server_.CreateDatabase("ci_recipes");
    ASSERT_FALSE(history_.empty());
    // The small local suite: two built-in models through the command runner
    // (two shards, one model each), few executions.
    const std::string models = testing::SourcePath("configs/models/");
    suite_ = dir_.File("suite.yaml");
    testing::WriteTextFile(
        suite_, "suite: ci_recipe\nrunner: command\nwarmup: 1\niterations: 5\nrepetitions: 3\n"
                "command:\n  argv: [" + std::string(ETBENCH_ET_RUNNER_BINARY_PATH) +
                    ", --model_path, \"{model}\", --num_executions, \"{iterations}\", "
                    "--etdump_path, \"{etdump}\"]\n"
                    "models:\n  - " + models + "toy_cnn.yaml\n  - " + models + "mlp.yaml\n"
                    "output_dir: results/{suite}\n");
    local_ = {{"ETBENCH", ETBENCH_BINARY_PATH},
              {"SUITE", suite_},
              {"BUDGET_S", "40"},
              {"BASE_PROGRAM", ETBENCH_ET_RUNNER_BINARY_PATH},
              {"HEAD_PROGRAM", ETBENCH_ET_RUNNER_BINARY_PATH},
              {"ETBENCH_HISTORY", history_},
              {"ETBENCH_DEVICE", "ci-recipe-test"},
              {"ETBENCH_COMMIT", "c0ffee"},
              {"ETBENCH_BRANCH", "main"}};
  }

  std::string Log(const std::string& name) const { return testing::ReadTextFile(dir_.File(name)); }

  testing::PostgresServer server_;
  testing::TempDir dir_;
  std::string history_, suite_;
  std::map<std::string, std::string> local_;
};

TEST_F(CiRecipesRunTest, TheNightlyRecipeShardsMergesRecordsAndDetects) {
  const std::vector<Recipe> recipes = ReadRecipes();
  ASSERT_EQ(recipes.size(), 2u);
  const std::vector<Job>& jobs = recipes[1].github;
  ASSERT_EQ(jobs.size(), 2u);
  ASSERT_EQ(jobs[0].matrix_shards.size(), 2u);
  for (const std::string& shard : jobs[0].matrix_shards) {
    std::map<std::string, std::string> local = local_;
    local["SHARD"] = shard;
    const int exit = RunJob(dir_.path(), LocalEnv(jobs[0], local), jobs[0].commands,
                            dir_.File("shard" + shard + ".log"));
    ASSERT_EQ(exit, 0) << Log("shard" + shard + ".log");
  }
  const int exit = RunJob(dir_.path(), LocalEnv(jobs[1], local_), jobs[1].commands,
                          dir_.File("history.log"));
  ASSERT_EQ(exit, 0) << Log("history.log");
  for (const char* report : {"night.md", "history.html", "change-points.md"}) {
    EXPECT_GT(fs::file_size(dir_.File(std::string("etbench-report/") + report)), 0u) << report;
  }
  // The night is in the PostgreSQL history, with both shards' models.
  const int listed = RunJob(dir_.path(), local_,
                            {"\"$ETBENCH\" history list --history \"$ETBENCH_HISTORY\" --format json"},
                            dir_.File("list.log"));
  ASSERT_EQ(listed, 0) << Log("list.log");
  EXPECT_THAT(Log("list.log"), ::testing::HasSubstr("ci_recipe"));
  EXPECT_THAT(Log("list.log"), ::testing::HasSubstr("c0ffee"));
}

TEST_F(CiRecipesRunTest, ThePullRequestGateRecipeGatesTwoBuilds) {
  const std::vector<Recipe> recipes = ReadRecipes();
  ASSERT_EQ(recipes.size(), 2u);
  const Job& gate = recipes[0].github.at(0);
  const int exit = RunJob(dir_.path(), LocalEnv(gate, local_), gate.commands, dir_.File("gate.log"));
  // Both sides are this build: no regression is expected, but an A/A
  // comparison may still (rarely) flag one; 2 would be a broken recipe.
  EXPECT_TRUE(exit == 0 || exit == 1) << exit << "\n" << Log("gate.log");
  EXPECT_GT(fs::file_size(dir_.File("etbench-report/gate.md")), 0u);
  EXPECT_GT(fs::file_size(dir_.File("etbench-report/gate.xml")), 0u);
}

}  // namespace
}  // namespace etbench
