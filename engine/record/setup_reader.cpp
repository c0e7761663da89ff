#include "engine/record/setup_reader.hpp"

#include "engine/record/field_reader.hpp"

namespace vivaref::record {

using engine::RefusalCode;
using nlohmann::json;

namespace {

void readTeams(FieldReader& in, const json* value, engine::RulesSpec& spec) {
    const auto* seats = in.list(value, "\"teams\"");
    if (!seats) return;
    for (const json& seat : *seats) {
        const auto* players = in.list(&seat, "Each seat of \"teams\"");
        if (!players) return;
        auto& out = spec.teams.emplace_back();
        for (const json& player : *players) out.push_back(in.integer(&player, "A player in \"teams\""));
    }
}

void readRoster(FieldReader& in, const json* value, engine::RulesSpec& spec) {
    const auto* entries = in.list(value, "\"roster\"");
    if (!entries) return;
    std::vector<engine::Character> characters;
    for (const json& entry : *entries) {
        const json* fields = in.object(entry, "A roster entry", {"id", "name", "kind"});
        engine::Character c;
        c.id = in.text(in.required(fields, "id"), "A roster entry's \"id\"");
        c.name = in.text(in.required(fields, "name"), "A roster entry's \"name\"");
        std::string kind = in.text(in.required(fields, "kind"), "A roster entry's \"kind\"");
        if (!in.ok()) return;
        auto parsed = engine::parseCharacterKind(kind);
        if (!parsed) {
            in.fail("The roster entry " + messageQuote(c.id) +
                    " has an unknown kind (woman, man, dog or jester).");
            return;
        }
        c.kind = *parsed;
        characters.push_back(std::move(c));
    }
    spec.roster = engine::Roster(std::move(characters));
}

}  // namespace

std::variant<engine::RulesSpec, engine::Refusal> readSetup(const json& payload) {
    FieldReader in(RefusalCode::BadSetup, "setup");
    engine::RulesSpec spec;
    const json* fields =
        in.object(payload, "The setup line",
                  {"edition", "seats", "rounds", "first", "options", "variant", "teams", "roster"});
    std::string edition = in.text(in.required(fields, "edition"), "\"edition\"");
    spec.seats = in.integer(in.required(fields, "seats"), "\"seats\"");
    if (const json* rounds = FieldReader::optional(fields, "rounds"))
        spec.rounds = in.integer(rounds, "\"rounds\"");
    if (const json* first = FieldReader::optional(fields, "first"))
        spec.first = in.integer(first, "\"first\"");
    if (!in.ok()) return *in.refusal();

    if (auto e = engine::parseEdition(edition))
        spec.edition = *e;
    else
        return engine::Refusal{RefusalCode::BadSetup, engine::Message("record.edition")};

    if (const json* options = FieldReader::optional(fields, "options")) {
        if (spec.edition != engine::Edition::Vive2024)
            in.notInPlay("options", "options belong to the 2024 edition");
        const json* flags = in.object(*options, "\"options\"", {"ambition", "banished"});
        spec.options.ambition = in.flag(FieldReader::optional(flags, "ambition"), "\"ambition\"");
        spec.options.banished = in.flag(FieldReader::optional(flags, "banished"), "\"banished\"");
    }
    if (const json* variant = FieldReader::optional(fields, "variant")) {
        std::string name = in.text(variant, "\"variant\"");
        if (!in.ok()) return *in.refusal();
        if (auto v = engine::parseVariant(name))
            spec.variant = *v;
        else
            in.fail("The variant must be none, emissary, royal-couple, teams or team-pawn.");
    }
    if (const json* teams = FieldReader::optional(fields, "teams")) {
        if (spec.variant != engine::Variant::Teams && spec.variant != engine::Variant::TeamPawn)
            in.notInPlay("teams", "the variant is neither teams nor team-pawn");
        readTeams(in, teams, spec);
    }
    if (const json* roster = FieldReader::optional(fields, "roster")) readRoster(in, roster, spec);

    if (!in.ok()) return *in.refusal();
    return spec;
}

}  // namespace vivaref::record
