// Typed case records (hil/record): every kind survives its JSON line unchanged, a field has one
// type whatever the case, reading is strict and names the field, the JUnit properties are the
// JSON line's own values, and a margin says how far from the limit a verdict was.
#include "hil/record/record_json.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "hil/record/headline.hpp"
#include "hil/record/record_file.hpp"

namespace hil::record {
namespace {

using ::testing::HasSubstr;

latency_distribution some_latency() {
  latency_distribution d;
  d.summary = {1000, 20.5, 30.1, 29.0, 35.2, 60.7, 90.3, 120.9};
  d.cdf = {{20.5, 0.001}, {29.0, 0.5}, {120.9, 1.0}};
  return d;
}

// A bidirectional TCP throughput record with two intervals.
throughput_figures some_throughput() {
  throughput_figures t;
  t.direction = "both";
  t.goodput_mbps = 1700.4;
  t.out_mbps = 850.2;
  t.in_mbps = 850.2;
  t.interval_mbps = {849.9, 850.3};
  return t;
}

// A netperf TCP_RR record that met its confidence interval, with its latency.
netperf_figures some_request_response() {
  netperf_figures rr;
  rr.test = "TCP_RR";
  rr.unit = "trans/s";
  rr.iterations = {25000.1, 25100.2, 24900.3};
  rr.average = 25000.2;
  rr.ci_half_width = 120.4;
  rr.ci_width_percent = 0.96;
  rr.confidence_met = true;
  rr.latency = some_latency();
  return rr;
}

// A netperf TCP_STREAM record of one iteration, with its intervals.
netperf_figures some_stream() {
  netperf_figures stream;
  stream.test = "TCP_STREAM";
  stream.unit = "Mbit/s";
  stream.iterations = {941.0};
  stream.average = 941.0;
  stream.interval_mbps = {{940.9, 941.1}};
  return stream;
}

// An RFC 2544 throughput search at 64-byte frames on a 10 Mbit/s link, with two trials.
frame_throughput_figures some_frame_throughput() {
  frame_throughput_figures frames;
  frames.frame_bytes = 64;
  frames.payload_bytes = 18;
  frames.line_mbps = 10;
  frames.media_max_fps = 14880.9;
  frames.throughput_fps = 14732.1;
  frames.resolution_percent = 1;
  frames.pacing = "bursts";
  frames.trials = {
      {14880.9, 14881.0, 14883, 14001, 1, false, false, true, std::nullopt, 12},
      {14732.1, 14733.0, 29466, 29466, 2, true, true, true, std::nullopt, std::nullopt}};
  return frames;
}

// The port the frame-loss, back-to-back and frame-latency records below were measured on.
frame_port some_port() { return {64, 18, 4, 10, 14880.9, "bursts"}; }

// An RFC 2544 frame-loss sweep that settled after three trials.
frame_loss_figures some_frame_loss() {
  frame_loss_figures loss;
  loss.port = some_port();
  loss.step_percent = 10;
  loss.floor_percent = 95;
  loss.settled = true;
  loss.trials = {
      {14880.9, 14881.0, 14881, 13400, 1, false, false, true, std::nullopt, std::nullopt},
      {13392.8, 13393.0, 13393, 13393, 1, true, false, true, std::nullopt, std::nullopt},
      {11904.7, 11905.0, 11905, 11905, 1, true, false, true, std::nullopt, std::nullopt}};
  return loss;
}

// An RFC 2544 back-to-back search of three bursts.
back_to_back_figures some_back_to_back() {
  back_to_back_figures burst;
  burst.port = some_port();
  burst.max_frames = 29762;
  burst.resolution_percent = 1;
  burst.longest = {1496, 1480};
  burst.average_frames = 1488;
  burst.spread_frames = 11.3;
  burst.bursts = {{29762, 0, 1600, 14880.2, false, true},
                  {1496, 0, 1496, 14879.9, true, true},
                  {29762, 1, 1590, 12000.0, false, false}};
  return burst;
}

// An RFC 2544 latency measurement at 95 % load, every probe answered.
frame_latency_figures some_frame_latency() {
  frame_latency_figures latency;
  latency.port = some_port();
  latency.load_percent = 95;
  latency.stream = {14136.9, 14137.0, 28274, 28274,        2,
                    true,    false,   true,  std::nullopt, std::nullopt};
  latency.probes_sent = 160;
  latency.probes_received = 160;
  latency.probe_interval_ms = 10;
  latency.round_trip = some_latency();
  return latency;
}

// A Y.1564 service test of two steps, the second failed on frame loss.
y1564_figures some_service() {
  y1564_figures service;
  service.port = {512, 466, 4, 10, 2349.6, "bursts"};
  service.cir_mbps = 8.66;
  service.ftd_limit_ms = 5;
  service.fdv_limit_ms = 5;
  service.probe_interval_ms = 10;
  y1564_step_record step;
  step.percent = 25;
  step.offered_mbps = 2.165;
  step.ir_mbps = 2.164;
  step.ftd_ms = 0.081;
  step.fdv_ms = 0.412;
  step.pass = true;
  step.stream = {428.5, 428.6, 857, 857, 2, true, false, true, std::nullopt, std::nullopt};
  step.probes_sent = 160;
  step.probes_received = 160;
  step.round_trip = some_latency();
  service.steps = {step, step};
  service.steps[1].percent = 100;
  service.steps[1].flr_percent = 1.25;
  service.steps[1].pass = false;
  return service;
}

// One record of every kind, as the cases fill them.
std::vector<figures> every_kind() {
  const frame_throughput_figures frames = some_frame_throughput();
  frame_throughput_figures limited = frames;
  limited.throughput_fps.reset();
  limited.tool_limited = "offered 14881 frames/s, sent 1275: the DUT's CPU or the tool";
  const frame_loss_figures loss = some_frame_loss();
  frame_loss_figures limited_loss = loss;
  limited_loss.settled = false;
  limited_loss.tool_limited = limited.tool_limited;
  return {
      std::monostate{},
      some_throughput(),
      retransmit_figures{{0, 3, 1}},
      udp_tier_figures{1500, 4, 1472, 42459, 42459, 0, 0.012},
      datagram_count_figures{100, 5, {{576, 548, 114036, 114051.1}, {1500, 1472, 42452, 42459.2}}},
      some_request_response(),
      some_stream(),
      latency_under_load_figures{some_latency(), some_latency(), 452.1, 460.3, 4},
      icmp_latency_figures{500, 500, some_latency()},
      link_figures{"eth0"},
      frames,
      limited,
      loss,
      limited_loss,
      some_back_to_back(),
      some_frame_latency(),
      some_service()};
}

case_record record_of(figures f) {
  case_record r;
  r.case_name = "Suite.Case";
  r.time = "2026-12-01T02:00:00Z";
  r.started_ms = 1764554400000;
  r.recorded_ms = 1764554405000;
  r.verdict = {true, "Check", "1 thing", ">= 0 things",           "",
               1.0,  0.0,     "things",  measure::bound::at_least};
  r.measured = std::move(f);
  return r;
}

TEST(RecordJson, EveryKindSurvivesItsJsonLine) {
  for (const auto& f : every_kind()) {
    const auto r = record_of(f);
    const auto j = to_json(r);
    EXPECT_EQ(j.at("schema"), schema_version);
    EXPECT_EQ(j.at("kind"), std::string(kind_name(f)));
    const auto back = from_json(nlohmann::json::parse(j.dump()));
    EXPECT_EQ(to_json(back), j) << kind_name(f);
    EXPECT_EQ(back.measured.index(), f.index()) << kind_name(f);
  }
}

// A JSON value's shape: its type, and for an array the shape of its first element
// ("array of array of number"); integers of either sign are one type.
std::string shape(const nlohmann::json& v) {
  if (v.is_array()) return v.empty() ? "array" : "array of " + shape(v.front());
  if (v.is_number_integer()) return "integer";
  return v.type_name();
}

// The point of typed records: a field name means one JSON shape in every record that has it.
TEST(RecordJson, AFieldHasOneShapeInEveryKind) {
  std::map<std::string, std::string> seen;
  for (const auto& f : every_kind()) {
    for (const auto& [key, value] : to_json(record_of(f)).at("figures").items()) {
      if (value.is_array() && value.empty()) continue;  // no element to compare
      const auto [it, inserted] = seen.emplace(key, shape(value));
      EXPECT_TRUE(inserted || it->second == shape(value))
          << key << " is " << shape(value) << " in " << kind_name(f) << ", " << it->second
          << " elsewhere";
    }
  }
}

TEST(RecordJson, MarginIsOnThePassingSideOfTheBound) {
  verdict_record v{true,     "TcpThroughput",         "", "", "", 941.5, 940.0,
                   "Mbit/s", measure::bound::at_least};
  EXPECT_DOUBLE_EQ(*v.margin(), 1.5);
  v.bound = measure::bound::at_most;  // e.g. a p99: 941.5 against at most 940 is 1.5 beyond
  EXPECT_DOUBLE_EQ(*v.margin(), -1.5);
  v.bound = measure::bound::none;
  EXPECT_FALSE(v.margin().has_value());
  EXPECT_EQ(to_json(record_of(std::monostate{})).at("margin"), 1.0);
}

TEST(RecordJson, ReadingNamesTheFieldOfTheWrongType) {
  auto j = to_json(record_of(udp_tier_figures{1500, 4, 1472, 42459, 42459, 0, 0.012}));
  j["figures"]["lost"] = "0";
  try {
    (void)from_json(j);
    FAIL() << "a string where the schema has an integer was read";
  } catch (const record_error& e) {
    EXPECT_STREQ(e.what(), "figures.lost: string, expected an integer");
  }
  j = to_json(record_of(std::monostate{}));
  j.erase("pass");
  EXPECT_THROW((void)from_json(j), record_error);
}

TEST(RecordJson, AFramePathsDirectionIsKeptDefaultedAndChecked) {
  frame_loss_figures loss;
  loss.port.frame_bytes = 64;
  loss.port.direction = "dut_receives";
  auto j = to_json(record_of(loss));
  EXPECT_EQ(j["figures"]["direction"], "dut_receives");
  EXPECT_EQ(std::get<frame_loss_figures>(from_json(j).measured).port.direction, "dut_receives");
  j["figures"].erase("direction");
  EXPECT_EQ(std::get<frame_loss_figures>(from_json(j).measured).port.direction, "dut_transmits")
      << "a record from before the paths: the DUT sent";
  j["figures"]["direction"] = "rx";
  try {
    (void)from_json(j);
    FAIL() << "an unknown direction was read";
  } catch (const record_error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("figures.direction: \"rx\" is neither"));
  }
}

TEST(RecordJson, AnUnknownKindOrANewerSchemaIsRefusedClearly) {
  auto j = to_json(record_of(std::monostate{}));
  j["kind"] = "rfc9999";
  EXPECT_THROW((void)from_json(j), record_error);
  j = to_json(record_of(std::monostate{}));
  j["schema"] = schema_version + 1;
  try {
    (void)from_json(j);
    FAIL() << "a newer schema was read";
  } catch (const record_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("a newer hilperf-report reads it"));
  }
}

TEST(RecordJson, ASkippedRecordKeepsItsReason) {
  case_record r;
  r.case_name = "MtuTier/UdpZeroLoss.NoDatagramLost/mtu9000";
  r.skipped = true;
  r.reason = "jumbo tier 9000 is off";
  const auto back = from_json(to_json(r));
  EXPECT_TRUE(back.skipped);
  EXPECT_EQ(back.reason, r.reason);
  EXPECT_FALSE(to_json(r).contains("pass")) << "a skip is not a verdict";
}

TEST(RecordJson, JUnitPropertiesAreTheJsonLinesValues) {
  auto r = record_of(udp_tier_figures{576, 4, 548, 114036, 114036, 0, 0.0123456});
  r.verdict.observed_value = 0.12345678;
  r.counters = counter_record{{{"rx_packets", 114036}, {"rx_dropped", 2}}, false, "rx_dropped +2"};
  r.cpu = cpu_record{23.44, 1.5, 21.94, 7.25, 31.04, 0.5};
  attempt_record a;
  a.cpu_pressure_percent = 31.04;
  a.other_cpu_percent = 80.4;
  r.attempts = {a};
  r.attempts_summary = "1 attempt, disturbed";
  const auto j = to_json(r);
  std::map<std::string, std::string> p;
  for (const auto& [key, value] : junit_properties(to_json(r))) p[key] = value;
  EXPECT_EQ(p.at("observed_value"), j.at("observed_value").dump());
  EXPECT_EQ(p.at("observed_value"), "0.123");
  EXPECT_EQ(p.at("jitter_ms"), j.at("figures").at("jitter_ms").dump());
  EXPECT_EQ(p.at("cpu_pressure_percent"), "31.0");
  EXPECT_EQ(p.at("attempt_count"), "1");
  EXPECT_EQ(p.at("counter_rx_dropped"), "2");
  EXPECT_EQ(p.at("counter_errors"), "rx_dropped +2");
  EXPECT_EQ(p.at("cpu_dut_percent"), "23.4");
  EXPECT_EQ(p.at("cpu_peer_percent"), "7.3");
  EXPECT_EQ(p.at("cpu_dut_thread_on_cpu_percent"), "31.0");
  EXPECT_EQ(p.at("cpu_dut_thread_waiting_percent"), "0.5");
  EXPECT_EQ(to_json(from_json(j)), j) << "the CPU survives the JSON line";
  EXPECT_EQ(p.at("kind"), "udp_tier");
  EXPECT_EQ(p.at("margin"), j.at("margin").dump());
}

TEST(RecordJson, HeadlineFiguresComeFromTheKind) {
  throughput_figures t;
  t.goodput_mbps = 941.5;
  auto r = record_of(t);
  const auto h = headline_figures(r);
  ASSERT_EQ(h.size(), 1U);
  EXPECT_EQ(h[0].name, "Suite.Case goodput");
  EXPECT_TRUE(h[0].higher_is_better);
  r.skipped = true;
  EXPECT_TRUE(headline_figures(r).empty());
  EXPECT_TRUE(headline_figures(record_of(udp_tier_figures{})).empty());
  frame_throughput_figures f;
  EXPECT_TRUE(headline_figures(record_of(f)).empty()) << "no rate found: nothing to trend";
  f.throughput_fps = 14880.9;
  const auto frames = headline_figures(record_of(f));
  ASSERT_EQ(frames.size(), 1U);
  EXPECT_EQ(frames[0].name, "Suite.Case zero-loss rate");
  EXPECT_EQ(frames[0].unit, "frames/s");
  EXPECT_TRUE(frames[0].higher_is_better);
}

// Schema 1, the untyped layout: kinds told from the keys, numbers as strings accepted.
TEST(RecordJson, SchemaOneRecordsAreRead) {
  std::istringstream in(
      R"({"case":"Direction/TcpThroughput.MeetsLimit/DutTransmits","pass":true,"check":"x",)"
      R"("figures":{"goodput_mbps":"941.2","interval_mbps":[940.8,941.3]}})"
      "\n"
      R"({"case":"ParallelStreams.SummedGoodput","pass":true,"figures":{"sum_mbps":1880.1,)"
      R"("streams":4}})"
      "\n"
      R"({"case":"IcmpLatency.NoLossAndPercentiles","pass":true,"figures":{"latency_us":)"
      R"({"count":500,"p99":80.0},"latency_cdf":[[20.0,0.5],[80.0,1.0]]}})"
      "\n");
  const auto records = parse_records(in, "inline");
  ASSERT_EQ(records.size(), 3U);
  EXPECT_EQ(records[0].schema, 1);
  EXPECT_DOUBLE_EQ(records[0].figures_as<throughput_figures>()->goodput_mbps, 941.2);
  EXPECT_EQ(records[1].figures_as<throughput_figures>()->streams, 4);
  EXPECT_EQ(headline_figures(records[1]).at(0).name, "ParallelStreams.SummedGoodput sum");
  const auto* icmp = records[2].figures_as<icmp_latency_figures>();
  ASSERT_NE(icmp, nullptr);
  EXPECT_DOUBLE_EQ(icmp->latency.summary.p99_us, 80.0);
  EXPECT_EQ(icmp->latency.cdf.size(), 2U);
}

// Found by fuzz/results_file.cpp: a schema 1 number beyond its field ("mtu":5e76) was cast from
// double (undefined behaviour, a UBSan report), and "attempt_count" grew the attempts to it.
TEST(RecordJson, SchemaOneNumbersBeyondTheirFieldAreRefusedNamingIt) {
  const auto refusal = [](const std::string& line) {
    std::istringstream in(line + "\n");
    try {
      (void)parse_records(in, "history.jsonl");
    } catch (const results_format_error& e) {
      return std::string(e.what());
    }
    return std::string("read");
  };
  EXPECT_THAT(refusal(R"({"case":"A.B","figures":{"mtu":5e76,"datagrams_sent":1}})"),
              HasSubstr("history.jsonl:1: mtu: 5e+76 does not fit the field"));
  EXPECT_THAT(refusal(R"({"case":"A.B","figures":{"goodput_mbps":1,"streams":"nan"}})"),
              HasSubstr("streams: nan does not fit the field"));
  EXPECT_THAT(refusal(R"({"case":"A.B","started_ms":-1e300})"), HasSubstr("started_ms"));
  EXPECT_THAT(refusal(R"({"case":"A.B","attempt_count":1e12})"),
              HasSubstr("attempt_count: 1000000000000 is more than any run takes"));
  EXPECT_EQ(refusal(R"({"case":"A.B","attempt_count":3,"figures":{"mtu":1500.9,)"
                    R"("datagrams_sent":1}})"),
            "read");
}

TEST(RecordJson, ALineOfTheWrongShapeNamesItsFileLineAndField) {
  std::istringstream in(R"({"schema":2,"case":"A.B","kind":"none","check":1})"
                        "\n");
  try {
    (void)parse_records(in, "results.jsonl");
    FAIL() << "a number where the schema has a string was read";
  } catch (const results_format_error& e) {
    EXPECT_EQ(e.line(), 1U);
    EXPECT_THAT(e.what(), HasSubstr("results.jsonl:1: check: number, expected a string"));
  }
}

}  // namespace
}  // namespace hil::record
