# The XDP programs (hil/xdp/bpf/*.bpf.c): BPF C compiled at build time by clang (-target bpf -O2
# -g, so the objects carry the BTF libxdp's dispatcher and spin-locked maps need) against Debian's
# libbpf headers, each object embedded in hil::xdp as a byte array (ci/cmake/embed_bytes.cmake)
# and loaded through libxdp at run time: nothing to install or find beside the programs.
#
# Optional: without clang, libbpf or libxdp — and for HIL_STATIC (Debian has no static libxdp) and
# HIL_FUZZ — hil::xdp is built without the programs and reports XDP unavailable, saying what was
# missing (hil/xdp/xdp_attach.hpp, xdp_support()).
#
#   HIL_XDP_ENABLED  ON when the programs are built
#   hil_bpf_objects(<target> <name>…)
#     compiles hil/xdp/bpf/<name>.bpf.c and adds the generated <name>_object.cpp (the array
#     hil::xdp::detail::<name>_object) to <target>.
option(HIL_XDP "Build the XDP frame counter and port emulation (clang, libbpf, libxdp)" ON)
set(HIL_XDP_ENABLED OFF)
set(HIL_XDP_MISSING "")
if(NOT HIL_XDP)
  set(HIL_XDP_MISSING "HIL_XDP=OFF")
elseif(HIL_STATIC OR HIL_FUZZ)
  set(HIL_XDP_MISSING "a static or fuzz build")
else()
  find_program(HIL_BPF_CLANG NAMES clang clang-14)
  pkg_check_modules(LIBBPF IMPORTED_TARGET libbpf)
  pkg_check_modules(LIBXDP IMPORTED_TARGET libxdp)
  set(_missing)
  if(NOT HIL_BPF_CLANG)
    list(APPEND _missing "clang")
  endif()
  if(NOT LIBBPF_FOUND)
    list(APPEND _missing "libbpf-dev")
  endif()
  if(NOT LIBXDP_FOUND)
    list(APPEND _missing "libxdp-dev")
  endif()
  if(_missing)
    list(JOIN _missing ", " HIL_XDP_MISSING)
    message(STATUS "XDP programs: off (missing ${HIL_XDP_MISSING})")
  else()
    set(HIL_XDP_ENABLED ON)
    message(STATUS "XDP programs: ${HIL_BPF_CLANG}, libbpf ${LIBBPF_VERSION}, libxdp ${LIBXDP_VERSION}")
  endif()
endif()

function(hil_bpf_objects target)
  set(dir ${CMAKE_BINARY_DIR}/bpf)
  file(MAKE_DIRECTORY ${dir})
  # -target bpf searches no multiarch directory: <asm/types.h> is under /usr/include/<triplet>.
  set(arch_include)
  if(CMAKE_LIBRARY_ARCHITECTURE)
    set(arch_include -idirafter /usr/include/${CMAKE_LIBRARY_ARCHITECTURE})
  endif()
  set(lib_includes)
  foreach(inc IN LISTS LIBBPF_INCLUDE_DIRS)
    list(APPEND lib_includes -I${inc})
  endforeach()
  foreach(name IN LISTS ARGN)
    set(src ${PROJECT_SOURCE_DIR}/hil/xdp/bpf/${name}.bpf.c)
    set(obj ${dir}/${name}.bpf.o)
    set(cpp ${dir}/${name}_object.cpp)
    add_custom_command(
      OUTPUT ${obj}
      COMMAND ${HIL_BPF_CLANG} -target bpf -O2 -g -Wall -Werror -I${PROJECT_SOURCE_DIR}
              ${lib_includes} ${arch_include} -MD -MF ${obj}.d -c ${src} -o ${obj}
      DEPENDS ${src}
      DEPFILE ${obj}.d
      COMMENT "clang -target bpf ${name}.bpf.c"
      VERBATIM)
    add_custom_command(
      OUTPUT ${cpp}
      COMMAND ${CMAKE_COMMAND} -DINPUT=${obj} -DOUTPUT=${cpp} -DSYMBOL=${name}_object
              -P ${PROJECT_SOURCE_DIR}/ci/cmake/embed_bytes.cmake
      DEPENDS ${obj} ${PROJECT_SOURCE_DIR}/ci/cmake/embed_bytes.cmake
      COMMENT "embedding ${name}.bpf.o"
      VERBATIM)
    set_source_files_properties(${cpp} PROPERTIES GENERATED ON SKIP_UNITY_BUILD_INCLUSION ON)
    target_sources(${target} PRIVATE ${cpp})
  endforeach()
endfunction()
