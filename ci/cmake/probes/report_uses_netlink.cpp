// A forbidden include on purpose: only hil::link uses libnl (lint.layers.report_uses_netlink
// checks that this file fails to compile).
#include <netlink/netlink.h>

#include "hil/report/tables.hpp"
