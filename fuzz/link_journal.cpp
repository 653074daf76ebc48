// fuzz_link_journal: a link journal record as the next run reads it after a crash
// (hil/link/link_journal.hpp parse_journal_record): a file left in /run/hilperf by a process that
// died mid-write, by another version, or by hand.
//
// Expected outcome: std::invalid_argument saying what is wrong; link_journal::read() turns it into
// "link journal … is damaged". Findings: any other exception, a crash.
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "fuzz_support.hpp"
#include "hil/link/link_journal.hpp"

// One input: a journal file's text.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto r = hil::link::parse_journal_record(hil::fuzz::as_text(data, size));
    for (const auto& c : r.changes) (void)hil::link::setting_name(c.setting);
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
