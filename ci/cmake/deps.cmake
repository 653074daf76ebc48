# Dependencies, all from Debian bookworm packages (installed by ci/install-deps).
find_package(PkgConfig REQUIRED)
if(HIL_STATIC)
  # The archives (libnl-3.a, libnl-route-3.a): pkg-config's imported target takes whatever
  # find_library finds, and -static cannot link a .so.
  set(CMAKE_FIND_LIBRARY_SUFFIXES .a)
endif()
pkg_check_modules(LIBNL REQUIRED IMPORTED_TARGET libnl-3.0 libnl-route-3.0)
# The AF_XDP frame path (hil/frame/af_xdp_tx.cpp): libxdp's xsk API and libbpf, optional. Without
# them (a static build: Debian ships no libxdp.a for the cross targets) the path reports itself
# unavailable and the frame paths fall back to AF_PACKET.
if(NOT HIL_STATIC)
  pkg_check_modules(LIBXDP IMPORTED_TARGET libxdp libbpf)
endif()
find_package(fmt 9 REQUIRED)
find_package(nlohmann_json 3.11 REQUIRED)
find_package(CLI11 2.1 REQUIRED)
find_package(tomlplusplus 3.3 REQUIRED)
find_package(GTest 1.12 REQUIRED)
find_package(Threads REQUIRED)
# iperf3's RSA authentication (hil/iperf3/auth.cpp): libcrypto only, never libssl's TLS.
if(HIL_STATIC)
  set(OPENSSL_USE_STATIC_LIBS TRUE)
endif()
find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)
# RFC 2217 consoles (hil/console/detail/rfc2217_gensio.cpp): libgensio's telnet client. Not with
# HIL_STATIC: Debian ships no static archives of what libgensio links (Kerberos, through libtirpc),
# so a static build's consoles are serial devices and raw TCP, and rfc2217:// fails saying so.
# hil::gensio links libgensio and libgensioosh only: libgensio.pc's Libs also name -lnsl -lwrap
# -ldl -lpthread, which a dynamic link does not need (libgensio.so records its own) and whose -dev
# packages Debian's libgensio-dev does not depend on (no libwrap.so without libwrap0-dev).
if(NOT HIL_STATIC)
  pkg_check_modules(GENSIO REQUIRED libgensio>=2.6)
  find_library(HIL_GENSIO_LIBRARY gensio HINTS ${GENSIO_LIBRARY_DIRS} REQUIRED)
  find_library(HIL_GENSIOOSH_LIBRARY gensioosh HINTS ${GENSIO_LIBRARY_DIRS} REQUIRED)
  add_library(hil_gensio INTERFACE)
  add_library(hil::gensio ALIAS hil_gensio)
  target_include_directories(hil_gensio SYSTEM INTERFACE ${GENSIO_INCLUDE_DIRS})
  target_link_libraries(hil_gensio INTERFACE ${HIL_GENSIO_LIBRARY} ${HIL_GENSIOOSH_LIBRARY})
endif()
# hil::fmt and hil::toml: fmt and toml++ as Debian ships them (shared libraries), or header-only
# with HIL_STATIC: Debian has no libfmt.a or libtomlplusplus.a.
add_library(hil_fmt INTERFACE)
add_library(hil::fmt ALIAS hil_fmt)
add_library(hil_toml INTERFACE)
add_library(hil::toml ALIAS hil_toml)
if(HIL_STATIC)
  target_link_libraries(hil_fmt INTERFACE fmt::fmt-header-only)
  get_target_property(_hil_toml_include tomlplusplus::tomlplusplus INTERFACE_INCLUDE_DIRECTORIES)
  target_include_directories(hil_toml SYSTEM INTERFACE ${_hil_toml_include})
  target_compile_definitions(hil_toml INTERFACE TOML_HEADER_ONLY=1)
else()
  target_link_libraries(hil_fmt INTERFACE fmt::fmt)
  target_link_libraries(hil_toml INTERFACE tomlplusplus::tomlplusplus)
endif()
# The history store (hil/history): SQLite always, libpqxx (and libpq under it) with HIL_POSTGRESQL.
find_package(SQLite3 3.35 REQUIRED)  # 3.35: INSERT … RETURNING
if(HIL_POSTGRESQL)
  pkg_check_modules(PQXX REQUIRED IMPORTED_TARGET libpqxx>=6.4)
  pkg_check_modules(PQ REQUIRED IMPORTED_TARGET libpq)  # a broken connection's last words
endif()
find_path(ASIO_INCLUDE_DIR asio.hpp REQUIRED)
add_library(hil_asio INTERFACE)
add_library(hil::asio ALIAS hil_asio)
target_include_directories(hil_asio SYSTEM INTERFACE ${ASIO_INCLUDE_DIR})
target_compile_definitions(hil_asio INTERFACE ASIO_STANDALONE ASIO_NO_DEPRECATED)
