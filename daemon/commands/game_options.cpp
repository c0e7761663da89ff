#include "daemon/commands/game_options.hpp"

#include "daemon/words/words.hpp"

namespace vivaref::daemon {

namespace po = boost::program_options;

void addGameOptions(po::options_description& options, GameOptions& game) {
    options.add_options()("edition", po::value(&game.edition)->default_value(game.edition),
                          "classic, online or 2024")(
        "seats", po::value(&game.seats)->default_value(game.seats), "number of seats (a team is one seat)")(
        "ambition", po::bool_switch(&game.ambition), "2024: the Ambition option")(
        "banished", po::bool_switch(&game.banished), "2024: the Banished option")(
        "variant", po::value(&game.variant)->default_value(game.variant),
        "2024: none, emissary, royal-couple, teams or team-pawn")(
        "seed", po::value(&game.seed)->default_value(game.seed), "seed of the random generator");
}

std::optional<engine::RulesSpec> rulesSpecFor(const GameOptions& game, std::string& error) {
    engine::RulesSpec spec;
    auto edition = engine::parseEdition(game.edition);
    if (!edition) {
        error = "unknown edition '" + game.edition + "' (classic, online or 2024)";
        return std::nullopt;
    }
    auto variant = engine::parseVariant(game.variant);
    if (!variant) {
        error = "unknown variant '" + game.variant + "' (none, emissary, royal-couple, teams or team-pawn)";
        return std::nullopt;
    }
    spec.edition = *edition;
    spec.seats = game.seats;
    spec.options = {.ambition = game.ambition, .banished = game.banished};
    spec.variant = *variant;
    if (spec.variant == engine::Variant::Teams || spec.variant == engine::Variant::TeamPawn)
        for (int s = 0; s < game.seats && s < engine::kMaxSeats; ++s)
            spec.teams.push_back({2 * s, 2 * s + 1});
    if (auto refusal = engine::Rules::validate(spec)) {
        error = words::inEnglish(refusal->message);
        return std::nullopt;
    }
    return spec;
}

}  // namespace vivaref::daemon
