#include "engine/record/line_reader.hpp"

#include <algorithm>
#include <array>

#include "engine/record/deal_reader.hpp"
#include "engine/record/field_reader.hpp"
#include "engine/record/setup_reader.hpp"
#include "engine/record/strict_json.hpp"

namespace vivaref::record {

using engine::Action;
using engine::RefusalCode;
using engine::Rules;
using nlohmann::json;

namespace {

constexpr std::array<std::string_view, 8> kLineKinds = {"setup", "deal", "keep", "place",
                                                        "move",  "vote", "pass", "reshuffle"};

LineRead refused(RefusalCode code, std::string message) {
    return LineRead{std::nullopt, engine::Refusal{code, engine::formatProblem(std::move(message))}};
}

LineRead fromReader(FieldReader& in, RecordLine line) {
    if (!in.ok()) return LineRead{std::nullopt, in.refusal()};
    return LineRead{std::move(line), std::nullopt};
}

engine::Seat seat(FieldReader& in, const json* fields) {
    return engine::Seat{in.index(in.required(fields, "seat"), "\"seat\"")};
}

engine::CharacterId character(FieldReader& in, const json* fields, const Rules& rules) {
    std::string slug = in.text(in.required(fields, "character"), "\"character\"");
    return in.ok() ? rules.roster().find(slug) : engine::CharacterId{};
}

engine::Place destination(FieldReader& in, const json* fields) {
    return engine::parsePlace(in.text(in.required(fields, "to"), "\"to\""));
}

LineRead readAction(std::string_view kind, const json& payload, const Rules& rules) {
    FieldReader in(RefusalCode::BadRecord, std::string(kind));
    if (kind == "keep") {
        if (!rules.options().ambition)
            return refused(RefusalCode::BadRecord,
                           "A keep line needs the Ambition option, which is not in play.");
        const json* fields = in.object(payload, "The keep line", {"player", "ambition"});
        engine::PlayerId player{in.index(in.required(fields, "player"), "\"player\"")};
        auto card = engine::parseAmbitionCard(in.text(in.required(fields, "ambition"), "\"ambition\""));
        return fromReader(in, Action::keep(player, card));
    }
    if (kind == "place" || kind == "move") {
        const json* fields = in.object(payload, kind == "place" ? "The place line" : "The move line",
                                       {"seat", "character", "to"});
        engine::Seat s = seat(in, fields);
        engine::CharacterId c = character(in, fields, rules);
        engine::Place to = destination(in, fields);
        return fromReader(in, kind == "place" ? Action::place(s, c, to) : Action::move(s, c, to));
    }
    if (kind == "vote") {
        const json* fields = in.object(payload, "The vote line", {"seat", "card"});
        engine::Seat s = seat(in, fields);
        auto card = engine::parseVoteCard(in.text(in.required(fields, "card"), "\"card\""));
        return fromReader(in, Action::vote(s, card));
    }
    const json* fields = in.object(payload, "The pass line", {"seat"});
    engine::Seat s = seat(in, fields);
    return fromReader(in, Action::pass(s));
}

LineRead readReshuffle(const json& payload, const Rules& rules) {
    if (!rules.hasEmissary())
        return refused(RefusalCode::BadRecord,
                       "A reshuffle line needs the Emissary variant, which is not in play.");
    FieldReader in(RefusalCode::BadRecord, "reshuffle");
    const json* fields = in.object(payload, "The reshuffle line", {"pile"});
    engine::Reshuffle reshuffle;
    if (const auto* cards = in.list(in.required(fields, "pile"), "\"pile\""))
        for (const json& card : *cards)
            reshuffle.pile.push_back(engine::parseVoteCard(in.text(&card, "A pile card")));
    return fromReader(in, std::move(reshuffle));
}

template <class T>
LineRead fromVariant(std::variant<T, engine::Refusal>&& read) {
    if (auto* refusal = std::get_if<engine::Refusal>(&read))
        return LineRead{std::nullopt, std::move(*refusal)};
    return LineRead{RecordLine{std::move(std::get<T>(read))}, std::nullopt};
}

}  // namespace

bool isBlankLine(std::string_view text) {
    return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

LineRead readLine(std::string_view text, const Rules* rules) {
    StrictJson parsed = parseStrictJson(text);
    if (!parsed.value) {
        // A duplicate inside a setup's or deal's payload is that line's error.
        RefusalCode code = RefusalCode::BadRecord;
        if (parsed.duplicateInsideValue && parsed.firstKey == "setup") code = RefusalCode::BadSetup;
        if (parsed.duplicateInsideValue && parsed.firstKey == "deal") code = RefusalCode::BadDeal;
        return refused(code, std::move(parsed.error));
    }
    const json& line = *parsed.value;
    if (!line.is_object() || line.size() != 1)
        return refused(RefusalCode::BadRecord, "A record line is an object with exactly one key, its kind.");
    const std::string& kind = line.begin().key();
    const json& payload = line.begin().value();
    if (std::find(kLineKinds.begin(), kLineKinds.end(), kind) == kLineKinds.end())
        return refused(RefusalCode::BadRecord,
                       "A record line cannot be " + messageQuote(kind) +
                           ": setup, deal, keep, place, move, vote, pass or reshuffle.");
    if (kind == "setup") return fromVariant(readSetup(payload));
    if (!rules) return refused(RefusalCode::BadRecord, "A record begins with its setup line.");
    if (kind == "deal") return fromVariant(readDeal(payload, *rules));
    if (kind == "reshuffle") return readReshuffle(payload, *rules);
    return readAction(kind, payload, *rules);
}

}  // namespace vivaref::record
