#include "etcdclient/endpoint.h"

#include <cctype>

namespace etcd {

bool parseEndpoint(const std::string& text, Endpoint& out, std::string& error) {
    std::string rest = text;
    out = {};
    if (rest.rfind("https://", 0) == 0) {
        out.tls = true;
        rest.erase(0, 8);
    } else if (rest.rfind("http://", 0) == 0) {
        rest.erase(0, 7);
    } else if (rest.find("://") != std::string::npos) {
        error = "endpoint '" + text + "' has an unsupported scheme; use http:// or https://";
        return false;
    }
    while (!rest.empty() && rest.back() == '/')
        rest.pop_back();
    const auto colon = rest.rfind(':');
    if (rest.empty() || colon == std::string::npos || colon == 0 || colon + 1 == rest.size()) {
        error = "endpoint '" + text + "' needs a host and a port, like 127.0.0.1:2379";
        return false;
    }
    const auto close = rest.find(']');
    if ((rest.front() == '[') != (close != std::string::npos) ||
        (close != std::string::npos && close + 1 != colon)) {
        error = "endpoint '" + text + "' has an unbalanced IPv6 bracket; write it like [::1]:2379";
        return false;
    }
    const std::string port = rest.substr(colon + 1);
    for (char c : port) {
        if (!std::isdigit(static_cast<unsigned char>(c))) {
            error = "endpoint '" + text + "' has a port that is not a number";
            return false;
        }
    }
    if (port.size() > 5 || std::stoi(port) == 0 || std::stoi(port) > 65535) {
        error = "endpoint '" + text + "' has a port outside 1-65535";
        return false;
    }
    out.target = rest;
    return true;
}

} // namespace etcd
