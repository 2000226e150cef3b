# The Go anchor (bench/go/main.go): etcd 3.4's own Go lock code, built offline in GOPATH mode
# from Debian's golang-go and golang-etcd-server-dev. Sets LOCKSCOPE_GO_ANCHOR to the program's
# path, or to "" when either package is missing (the tests that need it then skip, saying so).
find_program(LOCKSCOPE_GO_PROGRAM go)
set(LOCKSCOPE_GOPATH /usr/share/gocode)
set(LOCKSCOPE_GO_ANCHOR "")
if(NOT LOCKSCOPE_GO_PROGRAM)
  message(STATUS "Go anchor: no `go` (apt-get install golang-go golang-etcd-server-dev)")
elseif(NOT EXISTS ${LOCKSCOPE_GOPATH}/src/go.etcd.io/etcd/contrib/recipes)
  message(STATUS "Go anchor: no etcd Go sources (apt-get install golang-etcd-server-dev)")
else()
  set(LOCKSCOPE_GO_ANCHOR ${PROJECT_BINARY_DIR}/bench/go/lockscope-go-anchor)
  add_custom_command(
    OUTPUT ${LOCKSCOPE_GO_ANCHOR}
    COMMAND ${CMAKE_COMMAND} -E env GOPATH=${LOCKSCOPE_GOPATH} GO111MODULE=off GOFLAGS=
            GOCACHE=${PROJECT_BINARY_DIR}/bench/go/go-cache
            ${LOCKSCOPE_GO_PROGRAM} build -o ${LOCKSCOPE_GO_ANCHOR} main.go
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/bench/go
    DEPENDS ${PROJECT_SOURCE_DIR}/bench/go/main.go
    COMMENT "Building the Go anchor (etcd 3.4's Go Mutex, Election and RWMutex)"
    VERBATIM)
  add_custom_target(lockscope-go-anchor ALL DEPENDS ${LOCKSCOPE_GO_ANCHOR})
endif()

# Makes `target` build the anchor first, when there is one to build.
function(lockscope_needs_go_anchor target)
  if(TARGET lockscope-go-anchor)
    add_dependencies(${target} lockscope-go-anchor)
  endif()
endfunction()
