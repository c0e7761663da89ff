// `vivaref show` tells a game in the reader's language (issue 33), through
// the real binary: --lang, else the locale (LC_ALL, LC_MESSAGES, LANG),
// else English; an unknown --lang is refused naming the languages shipped.
// A French story holds no English sentence: no piece of an English
// catalog pattern appears in it, unless French writes that piece too.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "daemon/store/game_store.hpp"
#include "daemon/words/catalog.hpp"
#include "tests/store/random_game_writer.hpp"
#include "tests/support/child_process.hpp"

using namespace std::chrono_literals;
using vivaref::store::GameStore;
using vivaref::store::testing::ScratchDir;
using vivaref::store::testing::writeRecordedGame;
using vivaref::testsupport::CommandResult;

namespace {

// No locale of the test's own: each run says which it wants.
const std::vector<std::string> kNoLocale = {"LC_ALL=", "LC_MESSAGES=", "LANG="};

CommandResult runVivaref(const ScratchDir& dir, const std::vector<std::string>& args,
                         const std::vector<std::string>& locale = {}) {
    static int runs = 0;
    // A variable given once only: the child's getenv reads the first.
    auto environment = locale;
    for (const auto& none : kNoLocale) {
        const auto name = none.substr(0, none.find('=') + 1);
        bool given = false;
        for (const auto& l : locale) given = given || l.starts_with(name);
        if (!given) environment.push_back(none);
    }
    return vivaref::testsupport::runCommand(VIVAREF_BINARY, args, 20s,
                                            {{}, environment, dir.file("stderr-" + std::to_string(++runs))});
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<std::string> recordLines(const std::string& name) {
    std::ifstream in(std::filesystem::path(VIVAREF_SOURCE_DIR) / "tests/records" / name);
    REQUIRE(in);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// The text between a pattern's arguments, at any depth ("Scores of round ",
// ": ", "."), trimmed of spaces and punctuation at both ends.
std::vector<std::string> literalPieces(const std::string& pattern) {
    std::vector<std::string> pieces;
    std::string piece;
    int depth = 0;
    auto flush = [&] {
        const auto isEdge = [](char c) {
            return std::string_view(" .,:;()\"“”«»„#").find(c) != std::string_view::npos;
        };
        std::size_t a = 0, b = piece.size();
        while (a < b && isEdge(piece[a])) ++a;
        while (b > a && isEdge(piece[b - 1])) --b;
        if (b > a) pieces.push_back(piece.substr(a, b - a));
        piece.clear();
    };
    // Inside a plural or select, a case's text is text again: "{n, plural, one {# seat} ...}".
    std::vector<bool> inCase;  // per open brace: does it open a case's text?
    bool afterArgumentHead = false;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '{') {
            flush();
            inCase.push_back(afterArgumentHead);
            afterArgumentHead = false;
            ++depth;
        } else if (c == '}') {
            flush();
            if (!inCase.empty()) inCase.pop_back();
            --depth;
            afterArgumentHead = depth > 0 && !inCase.empty() && !inCase.back();
        } else if (depth == 0 || (!inCase.empty() && inCase.back())) {
            piece += c;
        } else if (c == ',') {
            afterArgumentHead = true;  // "{name, select, ..." : the cases follow
        }
    }
    flush();
    return pieces;
}

int letters(const std::string& s) {
    int n = 0;
    for (unsigned char c : s) n += std::isalpha(c) || c >= 0x80;
    return n;
}

// The English catalog's words that a French text must not hold: every
// piece of four letters or more of every English pattern, unless French
// writes it too in one of its patterns (a word the same in both: "Ambition",
// "Votes").
std::set<std::string> englishOnlyPieces() {
    const auto* english = vivaref::words::findCatalog("en");
    const auto* french = vivaref::words::findCatalog("fr");
    REQUIRE(english);
    REQUIRE(french);
    auto frenchSays = [&](const std::string& piece) {
        for (const auto& [code, pattern] : french->patterns())
            if (has(pattern, piece)) return true;
        return false;
    };
    std::set<std::string> pieces;
    for (const auto& [code, pattern] : english->patterns())
        for (const auto& piece : literalPieces(pattern))
            if (letters(piece) >= 4 && !frenchSays(piece)) pieces.insert(piece);
    return pieces;
}

}  // namespace

TEST_CASE("show --lang fr tells recorded 2024 games in French, without an English sentence") {
    ScratchDir dir;
    const auto db = dir.file("games.sqlite").string();
    const std::vector<std::string> records = {"2024-4-royal-couple-ambition.jsonl", "2024-2-emissary.jsonl",
                                              "2024-4-emissary-banished.jsonl", "2024-5-team-pawn.jsonl",
                                              "2024-8-compensation.jsonl"};
    {
        GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing);
        // The first game's fourth player unnamed: "Joueur 4".
        for (const auto& record : records)
            writeRecordedGame(log, recordLines(record),
                              record == records.front()
                                  ? std::vector<std::string>{"Ann", "Bruno", "Cleo"}
                                  : std::vector<std::string>{"Ann", "Bruno", "Cleo", "Dario", "Ema", "Fritz",
                                                             "Gina", "Hugo", "Ines", "Jan"});
    }
    const auto english = englishOnlyPieces();
    REQUIRE(english.size() > 100);
    CHECK(english.contains("Scores of round"));
    CHECK_FALSE(english.contains("Ambition"));  // French says it too
    for (std::size_t game = 1; game <= records.size(); ++game) {
        CAPTURE(records[game - 1]);
        const auto told = runVivaref(dir, {"show", "--db", db, "--lang", "fr", std::to_string(game)});
        CAPTURE(told.out);
        CHECK(told.status == 0);
        CHECK(told.err.empty());
        CHECK(has(told.out, "Édition 2024"));
        CHECK(has(told.out, "Manche 1"));
        CHECK(has(told.out, "Pourquoi, favori par favori :"));
        CHECK(has(told.out, "La partie est finie."));
        CHECK_FALSE(has(told.out, "The Jester"));  // a part, said in French: "Bouffon"
        for (const auto& piece : english) {
            INFO("an English piece in the French story: " << piece);
            CHECK_FALSE(has(told.out, piece));
        }
        // The same game in English says what it says today.
        const auto inEnglish = runVivaref(dir, {"show", "--db", db, std::to_string(game)});
        CHECK(inEnglish.status == 0);
        CHECK(has(inEnglish.out, "Edition 2024, "));
        CHECK(has(inEnglish.out, "Why, favourite by favourite:"));
        CHECK(has(inEnglish.out, "The game is over. "));
    }
    // What each variant's story holds, in French.
    const auto royal = runVivaref(dir, {"show", "--db", db, "--lang", "fr", "1"}).out;
    CHECK(has(royal, "variante Couple royal"));
    CHECK(has(royal, "Ann garde la carte Ambition « "));
    CHECK(has(royal, "Joueur 4"));
    CHECK(has(royal, "  Bouffon commence à l’étage 3.\n"));
    const auto emissary = runVivaref(dir, {"show", "--db", db, "--lang", "fr", "2"}).out;
    CHECK(has(emissary, "l’Émissaire"));
    const auto compensation = runVivaref(dir, {"show", "--db", db, "--lang", "fr", "5"}).out;
    CHECK(has(compensation, "gagne 3 points (un seul personnage à placer)."));
    CHECK(has(compensation, "Compensation à la distribution : "));
}

TEST_CASE("show chooses its language: --lang, else LC_ALL, LC_MESSAGES, LANG, else English") {
    ScratchDir dir;
    const auto db = dir.file("games.sqlite").string();
    {
        GameStore log(dir.file("games.sqlite"), GameStore::Access::CreateIfMissing);
        writeRecordedGame(log, recordLines("2024-3-by-hand.jsonl"), {"Ann", "Bruno", "Cleo"});
    }
    struct Case {
        std::vector<std::string> locale;
        std::vector<std::string> options;
        std::string says;  // the first round's heading
    };
    const std::vector<Case> cases = {
        {{}, {}, "\nRound 1\n"},
        {{"LANG=fr_FR.UTF-8"}, {}, "\nManche 1\n"},
        {{"LANG=de_DE.UTF-8"}, {}, "\nRunde 1\n"},
        {{"LANG=it_IT.UTF-8"}, {}, "\nManche 1\n  Carte dei favoriti:\n"},
        {{"LANG=C.UTF-8"}, {}, "\nRound 1\n"},
        {{"LANG=es_ES.UTF-8"}, {}, "\nRound 1\n"},  // not shipped: English
        {{"LC_MESSAGES=de_AT.UTF-8", "LANG=fr_FR.UTF-8"}, {}, "\nRunde 1\n"},
        {{"LC_ALL=it_IT.UTF-8", "LC_MESSAGES=de_DE.UTF-8", "LANG=fr_FR.UTF-8"},
         {},
         "\nManche 1\n  Carte dei favoriti:\n"},
        {{"LC_ALL=C", "LANG=fr_FR.UTF-8"}, {}, "\nRound 1\n"},  // LC_ALL set decides
        {{"LANG=fr_FR.UTF-8"}, {"--lang", "de"}, "\nRunde 1\n"},
        {{"LC_ALL=de_DE.UTF-8"}, {"--lang", "en"}, "\nRound 1\n"},
        {{}, {"--lang", "it-CH"}, "\nManche 1\n  Carte dei favoriti:\n"},
    };
    for (const auto& c : cases) {
        std::vector<std::string> args = {"show", "--db", db};
        args.insert(args.end(), c.options.begin(), c.options.end());
        args.push_back("1");
        const auto told = runVivaref(dir, args, c.locale);
        INFO((c.locale.empty() ? std::string("no locale") : c.locale.front())
             << " " << (c.options.empty() ? "" : c.options[1]));
        CAPTURE(told.out);
        CHECK(told.status == 0);
        CHECK(has(told.out, c.says));
    }

    const auto refused = runVivaref(dir, {"show", "--db", db, "--lang", "es", "1"});
    CHECK(refused.status == 2);
    CHECK(refused.out.empty());
    CHECK(has(refused.err, "--lang es is not a language vivaref speaks; it speaks de, en, fr, it"));
}
