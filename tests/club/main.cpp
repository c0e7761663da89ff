// The main of club-league and club-tls: one scratch PostgreSQL for every
// case, or exit 77 with the reason when this machine cannot start one.
// club-tls is built with VIVAREF_CLUB_TLS_SERVER=true: its server also
// listens on TCP 127.0.0.1 with TLS only (and needs openssl).
#include <iostream>

#include <doctest/doctest.h>

#include "tests/club/league_fixture.hpp"

#ifndef VIVAREF_CLUB_TLS_SERVER
#define VIVAREF_CLUB_TLS_SERVER false
#endif

int main(int argc, char** argv) {
    std::string whyNot;
    vivaref::testsupport::ScratchPostgresSettings settings;
    settings.tls = VIVAREF_CLUB_TLS_SERVER;
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
