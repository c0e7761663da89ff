// [daemon] host_token's strength, http_names (issue 14, items 4 and 5),
// language (issue 33) and trusted_proxies (issue 35):
// a guessable token is refused with its file and line, the names are checked.
#include <doctest/doctest.h>

#include "config_test_helpers.hpp"
#include "daemon/config/config_values.hpp"

using namespace vivaref::config;
using namespace vivaref::config::testing;

namespace {

using Strings = std::vector<std::string>;

const std::string kAdvice =
    "; a host token needs at least 16 characters mixing two kinds (lower case, upper case, digits, "
    "punctuation), "
    "or leave host_token out and serve makes a strong secret of its own (host-secret in the state directory)";

}  // namespace

TEST_CASE("a host_token too easy to guess is refused, naming the file and line") {
    CHECK(problemTexts("[daemon]\nhost_token = 1\n") ==
          Strings{"castle.ini:2: daemon.host_token: the host token is too short to be safe (1 character)" +
                  kAdvice});
    CHECK(
        problemTexts("[daemon]\nhardware = sim\nhost_token = passwordpassword\n") ==
        Strings{"castle.ini:3: daemon.host_token: the host token is too easy to guess (one kind of character "
                "only)" +
                kAdvice});
    CHECK(
        problemTexts("[daemon]\nhost_token = ab1ab1ab1ab1ab1ab1ab1\n") ==
        Strings{
            "castle.ini:2: daemon.host_token: the host token is too easy to guess (3 different characters)" +
            kAdvice});
    CHECK(problemTexts("[daemon]\nhost_token = change-me-before-the-party\n") ==
          Strings{"castle.ini:2: daemon.host_token: the host token is still the example's placeholder" +
                  kAdvice});
    CHECK(
        problemTexts("[daemon]\nhost_token = Castle password 2024\n") ==
        Strings{"castle.ini:2: daemon.host_token: the host token may hold only visible ASCII characters (no "
                "spaces)" +
                kAdvice});
    // Strong enough; empty means the daemon's own secret.
    for (const char* good : {"castle-night-2024", "Tr0ub4dor&3xyzzy", "0123456789abcdef0123"}) {
        CAPTURE(good);
        const auto c = check(std::string("[daemon]\nhost_token = ") + good + "\n");
        CHECK(c.problems.empty());
        CHECK(c.config.daemon.hostToken == good);
    }
    CHECK(check("[daemon]\nhost_token =\n").problems.empty());
}

TEST_CASE("http_names: host names and addresses, separated by commas") {
    const auto c =
        check("[daemon]\nhttp_names = castle.lan, Castle-2.example., 192.168.4.1 ,[fe80::1], ::1\n");
    CHECK(c.problems.empty());
    CHECK(c.config.daemon.httpNames ==
          Strings{"castle.lan", "Castle-2.example.", "192.168.4.1", "fe80::1", "::1"});
    CHECK(check("[daemon]\nhttp_names =\n").config.daemon.httpNames.empty());
    CHECK(check("[daemon]\n").config.daemon.httpNames.empty());
    CHECK(
        problemTexts("[daemon]\nhttp_names = castle.lan:8080\n") ==
        Strings{"castle.ini:2: daemon.http_names: 'castle.lan:8080' is neither a host name (letters, digits, "
                "hyphens and dots, no port) nor an IP address"});
    CHECK(problemTexts("[daemon]\nhttp_names = castle.lan,,x\n") ==
          Strings{"castle.ini:2: daemon.http_names: an empty name in the list: write names and addresses "
                  "separated by commas, e.g. castle.lan, 192.168.4.1"});
    for (const char* bad : {"*.lan", "-castle.lan", "castle..lan", "http://castle.lan", "castle lan"}) {
        CAPTURE(bad);
        CHECK(check(std::string("[daemon]\nhttp_names = ") + bad + "\n").problems.size() == 1);
    }
}

TEST_CASE("trusted_proxies: addresses and networks, separated by commas, none by default") {
    const auto c = check("[daemon]\ntrusted_proxies = 127.0.0.1, ::1 ,10.0.0.0/8, fd00::/8\n");
    CHECK(c.problems.empty());
    CHECK(c.config.daemon.trustedProxies == Strings{"127.0.0.1", "::1", "10.0.0.0/8", "fd00::/8"});
    CHECK(check("[daemon]\ntrusted_proxies =\n").config.daemon.trustedProxies.empty());
    CHECK(check("[daemon]\n").config.daemon.trustedProxies.empty());
    CHECK(
        problemTexts("[daemon]\ntrusted_proxies = proxy.lan\n") ==
        Strings{"castle.ini:2: daemon.trusted_proxies: 'proxy.lan' is neither an IP address nor a network "
                "(address/prefix length, e.g. 10.0.0.0/8): name the reverse proxies by address, not by host "
                "name"});
    CHECK(problemTexts("[daemon]\ntrusted_proxies = 127.0.0.1,,::1\n") ==
          Strings{"castle.ini:2: daemon.trusted_proxies: an empty entry in the list: write the proxies' "
                  "addresses separated by commas, e.g. 127.0.0.1, ::1"});
    for (const char* bad : {"10.0.0.0/33", "::/129", "10.0.0.0/", "127.0.0.1:8080", "[::1]",
                            "::ffff:10.0.0.1/8", "*", "10.0.0.0/8x"}) {
        CAPTURE(bad);
        CHECK(check(std::string("[daemon]\ntrusted_proxies = ") + bad + "\n").problems.size() == 1);
    }
}

TEST_CASE("language: the table's language is one vivaref speaks, English by default") {
    CHECK(check("[daemon]\n").config.daemon.language == "en");
    const auto c = check("[daemon]\nlanguage = fr\n");
    CHECK(c.problems.empty());
    CHECK(c.config.daemon.language == "fr");
    CHECK(
        problemTexts("[daemon]\nlanguage = klingon\n") ==
        Strings{"castle.ini:2: daemon.language: 'klingon' is not a language vivaref speaks: de, en, fr, it"});
}

TEST_CASE("teaching: new games teach when the table says so, off by default") {
    CHECK_FALSE(check("[daemon]\n").config.daemon.teaching);
    const auto c = check("[daemon]\nteaching = true\n");
    CHECK(c.problems.empty());
    CHECK(c.config.daemon.teaching);
    CHECK(problemTexts("[daemon]\nteaching = often\n") ==
          Strings{"castle.ini:2: daemon.teaching: 'often' is not true or false"});
}
