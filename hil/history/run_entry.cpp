#include "hil/history/run_entry.hpp"

#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hil/record/headline.hpp"

namespace hil::history {
namespace {

std::string env_or(const char* name, std::string fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::string(v) : fallback;
}

std::string host_name() {
  std::array<char, 256> name{};
  if (::gethostname(name.data(), name.size() - 1) != 0) return "unknown";
  return name.data();
}

}  // namespace

std::vector<figure_row> figure_rows(const std::vector<record::case_record>& records) {
  // report::run_metrics's figures, each paired with the record it came from: the same walk.
  const auto metrics = report::run_metrics(records);
  std::vector<figure_row> rows;
  rows.reserve(metrics.size());
  std::size_t next = 0;
  for (const auto& r : records) {
    const auto n = record::headline_figures(r).size();
    for (std::size_t i = 0; i < n && next < metrics.size(); ++i)
      rows.push_back({r.case_name, metrics[next++], r.attempt_count()});
  }
  for (; next < metrics.size(); ++next)  // "extra attempts": the run's own, of no one case
    rows.push_back({"", metrics[next], 1});
  return rows;
}

std::vector<report::metric_value> metrics_of(const run_entry& run) {
  std::vector<report::metric_value> out;
  out.reserve(run.figures.size());
  for (const auto& f : run.figures) out.push_back(f.figure);
  return out;
}

std::string started_now() {
  const auto now = std::chrono::system_clock::now();
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch());
  const auto seconds = std::chrono::floor<std::chrono::seconds>(us);
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:06d}Z",
                     fmt::gmtime(std::chrono::system_clock::to_time_t(
                         std::chrono::system_clock::time_point(seconds))),
                     (us - seconds).count());
}

std::string id_of_started(std::string_view s) {
  // "2026-11-30T02:00:00.000000Z" → "20261130T020000Z"
  if (s.size() < 19) return std::string(s);
  return fmt::format("{}{}{}T{}{}{}Z", s.substr(0, 4), s.substr(5, 2), s.substr(8, 2),
                     s.substr(11, 2), s.substr(14, 2), s.substr(17, 2));
}

std::string started_of_id(std::string_view id) {
  const bool shaped = id.size() == 16 && id[8] == 'T' && id[15] == 'Z' &&
                      id.find_first_not_of("0123456789") == 8 &&
                      id.substr(9, 6).find_first_not_of("0123456789") == std::string_view::npos;
  if (!shaped) return {};
  return fmt::format("{}-{}-{}T{}:{}:{}.000000Z", id.substr(0, 4), id.substr(4, 2), id.substr(6, 2),
                     id.substr(9, 2), id.substr(11, 2), id.substr(13, 2));
}

run_entry new_run(const std::vector<record::case_record>& records, std::string board) {
  run_entry run;
  run.board = std::move(board);
  run.started = started_now();
  run.runner = env_or("HILPERF_RUNNER", host_name());
  run.software_version = env_or("HILPERF_SOFTWARE_VERSION", "");
  // The key tells runs apart that start in the same second on two runners (or on one).
  std::random_device random;
  run.key = fmt::format("{}-{}-{:08x}", id_of_started(run.started), run.runner, random());
  for (const auto& r : records) {
    if (r.skipped) {
      ++run.skipped;
    } else if (r.verdict.pass) {
      ++run.passed;
    } else {
      ++run.failed;
    }
  }
  run.figures = figure_rows(records);
  return run;
}

std::string file_hash(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a offset basis
  for (std::istreambuf_iterator<char> it(in), end; it != end; ++it) {
    hash ^= static_cast<unsigned char>(*it);
    hash *= 0x100000001b3ULL;  // FNV prime
  }
  return fmt::format("{:016x}", hash);
}

nlohmann::json to_json(const run_entry& run) {
  nlohmann::json figures = nlohmann::json::array();
  for (const auto& f : run.figures) {
    figures.push_back({{"case", f.case_name},
                       {"metric", f.figure.name},
                       {"unit", f.figure.unit},
                       {"value", f.figure.value},
                       {"higher_is_better", f.figure.higher_is_better},
                       {"judged", f.figure.judged},
                       {"attempts", f.attempts}});
  }
  return {{"board", run.board},
          {"key", run.key},
          {"started", run.started},
          {"runner", run.runner},
          {"profile_hash", run.profile_hash},
          {"software_version", run.software_version},
          {"duration_set", run.duration_set},
          {"passed", run.passed},
          {"failed", run.failed},
          {"skipped", run.skipped},
          {"figures", figures}};
}

run_entry run_from_json(const nlohmann::json& j) {
  try {
    run_entry run;
    run.board = j.at("board").get<std::string>();
    run.key = j.at("key").get<std::string>();
    run.started = j.at("started").get<std::string>();
    run.runner = j.at("runner").get<std::string>();
    run.profile_hash = j.at("profile_hash").get<std::string>();
    run.software_version = j.at("software_version").get<std::string>();
    run.duration_set = j.at("duration_set").get<std::string>();
    run.passed = j.at("passed").get<int>();
    run.failed = j.at("failed").get<int>();
    run.skipped = j.at("skipped").get<int>();
    for (const auto& f : j.at("figures")) {
      run.figures.push_back({f.at("case").get<std::string>(),
                             {f.at("metric").get<std::string>(), f.at("unit").get<std::string>(),
                              f.at("value").get<double>(), f.at("higher_is_better").get<bool>(),
                              f.at("judged").get<bool>()},
                             f.at("attempts").get<int>()});
    }
    return run;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("not a kept run: ") + e.what());
  }
}

}  // namespace hil::history
