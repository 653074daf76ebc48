// The effective profile as TOML, printed at the start of every run so a result can be reproduced
// from its log. Every key of the key table is written, defaults included, table by table in the
// key table's order; parse_profile(echo(p)) yields p again.
#include <string>

#include "hil/profile/detail/key_table.hpp"
#include "hil/profile/profile.hpp"

namespace hil::profile {

std::string echo(const profile& p) {
  // The source is a comment; a newline in it must not end the comment early.
  std::string source = p.source;
  for (char& c : source) c = (c == '\n' || c == '\r') ? ' ' : c;
  std::string out = "# effective profile from " + source + "\n";
  for (const detail::table_def& table : detail::key_tables()) {
    out += "\n[" + std::string(table.name) + "]\n";
    table.write(p, out);
  }
  return out;
}

}  // namespace hil::profile
