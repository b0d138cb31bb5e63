# Installation layout and the Debian package (cpack -G DEB in the build folder):
#   bin/floptle, bin/floptle-editor, bin/floptle-import-worker (beside the editor, which runs it), share/floptle/scenes/*.json, the desktop file, AppStream
#   metainfo, hicolor icons and the floptle(1) man page.
# Depends: dpkg-shlibdeps reads the binaries' linked libraries (Qt 6, Qt 3D, Assimp, OpenVDB,
# libpng, ...); what is loaded as a plugin and so invisible to it is named by hand.
include(GNUInstallDirs)

install(TARGETS floptle floptle-import-worker RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(FLOPTLE_BUILD_EDITOR)
  install(TARGETS floptle-editor RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(DIRECTORY "${PROJECT_SOURCE_DIR}/scenes/" DESTINATION ${CMAKE_INSTALL_DATADIR}/floptle/scenes
        FILES_MATCHING PATTERN "*.json")

set(FLOPTLE_LINUX_DIR "${PROJECT_SOURCE_DIR}/packaging/linux")
install(FILES "${FLOPTLE_LINUX_DIR}/org.floptle.Editor.desktop"
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
configure_file("${FLOPTLE_LINUX_DIR}/org.floptle.Editor.metainfo.xml"
               "${PROJECT_BINARY_DIR}/packaging/org.floptle.Editor.metainfo.xml" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/packaging/org.floptle.Editor.metainfo.xml"
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
foreach(size 16 32 48 64 128 256)
  install(FILES "${FLOPTLE_LINUX_DIR}/icons/${size}.png"
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps
          RENAME org.floptle.Editor.png)
endforeach()
# Debian installs man pages compressed.
configure_file("${FLOPTLE_LINUX_DIR}/floptle.1" "${PROJECT_BINARY_DIR}/packaging/floptle.1" @ONLY)
find_program(GZIP_PROGRAM gzip REQUIRED)
add_custom_command(OUTPUT "${PROJECT_BINARY_DIR}/packaging/floptle.1.gz"
  COMMAND "${GZIP_PROGRAM}" -9 -n -f -k "${PROJECT_BINARY_DIR}/packaging/floptle.1"
  DEPENDS "${PROJECT_BINARY_DIR}/packaging/floptle.1")
add_custom_target(floptle_man_page ALL DEPENDS "${PROJECT_BINARY_DIR}/packaging/floptle.1.gz")
install(FILES "${PROJECT_BINARY_DIR}/packaging/floptle.1.gz" DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "floptle-editor")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "The Floptle developers")
set(CPACK_PACKAGE_CONTACT "The Floptle developers <floptle@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Level editor on a signed-distance-field physics core")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # floptle-editor_VERSION_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION "graphics")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Plugins Qt loads at run time: the X11 platform (xcb) and Qt 3D's mesh loader.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, qt6-3d-defaultgeometryloader-plugin, libgl1-mesa-dri")
include(CPack)
