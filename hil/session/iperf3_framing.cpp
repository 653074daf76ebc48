#include "hil/session/iperf3_framing.hpp"

#include <random>

#include "hil/iperf3/extension.hpp"
#include "hil/iperf3/wire.hpp"

namespace hil::session {
namespace {

class iperf3_datagrams final : public traffic::datagram_format {
 public:
  explicit iperf3_datagrams(bool wide) : wide_(wide) {}

  [[nodiscard]] std::size_t header_size() const override { return iperf3::udp_header_size(wide_); }

  void write(std::span<std::uint8_t> datagram, const traffic::datagram_stamp& s) const override {
    iperf3::encode_udp_header(datagram, iperf3::udp_header{s.sec, s.usec, s.seq}, wide_);
  }

  [[nodiscard]] std::optional<traffic::datagram_stamp> read(
      std::span<const std::uint8_t> datagram) const override {
    const auto h = iperf3::decode_udp_header(datagram, wide_);
    if (!h) return std::nullopt;
    return traffic::datagram_stamp{h->sec, h->usec, h->seq};
  }

  [[nodiscard]] bool wide_sequence() const override { return wide_; }

 private:
  bool wide_;  // udp_counters_64bit
};

iperf3::data_kind kind_of(traffic::rr_connection purpose) {
  switch (purpose) {
    case traffic::rr_connection::rr:
      return iperf3::data_kind::rr;
    case traffic::rr_connection::crr:
      return iperf3::data_kind::crr;
    case traffic::rr_connection::sink:
      return iperf3::data_kind::sink;
    case traffic::rr_connection::source:
      break;
  }
  return iperf3::data_kind::source;
}

class extension_connection_hello final : public traffic::connection_hello {
 public:
  explicit extension_connection_hello(const iperf3::data_token& token) : token_(token) {}

  [[nodiscard]] std::size_t size() const override { return iperf3::hello_size; }

  [[nodiscard]] std::vector<std::uint8_t> encode(traffic::rr_connection purpose) const override {
    const auto hello = iperf3::encode_hello(kind_of(purpose), token_);
    return {hello.begin(), hello.end()};
  }

  [[nodiscard]] std::vector<std::uint8_t> datagram_prefix() const override {
    return {token_.begin(), token_.end()};
  }

  [[nodiscard]] std::optional<traffic::rr_connection> decode(
      std::span<const std::uint8_t> hello) const override {
    if (hello.size() != iperf3::hello_size) return std::nullopt;
    const auto kind = iperf3::decode_hello(
        std::span<const std::uint8_t, iperf3::hello_size>(hello.data(), iperf3::hello_size),
        token_);
    if (!kind) return std::nullopt;
    switch (*kind) {
      case iperf3::data_kind::rr:
        return traffic::rr_connection::rr;
      case iperf3::data_kind::crr:
        return traffic::rr_connection::crr;
      case iperf3::data_kind::sink:
        return traffic::rr_connection::sink;
      case iperf3::data_kind::source:
        return traffic::rr_connection::source;
    }
    return std::nullopt;
  }

 private:
  iperf3::data_token token_;
};

}  // namespace

std::shared_ptr<const traffic::datagram_format> udp_datagrams(bool counters_64bit) {
  return std::make_shared<const iperf3_datagrams>(counters_64bit);
}

std::shared_ptr<const traffic::connection_hello> extension_hello(const iperf3::data_token& token) {
  return std::make_shared<const extension_connection_hello>(token);
}

iperf3::data_token new_data_token() {
  std::random_device random;
  iperf3::data_token token{};
  for (auto& b : token) b = static_cast<std::uint8_t>(random());
  return token;
}

iperf3::exchange_results to_exchange(const traffic::run_totals& t) {
  iperf3::exchange_results r;
  r.cpu_util_total = t.cpu.total;
  r.cpu_util_user = t.cpu.user;
  r.cpu_util_system = t.cpu.system;
  r.sender_has_retransmits = t.tcp_sender ? 1 : (t.any_sender ? 0 : -1);
  r.congestion_used = t.congestion;
  for (const auto& s : t.streams) {
    iperf3::exchange_stream e;
    e.id = s.id;
    e.bytes = s.totals.bytes;
    e.retransmits = s.totals.retransmits;
    e.jitter_s = s.totals.jitter_s;
    // iperf3's counts run from the start; the omitted period's go beside them (3.14+).
    e.errors = s.totals.errors + s.totals.omitted_errors;
    e.packets = s.totals.packets + s.totals.omitted_packets;
    e.omitted_errors = s.totals.omitted_errors;
    e.omitted_packets = s.totals.omitted_packets;
    e.start_time = 0;
    e.end_time = s.totals.seconds;
    r.streams.push_back(e);
  }
  return r;
}

traffic::run_totals from_exchange(const iperf3::exchange_results& r) {
  traffic::run_totals t;
  t.cpu = {r.cpu_util_total, r.cpu_util_user, r.cpu_util_system};
  t.tcp_sender = r.sender_has_retransmits == 1;
  t.any_sender = r.sender_has_retransmits >= 0;
  t.congestion = r.congestion_used;
  for (const auto& e : r.streams) {
    measure::stream_totals s;
    s.bytes = e.bytes;
    s.seconds = e.end_time - e.start_time;
    s.retransmits = e.retransmits;
    s.jitter_s = e.jitter_s;
    s.omitted_known = e.omitted_packets.has_value();
    s.omitted_errors = e.omitted_errors.value_or(0);
    s.omitted_packets = e.omitted_packets.value_or(0);
    s.errors = e.errors - s.omitted_errors;
    s.packets = e.packets - s.omitted_packets;
    t.streams.push_back({e.id, s});
  }
  return t;
}

}  // namespace hil::session
