# The Debian package: `cpack -G DEB` in a build configured with
# -DCMAKE_INSTALL_PREFIX=/usr (the unit and the conffile's path are set at
# configure time, cmake/install.cmake) gives vivaref_VERSION_ARCH.deb, for
# the architecture the compiler builds for (amd64, or arm64 with
# cmake/toolchain-arm64.cmake). Maintainer scripts: systemd/debian/.
# `.ci/dev test` builds and checks both (tests/package/check_deb.sh).

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME vivaref)
set(CPACK_PACKAGE_VENDOR "the vivaref authors")
set(CPACK_PACKAGE_CONTACT "the vivaref authors <vivaref@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "referee for the board game Viva il Re! / Vive le Roi!")
# dpkg's long description: the lines after the summary, each indented by
# CPack. (No semicolons: CMake would read them as list separators.)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "vivaref runs on a Raspberry Pi under the castle board: RFID readers see
which character stands where, vote stations take the secret votes, and
the referee judges every move, runs the votes, keeps the score and logs
every game. A web page shows the game as it goes. The service is
vivaref.service, its configuration /etc/vivaref/vivaref.ini.")
set(CPACK_DEBIAN_PACKAGE_SECTION games)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_STRIP_FILES ON)

# Debian's name for the architecture the compiler builds for (dpkg
# --print-architecture would give the build machine's, wrong when cross-building).
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(vivaref_deb_arch arm64)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(vivaref_deb_arch amd64)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^arm")
  set(vivaref_deb_arch armhf)
else()
  set(vivaref_deb_arch ${CMAKE_SYSTEM_PROCESSOR})
endif()
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE ${vivaref_deb_arch})

# Depends: from the libraries the binary links (dpkg-shlibdeps), so they
# follow the build. When cross-building, dpkg-shlibdeps reads the :arm64
# packages' symbols and needs the host architecture named (DEB_HOST_ARCH, set
# by cpack's caller: .ci/dev) to find their libraries.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Except libpqxx when cross-building: its arm64 library is not installed by
# dpkg here (cmake/arm64-pkgconfig/libpqxx.pc says why), so it is named here.
if(CMAKE_CROSSCOMPILING)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libpqxx-6.4 (>= 6.4.5)")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gpiod")

set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
  ${PROJECT_SOURCE_DIR}/systemd/debian/conffiles
  ${PROJECT_SOURCE_DIR}/systemd/debian/postinst
  ${PROJECT_SOURCE_DIR}/systemd/debian/prerm
  ${PROJECT_SOURCE_DIR}/systemd/debian/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

# The maintainer scripts and the conffile list assume the prefix /usr.
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_LIST_DIR}/packaging_check.cmake)
set(CPACK_VIVAREF_PACKAGE_PREFIX ${CMAKE_INSTALL_PREFIX})

include(CPack)
