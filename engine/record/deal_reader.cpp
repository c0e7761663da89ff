#include "engine/record/deal_reader.hpp"

#include "engine/record/field_reader.hpp"

namespace vivaref::record {

using engine::RefusalCode;
using nlohmann::json;

namespace {

engine::CharacterId character(FieldReader& in, const json* value, std::string_view what,
                              const engine::Roster& roster) {
    std::string slug = in.text(value, what);
    return in.ok() ? roster.find(slug) : engine::CharacterId{};
}

// A Favourites card: exactly six character slugs.
engine::FavouritesCard favouritesCard(FieldReader& in, const json* value, std::string_view what,
                                      const engine::Roster& roster) {
    engine::FavouritesCard card;
    const auto* slugs = in.list(value, what);
    if (!slugs) return card;
    if (slugs->size() != static_cast<std::size_t>(engine::kFavouritesPerCard)) {
        in.fail(std::string(what) + " must list exactly 6 characters.");
        return card;
    }
    for (int i = 0; i < engine::kFavouritesPerCard; ++i)
        card.characters[i] = character(in, &(*slugs)[i], what, roster);
    return card;
}

void readFavourites(FieldReader& in, const json* value, const engine::Roster& roster, engine::Deal& deal) {
    const auto* cards = in.list(value, "\"favourites\"");
    if (!cards) return;
    for (const json& card : *cards)
        deal.favourites.push_back(favouritesCard(in, &card, "Each Favourites card", roster));
}

void readBanished(FieldReader& in, const json* value, const engine::Roster& roster, engine::Deal& deal) {
    const auto* seals = in.list(value, "\"banished\"");
    if (!seals) return;
    if (seals->size() != deal.favourites.size()) {
        in.fail("\"banished\" must name one character per Favourites card.");
        return;
    }
    for (std::size_t i = 0; i < seals->size(); ++i)
        deal.favourites[i].banished = character(in, &(*seals)[i], "A banished character", roster);
}

void readAmbitions(FieldReader& in, const json* value, engine::Deal& deal) {
    const auto* pairs = in.list(value, "\"ambitions\"");
    if (!pairs) return;
    for (const json& pair : *pairs) {
        const auto* cards = in.list(&pair, "Each player's Ambition cards");
        if (!cards) return;
        if (cards->size() != 2) {
            in.fail("Each player draws exactly 2 Ambition cards.");
            return;
        }
        auto& out = deal.ambitions.emplace_back();
        for (int i = 0; i < 2; ++i)
            out[i] = engine::parseAmbitionCard(in.text(&(*cards)[i], "An Ambition card"));
    }
}

std::vector<engine::VoteCard> readPile(FieldReader& in, const json* value) {
    std::vector<engine::VoteCard> pile;
    const auto* cards = in.list(value, "\"pile\"");
    if (!cards) return pile;
    for (const json& card : *cards) pile.push_back(engine::parseVoteCard(in.text(&card, "A pile card")));
    return pile;
}

void readEmissary(FieldReader& in, const json& value, const engine::Rules& rules, engine::Deal& deal) {
    const json* fields = in.object(value, "\"emissary\"", {"favourites", "pile", "banished"});
    engine::EmissaryDeal emissary;
    emissary.favourites = favouritesCard(in, in.required(fields, "favourites"),
                                         "The Emissary's Favourites card", rules.roster());
    emissary.pile = readPile(in, in.required(fields, "pile"));
    if (const json* banished = FieldReader::optional(fields, "banished")) {
        if (!rules.options().banished)
            in.notInPlay("emissary.banished", "the Banished option is not in play");
        emissary.favourites.banished =
            character(in, banished, "The Emissary's banished character", rules.roster());
    }
    deal.emissary = std::move(emissary);
}

// The online preset's placement: every character's starting place, by slug.
void readPlacement(FieldReader& in, const json& value, const engine::Roster& roster, engine::Deal& deal) {
    if (!value.is_object()) {
        in.fail("\"placement\" must be an object from character to place.");
        return;
    }
    // A character the placement leaves out stays beside the board, which
    // the engine refuses as a deal that does not place everyone.
    deal.placement.assign(static_cast<std::size_t>(roster.size()), engine::Place::Reserve);
    for (const auto& [slug, place] : value.items()) {
        engine::CharacterId c = roster.find(slug);
        if (c.index == engine::kInvalidIndex) {
            in.fail("\"placement\" names " + messageQuote(slug) + ", who is not in this game's roster.");
            return;
        }
        deal.placement[c.index] = engine::parsePlace(in.text(&place, "A place in \"placement\""));
    }
}

}  // namespace

std::variant<engine::Deal, engine::Refusal> readDeal(const json& payload, const engine::Rules& rules) {
    FieldReader in(RefusalCode::BadDeal, "deal");
    engine::Deal deal;
    const json* fields = in.object(payload, "The deal line",
                                   {"round", "favourites", "banished", "ambitions", "emissary", "placement"});
    deal.round = in.integer(in.required(fields, "round"), "\"round\"");
    readFavourites(in, in.required(fields, "favourites"), rules.roster(), deal);

    if (const json* banished = FieldReader::optional(fields, "banished")) {
        if (!rules.options().banished) in.notInPlay("banished", "the Banished option is not in play");
        readBanished(in, banished, rules.roster(), deal);
    }
    if (const json* ambitions = FieldReader::optional(fields, "ambitions")) {
        if (!rules.options().ambition) in.notInPlay("ambitions", "the Ambition option is not in play");
        readAmbitions(in, ambitions, deal);
    }
    if (const json* emissary = FieldReader::optional(fields, "emissary")) {
        if (!rules.hasEmissary()) in.notInPlay("emissary", "the Emissary variant is not in play");
        if (in.ok()) readEmissary(in, *emissary, rules, deal);
    }
    if (const json* placement = FieldReader::optional(fields, "placement")) {
        if (rules.edition() != engine::Edition::Online)
            in.notInPlay("placement", "only the online preset starts from a placement");
        if (in.ok()) readPlacement(in, *placement, rules.roster(), deal);
    }
    if (!in.ok()) return *in.refusal();
    return deal;
}

}  // namespace vivaref::record
