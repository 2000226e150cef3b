#pragma once

#include <string>

namespace lockscope::test {

// The user that etcd_auth's enableAuthentication() creates: its role may read and write only
// under /alice/. The password holds a ':' on purpose (etcdctl splits --user at the first one).
inline const std::string authUser = "alice";
inline const std::string authPassword = "s3cr:et";

// Turns authentication on in a test etcd with the real etcdctl, as an operator would: a root
// user (etcd requires one before auth is enabled) and authUser. Empty on success, else what
// etcdctl said.
std::string enableAuthentication(const std::string& endpoints);

} // namespace lockscope::test
