# Read by cpack before it packages (CPACK_PROJECT_CONFIG_FILE): a .deb from
# a build whose prefix is not /usr would ship a unit and maintainer scripts
# pointing at files it does not have.
if(CPACK_GENERATOR STREQUAL "DEB" AND NOT CPACK_VIVAREF_PACKAGE_PREFIX STREQUAL "/usr")
  message(FATAL_ERROR "vivaref's .deb needs a build configured with -DCMAKE_INSTALL_PREFIX=/usr "
    "(this one has ${CPACK_VIVAREF_PACKAGE_PREFIX})")
endif()
