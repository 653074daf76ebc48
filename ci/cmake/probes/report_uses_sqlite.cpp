// A forbidden include on purpose: only hil::history uses the database libraries
// (lint.layers.report_uses_sqlite checks that this file fails to compile).
#include <sqlite3.h>

#include "hil/report/history.hpp"
