// Reads each unjudged game back as a GameUpload, checks it with the engine
// (gameMismatch) and records the verdict with club.judge_game.
#include "daemon/club/game_judge.hpp"

#include <pqxx/pqxx>

#include "daemon/club/club_connection.hpp"
#include "daemon/club/game_check.hpp"

namespace vivaref::club {

namespace {

GameUpload pushedGame(pqxx::transaction_base& tx, const std::string& uid) {
    const auto row = tx.exec_params1(
        "SELECT t.name, g.local_id, g.edition, g.complete, g.abandoned, g.record FROM club.games g "
        "JOIN club.club_tables t ON t.id = g.table_id WHERE g.uid = $1",
        uid);
    GameUpload game;
    game.uid = uid;
    game.table = row[0].as<std::string>();
    game.localId = row[1].as<std::int64_t>();
    game.edition = row[2].as<std::string>();
    game.complete = row[3].as<bool>();
    game.abandoned = row[4].as<bool>();
    game.record = row[5].as<std::string>();
    for (const auto& p : tx.exec_params("SELECT player, seat, name, score, winner FROM club.game_players "
                                        "WHERE game_uid = $1 ORDER BY player",
                                        uid)) {
        SeatUpload seat;
        seat.player = p[0].as<int>();
        seat.seat = p[1].as<int>();
        seat.name = p[2].as<std::string>();
        if (!p[3].is_null()) seat.score = p[3].as<int>();
        seat.winner = p[4].as<bool>();
        game.seats.push_back(std::move(seat));
    }
    return game;
}

}  // namespace

std::vector<Judgement> judgeWaitingGames(pqxx::connection& conn) {
    std::vector<Judgement> out;
    try {
        std::vector<std::string> waiting;
        {
            pqxx::read_transaction tx(conn);
            for (const auto& row :
                 tx.exec("SELECT uid FROM club.games WHERE verdict IS NULL ORDER BY pushed_seq"))
                waiting.push_back(row[0].as<std::string>());
        }
        for (const auto& uid : waiting) {
            pqxx::work tx(conn);
            const auto game = pushedGame(tx, uid);
            Judgement j{uid, game.table, game.localId, gameMismatch(game)};
            const bool judged = tx.exec_params1("SELECT club.judge_game($1, $2, NULLIF($3, ''))", uid,
                                                !j.mismatch, j.mismatch ? *j.mismatch : std::string())[0]
                                    .as<bool>();
            tx.commit();
            if (judged) out.push_back(std::move(j));  // another admin may have judged it meanwhile
        }
    } catch (...) {
        rethrowAsClubError("judging the pushed games");
    }
    return out;
}

std::vector<Judgement> mismatchedGames(pqxx::connection& conn) {
    std::vector<Judgement> out;
    try {
        pqxx::read_transaction tx(conn);
        for (const auto& row : tx.exec(
                 "SELECT g.uid, t.name, g.local_id, g.verdict_note FROM club.games g JOIN club.club_tables t "
                 "ON t.id = g.table_id WHERE g.verdict = 'mismatch' ORDER BY g.pushed_seq"))
            out.push_back(Judgement{row[0].as<std::string>(), row[1].as<std::string>(),
                                    row[2].as<std::int64_t>(),
                                    row[3].is_null() ? std::string() : row[3].as<std::string>()});
    } catch (...) {
        rethrowAsClubError("reading the games left out");
    }
    return out;
}

bool mayJudge(pqxx::connection& conn) {
    try {
        pqxx::read_transaction tx(conn);
        return tx
            .exec1(
                "SELECT CASE WHEN to_regprocedure('club.judge_game(text,boolean,text)') IS NULL THEN false "
                "ELSE has_function_privilege('club.judge_game(text,boolean,text)', 'EXECUTE') END")[0]
            .as<bool>();
    } catch (...) {
        rethrowAsClubError("reading the club's schema");
    }
}

std::string mismatchSentence(const Judgement& j) {
    return "game " + j.uid + " (table " + j.table + ", its game " + std::to_string(j.localId) +
           ") is left out of the standings: " +
           (j.mismatch ? *j.mismatch : std::string("it does not replay"));
}

}  // namespace vivaref::club
