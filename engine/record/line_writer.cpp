#include "engine/record/line_writer.hpp"

namespace vivaref::record {

using engine::ActionKind;
using nlohmann::ordered_json;

namespace {

// An id the roster does not know (only an invalid value can be one) is
// written as an empty slug, which reads back as the same invalid id.
std::string slug(engine::CharacterId c, const engine::Roster& roster) {
    if (c.index >= roster.size()) return {};
    return roster[c].id;
}

// An invalid seat or player index reads back invalid when written as -1.
int indexValue(std::uint8_t index) { return index == engine::kInvalidIndex ? -1 : index; }

ordered_json cardJson(const engine::FavouritesCard& card, const engine::Roster& roster) {
    ordered_json names = ordered_json::array();
    for (auto c : card.characters) names.push_back(slug(c, roster));
    return names;
}

ordered_json pileJson(const std::vector<engine::VoteCard>& pile) {
    ordered_json cards = ordered_json::array();
    for (auto c : pile) cards.push_back(engine::voteCardName(c));
    return cards;
}

std::string line(std::string_view kind, ordered_json payload) {
    ordered_json out;
    out[std::string(kind)] = std::move(payload);
    return out.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

}  // namespace

ordered_json setupJson(const engine::RulesSpec& spec) {
    ordered_json out;
    out["edition"] = engine::editionName(spec.edition);
    out["seats"] = spec.seats;
    if (spec.rounds) out["rounds"] = *spec.rounds;
    out["first"] = spec.first;
    if (spec.options.ambition || spec.options.banished) {
        ordered_json options = ordered_json::object();
        if (spec.options.ambition) options["ambition"] = true;
        if (spec.options.banished) options["banished"] = true;
        out["options"] = std::move(options);
    }
    if (spec.variant != engine::Variant::None) out["variant"] = engine::variantName(spec.variant);
    if (!spec.teams.empty()) out["teams"] = spec.teams;
    if (spec.roster) {
        ordered_json roster = ordered_json::array();
        for (const auto& c : spec.roster->characters())
            roster.push_back({{"id", c.id}, {"name", c.name}, {"kind", engine::characterKindName(c.kind)}});
        out["roster"] = std::move(roster);
    }
    return out;
}

ordered_json dealJson(const engine::Deal& deal, const engine::Rules& rules) {
    const auto& roster = rules.roster();
    ordered_json out;
    out["round"] = deal.round;
    ordered_json favourites = ordered_json::array();
    ordered_json banished = ordered_json::array();
    bool anyBanished = false;
    for (const auto& card : deal.favourites) {
        favourites.push_back(cardJson(card, roster));
        banished.push_back(card.banished ? slug(*card.banished, roster) : std::string());
        anyBanished = anyBanished || card.banished.has_value();
    }
    out["favourites"] = std::move(favourites);
    if (anyBanished) out["banished"] = std::move(banished);
    if (!deal.ambitions.empty()) {
        ordered_json ambitions = ordered_json::array();
        for (const auto& pair : deal.ambitions)
            ambitions.push_back({engine::ambitionCardName(pair[0]), engine::ambitionCardName(pair[1])});
        out["ambitions"] = std::move(ambitions);
    }
    if (deal.emissary) {
        ordered_json emissary;
        emissary["favourites"] = cardJson(deal.emissary->favourites, roster);
        emissary["pile"] = pileJson(deal.emissary->pile);
        if (deal.emissary->favourites.banished)
            emissary["banished"] = slug(*deal.emissary->favourites.banished, roster);
        out["emissary"] = std::move(emissary);
    }
    if (!deal.placement.empty()) {
        ordered_json placement = ordered_json::object();
        // A character left beside the board is left out, as the reader expects.
        for (std::size_t i = 0; i < deal.placement.size() && i < static_cast<std::size_t>(roster.size()); ++i)
            if (deal.placement[i] != engine::Place::Reserve)
                placement[slug(engine::CharacterId{static_cast<std::uint8_t>(i)}, roster)] =
                    engine::placeName(deal.placement[i]);
        out["placement"] = std::move(placement);
    }
    return out;
}

ordered_json actionJson(const engine::Action& a, const engine::Rules& rules) {
    ordered_json out;
    switch (a.kind()) {
        case ActionKind::Keep:
            out["player"] = indexValue(a.player().index);
            out["ambition"] = engine::ambitionCardName(a.ambition());
            break;
        case ActionKind::Place:
        case ActionKind::Move:
            out["seat"] = indexValue(a.seat().index);
            out["character"] = slug(a.character(), rules.roster());
            out["to"] = engine::placeName(a.to());
            break;
        case ActionKind::Vote:
            out["seat"] = indexValue(a.seat().index);
            out["card"] = engine::voteCardName(a.card());
            break;
        case ActionKind::Pass:
            out["seat"] = indexValue(a.seat().index);
            break;
    }
    return out;
}

std::string writeSetup(const engine::RulesSpec& spec) { return line("setup", setupJson(spec)); }

std::string writeDeal(const engine::Deal& deal, const engine::Rules& rules) {
    return line("deal", dealJson(deal, rules));
}

std::string writeAction(const engine::Action& action, const engine::Rules& rules) {
    constexpr std::string_view kKinds[] = {"keep", "place", "move", "vote", "pass"};
    return line(kKinds[static_cast<int>(action.kind())], actionJson(action, rules));
}

std::string writeReshuffle(const engine::Reshuffle& reshuffle) {
    ordered_json out;
    out["pile"] = pileJson(reshuffle.pile);
    return line("reshuffle", std::move(out));
}

std::string writeDecision(const engine::Decision& decision, const engine::Rules& rules) {
    if (const auto* action = std::get_if<engine::Action>(&decision)) return writeAction(*action, rules);
    if (const auto* deal = std::get_if<engine::Deal>(&decision)) return writeDeal(*deal, rules);
    return writeReshuffle(std::get<engine::Reshuffle>(decision));
}

}  // namespace vivaref::record
