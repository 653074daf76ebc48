// A record in the words the report tables use. The records themselves, and the one reader of the
// results file, are in hil/record (record_file.hpp); reports only serialise them
// (docs/code-style.md rule 9).
#pragma once

#include <string>

#include "hil/record/record_file.hpp"

namespace hil::report {

// The verdict in one word for tables: "pass", "FAIL" or "skipped", with the attempts it took when
// more than one ("pass, attempt 2").
[[nodiscard]] std::string verdict_word(const record::case_record& r);

// What the measured column shows: the observed value, or why the case was skipped; with the
// attempts' history appended when the case needed more than one ("; passed on attempt 2; …").
[[nodiscard]] std::string measured_text(const record::case_record& r);

}  // namespace hil::report
