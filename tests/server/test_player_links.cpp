// Issue 35: the players' links of the game in progress survive a restart.
// The file they are kept in (its text, mode 0600, whole replacement, a
// corrupt or odd file refused with a reason that quotes nothing), and the
// table core that adopts them again when it resumes that game: the same
// links answer, a replaced one stays revoked, a finished game's are dropped,
// a corrupt file gives new links with a line naming it, and no token
// reaches a log line or the game log.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "daemon/server/player_links_file.hpp"
#include "daemon/server/player_tokens.hpp"
#include "daemon/server/secret_token.hpp"
#include "tests/server/table_fixture.hpp"
#include "tests/server/temp_directory.hpp"

using namespace vivaref::server;
using namespace vivaref::server::testing;
using nlohmann::json;

namespace {

unsigned linksFileMode(const std::filesystem::path& file) {
    struct stat info {};
    REQUIRE(::stat(file.c_str(), &info) == 0);
    return info.st_mode & 0777;
}

SavedPlayerLinks sampleLinks() {
    SavedPlayerLinks links;
    links.game = 7;
    links.uid = "0123456789abcdef0123456789abcdef";
    links.tokens = {randomToken(), "", randomToken()};
    links.opened = {1764412345678, std::nullopt, std::nullopt};
    return links;
}

// Every file of `dir` but the ones named: no temporary file is left behind.
std::vector<std::string> otherFiles(const std::filesystem::path& dir, const std::vector<std::string>& known) {
    std::vector<std::string> others;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const auto name = entry.path().filename().string();
        if (std::find(known.begin(), known.end(), name) == known.end()) others.push_back(name);
    }
    return others;
}

const json kThreePlayers = {{"setup", {{"edition", "classic"}, {"seats", 3}}},
                            {"players", {"Ann", "Bob", "Cy"}}};

std::vector<std::string> tokensOf(const json& players) {
    std::vector<std::string> tokens;
    for (const auto& p : players["players"]) tokens.push_back(p.value("token", std::string()));
    return tokens;
}

// A table on the game log `db`, keeping its links in `state`, the log's lines in `notes`.
struct LinkedTable {
    LinkedTable(const std::filesystem::path& db, const std::filesystem::path& state) : t(db) {
        t.table.keepPlayerLinks(state, [this](const std::string& line) { notes.push_back(line); });
        resumed = t.table.resumeUnfinished().has_value();
    }
    std::string said() const {
        std::string all;
        for (const auto& n : notes) all += n + "\n";
        return all;
    }
    // A new game of three players: their links.
    std::vector<std::string> startGame() {
        auto [started, players] = t.call(http::verb::post, "/api/host/new-game", kThreePlayers);
        REQUIRE(started == 200);
        auto tokens = tokensOf(players);
        REQUIRE(tokens.size() == 3);
        return tokens;
    }
    Table t;
    std::vector<std::string> notes;
    bool resumed = false;
};

// A state directory with its game log, for tables started on it in turn.
struct StateDirectory {
    TempDirectory dir;
    const std::filesystem::path db = dir.path() / "games.sqlite";
    const std::filesystem::path state = dir.path() / "state";
    const std::filesystem::path linksFile = state / "player-links.json";
};

}  // namespace

TEST_CASE("player links file: its text is read back as written; anything else is refused quoting nothing") {
    const auto links = sampleLinks();
    std::string why;
    const auto back = parsePlayerLinks(playerLinksText(links), why);
    REQUIRE(back);
    CHECK(back->game == 7);
    CHECK(back->uid == links.uid);
    CHECK(back->tokens == links.tokens);
    CHECK(back->opened == links.opened);

    const std::string secret = links.tokens[0];
    const std::vector<std::string> bad = {
        "",
        "not json " + secret,
        "[\"" + secret + "\"]",
        R"({"format": 2, "game": 7, "uid": "ab", "players": [{"token": null}]})",
        R"({"format": 1, "game": 0, "uid": "ab", "players": [{"token": null}]})",
        R"({"format": 1, "game": 7, "uid": "AB!", "players": [{"token": null}]})",
        R"({"format": 1, "game": 7, "uid": "ab", "players": []})",
        R"({"format": 1, "game": 7, "uid": "ab", "players": [{"token": ")" + secret.substr(1) + R"("}]})",
        R"({"format": 1, "game": 7, "uid": "ab", "players": [{"token": ")" + secret +
            R"(", "opened_ms": "x"}]})",
        R"({"format": 1, "game": 7, "uid": "ab", "players": [{"nothing": 1}]})",
        playerLinksText(links).substr(0, 60),  // cut short
    };
    for (const auto& text : bad) {
        CAPTURE(text);
        why.clear();
        CHECK_FALSE(parsePlayerLinks(text, why).has_value());
        CHECK_FALSE(why.empty());
        // The reason never quotes the file: a token in it would reach the log.
        CHECK(why.find(secret.substr(0, 16)) == std::string::npos);
        CHECK(why.find(secret.substr(1, 16)) == std::string::npos);
    }
}

TEST_CASE("player links file: 0600, replaced whole, a missing one is no problem, odd ones are refused") {
    TempDirectory dir;
    const auto state = dir.path() / "state";
    const PlayerLinksFile file(state);
    CHECK(file.file() == state / "player-links.json");
    std::string why, warning;
    CHECK_FALSE(file.read(why, warning).has_value());
    CHECK(why.empty());  // missing: nothing to say

    // Made with its folder, private.
    auto links = sampleLinks();
    REQUIRE(file.write(links, why));
    CHECK(linksFileMode(file.file()) == 0600);
    auto back = file.read(why, warning);
    REQUIRE(back);
    CHECK(back->tokens == links.tokens);
    CHECK(warning.empty());

    // Replaced: the new links, still 0600, no temporary file left beside.
    links.tokens[2] = randomToken();
    REQUIRE(file.write(links, why));
    back = file.read(why, warning);
    REQUIRE(back);
    CHECK(back->tokens[2] == links.tokens[2]);
    CHECK(linksFileMode(file.file()) == 0600);
    CHECK(otherFiles(state, {"player-links.json"}).empty());

    // Readable by others: made private again, said.
    REQUIRE(::chmod(file.file().c_str(), 0644) == 0);
    back = file.read(why, warning);
    CHECK(back.has_value());
    CHECK(warning.find("made private (0600) again") != std::string::npos);
    CHECK(linksFileMode(file.file()) == 0600);

    // Corrupt: refused, with why.
    std::ofstream(file.file(), std::ios::trunc) << "{\"format\": 1, \"game\": 7, \"uid\"";
    warning.clear();
    CHECK_FALSE(file.read(why, warning).has_value());
    CHECK(why == "it is not a JSON object");

    // A folder or a FIFO where the file should be: refused at once, never waited on.
    REQUIRE(file.remove(why));
    CHECK_FALSE(std::filesystem::exists(file.file()));
    CHECK(file.remove(why));  // none is fine
    REQUIRE(::mkfifo(file.file().c_str(), 0600) == 0);
    CHECK_FALSE(file.read(why, warning).has_value());
    CHECK(why == "it is not a regular file");
    // Written over, all the same (the rename replaces it).
    CHECK(file.write(links, why));
    CHECK(file.read(why, warning).has_value());

    // A symbolic link is not followed.
    REQUIRE(file.remove(why));
    std::filesystem::create_symlink(dir.path() / "elsewhere.json", file.file());
    std::ofstream(dir.path() / "elsewhere.json") << playerLinksText(links);
    CHECK_FALSE(file.read(why, warning).has_value());
    CHECK(why.starts_with("it cannot be opened"));
}

TEST_CASE("player tokens: adopt keeps each person's link and opening, a bot's player gets none") {
    PlayerTokens tokens;
    const std::string a = randomToken(), c = randomToken();
    CHECK_FALSE(tokens.adopt({a, ""}, {std::nullopt, std::nullopt}, {true, true, true}));
    CHECK(tokens.tokens().empty());
    REQUIRE(tokens.adopt({a, "", c}, {123, std::nullopt, std::nullopt}, {true, true, false}));
    CHECK(tokens.tokens()[0] == a);
    CHECK(tokens.openedAt(0) == 123);
    CHECK(tokens.tokens()[1].size() == 64);  // a person kept without a link gets one
    CHECK_FALSE(tokens.openedAt(1).has_value());
    CHECK(tokens.tokens()[2].empty());  // now a bot's player: no link, the old one finds nobody
    CHECK_FALSE(tokens.find(c).has_value());
    CHECK(tokens.find(a) == 0);
    CHECK_FALSE(tokens.markOpened(0, 456));  // opened before the restart: kept
    CHECK(tokens.markOpened(1, 456));
    CHECK_FALSE(tokens.markOpened(1, 789));
}

TEST_CASE("table: the game in progress's links work again after a restart; a replaced one stays revoked") {
    const StateDirectory here;
    const auto& [dir, db, state, linksFile] = here;
    std::vector<std::string> before;
    std::string revoked;
    {
        LinkedTable table(db, state);
        CHECK_FALSE(table.resumed);
        CHECK_FALSE(std::filesystem::exists(linksFile));  // no game, no file
        before = table.startGame();
        CHECK(linksFileMode(linksFile) == 0600);
        // Ann's page opened; Bob lost his phone: a new link.
        CHECK(table.t.call(http::verb::get, "/api/player/" + before[0]).first == 200);
        auto [renewed, after] = table.t.call(http::verb::post, "/api/host/new-link", {{"player", 1}});
        REQUIRE(renewed == 200);
        revoked = before[1];
        before = tokensOf(after);
        CHECK(before[1] != revoked);
        CHECK(table.t.call(http::verb::get, "/api/player/" + revoked).first == 404);
        CHECK(table.notes.empty());
    }
    {
        LinkedTable table(db, state);
        REQUIRE(table.resumed);
        CHECK(table.said().find("game 1: the players' links kept in " + linksFile.string() + " work again") !=
              std::string::npos);
        const json players = table.t.get("/api/host/players");
        CHECK(tokensOf(players) == before);
        // Ann's page opened before the restart: still opened (her code stays hidden).
        CHECK(players["players"][0]["opened"] == true);
        CHECK(players["players"][1]["opened"] == false);
        for (const auto& token : before) {
            auto [status, page] = table.t.call(http::verb::get, "/api/player/" + token);
            CHECK(status == 200);
        }
        CHECK(table.t.call(http::verb::get, "/api/player/" + revoked).first == 404);
        // Replaced after the restart too.
        const std::string cyOld = before[2];
        auto [renewed, after] = table.t.call(http::verb::post, "/api/host/new-link", {{"player", 2}});
        REQUIRE(renewed == 200);
        before = tokensOf(after);
        CHECK(table.t.call(http::verb::get, "/api/player/" + cyOld).first == 404);
        revoked += "," + cyOld;
    }
    {
        LinkedTable table(db, state);
        REQUIRE(table.resumed);
        CHECK(tokensOf(table.t.get("/api/host/players")) == before);
        for (std::size_t at = 0; at < revoked.size(); at += 65)
            CHECK(table.t.call(http::verb::get, "/api/player/" + revoked.substr(at, 64)).first == 404);
        // No line of the log said a token, and neither does the game log.
        for (const auto& token : before) CHECK(table.said().find(token) == std::string::npos);
    }
    const std::string log = readFile(db) + readFile(dir.path() / "games.sqlite-wal");
    for (const auto& token : before) CHECK(log.find(token) == std::string::npos);
    CHECK(log.find(revoked.substr(0, 64)) == std::string::npos);
}

TEST_CASE("table: a finished or abandoned game's links are dropped; a new game's replace the old") {
    const StateDirectory here;
    const auto& [dir, db, state, linksFile] = here;
    std::vector<std::string> first;
    {
        LinkedTable table(db, state);
        first = table.startGame();
        const std::string kept = readFile(linksFile);
        CHECK(kept.find(first[0]) != std::string::npos);
        REQUIRE(table.t.call(http::verb::post, "/api/host/abandon", json::object()).first == 200);
        // Gone from the disk at once; still in memory for the last look at the cards.
        CHECK_FALSE(std::filesystem::exists(linksFile));
        CHECK(table.t.call(http::verb::get, "/api/player/" + first[0]).first == 200);
        // The first look after the end writes nothing back.
        CHECK(table.t.call(http::verb::get, "/api/player/" + first[1]).first == 200);
        CHECK_FALSE(std::filesystem::exists(linksFile));
        // A new game: new links, kept.
        auto [again, second] = table.t.call(http::verb::post, "/api/host/new-game", kThreePlayers);
        REQUIRE(again == 200);
        const auto next = tokensOf(second);
        CHECK(readFile(linksFile).find(next[0]) != std::string::npos);
        CHECK(table.t.call(http::verb::get, "/api/player/" + first[0]).first == 404);
        REQUIRE(table.t.call(http::verb::post, "/api/host/abandon", json::object()).first == 200);
        CHECK_FALSE(std::filesystem::exists(linksFile));
    }
    {
        // Nothing to resume, nothing kept: no link of those games answers.
        LinkedTable table(db, state);
        CHECK_FALSE(table.resumed);
        CHECK(table.notes.empty());
        CHECK(table.t.call(http::verb::get, "/api/player/" + first[0]).first == 404);
    }
    {
        // A file kept for a game that is not resumed (serve stopped between
        // the end and its removal) is dropped, said.
        SavedPlayerLinks stale = sampleLinks();
        std::string why;
        REQUIRE(PlayerLinksFile(state).write(stale, why));
        LinkedTable table(db, state);
        CHECK_FALSE(table.resumed);
        CHECK(table.said().find("game 7 kept in " + linksFile.string() + " are dropped") !=
              std::string::npos);
        CHECK_FALSE(std::filesystem::exists(linksFile));
        CHECK(table.said().find(stale.tokens[0]) == std::string::npos);
    }
}

TEST_CASE("table: a corrupt or another game's links file gives new links, said naming the file and why") {
    const StateDirectory here;
    const auto& [dir, db, state, linksFile] = here;
    std::vector<std::string> first;
    {
        LinkedTable table(db, state);
        first = table.startGame();
    }
    // Cut short (a disk that lost its last write): the tokens are in what is left.
    const std::string whole = readFile(linksFile);
    std::ofstream(linksFile, std::ios::trunc) << whole.substr(0, whole.size() - 40);
    std::vector<std::string> second;
    {
        LinkedTable table(db, state);
        REQUIRE(table.resumed);
        CHECK(table.said().find("the players' links " + linksFile.string() +
                                " cannot be used (it is not a JSON object): game 1's players get new "
                                "links, which the host page shows") != std::string::npos);
        for (const auto& token : first) CHECK(table.said().find(token) == std::string::npos);
        second = tokensOf(table.t.get("/api/host/players"));
        REQUIRE(second.size() == 3);
        for (std::size_t p = 0; p < 3; ++p) {
            CHECK(second[p] != first[p]);
            CHECK(table.t.call(http::verb::get, "/api/player/" + first[p]).first == 404);
            CHECK(table.t.call(http::verb::get, "/api/player/" + second[p]).first == 200);
        }
        // The new ones are kept, whole and private.
        CHECK(linksFileMode(linksFile) == 0600);
        CHECK(readFile(linksFile).find(second[2]) != std::string::npos);
    }
    // Another game's links (same number, another log's uid): never handed over.
    {
        std::string why, warning;
        auto kept = PlayerLinksFile(state).read(why, warning);
        REQUIRE(kept);
        kept->uid = std::string(32, 'a');
        REQUIRE(PlayerLinksFile(state).write(*kept, why));
    }
    {
        LinkedTable table(db, state);
        REQUIRE(table.resumed);
        CHECK(table.said().find("are not game 1's") != std::string::npos);
        const auto third = tokensOf(table.t.get("/api/host/players"));
        for (std::size_t p = 0; p < 3; ++p) {
            CHECK(third[p] != second[p]);
            CHECK(table.t.call(http::verb::get, "/api/player/" + second[p]).first == 404);
        }
    }
    // Unreadable (no permission; root reads it anyway, so only as a user).
    if (::geteuid() != 0) {
        REQUIRE(::chmod(linksFile.c_str(), 0) == 0);
        LinkedTable table(db, state);
        REQUIRE(table.resumed);
        CHECK(table.said().find("cannot be used (it cannot be opened: Permission denied)") !=
              std::string::npos);
        CHECK(table.t.get("/api/host/players")["players"].size() == 3);
        CHECK(linksFileMode(linksFile) == 0600);  // replaced by the new links
    }
}

TEST_CASE("table: a links file that cannot be written is said once, and a replaced link does not come back") {
    const StateDirectory here;
    const auto& [dir, db, state, linksFile] = here;
    std::vector<std::string> first;
    {
        LinkedTable table(db, state);
        first = table.startGame();
        // A folder (not empty) where the file goes: it can neither be
        // replaced nor removed, even by root.
        std::filesystem::remove(linksFile);
        std::filesystem::create_directories(linksFile / "in-the-way");
        CHECK(table.t.call(http::verb::post, "/api/host/new-link", {{"player", 0}}).first == 200);
        CHECK(table.t.call(http::verb::post, "/api/host/new-link", {{"player", 0}}).first == 200);
        REQUIRE(table.notes.size() == 1);  // once per reason
        CHECK(table.notes[0].find("the players' links of game 1 cannot be kept in " + linksFile.string() +
                                  " (it cannot be put in place: Is a directory); nor can the file be "
                                  "removed") != std::string::npos);
        CHECK(table.notes[0].find("remove it before a restart") != std::string::npos);
        // Out of the way: the next renewal is kept, and the first link is gone for good.
        std::filesystem::remove_all(linksFile);
        CHECK(table.t.call(http::verb::post, "/api/host/new-link", {{"player", 0}}).first == 200);
        CHECK(linksFileMode(linksFile) == 0600);
        CHECK(otherFiles(state, {"player-links.json"}).empty());  // no temporary file left by the failures
    }
    LinkedTable table(db, state);
    REQUIRE(table.resumed);
    CHECK(table.t.call(http::verb::get, "/api/player/" + first[0]).first == 404);
    CHECK(table.t.call(http::verb::get, "/api/player/" + first[1]).first == 200);
}
