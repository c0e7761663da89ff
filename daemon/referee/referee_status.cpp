// What the screens and the LEDs show. The public status is built only from
// the engine's public view and the board (which every player sees anyway);
// a player's page adds that player's own view. Nothing here reads a hand, a
// favourites card, an Ambition card or a vote but through those views.
#include "daemon/referee/board_places.hpp"
#include "daemon/referee/led_decision.hpp"
#include "daemon/referee/referee_impl.hpp"
#include "engine/record/view_json.hpp"
#include "engine/views.hpp"

namespace vivaref::referee {

using engine::Phase;
using nlohmann::json;

namespace {

json placeOrNull(const std::optional<std::string>& place) { return place ? json(*place) : json(nullptr); }

json sightingJson(const Sighting& s) {
    switch (s.kind) {
        case Sighting::Kind::Absent:
            return nullptr;
        case Sighting::Kind::OnPlace:
            return json{{"on", s.place}, {"uncertain", s.uncertain}};
        case Sighting::Kind::InHand:
            return json{{"in_hand", true}, {"lifted_from", s.place.empty() ? json(nullptr) : json(s.place)}};
        case Sighting::Kind::Ambiguous:
            return json{{"unclear", s.candidates}};
    }
    return nullptr;
}

json seatList(const std::vector<engine::Seat>& seats) {
    json out = json::array();
    for (auto s : seats) out.push_back(s.index);
    return out;
}

}  // namespace

json Referee::Impl::publicStatus() const {
    json out{{"state", gameStatusName(status)},
             {"game", gameId ? json(gameId->value) : json(nullptr)},
             {"log",
              {{"kept", store != nullptr},
               {"durable", log.durable},
               {"problem", log.problem},
               {"waiting", log.waiting}}},
             {"readers",
              {{"faulty", faultyReaders},
               {"blind_places", faultyPlaces},
               {"unknown_tags", seen.unknownTags.size()}}}};
    if (!state) return out;
    const auto& rules = state->rules();
    const auto& roster = rules.roster();

    json seated = json::array();
    for (int p = 0; p < rules.players(); ++p) {
        const auto player = engine::PlayerId{static_cast<std::uint8_t>(p)};
        seated.push_back(json{{"player", p},
                              {"seat", rules.seatOf(player).index},
                              {"name", static_cast<std::size_t>(p) < players.size() ? players[p] : ""}});
    }
    out["players"] = std::move(seated);
    json characters = json::array();
    for (const auto& c : roster.characters())
        characters.push_back(
            json{{"id", c.id}, {"name", c.name}, {"kind", engine::characterKindName(c.kind)}});
    out["roster"] = std::move(characters);
    out["edition"] = engine::editionName(rules.edition());
    out["variant"] = engine::variantName(rules.variant());
    out["view"] = record::publicViewJson(engine::publicView(*state), rules);
    out["favourites_mode"] = favouritesModeName(favouritesMode);
    const auto need = revealNeeded();
    out["reveal"] = need ? json{{"round", need->round},
                                {"favourites", need->favourites},
                                {"ambitions", need->ambitions},
                                {"banished", rules.options().banished}}
                         : json(nullptr);
    // Cards already entered that the host may still correct.
    const auto correctable = need ? std::nullopt : correctableRound();
    out["reveal_correction"] = correctable && favouritesEntered.contains(*correctable)
                                   ? json{{"round", *correctable},
                                          {"ambitions", ambitionsEntered.contains(*correctable)},
                                          {"banished", rules.options().banished}}
                                   : json(nullptr);
    if (need && !history.empty()) {
        // The coronation was scored on placeholder cards: the scores stand as
        // they were before it, and no card is shown, until the real ones are in.
        auto before = record::publicViewJson(engine::publicView(history.back().before), rules);
        for (const char* key : {"totals", "finished_rounds", "emissary_total", "winners"})
            if (before.contains(key)) out["view"][key] = before[key];
        out["view"]["revealed_favourites"] = json::array();
    }

    // The board: what the engine expects and what the readers see.
    json expected = json::object();
    json seenJson = json::object();
    json inHand = json::array();
    for (int i = 0; i < roster.size(); ++i) {
        const auto c = engine::CharacterId{static_cast<std::uint8_t>(i)};
        expected[roster[c].id] = placeOrNull(boardPlace(state->placeOf(c)));
    }
    for (const auto& [slug, placed] : seen.onBoard)
        seenJson[slug.name] = sightingJson(sightingOf(seen, slug.name));
    for (const auto& [slug, hand] : seen.inHand) {
        seenJson[slug.name] = sightingJson(sightingOf(seen, slug.name));
        inHand.push_back(slug.name);
    }
    for (const auto& [slug, places] : seen.ambiguous)
        seenJson[slug.name] = sightingJson(sightingOf(seen, slug.name));
    out["board"] = json{{"expected", std::move(expected)}, {"seen", std::move(seenJson)}};
    json differences = json::array();
    for (const auto& d : comparison.differences)
        differences.push_back(json{
            {"character", d.character}, {"expected", placeOrNull(d.expected)}, {"seen", describe(d.seen)}});
    out["differences"] = std::move(differences);
    out["in_hand"] = std::move(inHand);

    json guidance = nullptr;
    if (guiding && !comparison.matches()) {
        json moves = json::array();
        std::string text;
        for (const auto& d : comparison.differences) {
            if (!guided.contains(d.character)) continue;  // a move made meanwhile: judged after
            const auto sentence = guidanceSentence(d);
            text += (text.empty() ? "" : "; ") + sentence;
            moves.push_back(json{{"character", d.character},
                                 {"to", placeOrNull(d.expected)},
                                 {"seen", describe(d.seen)},
                                 {"do", sentence}});
        }
        guidance = json{{"text", text}, {"moves", std::move(moves)}};
    }
    out["guidance"] = std::move(guidance);

    json refused = nullptr;
    if (refusal) {
        json restore = json::array();
        std::string steps;
        for (const auto& d : refusal->restore) {
            const auto sentence = restoreSentence(d);
            steps += (steps.empty() ? "" : "; ") + sentence;
            restore.push_back(
                json{{"character", d.character}, {"to", placeOrNull(d.expected)}, {"do", sentence}});
        }
        refused = json{{"code", refusal->code},
                       {"message", refusal->message},
                       {"text", refusal->message + " To go on: " + steps + "."},
                       {"restore", std::move(restore)}};
    }
    out["refusal"] = std::move(refused);

    json election = nullptr;
    if (state->phase() == Phase::Election) {
        json voted = json::array();
        for (int s = 0; s < rules.seats(); ++s)
            if (state->hasVoted(engine::Seat{static_cast<std::uint8_t>(s)})) voted.push_back(s);
        election = json{{"candidate", slug(state->candidate())},
                        {"crown_holder", state->crownHolder().index},
                        {"voted", std::move(voted)},
                        {"waiting", seatList(state->toAct())}};
    }
    out["election"] = std::move(election);
    out["last_action"] = lastAction;

    // What the referee waits for, in one sentence.
    std::string waiting;
    if (status == GameStatus::Paused) {
        waiting = "The game is paused.";
    } else if (need && status == GameStatus::Playing) {
        waiting = "The host to enter the revealed cards of round " + std::to_string(need->round) + ".";
    } else if (status == GameStatus::Finished) {
        waiting = "The game is over.";
    } else if (status == GameStatus::Abandoned) {
        waiting = "The game was abandoned.";
    } else if (guiding && !comparison.matches()) {
        waiting = "The board to be set as guided.";
    } else if (refusal) {
        waiting = refusal->strict ? "The board to be put back as shown."
                                  : "The character to be put back on the board.";
    } else if (!comparison.blindPlaces.empty()) {
        waiting = "A faulty reader to answer again.";
    } else if (failingHold() && !comparison.matches()) {
        waiting = "A reader that missed a scan to read again.";
    } else if (comparison.unsettled) {
        waiting = "A character in hand to be put down.";
    } else {
        switch (state->phase()) {
            case Phase::AwaitDeal:
                waiting = "The deal of round " + std::to_string(state->round()) + ".";
                break;
            case Phase::AwaitReshuffle:
                waiting = "The Emissary's pile to be shuffled.";
                break;
            case Phase::KeepAmbition:
                waiting = "Ambition cards to be kept.";
                break;
            case Phase::Placement:
                waiting = seatName(state->seatToAct()) + " to place a character.";
                break;
            case Phase::Ascent:
                waiting = seatName(state->seatToAct()) + " to move a character.";
                break;
            case Phase::Election:
                waiting = "Votes.";
                break;
            case Phase::GameOver:
                waiting = "The game is over.";
                break;
        }
    }
    out["waiting_for"] = waiting;
    return out;
}

json Referee::Impl::playerStatus(engine::PlayerId p) const {
    if (!state || p.index >= state->rules().players())
        return json{{"error", "no-such-player"}, {"message", "This game has no such player."}};
    const auto& rules = state->rules();
    json own = record::playerViewJson(engine::playerView(*state, p), rules);
    // Physical cards: the player holds them; the referee's are placeholders.
    if (physical())
        for (const char* key : {"favourites", "banished", "ambition_choices", "ambition"}) own.erase(key);
    // The seat's station's last private notice (e.g. a second key press, not counted).
    json stationNotice = nullptr;
    if (auto it = stationNotices.find(rules.seatOf(p).index); it != stationNotices.end()) {
        const Notice& n = it->second;
        stationNotice = json{{"kind", n.kind}, {"text", n.text}, {"at", n.at.count()}};
        if (n.detail.contains("code")) stationNotice["code"] = n.detail["code"];
    }
    return json{{"game", gameId ? json(gameId->value) : json(nullptr)},
                {"station_notice", std::move(stationNotice)},
                {"state", gameStatusName(status)},
                {"player", p.index},
                {"name", p.index < players.size() ? players[p.index] : ""},
                {"seat", rules.seatOf(p).index},
                {"favourites_mode", favouritesModeName(favouritesMode)},
                {"private", std::move(own)}};
}

drivers::LedStates Referee::Impl::leds(Timestamp at) const {
    LedFacts facts;
    facts.blindPlaces = faultyPlaces;
    if (state && (status == GameStatus::Playing || status == GameStatus::Paused)) {
        if (guiding || refusal) {
            for (const auto& d : comparison.differences) {
                if (!refusal && !guided.contains(d.character)) continue;
                if (d.expected) facts.blinkPlaces.insert(*d.expected);
                if (d.seen.kind == Sighting::Kind::OnPlace) facts.blinkPlaces.insert(d.seen.place);
                for (const auto& c : d.seen.candidates) facts.blinkPlaces.insert(c);
            }
        }
        if (flashPlace) {
            facts.flashPlace = flashPlace;
            facts.flashUntil = flashUntil;
        }
        const auto phase = state->phase();
        for (auto s : state->toAct()) {
            if (phase == Phase::Election)
                facts.votingSeats.push_back(s.index);
            else
                facts.turnSeats.push_back(s.index);
        }
        facts.stationBlinkUntil = stationBlinkUntil;
        facts.paused = status == GameStatus::Paused;
    }
    return decideLeds(facts, at);
}

}  // namespace vivaref::referee
