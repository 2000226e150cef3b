# Installs both programs with their desktop integration and man pages, and lets CPack build a
# Debian package from that (scripts/package.sh). Debian wants man pages and the changelog
# gzipped without a timestamp (gzip -n), so the package is reproducible.
include(GNUInstallDirs)

install(TARGETS lockscope lockscopectl RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES resources/lockscope.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES resources/lockscope.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo
        RENAME org.lockscope.LockScope.metainfo.xml)
install(FILES resources/icons/lockscope.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)

find_program(GZIP_PROGRAM gzip REQUIRED)
set(gzipped_dir ${PROJECT_BINARY_DIR}/gzipped)
function(lockscope_install_gzipped source destination)
  get_filename_component(name ${source} NAME)
  set(output ${gzipped_dir}/${name}.gz)
  add_custom_command(OUTPUT ${output}
                     COMMAND ${CMAKE_COMMAND} -E make_directory ${gzipped_dir}
                     COMMAND ${GZIP_PROGRAM} -9nc ${PROJECT_SOURCE_DIR}/${source} > ${output}
                     DEPENDS ${PROJECT_SOURCE_DIR}/${source} VERBATIM)
  list(APPEND gzipped_outputs ${output})
  set(gzipped_outputs ${gzipped_outputs} PARENT_SCOPE)
  install(FILES ${output} DESTINATION ${destination})
endfunction()
set(gzipped_outputs)
lockscope_install_gzipped(resources/man/lockscope.1 ${CMAKE_INSTALL_MANDIR}/man1)
lockscope_install_gzipped(resources/man/lockscopectl.1 ${CMAKE_INSTALL_MANDIR}/man1)
# Debian's place, named after the package (CMAKE_INSTALL_DOCDIR would say LockScope).
set(doc_dir ${CMAKE_INSTALL_DATADIR}/doc/lockscope)
lockscope_install_gzipped(resources/debian/changelog ${doc_dir})
add_custom_target(lockscope_gzipped_docs ALL DEPENDS ${gzipped_outputs})
install(FILES resources/debian/copyright DESTINATION ${doc_dir})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME lockscope)
set(CPACK_PACKAGE_VENDOR "LockScope")
set(CPACK_PACKAGE_CONTACT "LockScope maintainers <maintainers@users.noreply.a-seed-a3d0b952.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "inspect and drive etcd v3 locks, live")
set(CPACK_PACKAGE_DESCRIPTION
    "LockScope shows every lock under a prefix of an etcd v3 cluster: its holder,\n\
the waiting queue in create-revision order, each lease's time to live and\n\
anomalies. It takes and releases locks, interoperating with etcdctl lock.\n\
lockscopectl does the same from the command line and exports lock metrics\n\
for Prometheus.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Qt SQL loads its SQLite driver as a plugin, which dpkg-shlibdeps cannot see; lockscopectl's
# record and history keep lock histories in SQLite files through it.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite")
# The etcd binary the sandbox starts (lockscope with no endpoints, its first run); etcdctl,
# which lockscopectl lock pairs with; Qt's own texts (dialog buttons, --help headings) in the
# user's language. LockScope's own catalogue is built into both programs.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "etcd-server, etcd-client, qt6-translations-l10n")
# Qt SQL's PostgreSQL driver, for histories kept in a PostgreSQL database (a postgresql:// URL)
# rather than an SQLite file; without it such a URL is refused, naming this package.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libqt6sql6-psql")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
