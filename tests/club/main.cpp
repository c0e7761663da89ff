// The club-league binary: one scratch PostgreSQL for every case, or exit 77
// with the reason when this machine cannot start one.
#define DOCTEST_CONFIG_IMPLEMENT
#include <iostream>

#include <doctest/doctest.h>

#include "tests/club/league_fixture.hpp"

int main(int argc, char** argv) {
    std::string whyNot;
    auto pg = vivaref::testsupport::ScratchPostgres::start(whyNot);
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
