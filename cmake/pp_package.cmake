# The Debian package (`cpack -G DEB` in a build directory; docs/operations.md, "Install"): everything
# cmake/pp_install.cmake installs, under the prefix /usr with the configuration in /etc. Runtime
# dependencies are found by dpkg-shlibdeps from the binaries' shared libraries (Debian package
# names, dpkg-dev), plus adduser for the postinst's system user. packaging/debian/ holds the
# maintainer scripts, the conffiles list and the ldconfig trigger. tests/packaging/deb_test.sh checks the result.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME proofpipe)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Groth16 proving engine for BLS12-381 (CPU and CUDA)")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Groth16 proving engine for BLS12-381, built for Filecoin-scale workloads\n"
    "proofpipe proves with snarkjs and bellperson keys on CPUs and NVIDIA GPUs. The package holds\n"
    "the proofpipe command and daemon with its systemd unit, and libproofpipe_c2, supraseal-c2's\n"
    "C ABI for Filecoin's proving stack (header, pkg-config file, shared and static library).")
string(REPLACE ";" "" CPACK_DEBIAN_PACKAGE_DESCRIPTION "${CPACK_DEBIAN_PACKAGE_DESCRIPTION}")
set(PP_DEB_MAINTAINER "proofpipe maintainers <maintainers@proofpipe.invalid>" CACHE STRING
    "Maintainer field of the Debian package")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${PP_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # proofpipe_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS adduser)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${PROJECT_SOURCE_DIR}/packaging/debian/postinst ${PROJECT_SOURCE_DIR}/packaging/debian/prerm
    ${PROJECT_SOURCE_DIR}/packaging/debian/postrm ${PROJECT_SOURCE_DIR}/packaging/debian/conffiles
    ${PROJECT_SOURCE_DIR}/packaging/debian/triggers)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Installed with DESTDIR under the prefix /usr, so cmake/pp_install_configured.cmake sees /usr and
# puts the configuration in /etc.
set(CPACK_SET_DESTDIR ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_INSTALL_PREFIX /usr)
include(CPack)
