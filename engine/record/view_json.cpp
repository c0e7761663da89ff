#include "engine/record/view_json.hpp"

namespace vivaref::record {

using nlohmann::json;

namespace {

json slugOf(engine::CharacterId c, const engine::Roster& roster) {
    if (c.index >= roster.size()) return nullptr;
    return roster[c].id;
}

json cardJson(const engine::FavouritesCard& card, const engine::Roster& roster) {
    json names = json::array();
    for (auto c : card.characters) names.push_back(slugOf(c, roster));
    json out{{"favourites", std::move(names)}};
    if (card.banished) out["banished"] = slugOf(*card.banished, roster);
    return out;
}

json revealJson(const engine::Reveal& r, const engine::Rules& rules) {
    json votes = json::array();
    for (int s = 0; s < rules.seats(); ++s) votes.push_back(engine::voteCardName(r.votes[s]));
    json out{{"candidate", slugOf(r.candidate, rules.roster())},
             {"crown", r.crown.index},
             {"votes", std::move(votes)},
             {"outcome", engine::electionOutcomeName(r.outcome)},
             {"sent_to", engine::placeName(r.sentTo)}};
    if (r.emissaryVote) {
        out["emissary_vote"] = engine::voteCardName(*r.emissaryVote);
        out["emissary_drew"] = r.emissaryDrew;
    }
    return out;
}

json roundJson(const engine::RoundResult& r, const engine::Rules& rules) {
    json kings = json::array();
    for (auto c : r.kings) kings.push_back(slugOf(c, rules.roster()));
    json out{{"round", r.round}, {"kings", std::move(kings)}, {"crown", r.crown.index}, {"scores", r.scores}};
    if (rules.hasEmissary()) out["emissary_score"] = r.emissaryScore;
    return out;
}

}  // namespace

json publicViewJson(const engine::PublicView& v, const engine::Rules& rules) {
    const auto& roster = rules.roster();
    json positions = json::object();
    for (int i = 0; i < v.characters && i < roster.size(); ++i)
        positions[roster[engine::CharacterId{static_cast<std::uint8_t>(i)}].id] =
            engine::placeName(v.positions[i]);
    json toAct = json::array();
    for (auto s : v.toAct) toAct.push_back(s.index);
    json out{{"phase", engine::phaseName(v.phase)},
             {"round", v.round},
             {"rounds", v.rounds},
             {"first_player", v.firstPlayer.index},
             {"to_act", std::move(toAct)},
             {"positions", std::move(positions)},
             {"voted", v.voted},
             {"totals", v.totals}};
    if (v.candidate) out["candidate"] = slugOf(*v.candidate, roster);
    if (v.crownHolder) out["crown_holder"] = v.crownHolder->index;
    if (v.lastReveal) out["last_reveal"] = revealJson(*v.lastReveal, rules);
    if (v.emissaryTotal) out["emissary_total"] = *v.emissaryTotal;
    if (v.emissaryFavourites) out["emissary_favourites"] = cardJson(*v.emissaryFavourites, roster);
    json revealed = json::array();
    for (const auto& card : v.revealedFavourites) revealed.push_back(cardJson(card, roster));
    out["revealed_favourites"] = std::move(revealed);
    json rounds = json::array();
    for (const auto& r : v.finishedRounds) rounds.push_back(roundJson(r, rules));
    out["finished_rounds"] = std::move(rounds);
    json winners = json::array();
    for (auto p : v.winners) winners.push_back(p.index);
    out["winners"] = std::move(winners);
    return out;
}

json playerViewJson(const engine::PlayerView& v, const engine::Rules& rules) {
    json hand{{"yes", v.hand.yes}, {"no", v.hand.no}};
    if (rules.is2024()) hand["stomachache"] = v.hand.stomachache;
    json out{{"player", v.player.index}, {"seat", v.seat.index}, {"hand", std::move(hand)}};
    json card = cardJson(v.favourites, rules.roster());
    out["favourites"] = std::move(card["favourites"]);
    if (card.contains("banished")) out["banished"] = std::move(card["banished"]);
    json choices = json::array();
    for (auto c : v.ambitionChoices) choices.push_back(engine::ambitionCardName(c));
    out["ambition_choices"] = std::move(choices);
    if (v.ambition) out["ambition"] = engine::ambitionCardName(*v.ambition);
    if (v.ownVote) out["own_vote"] = engine::voteCardName(*v.ownVote);
    return out;
}

}  // namespace vivaref::record
