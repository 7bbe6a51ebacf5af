# Run by `cmake --install` and by CPack (install(SCRIPT), cmake/pp_install.cmake): writes the files
# that name install paths for the prefix this install uses, CMAKE_INSTALL_PREFIX as the install sees
# it, and installs them: the systemd unit, proofpipe_c2.pc and the configuration. The configuration
# directory follows GNUInstallDirs' rule for SYSCONFDIR: /etc for the prefixes / and /usr (the Debian
# package), <prefix>/etc otherwise. The configuration is installed only where none is (an operator's
# edited file survives a reinstall; the Debian package's conffile handling does the same under dpkg).
foreach(v PP_SOURCE_DIR PP_STAGE_DIR PP_VERSION PP_BINDIR PP_LIBDIR PP_INCLUDEDIR PP_DOCDIR PP_C2_LIBS_PRIVATE)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "pp_install_configured.cmake: ${v} is not set (run through cmake --install)")
  endif()
endforeach()

set(prefix "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/+$" "" prefix "${prefix}")
if(prefix STREQUAL "" OR prefix STREQUAL "/usr")
  set(PP_SYSCONFDIR "/etc")
else()
  set(PP_SYSCONFDIR "${prefix}/etc")
endif()
if(prefix STREQUAL "")
  set(prefix "/")
endif()
cmake_path(APPEND prefix "${PP_BINDIR}" OUTPUT_VARIABLE PP_FULL_BINDIR)
cmake_path(APPEND prefix "${PP_DOCDIR}" OUTPUT_VARIABLE PP_FULL_DOCDIR)
set(PP_PREFIX "${prefix}")

# One staging folder per destination: an install and a package built at once (the ctest runs of
# tests/packaging) must not copy each other's files.
string(MD5 stage_key "$ENV{DESTDIR}|${CMAKE_INSTALL_PREFIX}")
set(stage "${PP_STAGE_DIR}/${stage_key}")
file(MAKE_DIRECTORY "${stage}")
configure_file("${PP_SOURCE_DIR}/packaging/systemd/proofpipe.service.in" "${stage}/proofpipe.service" @ONLY)
configure_file("${PP_SOURCE_DIR}/packaging/pkgconfig/proofpipe_c2.pc.in" "${stage}/proofpipe_c2.pc" @ONLY)
file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/lib/systemd/system" TYPE FILE FILES "${stage}/proofpipe.service")
file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/${PP_LIBDIR}/pkgconfig" TYPE FILE FILES "${stage}/proofpipe_c2.pc")

set(config "$ENV{DESTDIR}${PP_SYSCONFDIR}/proofpipe/proofpipe.toml")
if(EXISTS "${config}")
  message(STATUS "Keeping: ${config} (an existing configuration is not overwritten)")
else()
  file(INSTALL DESTINATION "${PP_SYSCONFDIR}/proofpipe" TYPE FILE RENAME proofpipe.toml
       FILES "${PP_SOURCE_DIR}/proofpipe.example.toml")
endif()
