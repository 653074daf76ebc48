# The layers of hil/ as CMake targets, each linking only what it may use (docs/architecture.md
# "Layers"). A layer sees the headers of its own directory and of the layers it links, nothing
# else: its include root is a directory of its own in the build tree,
#
#   build/layers/<layer>/hil/<layer>  →  <source>/hil/<layer>   (a symbolic link)
#
# so `#include "hil/report/tables.hpp"` from a layer that does not link hil::report finds no
# file. Third-party headers that live in /usr/include (asio, nlohmann, toml++), which no include
# path can hide, are hidden by FORBID: a mirror of their file names whose every header is an
# #error, searched before the system directories.
#
#   hil_layer(<name> SOURCES … [DIRS <dir> …] [PUBLIC …] [PRIVATE …]
#             [FORBID asio|nlohmann|toml|sqlite|pqxx …] [HEADERS_FORBID …])
#     hil::<name>, a static library of the sources in hil/<dir> (DIRS, default <name>).
#     HEADERS_FORBID adds what the layer's public headers may not
#     use although its sources may (a PRIVATE dependency): the header check enforces it.
#     With HIL_FUZZ the library is left out of `all`: only the layers a fuzz target links are
#     built (fuzz/CMakeLists.txt).
#   hil_layer_header_check(<name>)
#     every public header of the layer compiled on its own, in a translation unit of its own,
#     with the layer's and the headers' FORBID mirrors: a header that needs an include it does
#     not make, or that uses what its layer may not, fails the build.

set(HIL_LAYER_ROOT ${CMAKE_BINARY_DIR}/layers)
set(HIL_FORBIDDEN_ROOT ${CMAKE_BINARY_DIR}/forbidden)

# The #error mirror of one third-party library: every header name under <dir>/<subdir>
# (and <dir>/<umbrella>), each an #error naming the library.
function(_hil_forbidden_mirror lib dir subdir umbrella)
  set(out ${HIL_FORBIDDEN_ROOT}/${lib})
  if(EXISTS ${out}/.complete)
    return()
  endif()
  set(text "#error \"${lib} is not among this target's dependencies (docs/architecture.md, Layers)\"\n")
  set(headers)
  if(subdir)
    file(GLOB_RECURSE headers RELATIVE ${dir} ${dir}/${subdir}/*)
  endif()
  if(umbrella)
    list(APPEND headers ${umbrella})
  endif()
  foreach(h IN LISTS headers)
    file(WRITE ${out}/${h} "${text}")
  endforeach()
  file(WRITE ${out}/.complete "")
endfunction()

_hil_forbidden_mirror(asio ${ASIO_INCLUDE_DIR} asio asio.hpp)
find_path(HIL_NLOHMANN_DIR nlohmann/json.hpp REQUIRED)
_hil_forbidden_mirror(nlohmann ${HIL_NLOHMANN_DIR} nlohmann "")
find_path(HIL_TOML_DIR toml++/toml.h REQUIRED)
_hil_forbidden_mirror(toml ${HIL_TOML_DIR} toml++ "")
# The history store's databases: only hil/history may include them.
find_path(HIL_SQLITE_DIR sqlite3.h REQUIRED)
_hil_forbidden_mirror(sqlite ${HIL_SQLITE_DIR} "" sqlite3.h)
find_path(HIL_PQXX_DIR pqxx/pqxx PATHS /usr/include)
if(HIL_PQXX_DIR)
  _hil_forbidden_mirror(pqxx ${HIL_PQXX_DIR} pqxx "")
endif()

function(hil_layer name)
  cmake_parse_arguments(L "" "" "SOURCES;DIRS;PUBLIC;PRIVATE;FORBID;HEADERS_FORBID" ${ARGN})
  if(NOT L_DIRS)
    set(L_DIRS ${name})
  endif()
  set(root ${HIL_LAYER_ROOT}/${name})
  file(MAKE_DIRECTORY ${root}/hil)
  foreach(dir IN LISTS L_DIRS)
    if(NOT EXISTS ${root}/hil/${dir})
      file(CREATE_LINK ${PROJECT_SOURCE_DIR}/hil/${dir} ${root}/hil/${dir} SYMBOLIC)
    endif()
  endforeach()
  add_library(hil_${name} ${L_SOURCES})
  if(HIL_FUZZ)
    set_target_properties(hil_${name} PROPERTIES EXCLUDE_FROM_ALL TRUE)
  endif()
  add_library(hil::${name} ALIAS hil_${name})
  target_include_directories(hil_${name} PUBLIC $<BUILD_INTERFACE:${root}>)
  foreach(lib IN LISTS L_FORBID)
    target_include_directories(hil_${name} BEFORE PRIVATE ${HIL_FORBIDDEN_ROOT}/${lib})
  endforeach()
  target_link_libraries(hil_${name} PUBLIC ${L_PUBLIC} PRIVATE ${L_PRIVATE})
  set_target_properties(hil_${name} PROPERTIES HIL_FORBID "${L_FORBID};${L_HEADERS_FORBID}"
                                               HIL_DIRS "${L_DIRS}")
  hil_policy(hil_${name})
  hil_unity(hil_${name})
endfunction()

function(hil_layer_header_check name)
  get_target_property(forbid hil_${name} HIL_FORBID)
  get_target_property(dirs hil_${name} HIL_DIRS)
  set(headers)
  foreach(dir IN LISTS dirs)
    file(GLOB found RELATIVE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/hil/${dir}/*.hpp)
    list(APPEND headers ${found})
  endforeach()
  set(sources)
  foreach(h IN LISTS headers)
    string(MAKE_C_IDENTIFIER ${h} id)
    set(tu ${CMAKE_BINARY_DIR}/header-check/${id}.cpp)
    set(text "#include \"${h}\"  // compiles on its own\n")
    set(old "")
    if(EXISTS ${tu})
      file(READ ${tu} old)
    endif()
    if(NOT old STREQUAL text)
      file(WRITE ${tu} "${text}")
    endif()
    list(APPEND sources ${tu})
  endforeach()
  add_library(hil_${name}_header_check OBJECT ${sources})
  target_link_libraries(hil_${name}_header_check PRIVATE hil::${name})
  foreach(lib IN LISTS forbid)
    if(lib)
      target_include_directories(hil_${name}_header_check BEFORE PRIVATE
                                 ${HIL_FORBIDDEN_ROOT}/${lib})
    endif()
  endforeach()
  hil_policy(hil_${name}_header_check)
endfunction()
