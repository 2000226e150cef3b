#include "etcdclient/grpc_log.h"

#include <cstdio>
#include <grpc/support/log.h>

namespace etcd {

namespace {

void dropLine(gpr_log_func_args*) {}

void printLine(gpr_log_func_args* args) {
    std::fprintf(stderr, "grpc: %s %s:%d] %s\n", gpr_log_severity_string(args->severity),
                 args->file, args->line, args->message);
}

} // namespace

void routeGrpcLog(bool debug) {
    // Set before gRPC initialises, the verbosity wins over GRPC_VERBOSITY's default.
    gpr_set_log_verbosity(debug ? GPR_LOG_SEVERITY_INFO : GPR_LOG_SEVERITY_ERROR);
    gpr_set_log_function(debug ? printLine : dropLine);
}

} // namespace etcd
