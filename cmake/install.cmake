# `cmake --install`: where vivaref's files go (README "On a Raspberry Pi"
# and systemd/README.md say why). With the prefix /usr, as the .deb has it:
#
#   /usr/bin/vivaref                          the binary
#   /usr/share/vivaref/web-ui/                the web page (found by defaultWebRoot())
#   /usr/lib/systemd/system/vivaref.service   the unit, with this prefix's paths
#   /usr/lib/systemd/system-generators/vivaref-generator
#                                             its drop-in from the configuration
#   /usr/lib/systemd/system/vivaref-reconfigure.{path,service}
#                                             the drop-in follows the set-up's castle.ini
#   /usr/lib/sysusers.d/vivaref.conf          its user and groups
#   /usr/lib/udev/rules.d/60-vivaref.rules    GPIO, SPI and I2C devices to their groups
#   /etc/vivaref/vivaref.ini                  the configuration (a conffile)
#   /usr/share/doc/vivaref/                   README.md, copyright, examples/*.ini
#
# Another prefix (e.g. /usr/local) moves everything under it but the
# configuration: the unit's ConfigurationDirectory=vivaref is /etc/vivaref
# whatever the prefix, so the configuration goes there too, and the unit
# names it as %E/vivaref/vivaref.ini.
include(GNUInstallDirs)

set(VIVAREF_BINARY ${CMAKE_INSTALL_FULL_BINDIR}/vivaref)
set(VIVAREF_CONFIG_DIR /etc/vivaref)
set(VIVAREF_DOC_DIR ${CMAKE_INSTALL_FULL_DOCDIR})
# The unit names the installed binary and configuration.
configure_file(${PROJECT_SOURCE_DIR}/systemd/vivaref.service.in ${PROJECT_BINARY_DIR}/systemd/vivaref.service
  @ONLY)
configure_file(${PROJECT_SOURCE_DIR}/systemd/vivaref-generator.in ${PROJECT_BINARY_DIR}/systemd/vivaref-generator
  @ONLY)
foreach(unit vivaref-reconfigure.path vivaref-reconfigure.service)
  configure_file(${PROJECT_SOURCE_DIR}/systemd/${unit}.in ${PROJECT_BINARY_DIR}/systemd/${unit} @ONLY)
endforeach()

install(TARGETS vivaref RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The web page: every file of web-ui/ but its README (for developers).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/web-ui/ DESTINATION ${CMAKE_INSTALL_DATADIR}/vivaref/web-ui
  PATTERN README.md EXCLUDE)

# Relative to the prefix (lib/, not the multiarch libdir): systemd, udev and
# sysusers read /usr/lib and, before the /usr merge, /lib too.
install(FILES ${PROJECT_BINARY_DIR}/systemd/vivaref.service ${PROJECT_BINARY_DIR}/systemd/vivaref-reconfigure.path
  ${PROJECT_BINARY_DIR}/systemd/vivaref-reconfigure.service DESTINATION lib/systemd/system)
install(PROGRAMS ${PROJECT_BINARY_DIR}/systemd/vivaref-generator DESTINATION lib/systemd/system-generators)
install(FILES ${PROJECT_SOURCE_DIR}/systemd/vivaref.sysusers DESTINATION lib/sysusers.d RENAME vivaref.conf)
install(FILES ${PROJECT_SOURCE_DIR}/systemd/60-vivaref.rules DESTINATION lib/udev/rules.d)

install(FILES ${PROJECT_SOURCE_DIR}/systemd/vivaref.ini DESTINATION ${VIVAREF_CONFIG_DIR})

install(FILES ${PROJECT_SOURCE_DIR}/systemd/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The licence (LICENSE) in Debian's machine-readable form, where Debian
# looks for a package's copyright.
install(FILES ${PROJECT_SOURCE_DIR}/systemd/debian/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/daemon/config/examples/castle-2024.ini
              ${PROJECT_SOURCE_DIR}/daemon/config/examples/sim.ini
  DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
