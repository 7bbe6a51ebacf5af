# Install layout, where Debian puts things (GNUInstallDirs, the library directory with its multiarch
# triplet): bin/proofpipe; lib/<triplet>/libproofpipe_c2.so (+ .a) and pkgconfig/proofpipe_c2.pc;
# include/proofpipe/proofpipe_c2.h; lib/systemd/system/proofpipe.service; share/doc/proofpipe (the
# example configuration, the --help text as a man-style page, the operator's docs); and the example
# as etc/proofpipe/proofpipe.toml, /etc/proofpipe under the prefix /usr (the Debian package's conffile).
# The unit and the .pc name install paths, so they are written at install time
# (cmake/pp_install_configured.cmake) for the prefix the install really uses: `cmake --install
# --prefix DIR`, the Debian package's /usr, or the configured one.
# GNUInstallDirs adds the multiarch triplet only for the prefix /usr; the Debian package and a
# `cmake --install --prefix DIR` share one layout, so it is the default for every prefix.
if(NOT DEFINED CMAKE_INSTALL_LIBDIR AND CMAKE_LIBRARY_ARCHITECTURE)
  set(CMAKE_INSTALL_LIBDIR "lib/${CMAKE_LIBRARY_ARCHITECTURE}" CACHE PATH "Object code libraries (LIBDIR)")
endif()
include(GNUInstallDirs)

install(TARGETS proofpipe RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS proofpipe_c2 LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS proofpipe_c2_static ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/src/c2/proofpipe_c2.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/proofpipe)

# The man-style page: `proofpipe --help` and every subcommand's, made from the binary just built.
set(PP_HELP_TEXT ${PROJECT_BINARY_DIR}/doc/proofpipe.txt)
add_custom_command(
  OUTPUT ${PP_HELP_TEXT}
  COMMAND ${CMAKE_COMMAND} -DPROOFPIPE=$<TARGET_FILE:proofpipe> -DVERSION=${PROJECT_VERSION} -DOUT=${PP_HELP_TEXT}
          -P ${PROJECT_SOURCE_DIR}/cmake/help_text.cmake
  DEPENDS proofpipe ${PROJECT_SOURCE_DIR}/cmake/help_text.cmake
  COMMENT "proofpipe: the --help text as share/doc/proofpipe/proofpipe.txt")
add_custom_target(pp_help_text ALL DEPENDS ${PP_HELP_TEXT})

install(FILES ${PP_HELP_TEXT} ${PROJECT_SOURCE_DIR}/proofpipe.example.toml ${PROJECT_SOURCE_DIR}/README.md
              ${PROJECT_SOURCE_DIR}/docs/operations.md ${PROJECT_SOURCE_DIR}/docs/c2_abi.md
              ${PROJECT_SOURCE_DIR}/docs/engine.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

# What cmake/pp_install_configured.cmake needs, fixed at configure time; the prefix is read there.
set(pp_c2_libs_private "-ltbb -lfmt -lspdlog -ltomlplusplus -lpthread -lstdc++ -lm")
if(PP_HAVE_CUDA)
  string(APPEND pp_c2_libs_private " -L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -ldl -lrt")
endif()
install(CODE "
  set(PP_SOURCE_DIR \"${PROJECT_SOURCE_DIR}\")
  set(PP_STAGE_DIR \"${PROJECT_BINARY_DIR}/install-configured\")
  set(PP_VERSION \"${PROJECT_VERSION}\")
  set(PP_BINDIR \"${CMAKE_INSTALL_BINDIR}\")
  set(PP_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
  set(PP_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
  set(PP_DOCDIR \"${CMAKE_INSTALL_DOCDIR}\")
  set(PP_C2_LIBS_PRIVATE \"${pp_c2_libs_private}\")")
install(SCRIPT ${PROJECT_SOURCE_DIR}/cmake/pp_install_configured.cmake)
