// The club-tls binary: one scratch PostgreSQL that also listens on TCP
// 127.0.0.1 with TLS only, or exit 77 with the reason (no server, no openssl).
#define DOCTEST_CONFIG_IMPLEMENT
#include <iostream>

#include <doctest/doctest.h>

#include "tests/club/league_fixture.hpp"

int main(int argc, char** argv) {
    std::string whyNot;
    vivaref::testsupport::ScratchPostgresSettings settings;
    settings.tls = true;
    auto pg = vivaref::testsupport::ScratchPostgres::start(whyNot, settings);
    if (!pg) {
        std::cout << "skipped: " << whyNot << "\n";
        return 77;
    }
    vivaref::clubtest::setServer(pg.get());
    doctest::Context context(argc, argv);
    const int status = context.run();
    vivaref::clubtest::setServer(nullptr);
    return status;
}
