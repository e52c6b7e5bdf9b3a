# CPack: `cpack --config BUILD/CPackConfig.cmake -G DEB` builds a .deb of
# everything `cmake --install` installs (programs, libraries, headers, the
# CMake package, data). Its dependencies are computed from the programs'
# shared libraries (dpkg-shlibdeps).
set(CPACK_PACKAGE_NAME etbench)
set(CPACK_PACKAGE_VENDOR "etbench")
set(CPACK_PACKAGE_CONTACT "etbench maintainers <etbench@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "On-device ML profiling (ExecuTorch ETDump) as a regression gate")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The CMake package's dependencies (headers a consumer compiles against),
# and libzip4 and libpq5, which etbench loads with dlopen (base/lazy_library.h)
# and dpkg-shlibdeps therefore cannot see.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libflatbuffers-dev, nlohmann-json3-dev, libyaml-cpp-dev, libboost-program-options-dev, libzip-dev, libzip4, libpq5")
include(CPack)
