#include "daemon/referee/player_names.hpp"

#include <map>

#include "daemon/words/name_text.hpp"

namespace vivaref::referee {

namespace say = engine::say;
using engine::Message;
using Kind = record::PlayerNameIssue::Kind;

namespace {

engine::MessageValue playerNumber(std::size_t player) {
    return say::number(static_cast<std::int64_t>(player) + 1);
}

}  // namespace

Message playerNameMessage(std::size_t player, const record::PlayerNameIssue& issue) {
    const auto who = playerNumber(player);
    switch (issue.kind) {
        case Kind::Empty:
            return Message("name.empty", {{"player", who}});
        case Kind::NotUtf8:
            return Message("name.not-utf8", {{"player", who}});
        case Kind::Control:
            return Message("name.control", {{"player", who},
                                            {"character", say::text(record::codePointText(issue.codePoint))},
                                            {"at", say::number(static_cast<std::int64_t>(issue.at))}});
        case Kind::TooLong:
            return Message("name.too-long",
                           {{"player", who},
                            {"length", say::number(static_cast<std::int64_t>(issue.length))},
                            {"most", say::number(static_cast<std::int64_t>(record::kMaxPlayerNameLength))}});
    }
    return Message("name.empty", {{"player", who}});
}

std::optional<Message> playerNamesFormProblem(const std::vector<std::string>& names) {
    for (std::size_t p = 0; p < names.size(); ++p)
        if (auto issue = record::playerNameIssue(names[p])) return playerNameMessage(p, *issue);
    return std::nullopt;
}

std::optional<Message> newPlayerNamesProblem(const std::vector<std::string>& names) {
    if (auto problem = playerNamesFormProblem(names)) return problem;
    std::map<std::string, std::size_t> seen;
    for (std::size_t p = 0; p < names.size(); ++p) {
        const auto& name = names[p];
        if (const auto control = words::firstBidiControl(name))
            return Message("name.direction-control",
                           {{"player", playerNumber(p)},
                            {"character", say::text(record::codePointText(control->c))},
                            {"at", say::number(static_cast<std::int64_t>(control->at))}});
        if (!words::showsSomething(name)) return Message("name.invisible", {{"player", playerNumber(p)}});
        const auto [at, fresh] = seen.emplace(words::nameKey(name), p);
        if (!fresh)
            return Message("name.twice", {{"first", playerNumber(at->second)}, {"second", playerNumber(p)}});
    }
    return std::nullopt;
}

std::optional<Message> characterNameClash(const std::vector<std::string>& names,
                                          const engine::Roster& roster) {
    std::map<std::string, const engine::Character*> characterKeys;
    for (const auto& c : roster.characters()) {
        characterKeys.emplace(words::looseNameKey(c.id), &c);
        characterKeys.emplace(words::looseNameKey(c.name), &c);
        // "Dario l'Antiquario" is called Dario at the table; "The Jester" is not called The.
        if (c.kind == engine::CharacterKind::Jester) continue;
        const auto space = c.name.find(' ');
        if (space != std::string::npos)
            characterKeys.emplace(words::looseNameKey(c.name.substr(0, space)), &c);
    }
    for (const auto& name : names) {
        const auto found = characterKeys.find(words::looseNameKey(name));
        if (found == characterKeys.end() || found->first.empty()) continue;
        return Message("name.is-character",
                       {{"player", say::player(name)}, {"character", say::character(*found->second)}});
    }
    return std::nullopt;
}

}  // namespace vivaref::referee
